# SPDX-License-Identifier: Apache-2.0
"""Pineda contract: the one definition of every packet, constant and register index.

`contracts/gen.py` turns this file into
  rtl/common/pineda_pkg.sv            (SystemVerilog package: typedefs + constants)
  cpp_model/common/pineda_contract.h  (C++ structs with pack/unpack/diff + constants)
  docs/generated/contract.md          (tables for the docs)
The generated files are committed; `make test` regenerates them and fails if they differ.

Packed-struct convention (SystemVerilog): the first field listed is the most significant.
A field is (name, width, kind, doc) where kind is 'u' (unsigned), 's' (two's complement signed)
or the name of a struct defined earlier; a struct field may carry a count (packed array, element
0 at the least significant end).

Every table is a list of named records (the NamedTuple classes below), except BOUNDARIES.
"""
from typing import NamedTuple, Optional, Tuple, Union


class Const(NamedTuple):
    """A constant. `sv_width` > 0 makes it a typed `logic [sv_width-1:0]` localparam in SV."""
    name: str
    value: int
    doc: str
    sv_width: int = 0


class BitField(NamedTuple):
    """Bits [msb:lsb] of a register or header field; generates NAME_MSB/NAME_LSB (NAME_BIT if one bit)."""
    name: str
    msb: int
    lsb: int
    doc: str = ""


class Opcode(NamedTuple):
    """A command opcode; `length` is the payload length in dwords (None: any)."""
    name: str
    value: int
    length: Optional[int]
    doc: str
    args: Tuple[BitField, ...] = ()  # fields of the header's arg


class StateReg(NamedTuple):
    """A SET_STATE register (draw state or front-end state); `count` > 1 is a block of registers,
    with `reset` a tuple of `count` values."""
    name: str
    index: int
    reset: Union[int, Tuple[int, ...]]
    doc: str
    fields: Tuple[BitField, ...] = ()
    count: int = 1
    type: str = ""  # the SV type of its value (a register struct below; "": logic [31:0])


class HostReg(NamedTuple):
    name: str
    addr: int
    access: str  # RO, RW, W1C
    reset: int
    doc: str


class Bit(NamedTuple):
    name: str
    bit: int


class ErrorCause(NamedTuple):
    name: str
    value: int
    doc: str


class MemClient(NamedTuple):
    name: str
    id: int
    writes: bool = False  # the client writes memory; the others' we, wdata and be are ignored


class Field(NamedTuple):
    """A struct field: `width` bits of kind 'u'/'s', or `width` elements of the struct `kind`."""
    name: str
    width: int
    kind: str
    doc: str


class Struct(NamedTuple):
    name: str   # SV type name
    cname: str  # C++ type name
    doc: str
    fields: Tuple[Field, ...]


# ----------------------------------------------------------------------------- constants
# Values are ints; sv_width is given where SV wants a typed constant (compared with a field).
CONTRACT_VERSION = 17  # bumped whenever any packet, encoding or register changes
FP32_ONE = 0x3F800000
CONSTANTS = [
    Const("CONTRACT_VERSION", CONTRACT_VERSION, "bumped whenever any packet, encoding or register changes"),
    Const("COORD_W", 24, "snapped coordinate width: signed 16.8 fixed point"),
    Const("COORD_FRAC", 8, "fractional bits of a snapped coordinate"),
    Const("DELTA_W", 25, "edge coefficient width (difference of two COORD_W values)"),
    Const("EDGE_W", 50, "edge function value width; see docs/numerics.md for the bound"),
    Const("PIX_W", 15, "pixel coordinate width (0..16384, half-open rectangles)"),
    Const("TILE_W", 13, "raster-tile coordinate width (0..4096, half-open rectangles; 4x4-pixel tiles at 4x MSAA)"),
    Const("FINE_W", 31, "fine rasterizer per-sample datapath width (docs/numerics.md section 5.2)"),
    Const("MAX_RT_DIM", 16384, "largest render-target width/height in pixels"),
    Const("HIZ_BUF_ROWS", 512, "pixel rows of the last depth-cleared buffer that the CP watches for DMA writes (HIZ: 64 raster tiles of 8 rows at 1x; at 4x the first 256 are covered, the rest is a conservative margin)"),
    Const("TILE_SIZE", 8, "tile edge in pixels"),
    # The line-wide memory port (docs/contract.md section 2)
    Const("LINE_BYTES", 64, "memory line: every request and response on the line port moves one aligned 64-byte line"),
    Const("LINE_DWORDS", 16, "dwords per memory line"),
    Const("MEM_SRC_W", 4, "mem_line_req_t.src width: the client id the line arbiter stamps on a request"),
    Const("MEM_LINE_CLIENTS_MAX", 16, "line arbiter client ids 0..15"),
    Const("NUM_FENCES", 16, "CPU-visible fence registers"),
    Const("NUM_STATE", 16, "draw-state registers written by SET_STATE", 8),
    Const("VERTEX_BYTES", 8, "vertex buffer stride in v1: int32 x, int32 y (16.8)"),
    Const("RET_STACK_DEPTH", 4, "CALL return-stack levels (a 5th nested CALL is ERR_STACK_OVERFLOW)"),
    Const("EOP_QUEUE_DEPTH", 4, "end-of-pipe WRITE_REGs in flight; the next one waits for a completion"),
    # FP32 and the vertex transform (docs/numerics.md section 7, docs/contract.md section 5.1)
    Const("FP32_QNAN", 0x7FC00000, "the one NaN every FP32 operation returns (positive quiet NaN, payload 0)"),
    Const("FP32_ONE", FP32_ONE, "1.0f (the VTX matrix resets to the identity)"),
    Const("FIX16_8_MAX", 0x7FFFFF, "largest 16.8 value (2^23 - 1) a float->16.8 conversion saturates to", 24),
    Const("VTX_KIND_VERTEX", 0, "vtx_in_pkt_t.kind: an object-space vertex to transform", 2),
    Const("VTX_KIND_MATRIX_ROW", 1, "vtx_in_pkt_t.kind: pos = row `row` of the position matrix", 2),
    # Input assembly front end: index fetch and vertex cache tags (docs/frontend.md)
    Const("VTX_BATCH_SLOTS", 32, "vertices per batch (vertex cache tag entries)"),
    Const("VTX_BATCH_TRIS", 64, "triangles per batch at most (a batch closes after this many; the triangle FIFO in front of PA holds one batch)"),
    Const("INDEX_CUT_16", 0xFFFF, "16-bit strip-cut index"),
    Const("INDEX_CUT_32", 0xFFFFFFFF, "32-bit strip-cut index"),
    Const("FE_STATE_END", 96, "SET_STATE indices [NUM_STATE, FE_STATE_END) are front-end state, sent down the front end as writes"),
    # Depth plane (docs/numerics.md section 9): fixed point in units of 2^-Z_FRAC D24 LSB
    Const("Z_FRAC", 16, "fraction bits of the depth plane (units of 2^-16 D24 LSB)"),
    Const("ZGRAD_W", 33, "depth plane gradient width: dZ per 1/256 px, |a|, |b| <= 2^32 - 1 (saturated)"),
    Const("ZREF_W", 57, "depth at a vertex in plane units, saturated to |z| <= 2^56 - 1"),
    Const("ZPLANE_W", 59, "depth plane value width: |Z| < 2^58 at every evaluated sample (docs/numerics.md section 9)"),
    # Attribute interpolation (docs/numerics.md section 10, docs/interp.md)
    Const("IPQ_W", 32, "normalised 1/w of a vertex as an unsigned integer (the largest in [2^31, 2^32), the others rounded to nearest, half up)"),
    Const("IPGRAD_W", 57, "interpolation plane gradient width: sigma*sum Q_k*A_k (Q_k < 2^32, |A_k| + ... < 2^25 with sum A_k = 0): |a|, |b| < 2^56"),
    Const("IPLANE_W", 84, "interpolation plane value width: sum Q_k*|E_k| < 3*2^32*2^49 < 2^83 at every pixel centre of the render target"),
    Const("DEPTH_MAX", 0xFFFFFF, "D24 UNORM: the depth 1.0 (depth values are 24-bit integers 0..2^24-1)", 24),
    # comparison functions (FE_DEPTH.DEPTH_FUNC, stencil funcs): D3D11_COMPARISON_* - 1; pass when (ref OP stored)
    Const("CMP_NEVER", 0, "never passes", 3),
    Const("CMP_LESS", 1, "new < stored", 3),
    Const("CMP_EQUAL", 2, "new == stored", 3),
    Const("CMP_LESS_EQUAL", 3, "new <= stored", 3),
    Const("CMP_GREATER", 4, "new > stored", 3),
    Const("CMP_NOT_EQUAL", 5, "new != stored", 3),
    Const("CMP_GREATER_EQUAL", 6, "new >= stored", 3),
    Const("CMP_ALWAYS", 7, "always passes", 3),
    # stencil operations: D3D11_STENCIL_OP_* - 1
    Const("SOP_KEEP", 0, "keep the stored stencil", 3),
    Const("SOP_ZERO", 1, "0", 3),
    Const("SOP_REPLACE", 2, "the reference", 3),
    Const("SOP_INCR_SAT", 3, "min(s + 1, 255)", 3),
    Const("SOP_DECR_SAT", 4, "max(s - 1, 0)", 3),
    Const("SOP_INVERT", 5, "~s", 3),
    Const("SOP_INCR", 6, "s + 1 (wraps)", 3),
    Const("SOP_DECR", 7, "s - 1 (wraps)", 3),
    Const("ATTR_FMT_NONE", 0, "attribute not fetched: reads the default (0, 0, 0, 1)"),
    Const("ATTR_FMT_F32X1", 1, "one FP32; y, z, w default to 0, 0, 1"),
    Const("ATTR_FMT_F32X2", 2, "two FP32; z, w default to 0, 1"),
    Const("ATTR_FMT_F32X3", 3, "three FP32; w defaults to 1"),
    Const("ATTR_FMT_F32X4", 4, "four FP32"),
    Const("ATTR_FMT_UNORM8X4", 5, "four UNORM8 in one dword, x in [7:0]"),
    Const("PA_CULL_NONE", 0, "FE_RASTER[1:0]: no face culling (3 is read as none too)", 2),
    Const("PA_CULL_FRONT", 1, "FE_RASTER[1:0]: cull front faces", 2),
    Const("PA_CULL_BACK", 2, "FE_RASTER[1:0]: cull back faces", 2),
    Const("PA_CLIP_EPS", 0x37800000, "clip plane w >= PA_CLIP_EPS (2^-16, FP32)"),
    Const("PA_MAX_POLY", 10, "vertices of a triangle clipped by the 7 planes, at most"),
    # Output merger (docs/om.md): blend factors = D3D11_BLEND - 1, ops = D3D11_BLEND_OP - 1
    Const("BF_ZERO", 0, "blend factor 0", 5),
    Const("BF_ONE", 1, "1", 5),
    Const("BF_SRC_COLOR", 2, "source channel", 5),
    Const("BF_INV_SRC_COLOR", 3, "1 - source channel", 5),
    Const("BF_SRC_ALPHA", 4, "source alpha", 5),
    Const("BF_INV_SRC_ALPHA", 5, "1 - source alpha", 5),
    Const("BF_DEST_ALPHA", 6, "destination alpha (1 for B5G6R5)", 5),
    Const("BF_INV_DEST_ALPHA", 7, "1 - destination alpha", 5),
    Const("BF_DEST_COLOR", 8, "destination channel (linear for sRGB targets)", 5),
    Const("BF_INV_DEST_COLOR", 9, "1 - destination channel", 5),
    Const("BF_SRC_ALPHA_SAT", 10, "min(source alpha, 1 - destination alpha) for R, G, B; 1 for alpha", 5),
    Const("BF_BLEND_FACTOR", 13, "the blend constant's channel (FE_BLEND_FACTOR)", 5),
    Const("BF_INV_BLEND_FACTOR", 14, "1 - the blend constant's channel", 5),
    Const("BOP_ADD", 0, "src*Fs + dst*Fd", 3),
    Const("BOP_SUBTRACT", 1, "src*Fs - dst*Fd", 3),
    Const("BOP_REV_SUBTRACT", 2, "dst*Fd - src*Fs", 3),
    Const("BOP_MIN", 3, "min(src, dst) (factors ignored)", 3),
    Const("BOP_MAX", 4, "max(src, dst) (factors ignored)", 3),
    # Logic ops (FE_LOGIC_OP, docs/om.md section 2b): LOP_* = D3D11_LOGIC_OP; s the source encoded for the target, d the stored pixel
    Const("LOP_CLEAR", 0, "0", 4),
    Const("LOP_SET", 1, "all ones", 4),
    Const("LOP_COPY", 2, "s", 4),
    Const("LOP_COPY_INVERTED", 3, "~s", 4),
    Const("LOP_NOOP", 4, "d", 4),
    Const("LOP_INVERT", 5, "~d", 4),
    Const("LOP_AND", 6, "s & d", 4),
    Const("LOP_NAND", 7, "~(s & d)", 4),
    Const("LOP_OR", 8, "s | d", 4),
    Const("LOP_NOR", 9, "~(s | d)", 4),
    Const("LOP_XOR", 10, "s ^ d", 4),
    Const("LOP_EQUIV", 11, "~(s ^ d)", 4),
    Const("LOP_AND_REVERSE", 12, "s & ~d", 4),
    Const("LOP_AND_INVERTED", 13, "~s & d", 4),
    Const("LOP_OR_REVERSE", 14, "s | ~d", 4),
    Const("LOP_OR_INVERTED", 15, "~s | d", 4),
    Const("RT_FMT_RGBA8", 0, "render target R8G8B8A8_UNORM: R in byte 0 .. A in byte 3 (4 bytes per pixel)", 2),
    Const("RT_FMT_BGRA8", 1, "B8G8R8A8_UNORM: B in byte 0, G 1, R 2, A 3 (4 bytes per pixel)", 2),
    Const("RT_FMT_RGBA8_SRGB", 2, "R8G8B8A8_UNORM_SRGB: RGBA8 bytes, R, G, B sRGB encoded (4 bytes per pixel)", 2),
    Const("RT_FMT_B5G6R5", 3, "B5G6R5_UNORM: B [4:0], G [10:5], R [15:11] of a 16-bit pixel (2 bytes per pixel)", 2),
    # Texture sampler (docs/tex.md): formats, filters, address modes, descriptor sizes
    Const("TEX_FMT_RGBA8", 0, "R8G8B8A8_UNORM texels: R byte 0 .. A byte 3; 64-byte 4x4 blocks", 4),
    Const("TEX_FMT_BGRA8", 1, "B8G8R8A8_UNORM: B byte 0, G 1, R 2, A 3; 64-byte blocks", 4),
    Const("TEX_FMT_B5G6R5", 2, "B5G6R5_UNORM: B [4:0], G [10:5], R [15:11] of a 16-bit texel, alpha 1; 32-byte blocks", 4),
    Const("TEX_FMT_RGBA8_SRGB", 3, "R8G8B8A8_UNORM_SRGB: RGBA8 bytes, R, G, B linearised (SRGB_TO_TEX12) before filtering; 64-byte blocks", 4),
    Const("TEX_FMT_BC1", 4, "BC1_UNORM: 8-byte blocks (decoded on L1 fill; invalid until the decoder lands)", 4),
    Const("TEX_FMT_BC3", 5, "BC3_UNORM: 16-byte blocks (decoded on L1 fill; invalid until the decoder lands)", 4),
    Const("TEX_FILTER_POINT", 0, "sampler MIN/MAG filter: nearest texel", 1),
    Const("TEX_FILTER_LINEAR", 1, "sampler MIN/MAG filter: bilinear, weights k/256", 1),
    Const("TEX_MIP_NONE", 0, "sampler MIP filter: level 0 only", 2),
    Const("TEX_MIP_POINT", 1, "nearest level: floor(LOD + 0.5)", 2),
    Const("TEX_MIP_LINEAR", 2, "two levels floor(LOD), +1 blended by frac(LOD)*256 (trilinear); 3 is invalid", 2),
    Const("TEX_ADDR_WRAP", 0, "D3D11_TEXTURE_ADDRESS_WRAP - 1: i mod n", 3),
    Const("TEX_ADDR_MIRROR", 1, "MIRROR: i mod 2n folded back", 3),
    Const("TEX_ADDR_CLAMP", 2, "CLAMP: i clamped to [0, n-1]", 3),
    Const("TEX_ADDR_BORDER", 3, "BORDER: i outside [0, n-1] reads the border colour", 3),
    Const("TEX_ADDR_MIRROR_ONCE", 4, "MIRROR_ONCE: i < 0 -> -1 - i, then clamped; 5..7 are invalid", 3),
    Const("TEX_MAX_DIM", 4096, "largest texture width / height"),
    Const("TEX_MAX_LEVELS", 13, "levels of a full 4096 chain"),
    Const("TEX_DESC_BYTES", 32, "texture and sampler descriptors: 8 dwords, 32-byte aligned"),
    Const("TEX_BLOCK_DIM", 4, "texels are stored in 4x4 blocks, row-major block order per level"),
    Const("TEX_FAULT_NONE", 0, "tex_out_pkt_t.fault: descriptors valid", 3),
    Const("TEX_FAULT_DESC_ADDR", 1, "a descriptor address is not 32-byte aligned or outside [REG_VALID_BASE, REG_VALID_LIMIT]", 3),
    Const("TEX_FAULT_TEX_DESC", 2, "bad texture descriptor: zero / oversize dims, unknown format, levels 0 or beyond the full chain, BASE not 64-byte aligned", 3),
    Const("TEX_FAULT_TEX_RANGE", 3, "a byte of the texture's chain lies outside [REG_VALID_BASE, REG_VALID_LIMIT] (or past 2^32)", 3),
    Const("TEX_FAULT_SAMP_DESC", 4, "bad sampler descriptor: MIP 3, an address mode 5..7, MIN_LOD > MAX_LOD", 3),
    # Combiner (FE_COMBINE, docs/tex.md section 8): the later texture x colour stage and alpha test
    Const("COMB_MODULATE", 0, "out = mul8(tex, colour) per channel (docs/comb.md: mul8 = round(a*b/255))", 3),
    Const("COMB_REPLACE", 1, "out = tex", 3),
    Const("COMB_ADD", 2, "rgb = min(tex + colour, 255), a = mul8(tex.a, colour.a)", 3),
    Const("COMB_DECAL", 3, "rgb = round((tex*tex.a + colour*(255 - tex.a))/255), a = colour.a", 3),
]

class Table(NamedTuple):
    """A constant table: SV `localparam logic [N*width-1:0] NAME` (entry i in [width*i +: width]),
    C++ `std::array<uint32_t, N> NAME`."""
    name: str
    width: int
    values: Tuple[int, ...]
    doc: str


def _srgb_tables():
    """sRGB <-> linear U16 (docs/om.md section 3): SRGB_TO_LIN16[c] = round(65535 * linear(c / 255));
    SRGB_TO_TEX12[c] = round(4080 * linear(c / 255)) (the texture filter, docs/tex.md section 4 step 9);
    LIN16_TO_SRGB_T[c] (c >= 1) = the least v in 0..65535 with 255 * srgb(v / 65535) >= c - 0.5, so
    encode(v) = the number of c in 1..255 with LIN16_TO_SRGB_T[c] <= v. Computed once here in double
    precision; both sides use the generated tables."""
    def lin(c):
        x = c / 255.0
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    def srgb(v):
        x = v / 65535.0
        return 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055

    dec = tuple(int(lin(c) * 65535.0 + 0.5) for c in range(256))
    tex12 = tuple(int(lin(c) * 4080.0 + 0.5) for c in range(256))
    thr = [0]
    for c in range(1, 256):
        lo, hi = 0, 65536  # least v with 255 * srgb(v) >= c - 0.5 (65536: none)
        while lo < hi:
            mid = (lo + hi) // 2
            if 255.0 * srgb(mid) >= c - 0.5:
                hi = mid
            else:
                lo = mid + 1
        thr.append(lo)
    assert all(dec[c] < dec[c + 1] for c in range(255)) and all(thr[c] < thr[c + 1] for c in range(255))
    assert all(sum(1 for c in range(1, 256) if thr[c] <= dec[k]) == k for k in range(256)), "sRGB round trip"
    assert tex12[255] == 4080 and all(tex12[c] <= tex12[c + 1] for c in range(255))
    return dec, tuple(thr), tex12


_SRGB_DEC, _SRGB_THR, _SRGB_TEX12 = _srgb_tables()
TABLES = [
    Table("SRGB_TO_LIN16", 16, _SRGB_DEC, "sRGB8 code -> linear U16 (value / 65535)"),
    Table("SRGB_TO_TEX12", 12, _SRGB_TEX12, "sRGB8 code -> linear in 1/4080 (16 x the UNORM8 scale): the texture filter's sRGB values (docs/tex.md section 4 step 9)"),
    Table("LIN16_TO_SRGB_T", 16, _SRGB_THR, "linear U16 -> sRGB8: entry c (c >= 1) is the least U16 that encodes to c or more; entry 0 is 0"),
]


# Command encoding, version 2 (v1 plus WAIT_REG, JUMP, CALL, RET, INTERRUPT, COPY). Header dword:
# CMD_FIELDS. `len` counts the payload dwords that follow the header; Opcode.length is the one
# len each opcode accepts (None: any).
CMD_FIELDS = [
    BitField("CMD_OP", 31, 24, "opcode"),
    BitField("CMD_ARG", 23, 12, "argument"),
    BitField("CMD_LEN", 11, 0, "payload dwords"),
]
FENCE_ARG = BitField("FENCE_IDX", 3, 0, "fence register index")
OPCODES = [
    Opcode("OP_NOP", 0x00, None, "skip `len` payload dwords (padding)"),
    Opcode("OP_SET_STATE", 0x01, None, "state[arg + i] = payload[i] for i < len"),
    Opcode("OP_DRAW", 0x02, 2, "payload[0] = first vertex, payload[1] = vertex count (triangle list)"),
    Opcode("OP_WRITE_REG", 0x03, 1, "fence[arg[3:0]] = payload[0]; arg[11] = end of pipe",
           (FENCE_ARG, BitField("WRITE_REG_EOP", 11, 11, "end of pipe: written once every earlier draw is in memory"))),
    Opcode("OP_WAIT_REG", 0x04, 1, "block until fence[arg[3:0]] == payload (arg[11] = 0) or (int32)(fence - payload) >= 0 (arg[11] = 1)",
           (FENCE_ARG, BitField("WAIT_REG_GEQUAL", 11, 11, "wrap-safe >= compare instead of =="))),
    Opcode("OP_JUMP", 0x05, 2, "payload = IB byte address, IB length in dwords; continue there, no return pushed"),
    Opcode("OP_CALL", 0x06, 2, "like JUMP, but pushes the return position (after the CALL)"),
    Opcode("OP_RET", 0x07, 0, "return from the current IB (an IB that runs out of dwords returns too)"),
    Opcode("OP_INTERRUPT", 0x08, 1, "INT_PAYLOAD = payload, IRQ cause INTERRUPT"),
    Opcode("OP_COPY", 0x09, 3, "payload = src byte address, dst byte address, byte count (DMA, any alignment)"),
    Opcode("OP_DRAW_FE", 0x0A, 5, "a front-end draw (object-space vertices, transform, clip): payload = first, count, base_vertex, instance_count, start_instance; arg[11:4] must be 0",
           (BitField("DRAW_FE_INDEXED", 0, 0, "indices from the index buffer"),
            BitField("DRAW_FE_INDEX32", 1, 1, "32-bit indices"),
            BitField("DRAW_FE_STRIP", 2, 2, "triangle strip"),
            BitField("DRAW_FE_RESTART", 3, 3, "strip restart at the cut index"))),
    Opcode("OP_CLEAR", 0x0B, 5, "clear a rectangle of a target (docs/depth.md): payload = target byte address, pitch [15:0] | 4x MSAA [16], x0 [15:0] | x1 [31:16], y0 | y1 << 16 (half-open, clamped to MAX_RT_DIM; empty = no-op), value; base and pitch dword aligned; arg[2:0] must name the colour target alone or depth and/or stencil (else ERR_BAD_CLEAR)",
           (BitField("CLEAR_COLOR", 0, 0, "colour target: every sample = value (RGBA8)"),
            BitField("CLEAR_DEPTH", 1, 1, "depth-stencil target: depth = value[23:0]"),
            BitField("CLEAR_STENCIL", 2, 2, "depth-stencil target: stencil = value[31:24]"))),
    Opcode("OP_RESOLVE", 0x0C, 5, "MSAA resolve (docs/om.md section 7): average the 4 samples of each pixel of a rectangle of a 4x colour target into a 1x target of the same format; payload = src (4x) byte address, dst (1x) byte address, src pitch [15:0] | dst pitch [31:16], x0 | x1 << 16, y0 | y1 << 16 (half-open, same pixels in both); arg[1:0] = RT_FMT_* of both targets, arg[11:2] must be 0 (else ERR_BAD_ARG); an empty rectangle or x1, y1 > MAX_RT_DIM is ERR_BAD_ARG, a misaligned base/pitch or a span outside the window ERR_BAD_ADDR, overlapping spans ERR_BAD_ARG",
           (BitField("RESOLVE_FMT", 1, 0, "RT_FMT_* of the source and the destination"),)),
    Opcode("OP_END", 0x0F, 0, "stop; STATUS.HALTED, IRQ cause END"),
]

# Register fields shared by the draw state and the front-end state.
PITCH_FIELDS = (BitField("RT_PITCH", 15, 0, "row pitch in bytes"),
                BitField("RT_MSAA", 16, 16, "4x MSAA (4 samples per pixel)"))
SIZE_FIELDS = (BitField("RT_WIDTH", 15, 0, "width in pixels"),
               BitField("RT_HEIGHT", 31, 16, "height in pixels"))
SCISSOR_FIELDS = (BitField("SCISSOR_LO", 15, 0, "x0 / y0, inclusive"),
                  BitField("SCISSOR_HI", 31, 16, "x1 / y1, exclusive"))
SCISSOR_RESET = 0xFFFF0000
# One face's stencil function and operations (FE_STENCIL_OPS halves, ds_state_t.s_front / s_back).
STENCIL_FACE_FIELDS = (BitField("SFACE_FUNC", 2, 0, "CMP_*: pass when ((ref & read mask) OP (stored & read mask))"),
                       BitField("SFACE_FAIL", 5, 3, "SOP_* when the stencil test fails"),
                       BitField("SFACE_ZFAIL", 8, 6, "SOP_* when stencil passes and depth fails"),
                       BitField("SFACE_PASS", 11, 9, "SOP_* when both pass"))

# The render-target pitch register of the front end: the draw state's fields plus the format.
FE_PITCH_FIELDS = PITCH_FIELDS + (BitField("RT_FMT", 18, 17, "RT_FMT_*: render-target format (front-end draws only)"),)
# FE_BLEND (docs/om.md): one render target's D3D11_RENDER_TARGET_BLEND_DESC.
BLEND_FIELDS = (BitField("BLEND_ENABLE", 0, 0, "blending on (off: the source is written)"),
                BitField("BLEND_SRC", 5, 1, "BF_*: colour source factor"),
                BitField("BLEND_DST", 10, 6, "BF_*: colour destination factor"),
                BitField("BLEND_OP", 13, 11, "BOP_*: colour operation"),
                BitField("BLEND_SRC_A", 18, 14, "BF_*: alpha source factor"),
                BitField("BLEND_DST_A", 23, 19, "BF_*: alpha destination factor"),
                BitField("BLEND_OP_A", 26, 24, "BOP_*: alpha operation"),
                BitField("BLEND_MASK_OFF", 30, 27, "channels NOT written: bit 0 R, 1 G, 2 B, 3 A (the inverted D3D11 write mask)"))
BLEND_RESET = (1 << 1) | (1 << 14)  # off, ONE/ZERO/ADD for colour and alpha, every channel written

# Draw-state registers (SET_STATE index space [0, NUM_STATE)).
STATE_REGS = [
    StateReg("ST_VB_BASE", 0, 0, "vertex buffer byte address (dword aligned)"),
    StateReg("ST_COLOR", 1, 0, "flat colour RGBA8: R in [7:0], G [15:8], B [23:16], A [31:24]"),
    StateReg("ST_RT_BASE", 2, 0, "render target byte address (dword aligned)"),
    StateReg("ST_RT_PITCH", 3, 0, "render target row pitch in bytes ([15:0]); [16] 4x MSAA (4 samples per pixel)", PITCH_FIELDS),
    StateReg("ST_RT_SIZE", 4, 0, "width [15:0], height [31:16] in pixels (clamped to MAX_RT_DIM)", SIZE_FIELDS),
    StateReg("ST_SCISSOR_X", 5, SCISSOR_RESET, "scissor x0 [15:0] inclusive, x1 [31:16] exclusive", SCISSOR_FIELDS),
    StateReg("ST_SCISSOR_Y", 6, SCISSOR_RESET, "scissor y0 [15:0] inclusive, y1 [31:16] exclusive", SCISSOR_FIELDS),
]

# Front-end state registers (SET_STATE indices [NUM_STATE, FE_STATE_END)), carried in order by
# state-write packets down the front end (docs/frontend.md sections 4 and 6).
ATTR_FIELDS = (BitField("ATTR_FMT", 2, 0, "ATTR_FMT_*"),
               BitField("ATTR_BUF1", 3, 3, "from vertex buffer 1 (per instance)"),
               BitField("ATTR_OFFSET", 31, 16, "byte offset in the vertex"))
FE_STATE = [
    StateReg("FE_VB0_BASE", 16, 0, "vertex buffer 0 (per vertex) byte address"),
    StateReg("FE_VB0_STRIDE", 17, 0, "vertex buffer 0 stride in bytes ([15:0])"),
    StateReg("FE_VB0_SIZE", 18, 0, "vertex buffer 0 size in bytes"),
    StateReg("FE_VB1_BASE", 19, 0, "vertex buffer 1 (per instance) byte address"),
    StateReg("FE_VB1_STRIDE", 20, 0, "vertex buffer 1 stride in bytes ([15:0])"),
    StateReg("FE_VB1_SIZE", 21, 0, "vertex buffer 1 size in bytes"),
    StateReg("FE_ATTR_POS", 22, 0, "position attribute: [2:0] ATTR_FMT_*, [3] buffer 1, [31:16] byte offset", ATTR_FIELDS),
    StateReg("FE_ATTR_COLOR", 23, 0, "colour attribute (same layout)"),
    StateReg("FE_ATTR_TEX0", 24, 0, "texture coordinate 0 attribute (same layout)"),
    StateReg("FE_ATTR_TEX1", 25, 0, "texture coordinate 1 attribute (same layout)"),
    StateReg("FE_IB_BASE", 26, 0, "held by the CP: index buffer byte address (into idraw_pkt_t.ib_base)"),
    StateReg("FE_IB_SIZE", 27, 0, "held by the CP: index buffer size in bytes (into idraw_pkt_t.ib_size)"),
    StateReg("FE_DS_BASE", 28, 0, "depth-stencil target byte address (D24_UNORM_S8_UINT, layout as the colour target: docs/depth.md)"),
    StateReg("FE_DS_PITCH", 29, 0, "depth-stencil target row pitch in bytes ([15:0]); its MSAA mode is the colour target's"),
    StateReg("FE_DEPTH", 30, 0, "depth test state (reset: off)",
             (BitField("DEPTH_ENABLE", 0, 0, "depth test on"),
              BitField("DEPTH_FUNC", 3, 1, "CMP_*: pass when (new depth OP stored depth)"),
              BitField("DEPTH_WRITE", 4, 4, "write the new depth where the sample passes"),
              BitField("DEPTH_LATE", 5, 5, "late Z: test after the pixel stage (same results where both are valid)"),
              BitField("DEPTH_HIZ", 6, 6, "hierarchical Z may reject tiles"))),
    StateReg("FE_STENCIL", 31, 0xFFFF0000, "stencil state (reset: off, masks 0xFF)",
             (BitField("STENCIL_ENABLE", 0, 0, "stencil test on"),
              BitField("STENCIL_REF", 15, 8, "reference value"),
              BitField("STENCIL_READ_MASK", 23, 16, "ANDed with the reference and the stored value before the compare"),
              BitField("STENCIL_WRITE_MASK", 31, 24, "bits of the stored stencil an operation may change"))),
    StateReg("FE_MATRIX0", 32, tuple(FP32_ONE if r == c else 0 for r in range(4) for c in range(4)),
             "position matrix M[r][c] at FE_MATRIX0 + 4r + c (FP32; reset the identity)", count=16),
    StateReg("FE_VP_X", 48, 0, "viewport top-left X (FP32)"),
    StateReg("FE_VP_Y", 49, 0, "viewport top-left Y (FP32)"),
    StateReg("FE_VP_W", 50, 0, "viewport width (FP32)"),
    StateReg("FE_VP_H", 51, 0, "viewport height (FP32)"),
    StateReg("FE_VP_ZMIN", 52, 0, "viewport min depth (FP32)"),
    StateReg("FE_VP_ZMAX", 53, 0, "viewport max depth (FP32)"),
    StateReg("FE_RASTER", 54, 0, "[1:0] cull PA_CULL_*, [2] front face counter-clockwise, [3] depth clip off",
             (BitField("RASTER_CULL", 1, 0, "PA_CULL_*"),
              BitField("RASTER_FRONT_CCW", 2, 2, "front faces are counter-clockwise"),
              BitField("RASTER_DEPTH_CLIP_OFF", 3, 3, "no near/far clipping"))),
    StateReg("FE_RT_BASE", 55, 0, "render target byte address (as ST_RT_BASE)"),
    StateReg("FE_RT_PITCH", 56, 0, "render target row pitch in bytes ([15:0]), 4x MSAA [16] (as ST_RT_PITCH), format [18:17] (RT_FMT_*)", FE_PITCH_FIELDS),
    StateReg("FE_RT_SIZE", 57, 0, "width [15:0], height [31:16] (as ST_RT_SIZE)"),
    StateReg("FE_SCISSOR_X", 58, SCISSOR_RESET, "scissor x0 [15:0], x1 [31:16] (as ST_SCISSOR_X)"),
    StateReg("FE_SCISSOR_Y", 59, SCISSOR_RESET, "scissor y0 [15:0], y1 [31:16] (as ST_SCISSOR_Y)"),
    StateReg("FE_STENCIL_OPS", 60, 0x00070007, "stencil functions and operations: front faces [11:0], back faces [27:16] (reset: ALWAYS, KEEP)",
             (BitField("STENCIL_FRONT", 11, 0, "front faces: STENCIL_FACE_* layout"),
              BitField("STENCIL_BACK", 27, 16, "back faces: STENCIL_FACE_* layout"))),
    StateReg("FE_BLEND", 61, BLEND_RESET, "blend state of the render target (docs/om.md; reset: off, ONE/ZERO/ADD, all channels written)", BLEND_FIELDS),
    StateReg("FE_BLEND_FACTOR", 62, 0xFFFFFFFF, "blend constant RGBA8 (BF_BLEND_FACTOR), layout as ST_COLOR (reset: 1, 1, 1, 1)"),
    StateReg("FE_SHADE", 63, 0, "shading of the pixel colour (docs/interp.md; reset: flat)",
             (BitField("SHADE_GOURAUD", 0, 0, "1: the vertex colours interpolated perspective-correct; 0: flat, the provoking (first) vertex's colour"),)),
    StateReg("FE_TEX0", 64, 0, "texture descriptor 0 byte address (32-byte aligned; tex_desc_t, docs/tex.md)"),
    StateReg("FE_SAMP0", 65, 0, "sampler descriptor 0 byte address (32-byte aligned; samp_desc_t, docs/tex.md)"),
    StateReg("FE_COMBINE", 66, 0, "texture combiner stages 0 and 1, alpha test, alpha to coverage (reset: no texture, no alpha test; docs/comb.md); [20:0] is comb_state_t",
             (BitField("COMB_TEX_ENABLE", 0, 0, "stage 0 samples FE_TEX0 / FE_SAMP0 with tex0 (0: the colour passes unchanged)"),
              BitField("COMB_MODE", 3, 1, "COMB_*: how the texel and the interpolated colour combine"),
              BitField("COMB_ALPHA_TEST", 4, 4, "alpha test on: a pixel whose (alpha OP ref) fails is killed (depth goes late-Z)"),
              BitField("COMB_ALPHA_FUNC", 7, 5, "CMP_*: pass when (combined alpha OP ALPHA_REF)"),
              BitField("COMB_ALPHA_REF", 15, 8, "alpha test reference (UNORM8)"),
              BitField("COMB1_TEX_ENABLE", 16, 16, "stage 1 samples FE_TEX1 / FE_SAMP1 with tex1 and combines it with stage 0's result (0: stage 0's result passes)"),
              BitField("COMB1_MODE", 19, 17, "COMB_*: stage 1, with stage 0's result as the colour"),
              BitField("COMB_ALPHA_TO_COVERAGE", 20, 20, "alpha to coverage: the final alpha selects the samples kept (docs/comb.md; depth goes late-Z)"))),
    StateReg("FE_TEX1", 67, 0, "texture descriptor 1 byte address (combiner stage 1, sampled with uv1 when COMB1_TEX_ENABLE; docs/comb.md)"),
    StateReg("FE_SAMP1", 68, 0, "sampler descriptor 1 byte address (combiner stage 1)"),
    StateReg("FE_LOGIC_OP", 69, 0, "logic operation of the render target (D3D11.1 LogicOpEnable / LogicOp; docs/om.md; reset: off)",
             (BitField("LOGIC_ENABLE", 0, 0, "logic op on: the stored pixel becomes LOGIC_OP(source encoded for the target, stored pixel); blending is ignored"),
              BitField("LOGIC_OP", 4, 1, "LOP_*"))),
]

# Host register port: dword index (HOST_ADDR_BITS wide) -> register.
HOST_ADDR_BITS = 8
ID_MAGIC = 0x50490000  # "PI" in the ID register's upper half; the lower half is CONTRACT_VERSION
HOST_REGS = [
    HostReg("REG_ID", 0x00, "RO", ID_MAGIC | CONTRACT_VERSION, "0x5049 in [31:16], CONTRACT_VERSION in [15:0] (ID_VALUE)"),
    HostReg("REG_CONTROL", 0x01, "RW", 0, "bit0 ENABLE; bit1 CP_RESET (write 1: abort and reset the decoder, reads 0); bit2 NO_FAST_CLEAR (1: depth/stencil CLEARs are DMA fills even when ZS offers fast clear); any write clears STATUS.HALTED"),
    HostReg("REG_STATUS", 0x02, "RO", 0, "bit0 RUNNING, bit1 HALTED, bit2 ERROR, bit3 PIPE_BUSY, bit4 RING_EMPTY, bit5 WAITING, bit6 IN_IB, bit7 COPYING (a COPY or a CLEAR waits or runs)"),
    HostReg("REG_RING_BASE", 0x03, "RW", 0, "ring byte address (dword aligned)"),
    HostReg("REG_RING_SIZE", 0x04, "RW", 0, "ring size in bytes (multiple of 4)"),
    HostReg("REG_RING_WPTR", 0x05, "RW", 0, "byte offset the host has written up to"),
    HostReg("REG_RING_RPTR", 0x06, "RO", 0, "byte offset of the next dword the CP decodes"),
    HostReg("REG_ERROR_CAUSE", 0x07, "RO", 0, "ERR_* code of the first error"),
    HostReg("REG_ERROR_ADDR", 0x08, "RO", 0, "byte address of the command header that failed"),
    HostReg("REG_IRQ_STATUS", 0x09, "W1C", 0, "IRQ_* cause bits"),
    HostReg("REG_IRQ_ENABLE", 0x0A, "RW", 0, "mask for irq_o"),
    HostReg("REG_INT_PAYLOAD", 0x0B, "RO", 0, "payload of the last INTERRUPT command"),
    HostReg("REG_VALID_BASE", 0x0C, "RW", 0, "lowest byte address the CP may fetch from or copy from/to"),
    HostReg("REG_VALID_LIMIT", 0x0D, "RW", 0xFFFFFFFF, "highest such byte address, inclusive"),
    HostReg("REG_WATCHDOG", 0x0E, "RW", 0, "WAIT_REG watchdog in cycles (0 = off); expiry is ERR_WAIT_TIMEOUT"),
    HostReg("REG_IB_DEPTH", 0x0F, "RO", 0, "return-stack entries in use"),
    HostReg("REG_FENCE0", 0x10, "RW", 0, "fence registers FENCE0..FENCE15 at 0x10..0x1F"),
    HostReg("REG_PERF0", 0x40, "RO", 0, "performance counters, see PERF_* (index = REG_PERF0 + PERF_x)"),
]
STATUS_BITS = [Bit(n, b) for n, b in [
    ("STATUS_RUNNING", 0), ("STATUS_HALTED", 1), ("STATUS_ERROR", 2),
    ("STATUS_PIPE_BUSY", 3), ("STATUS_RING_EMPTY", 4), ("STATUS_WAITING", 5),
    ("STATUS_IN_IB", 6), ("STATUS_COPYING", 7),
    # sticky, non-fatal: a TEX fault since the host last cleared IRQ_STATUS.IRQ_TEX_FAULT (the CP keeps running)
    ("STATUS_TEX_FAULT", 8)]]
CONTROL_BITS = [Bit("CONTROL_ENABLE", 0), Bit("CONTROL_CP_RESET", 1), Bit("CONTROL_NO_FAST_CLEAR", 2)]
IRQ_BITS = [Bit("IRQ_END", 0), Bit("IRQ_ERROR", 1), Bit("IRQ_INTERRUPT", 2), Bit("IRQ_TEX_FAULT", 3)]
ERROR_CAUSES = [
    ErrorCause("ERR_NONE", 0, "no error"),
    ErrorCause("ERR_BAD_OPCODE", 1, "unknown opcode"),
    ErrorCause("ERR_BAD_LEN", 2, "len does not match the opcode"),
    ErrorCause("ERR_BAD_ARG", 3, "arg out of range (state index + len > FE_STATE_END, fence index >= 16, OP_DRAW_FE arg >= 16, OP_RESOLVE arg >= 4); COPY with overlapping ranges; RESOLVE with an empty or too large rectangle or overlapping spans"),
    ErrorCause("ERR_BAD_ADDR", 4, "ring, JUMP/CALL target, COPY range or CLEAR rectangle outside [VALID_BASE, VALID_LIMIT], misaligned IB, CLEAR target base or pitch not dword aligned, RESOLVE spans outside the window or a misaligned RESOLVE base or pitch"),
    ErrorCause("ERR_STACK_OVERFLOW", 5, "CALL with RET_STACK_DEPTH return positions already pushed"),
    ErrorCause("ERR_STACK_UNDERFLOW", 6, "RET while executing the ring"),
    ErrorCause("ERR_WAIT_TIMEOUT", 7, "WAIT_REG not satisfied within WATCHDOG cycles"),
    ErrorCause("ERR_BAD_CLEAR", 8, "OP_CLEAR arg is not CLEAR_COLOR alone or a non-empty subset of CLEAR_DEPTH | CLEAR_STENCIL (arg[11:3] must be 0)"),
]
# Performance counters: one cycle counter, then busy/stalled/starved per unit.
PERF_UNITS = ["CP", "IA", "SETUP", "COARSE", "FINE", "PW", "ZS"]  # ZS appended: earlier indices keep
PERF_KINDS = ["BUSY", "STALLED", "STARVED"]
# Event counters after the unit counters (PERF_<name>): each adds the events of the cycle.
PERF_EVENTS = [("HIZ_TESTED", "raster tiles tested by hierarchical Z (every rasterizer)"),
               ("HIZ_REJECTED", "raster tiles rejected by hierarchical Z (every rasterizer)"),
               ("TEX_QUADS", "quads sent to TEX (textured quads)"),
               ("TEX_SAMPLES", "pixels sampled by TEX (live pixels of those quads)"),
               ("TEX_TEXELS", "texels read from TEX's L1 (tex.tap_o)"),
               ("TEX_LINES", "L1 lines allocated by TEX (line requests for texels, tex.miss_o)"),
               ("TEX_LINE_BYTES", "bytes of line responses read by TEX (descriptors and texels, 64 per line)")]

# Line-port clients (mem_line_req_t.src, stamped by the line arbiter; MEM_LINE_CLIENTS_MAX at most).
MEM_LINE_CLIENTS = [MemClient("MEM_LC_CP", 0), MemClient("MEM_LC_IA", 1), MemClient("MEM_LC_PW", 2, True),
                    MemClient("MEM_LC_DMA", 3, True), MemClient("MEM_LC_IF", 4), MemClient("MEM_LC_VF", 5),
                    MemClient("MEM_LC_ZS", 6, True), MemClient("MEM_LC_TEX", 7)]

# ----------------------------------------------------------------------------- register types
def reg_struct(name, cname, doc, fields, prefix="", kinds=None, width=32):
    """A register's bit fields as a packed struct of `width` bits: the fields in bit order (the
    most significant first), the bits no field names as rsvd<lsb> fields; a field is the BitField's
    name in lower case without `prefix`, of the struct kind `kinds[name]` or unsigned."""
    kinds = kinds or {}
    out, top = [], width
    for b in sorted(fields, key=lambda b: -b.msb):
        if b.msb + 1 < top:
            out.append(Field(f"rsvd{b.msb + 1}", top - b.msb - 1, "u", "reserved (written as 0)"))
        fname = b.name[len(prefix):] if prefix and b.name.startswith(prefix) else b.name
        fname = {"REF": "REF_VAL"}.get(fname, fname)  # `ref` is an SV keyword
        if b.name in kinds:
            out.append(Field(fname.lower(), 1, kinds[b.name], f"{b.name}: {b.doc}"))
        else:
            out.append(Field(fname.lower(), b.msb - b.lsb + 1, "u", f"{b.name}: {b.doc}"))
        top = b.lsb
    if top > 0:
        out.append(Field("rsvd0", top, "u", "reserved (written as 0)"))
    return Struct(name, cname, doc, out)


REG_STRUCTS = [
    reg_struct("pitch_reg_t", "PitchReg", "ST_RT_PITCH", PITCH_FIELDS, "RT_"),
    reg_struct("fe_pitch_reg_t", "FePitchReg", "FE_RT_PITCH: ST_RT_PITCH's fields and the format", FE_PITCH_FIELDS, "RT_"),
    reg_struct("size_reg_t", "SizeReg", "ST_RT_SIZE, FE_RT_SIZE", SIZE_FIELDS, "RT_"),
    reg_struct("scissor_reg_t", "ScissorReg", "ST_SCISSOR_X/Y, FE_SCISSOR_X/Y", SCISSOR_FIELDS, "SCISSOR_"),
    reg_struct("attr_reg_t", "AttrReg", "FE_ATTR_POS, FE_ATTR_COLOR, FE_ATTR_TEX0, FE_ATTR_TEX1", ATTR_FIELDS, "ATTR_"),
    reg_struct("stencil_face_t", "StencilFace", "one face's stencil function and operations (FE_STENCIL_OPS halves, ds_state_t.s_front / s_back)",
               STENCIL_FACE_FIELDS, "SFACE_", width=12),
]


def _fe_fields(name):
    return next(r.fields for r in FE_STATE if r.name == name)


REG_STRUCTS += [
    reg_struct("depth_reg_t", "DepthReg", "FE_DEPTH", _fe_fields("FE_DEPTH"), "DEPTH_"),
    reg_struct("stencil_reg_t", "StencilReg", "FE_STENCIL", _fe_fields("FE_STENCIL"), "STENCIL_"),
    reg_struct("raster_reg_t", "RasterReg", "FE_RASTER", _fe_fields("FE_RASTER"), "RASTER_"),
    reg_struct("stencil_ops_reg_t", "StencilOpsReg", "FE_STENCIL_OPS", _fe_fields("FE_STENCIL_OPS"), "STENCIL_",
               kinds={"STENCIL_FRONT": "stencil_face_t", "STENCIL_BACK": "stencil_face_t"}),
    reg_struct("blend_reg_t", "BlendReg", "FE_BLEND", BLEND_FIELDS, "BLEND_"),
    reg_struct("shade_reg_t", "ShadeReg", "FE_SHADE", _fe_fields("FE_SHADE"), "SHADE_"),
    reg_struct("combine_reg_t", "CombineReg", "FE_COMBINE ([20:0] has comb_state_t's layout)", _fe_fields("FE_COMBINE"), "COMB_"),
    reg_struct("logic_op_reg_t", "LogicOpReg", "FE_LOGIC_OP", _fe_fields("FE_LOGIC_OP"), "LOGIC_"),
]

# The type of each register with fields (StateReg.type; the others are logic [31:0]).
REG_TYPES = {
    "ST_RT_PITCH": "pitch_reg_t", "ST_RT_SIZE": "size_reg_t", "ST_SCISSOR_X": "scissor_reg_t",
    "ST_SCISSOR_Y": "scissor_reg_t", "FE_ATTR_POS": "attr_reg_t", "FE_ATTR_COLOR": "attr_reg_t",
    "FE_ATTR_TEX0": "attr_reg_t", "FE_ATTR_TEX1": "attr_reg_t", "FE_DEPTH": "depth_reg_t",
    "FE_STENCIL": "stencil_reg_t", "FE_RASTER": "raster_reg_t", "FE_RT_PITCH": "fe_pitch_reg_t",
    "FE_RT_SIZE": "size_reg_t", "FE_SCISSOR_X": "scissor_reg_t", "FE_SCISSOR_Y": "scissor_reg_t",
    "FE_STENCIL_OPS": "stencil_ops_reg_t", "FE_BLEND": "blend_reg_t", "FE_SHADE": "shade_reg_t",
    "FE_COMBINE": "combine_reg_t", "FE_LOGIC_OP": "logic_op_reg_t",
}
STATE_REGS = [r._replace(type=REG_TYPES.get(r.name, "")) for r in STATE_REGS]
FE_STATE = [r._replace(type=REG_TYPES.get(r.name, "")) for r in FE_STATE]


class RegFile(NamedTuple):
    """A unit's copy of some SET_STATE registers, written by index (state-write packets): a packed
    struct of the registers, typed (field = the register's name in lower case without FE_/ST_),
    its reset value <NAME>_RESET and a write function <name>_write(r, idx, val) in SV, a C++
    struct with the same fields, reset() and write(idx, val)."""
    name: str    # SV type name (..._t)
    cname: str   # C++ type name
    doc: str
    regs: Tuple[str, ...]


REG_FILES = [
    RegFile("vf_regs_t", "VfRegs", "vertex fetch's copy of the vertex-buffer and attribute state (docs/frontend.md section 5)",
            ("FE_VB0_BASE", "FE_VB0_STRIDE", "FE_VB0_SIZE", "FE_VB1_BASE", "FE_VB1_STRIDE", "FE_VB1_SIZE",
             "FE_ATTR_POS", "FE_ATTR_COLOR", "FE_ATTR_TEX0", "FE_ATTR_TEX1")),
    RegFile("pa_regs_t", "PaRegs", "PA's copy of the front-end state (docs/frontend.md section 6)",
            ("FE_VP_X", "FE_VP_Y", "FE_VP_W", "FE_VP_H", "FE_VP_ZMIN", "FE_VP_ZMAX", "FE_RASTER",
             "FE_RT_BASE", "FE_RT_PITCH", "FE_RT_SIZE", "FE_SCISSOR_X", "FE_SCISSOR_Y", "FE_DS_BASE",
             "FE_DS_PITCH", "FE_DEPTH", "FE_STENCIL", "FE_STENCIL_OPS", "FE_BLEND", "FE_BLEND_FACTOR",
             "FE_LOGIC_OP", "FE_SHADE", "FE_TEX0", "FE_SAMP0", "FE_TEX1", "FE_SAMP1", "FE_COMBINE")),
]


def reg_by_name(name):
    return next(r for r in STATE_REGS + FE_STATE if r.name == name)


def regfile_field(reg_name):
    return reg_name.split("_", 1)[1].lower()


def regfile_struct(f):
    return Struct(f.name, f.cname, f.doc, [
        Field(regfile_field(n), 1, reg_by_name(n).type, reg_by_name(n).doc) if reg_by_name(n).type
        else Field(regfile_field(n), 32, "u", reg_by_name(n).doc) for n in f.regs])

# ----------------------------------------------------------------------------- structs
STRUCTS = [
    Struct("vtx_t", "Vtx", "snapped screen-space vertex", [
        Field("x", 24, "s", "16.8 fixed point"),
        Field("y", 24, "s", "16.8 fixed point"),
    ]),
    Struct("rect_t", "Rect", "pixel rectangle, half-open [x0,x1) x [y0,y1)", [
        Field("x0", 15, "u", ""), Field("y0", 15, "u", ""), Field("x1", 15, "u", ""), Field("y1", 15, "u", ""),
    ]),
    Struct("trect_t", "TRect", "raster-tile rectangle, half-open (a raster tile is 8x8 samples: 8x8 pixels, 4x4 at 4x MSAA)", [
        Field("x0", 13, "u", ""), Field("y0", 13, "u", ""), Field("x1", 13, "u", ""), Field("y1", 13, "u", ""),
    ]),
    Struct("target_t", "Target", "render target binding", [
        Field("base", 32, "u", "byte address"),
        Field("pitch", 16, "u", "row pitch in bytes"),
        Field("msaa", 1, "u", "1: 4 samples per pixel (4x MSAA), sample s of pixel (x, y) at base + y*pitch + x*16 + s*4"),
    ]),
    Struct("edge_t", "Edge", "edge function E = a*(X-xi) + b*(Y-yi) + bias, in 1/65536 px^2", [
        Field("a", 25, "s", "yi - yj (16.8)"),
        Field("b", 25, "s", "xj - xi (16.8)"),
        Field("e", 50, "s", "value at a reference sample (see the packet)"),
    ]),
    Struct("dword_t", "Dword", "one 32-bit data word of a memory line", [
        Field("data", 32, "u", ""),
    ]),
    Struct("ds_state_t", "DsState", "depth-stencil state carried with the work from PA to ZS (FE_DS_*, FE_DEPTH, FE_STENCIL, FE_STENCIL_OPS)", [
        Field("base", 32, "u", "FE_DS_BASE"),
        Field("pitch", 16, "u", "FE_DS_PITCH[15:0]"),
        Field("z_enable", 1, "u", "FE_DEPTH.DEPTH_ENABLE"),
        Field("z_func", 3, "u", "FE_DEPTH.DEPTH_FUNC (CMP_*)"),
        Field("z_write", 1, "u", "FE_DEPTH.DEPTH_WRITE"),
        Field("late_z", 1, "u", "FE_DEPTH.DEPTH_LATE"),
        Field("hiz", 1, "u", "FE_DEPTH.DEPTH_HIZ"),
        Field("s_enable", 1, "u", "FE_STENCIL.STENCIL_ENABLE"),
        Field("s_ref", 8, "u", ""),
        Field("s_read_mask", 8, "u", ""),
        Field("s_write_mask", 8, "u", ""),
        Field("s_front", 12, "u", "STENCIL_FACE_* layout"),
        Field("s_back", 12, "u", "STENCIL_FACE_* layout"),
    ]),
    Struct("comb_state_t", "CombState", "FE_COMBINE [20:0] carried with a quad (the same bit layout: comb_state_t'(FE_COMBINE[20:0]))", [
        Field("a2c", 1, "u", "COMB_ALPHA_TO_COVERAGE"),
        Field("mode1", 3, "u", "COMB1_MODE: COMB_* of stage 1"),
        Field("tex1", 1, "u", "COMB1_TEX_ENABLE"),
        Field("alpha_ref", 8, "u", "COMB_ALPHA_REF (UNORM8)"),
        Field("alpha_func", 3, "u", "COMB_ALPHA_FUNC: CMP_*, pass when (alpha OP alpha_ref)"),
        Field("alpha_test", 1, "u", "COMB_ALPHA_TEST"),
        Field("mode", 3, "u", "COMB_MODE: COMB_* of stage 0"),
        Field("tex", 1, "u", "COMB_TEX_ENABLE"),
    ]),
    Struct("om_state_t", "OmState", "pixel-stage and output-merger state carried with the work from PA to PW (FE_BLEND, FE_BLEND_FACTOR, FE_LOGIC_OP, FE_RT_PITCH.RT_FMT, FE_SHADE, FE_TEX0, FE_SAMP0, FE_TEX1, FE_SAMP1, FE_COMBINE; all 0 from OP_DRAW: RGBA8, no blend, every channel written, no texture, no alpha test)", [
        Field("fmt", 2, "u", "RT_FMT_*"),
        Field("blend", 1, "u", "FE_BLEND.BLEND_ENABLE"),
        Field("src", 5, "u", "BF_*"),
        Field("dst", 5, "u", "BF_*"),
        Field("op", 3, "u", "BOP_*"),
        Field("src_a", 5, "u", "BF_*"),
        Field("dst_a", 5, "u", "BF_*"),
        Field("op_a", 3, "u", "BOP_*"),
        Field("mask_off", 4, "u", "channels not written: bit 0 R, 1 G, 2 B, 3 A"),
        Field("lop_en", 1, "u", "FE_LOGIC_OP.LOGIC_ENABLE (blend is then ignored)"),
        Field("lop", 4, "u", "FE_LOGIC_OP.LOGIC_OP: LOP_*"),
        Field("factor", 32, "u", "FE_BLEND_FACTOR (RGBA8)"),
        Field("gouraud", 1, "u", "FE_SHADE.SHADE_GOURAUD (read by INTERP: 0 flat colour, 1 interpolated)"),
        Field("tex1", 32, "u", "FE_TEX1: texture descriptor byte address of stage 1 (read by TEX when comb.tex1; docs/comb.md)"),
        Field("samp1", 32, "u", "FE_SAMP1: sampler descriptor byte address of stage 1"),
        Field("tex", 32, "u", "FE_TEX0: texture descriptor byte address of stage 0 (read by TEX when comb.tex; docs/tex.md)"),
        Field("samp", 32, "u", "FE_SAMP0: sampler descriptor byte address of stage 0"),
        Field("comb", 1, "comb_state_t", "FE_COMBINE [20:0]: combiner, alpha test and alpha to coverage (read by TEX and COMB; docs/comb.md)"),
    ]),
    Struct("zplane_t", "ZPlane", "depth plane Z = c + a*(X - Xr) + b*(Y - Yr) in 2^-Z_FRAC D24 units (docs/numerics.md section 9)", [
        Field("a", 33, "s", "dZ/dX per 1/256 px"),
        Field("b", 33, "s", "dZ/dY per 1/256 px"),
        Field("c", 59, "s", "Z at the reference sample (see the packet)"),
    ]),
    Struct("iplane_t", "IPlane", "interpolation plane P(X, Y) = c + a*(X - 128) + b*(Y - 128), exact integers: sum of Q_k * E_k (docs/numerics.md section 10)", [
        Field("a", 57, "s", "dP/dX per 1/256 px"),
        Field("b", 57, "s", "dP/dY per 1/256 px"),
        Field("c", 84, "s", "P at the centre of pixel (0, 0), X = Y = 128"),
    ]),
    Struct("d24_t", "D24", "one D24 UNORM depth value", [
        Field("v", 24, "u", "0 .. DEPTH_MAX"),
    ]),
    # ---- stream packets
    Struct("draw_pkt_t", "DrawPkt", "CP -> IA: one draw with the state it needs carried along", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("vb_base", 32, "u", "vertex buffer byte address"),
        Field("first_vertex", 32, "u", ""),
        Field("vertex_count", 32, "u", "triangle list: floor(count/3) triangles"),
        Field("color", 32, "u", "RGBA8"),
        Field("target", 1, "target_t", ""),
        Field("clip", 1, "rect_t", "scissor intersected with the render target"),
        Field("draw_id", 16, "u", "sequence number of the draw (wraps)"),
    ]),
    # ---- per-vertex attributes on the triangle (issue 15; PA section of docs/frontend.md)
    Struct("fvec2_t", "FVec2", "a texture coordinate: two FP32 values", [
        Field("u", 32, "u", ""), Field("v", 32, "u", ""),
    ]),
    Struct("vattr_t", "VAttr", "per-vertex attributes of a triangle for SETUP/INTERP (PA's, or OP_DRAW's constants)", [
        Field("rhw", 32, "u", "FP32 1/w of the clip-space w (PA's reciprocal; a clipped vertex's own); 1.0 from OP_DRAW"),
        Field("color", 32, "u", "RGBA8 (R in [7:0]); OP_DRAW: the draw colour"),
        Field("uv0", 1, "fvec2_t", "texture coordinate 0 (FP32, not divided by w); 0 from OP_DRAW"),
        Field("uv1", 1, "fvec2_t", "texture coordinate 1; 0 from OP_DRAW"),
    ]),
    Struct("tri_pkt_t", "TriPkt", "IA -> SETUP: one triangle", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("v", 3, "vtx_t", "vertices in API order"),
        Field("color", 32, "u", ""),
        Field("target", 1, "target_t", ""),
        Field("clip", 1, "rect_t", ""),
        Field("tri_id", 32, "u", "sequence number of the triangle since reset"),
        Field("z", 3, "dword_t", "per-vertex screen depth, FP32 (PA's attr.z; 0 from OP_DRAW)"),
        Field("front", 1, "u", "front facing (PA's facing; 1 from OP_DRAW)"),
        Field("ds", 1, "ds_state_t", "depth-stencil state (0, off, from OP_DRAW)"),
        Field("om", 1, "om_state_t", "output-merger state (0 from OP_DRAW)"),
        Field("zlo", 24, "u", "viewport depth range as D24 (PA's; 0 from OP_DRAW): every sample depth is clamped to [zlo, zhi]"),
        Field("zhi", 24, "u", "zhi >= zlo"),
        Field("a", 3, "vattr_t", "per-vertex attributes in the order of v (0 in an end-of-pipe token)"),
    ]),
    Struct("interp_tri_t", "InterpTri", "SETUP's interpolation state of a triangle (docs/numerics.md section 10): three planes and the vertex attributes, carried unchanged from SETUP to INTERP", [
        Field("w", 1, "iplane_t", "W = L0 + L1 + L2 (the 1/w plane times the doubled area)"),
        Field("l1", 1, "iplane_t", "L1 = Q1 * E1 (oriented): lambda1 / w times the doubled area"),
        Field("l2", 1, "iplane_t", "L2 = Q2 * E2"),
        Field("c0", 32, "u", "vertex colours RGBA8, API order"),
        Field("c1", 32, "u", ""),
        Field("c2", 32, "u", ""),
        Field("t0", 2, "fvec2_t", "uv0 [0] and uv1 [1] of vertex 0 (FP32)"),
        Field("d1", 2, "fvec2_t", "uv - uv of vertex 0 for vertex 1 (FP32 sub), uv0 [0] and uv1 [1]"),
        Field("d2", 2, "fvec2_t", "the same for vertex 2"),
    ]),
    Struct("setup_pkt_t", "SetupPkt", "SETUP -> COARSE: a triangle that may cover samples", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("edges", 3, "edge_t", "e = E at the first sample of raster tile (start, tiles.y0)"),
        Field("tiles", 1, "trect_t", "raster tiles touched by pix"),
        Field("start", 13, "u", "first column of the tile walk (tiles.x0 <= start < tiles.x1)"),
        Field("pix", 1, "rect_t", "sample bounding box intersected with clip (non-empty)"),
        Field("color", 32, "u", ""),
        Field("target", 1, "target_t", ""),
        Field("tri_id", 32, "u", ""),
        Field("front", 1, "u", ""),
        Field("ds", 1, "ds_state_t", ""),
        Field("om", 1, "om_state_t", "output-merger state (0 from OP_DRAW)"),
        Field("zp", 1, "zplane_t", "depth plane, c at the same sample as the edges' e"),
        Field("zlo", 24, "u", "depth clamp range (D24)"),
        Field("zhi", 24, "u", ""),
        Field("it", 1, "interp_tri_t", "interpolation state (docs/interp.md), unchanged from SETUP to INTERP; 0 in a token"),
    ]),
    Struct("tile_pkt_t", "TilePkt", "COARSE -> FINE: one raster tile (8x8 samples) not rejected by the corner test", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("tx", 13, "u", ""),
        Field("ty", 13, "u", ""),
        Field("edge_in", 3, "u", "bit k: all 64 samples inside edge k (all three: trivially accepted)"),
        Field("edges", 3, "edge_t", "e = E at the tile's first sample"),
        Field("pix", 1, "rect_t", ""),
        Field("color", 32, "u", ""),
        Field("target", 1, "target_t", ""),
        Field("tri_id", 32, "u", ""),
        Field("zmin", 24, "u", "D24: no sample of the tile inside the triangle has a smaller depth (for HIZ)"),
        Field("zmax", 24, "u", "D24: nor a larger one"),
        Field("front", 1, "u", ""),
        Field("ds", 1, "ds_state_t", ""),
        Field("om", 1, "om_state_t", "output-merger state (0 from OP_DRAW)"),
        Field("zp", 1, "zplane_t", "depth plane, c at the tile's first sample"),
        Field("zlo", 24, "u", "depth clamp range (D24)"),
        Field("zhi", 24, "u", ""),
        Field("it", 1, "interp_tri_t", "interpolation state (docs/interp.md), unchanged from SETUP to INTERP; 0 in a token"),
    ]),
    Struct("quad_pkt_t", "QuadPkt", "FINE -> ZS (then INTERP, the pixel stage, PW): coverage of one 2x2 pixel quad (never empty)", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("qx", 13, "u", "quad column: pixels x = 2*qx, 2*qx + 1"),
        Field("qy", 13, "u", "quad row: pixels y = 2*qy, 2*qy + 1"),
        Field("mask", 16, "u", "1x: bit p covers pixel (2*qx + p%2, 2*qy + p/2), p < 4; 4x: bit 4*p + s its sample s"),
        Field("color", 32, "u", ""),
        Field("target", 1, "target_t", ""),
        Field("tri_id", 32, "u", ""),
        Field("z", 16, "d24_t", "depth of each sample, indexed like mask (clamped to the viewport depth range, D24); 0 where mask is 0"),
        Field("front", 1, "u", ""),
        Field("ds", 1, "ds_state_t", ""),
        Field("om", 1, "om_state_t", "output-merger state (0 from OP_DRAW)"),
        Field("it", 1, "interp_tri_t", "interpolation state (docs/interp.md), unchanged from SETUP to INTERP; 0 in a token"),
    ]),
    Struct("clear_pkt_t", "ClearPkt", "CP -> ZS (depth/stencil fast clear) or the DMA fill: one OP_CLEAR with a non-empty rectangle, sent once the pipe is idle and the colour cache clean", [
        Field("color", 1, "u", "CLEAR_COLOR"),
        Field("depth", 1, "u", "CLEAR_DEPTH"),
        Field("stencil", 1, "u", "CLEAR_STENCIL"),
        Field("target", 1, "target_t", "the cleared target"),
        Field("rect", 1, "rect_t", "pixels, half-open, clamped to MAX_RT_DIM"),
        Field("value", 32, "u", "RGBA8, or depth [23:0] and stencil [31:24]"),
        Field("hiz_forget", 1, "u", "on the HIZ port only: forget the Hi-Z buffer (nothing is rejected until the next depth clear); set for a COPY, colour clear or RESOLVE whose destination bytes meet the last depth clear's buffer (its first HIZ_BUF_ROWS rows); HIZ ignores the other fields then"),
    ]),
    Struct("resolve_pkt_t", "ResolvePkt", "CP -> the resolve engine: one checked OP_RESOLVE (non-empty rectangle, aligned, inside the window, spans disjoint), sent once the pipe is idle and the colour cache clean", [
        Field("fmt", 2, "u", "RT_FMT_* of both targets"),
        Field("src", 32, "u", "4x source: sample s of pixel (x, y) at src + y*src_pitch + x*P + s*P/4 (P = 16, or 8 for B5G6R5)"),
        Field("dst", 32, "u", "1x destination: pixel (x, y) at dst + y*dst_pitch + x*P/4"),
        Field("src_pitch", 16, "u", "bytes, a multiple of P"),
        Field("dst_pitch", 16, "u", "bytes, a multiple of 4"),
        Field("rect", 1, "rect_t", "pixels, half-open, non-empty"),
    ]),
    Struct("mem_line_req_t", "MemLineReq", "line-port request (client -> line arbiter -> memory): one aligned 64-byte line", [
        Field("we", 1, "u", "1 = write"),
        Field("addr", 32, "u", "byte address of the line (addr[5:0] ignored)"),
        Field("wdata", 16, "dword_t", "writes: dword k holds bytes addr + 4k .. addr + 4k + 3, little endian"),
        Field("be", 64, "u", "writes: byte enables, bit n = byte addr + n (a write with be = 0 is allowed and writes nothing)"),
        Field("src", 4, "u", "client id (MEM_LC_*), stamped by the line arbiter; clients drive 0"),
        Field("tag", 8, "u", "the client's own, returned with the response"),
    ]),
    Struct("mem_line_rsp_t", "MemLineRsp", "line-port response: one per request, reads and writes, in request order", [
        Field("we", 1, "u", "1 = write acknowledgement (rdata 0)"),
        Field("rdata", 16, "dword_t", "reads: the line, dword k = bytes addr + 4k .. + 3"),
        Field("src", 4, "u", "the request's src: the line arbiter routes the response to that client"),
        Field("tag", 8, "u", "the request's tag"),
    ]),
    # Port bundles (docs/contract.md sections 2.1 and 3): the signals of one port, one struct per
    # direction, so a module lists a port in two lines. Not packets: no tap, no model twin.
    Struct("mem_port_req_t", "MemPortReq", "line port, client -> memory: the request stream and the response ready (a module's mem_o)", [
        Field("valid", 1, "u", "request valid"),
        Field("req", 1, "mem_line_req_t", "the request"),
        Field("rsp_ready", 1, "u", "the client takes the response (it must not wait on anything else)"),
    ]),
    Struct("mem_port_rsp_t", "MemPortRsp", "line port, memory -> client: the request ready and the response stream (a module's mem_i)", [
        Field("req_ready", 1, "u", "memory takes the request"),
        Field("rsp_valid", 1, "u", "response valid"),
        Field("rsp", 1, "mem_line_rsp_t", "the response"),
    ]),
    Struct("line_job_t", "LineJob", "line_stream_reader, user -> reader (its job_i): a run of dwords to stream from memory, taken with job_ready_o", [
        Field("valid", 1, "u", "a job offered"),
        Field("addr", 32, "u", "byte address of the first dword (addr[1:0] ignored)"),
        Field("count", 33, "u", "dwords (0: accepted, reads nothing)"),
    ]),
    Struct("line_port_req_t", "LinePortReq", "line_port, engine -> line_port (its eng_i): the head line taken and the write handed; the read offer stays loose ports (rd_take_o depends on rd_valid_i)", [
        Field("line_ready", 1, "u", "the engine takes the head read line"),
        Field("wr_valid", 1, "u", "a write handed (only while wr_free)"),
        Field("wr", 1, "mem_line_req_t", "the write (we = 1; line_port stamps the tag)"),
    ]),
    Struct("line_port_rsp_t", "LinePortRsp", "line_port -> engine (its eng_o): the head read line, the write slot and busy; functions of registers and mem_i only", [
        Field("line_valid", 1, "u", "a read line is at the head"),
        Field("line", 16, "dword_t", "the head read line, dword k = bytes addr + 4k .. + 3"),
        Field("wr_free", 1, "u", "the engine may hand a write this cycle"),
        Field("busy", 1, "u", "a read outstanding or buffered, a write held or not yet acknowledged"),
    ]),
    Struct("fp32_spec_t", "Fp32Spec", "a pipelined FP32 operator's special-case result, from its first stage to fp32_round_q (docs/numerics.md section 7)", [
        Field("valid", 1, "u", "the result is val (NaN, Inf, a zero operand, ...), not the rounded value"),
        Field("val", 32, "u", "the special-case result (0 when not valid)"),
    ]),
    Struct("reg_req_t", "RegReq", "host register port, host -> GPU (a module's reg_i): a write when valid && we (no ready: taken at once); reads are combinational from addr", [
        Field("valid", 1, "u", "a write this cycle (with we)"),
        Field("we", 1, "u", "1 = write"),
        Field("addr", HOST_ADDR_BITS, "u", "register index (reg_addr_e)"),
        Field("wdata", 32, "u", ""),
    ]),
    Struct("reg_rsp_t", "RegRsp", "host register port, GPU -> host (a module's reg_o)", [
        Field("rdata", 32, "u", "the register at addr, combinational"),
        Field("irq", 1, "u", "interrupt line: IRQ_STATUS & IRQ_ENABLE != 0"),
    ]),
    # ---- vertex transform (VTX: vertex fetch -> VTX -> PA)
    Struct("fvec4_t", "FVec4", "four FP32 values (IEEE binary32 bit patterns)", [
        Field("x", 32, "u", ""), Field("y", 32, "u", ""), Field("z", 32, "u", ""), Field("w", 32, "u", ""),
    ]),
    Struct("interp_pkt_t", "InterpPkt", "INTERP -> PW: a quad with per-pixel colour and texture coordinates (evaluated at the pixel centres)", [
        Field("quad", 1, "quad_pkt_t", "the quad as it left ZS, with it = 0 (not needed after INTERP)"),
        Field("pcolor", 4, "dword_t", "RGBA8 of pixel p (p = 0..3 as quad_pkt_t.mask at 1x); flat: every pixel quad.color"),
        Field("uv0", 4, "fvec2_t", "texture coordinate 0 of pixel p (FP32)"),
        Field("uv1", 4, "fvec2_t", "texture coordinate 1 of pixel p (FP32) when quad.om.comb.tex1 (combiner stage 1 samples texture 1), else 0"),
    ]),
    # ---- texture sampler (docs/tex.md). Descriptors are 8 little-endian dwords in memory; the
    # struct lists dw7 first so that dword k of the descriptor is bits [32k +: 32] (a line's rdata).
    Struct("tex_desc_t", "TexDesc", "texture descriptor (memory, 32 bytes at FE_TEX0)", [
        Field("rsv7", 32, "u", "dw7: reserved, 0"),
        Field("rsv6", 32, "u", "dw6: reserved, 0"),
        Field("rsv5", 32, "u", "dw5: reserved, 0"),
        Field("rsv4", 32, "u", "dw4: reserved, 0"),
        Field("rsv3", 32, "u", "dw3: reserved, 0"),
        Field("rsv2", 24, "u", "dw2 [31:8]: reserved, 0"),
        Field("levels", 4, "u", "dw2 [7:4]: mip levels, 1 .. floor(log2(max(WIDTH, HEIGHT))) + 1"),
        Field("fmt", 4, "u", "dw2 [3:0]: TEX_FMT_*"),
        Field("height", 16, "u", "dw1 [31:16]: 1 .. TEX_MAX_DIM"),
        Field("width", 16, "u", "dw1 [15:0]: 1 .. TEX_MAX_DIM"),
        Field("base", 32, "u", "dw0: byte address of level 0 (64-byte aligned)"),
    ]),
    Struct("samp_desc_t", "SampDesc", "sampler descriptor (memory, 32 bytes at FE_SAMP0)", [
        Field("rsv7", 32, "u", "dw7: reserved, 0"),
        Field("rsv6", 32, "u", "dw6: reserved, 0"),
        Field("rsv5", 32, "u", "dw5: reserved, 0"),
        Field("rsv4", 32, "u", "dw4: reserved, 0"),
        Field("border", 32, "u", "dw3: border colour RGBA8 (R [7:0] .. A [31:24]), UNORM, never sRGB-decoded"),
        Field("rsv2b", 4, "u", "dw2 [31:28]: reserved"),
        Field("max_lod", 12, "u", "dw2 [27:16]: MAX_LOD, unsigned 4.8"),
        Field("rsv2a", 4, "u", "dw2 [15:12]: reserved"),
        Field("min_lod", 12, "u", "dw2 [11:0]: MIN_LOD, unsigned 4.8"),
        Field("rsv1", 16, "u", "dw1 [31:16]: reserved (anisotropy, later)"),
        Field("lod_bias", 16, "s", "dw1 [15:0]: LOD_BIAS, signed 8.8"),
        Field("rsv0", 22, "u", "dw0 [31:10]: reserved"),
        Field("addr_v", 3, "u", "dw0 [9:7]: TEX_ADDR_*"),
        Field("addr_u", 3, "u", "dw0 [6:4]: TEX_ADDR_*"),
        Field("mip", 2, "u", "dw0 [3:2]: TEX_MIP_*"),
        Field("mag", 1, "u", "dw0 [1]: TEX_FILTER_* when LOD <= 0"),
        Field("min", 1, "u", "dw0 [0]: TEX_FILTER_* when LOD > 0"),
    ]),
    Struct("tex_in_pkt_t", "TexInPkt", "-> TEX: one 2x2 quad to sample (pixel p = (2qx + p%2, 2qy + p/2)); the descriptors travel with the work", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order"),
        Field("tc", 4, "fvec2_t", "per pixel (u, v), FP32; every pixel (live or not) feeds the LOD"),
        Field("live", 4, "u", "bit p: pixel p is sampled (a dead pixel fetches nothing and returns 0)"),
        Field("tex", 32, "u", "texture descriptor byte address (FE_TEX0)"),
        Field("samp", 32, "u", "sampler descriptor byte address (FE_SAMP0)"),
        Field("tag", 16, "u", "the client's own, returned with the result"),
    ]),
    Struct("tex_out_pkt_t", "TexOutPkt", "TEX ->: the quad's four samples, in input order", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0)"),
        Field("color", 4, "dword_t", "per pixel RGBA8 (R [7:0] .. A [31:24]), linear; 0 where live is 0 or fault != 0"),
        Field("live", 4, "u", "the input's live"),
        Field("fault", 3, "u", "TEX_FAULT_*: nonzero when the descriptors are invalid (all four colours 0)"),
        Field("tag", 16, "u", "the input's tag"),
    ]),
    # ---- texture combiner and alpha test (docs/comb.md)
    Struct("comb_in_pkt_t", "CombInPkt", "INTERP + TEX -> COMB: a quad with its per-pixel colour, the texels of both stages and the combiner state", [
        Field("ip", 1, "interp_pkt_t", "INTERP's quad (ip.quad.eop: end-of-pipe token, passed through)"),
        Field("texel0", 4, "dword_t", "stage 0 texel of pixel p (tex_out_pkt_t.color, RGBA8 linear); read when st.tex"),
        Field("texel1", 4, "dword_t", "stage 1 texel of pixel p; read when st.tex1"),
        Field("st", 1, "comb_state_t", "the draw's FE_COMBINE"),
    ]),
    Struct("vtx_in_pkt_t", "VtxInPkt", "-> VTX: an object-space vertex, or one row of the position matrix", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("kind", 2, "u", "VTX_KIND_* (when eop = 0); other values are consumed and ignored"),
        Field("row", 2, "u", "VTX_KIND_MATRIX_ROW: the matrix row that pos replaces"),
        Field("pos", 1, "fvec4_t", "vertex: object-space position; matrix row: (M[row][0..3]) in (x, y, z, w)"),
        Field("color", 32, "u", "RGBA8, passed through"),
        Field("tex0", 1, "fvec2_t", "passed through"),
        Field("tex1", 1, "fvec2_t", "passed through"),
        Field("vtx_id", 32, "u", "passed through (order / post-transform slot)"),
    ]),
    Struct("clip_vtx_pkt_t", "ClipVtxPkt", "VTX ->: a clip-space vertex, pos = M * pos in the documented order", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("pos", 1, "fvec4_t", "clip-space position"),
        Field("color", 32, "u", ""),
        Field("tex0", 1, "fvec2_t", ""),
        Field("tex1", 1, "fvec2_t", ""),
        Field("vtx_id", 32, "u", ""),
    ]),
    # ---- input assembly front end (docs/frontend.md: index fetch, vertex tags, vertex fetch)
    Struct("idraw_pkt_t", "IDrawPkt", "CP -> IA front end: an indexed or non-indexed, instanced triangle draw", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("indexed", 1, "u", "1: indices from the index buffer; 0: index = first + k"),
        Field("index32", 1, "u", "index format: 0 = 16-bit, 1 = 32-bit"),
        Field("strip", 1, "u", "topology: 0 = triangle list, 1 = triangle strip"),
        Field("restart", 1, "u", "strips: the cut index (INDEX_CUT_16/32) restarts the strip"),
        Field("ib_base", 32, "u", "index buffer byte address (a multiple of the index size)"),
        Field("ib_size", 32, "u", "index buffer size in bytes: an index at or beyond it reads as 0"),
        Field("first", 32, "u", "start index (indexed) or start vertex (non-indexed)"),
        Field("count", 32, "u", "indices (or vertices) per instance"),
        Field("base_vertex", 32, "u", "indexed: added to every index value (mod 2^32)"),
        Field("instance_count", 32, "u", "instances; 0 draws nothing"),
        Field("start_instance", 32, "u", "instance id of the first instance"),
        Field("draw_id", 16, "u", ""),
        Field("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        Field("wr_idx", 8, "u", "state register index (FE_*)"),
        Field("wr_val", 32, "u", ""),
    ]),
    Struct("index_pkt_t", "IndexPkt", "index fetch -> vertex tags: one index position of one instance", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("index", 32, "u", "vertex index: index value + base_vertex, or first + k (mod 2^32); 0 on a cut"),
        Field("inst_id", 32, "u", "instance id: start_instance + i (mod 2^32)"),
        Field("cut", 1, "u", "strip cut at this position: the strip restarts after it"),
        Field("strip", 1, "u", "topology of the draw (0 list, 1 strip)"),
        Field("last", 1, "u", "last position of this instance"),
        Field("draw_id", 16, "u", ""),
        Field("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        Field("wr_idx", 8, "u", "state register index (FE_*)"),
        Field("wr_val", 32, "u", ""),
    ]),
    Struct("vfetch_pkt_t", "VFetchPkt", "vertex tags -> vertex fetch: one vertex (cache miss) of a batch", [
        Field("index", 32, "u", "vertex index"),
        Field("inst_id", 32, "u", "instance id"),
        Field("slot", 5, "u", "batch slot, allocated 0, 1, 2, ... in order"),
        Field("first", 1, "u", "first vertex of the batch (slot 0): the batch starts here (sent as soon as it is allocated, never held)"),
        Field("draw_id", 16, "u", ""),
        Field("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        Field("wr_idx", 8, "u", "state register index (FE_*)"),
        Field("wr_val", 32, "u", ""),
    ]),
    Struct("prim_pkt_t", "PrimPkt", "vertex tags -> primitive assembly: one triangle of a batch, by batch slot", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("s0", 5, "u", "slot of vertex 0 (API order; odd strip triangles swap v0 and v1)"),
        Field("s1", 5, "u", "slot of vertex 1"),
        Field("s2", 5, "u", "slot of vertex 2"),
        Field("last", 1, "u", "last triangle of the batch"),
        Field("prim_id", 32, "u", "triangle sequence number since reset"),
        Field("draw_id", 16, "u", ""),
        Field("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        Field("wr_idx", 8, "u", "state register index (FE_*)"),
        Field("wr_val", 32, "u", ""),
    ]),
    # ---- primitive assembly (docs/frontend.md section 6)
    Struct("pa_attr_t", "PaAttr", "per-vertex attributes of a PA triangle, for the interpolation unit", [
        Field("z", 32, "u", "screen depth z/w * (zmax - zmin) + zmin (FP32, not clamped)"),
        Field("rhw", 32, "u", "1/w (FP32)"),
        Field("color", 32, "u", "RGBA8"),
        Field("tex0", 1, "fvec2_t", ""),
        Field("tex1", 1, "fvec2_t", ""),
    ]),
    Struct("pa_tri_pkt_t", "PaTriPkt", "PA -> SETUP: a clipped, projected, snapped, not culled triangle", [
        Field("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        Field("v", 3, "vtx_t", "snapped vertices in API order (the fan order of a clipped primitive)"),
        Field("color", 32, "u", "flat colour: the provoking vertex v0's colour of the input triangle"),
        Field("target", 1, "target_t", ""),
        Field("clip", 1, "rect_t", "scissor intersected with the render target"),
        Field("tri_id", 32, "u", "sequence number of the output triangle since reset"),
        Field("attr", 3, "pa_attr_t", "per-vertex attributes, same order as v"),
        Field("prim_id", 32, "u", "prim_id of the input triangle it comes from"),
        Field("draw_id", 16, "u", ""),
        Field("front", 1, "u", "front facing (FE_RASTER.RASTER_FRONT_CCW and the snapped winding)"),
        Field("ds", 1, "ds_state_t", "depth-stencil state of the draw"),
        Field("om", 1, "om_state_t", "output-merger state (0 from OP_DRAW)"),
        Field("zlo", 24, "u", "D24 of FE_VP_ZMIN (docs/numerics.md section 9)"),
        Field("zhi", 24, "u", "max(zlo, D24 of FE_VP_ZMAX)"),
    ]),
]
# The register types first (packets may use them), the register files last.
STRUCTS = REG_STRUCTS + STRUCTS + [regfile_struct(f) for f in REG_FILES]

# Stream boundaries tapped by the full-pipeline harness, in pipeline order. From this list
# contracts/gen.py makes the Boundary enum and BOUNDARY_<NAME> throttle-bit indices, the C++
# record of one stream per boundary (cpp_model/common/pineda_boundaries.h: the model's Trace,
# the harness's expected streams, checkers and tap loop) and the stream-rule checkers bound
# into pineda_top (rtl/top/pineda_top_tap_chk.sv). Adding a boundary: add it here, give
# pineda_top its tap_<name>_valid_o / _ready_o / _o ports (the consumer side of a
# stream_throttle on throttle_i[pineda_pkg::BOUNDARY_<NAME>]) and record its packets in the
# model (cpp_model/top/pineda_top.cpp); the harness and the trace need nothing more.
from typing import NamedTuple  # noqa: E402


class StreamBoundary(NamedTuple):
    name: str     # tap_<name>_* ports of pineda_top, Trace member, Boundary::<NAME>
    pkt: str      # SV packet type
    between: str  # producer -> consumer
    # How the harness compares it with the model when pineda_top has NumRast > 1 rasterizers
    # (docs/verification.md "Several rasterizers"):
    #   "in_order"  one stream, in the model's order (whatever NumRast)
    #   "per_lane"  one tap lane per rasterizer (ports [NumRast-1:0]), each in the order of the
    #               model's packets that rasterizer owns; end-of-pipe tokens on every lane
    #   "per_owner" one merged tap, in order per owning rasterizer; a token must be next on all
    #   "from_rtl"  the model's stream recomputed from the RTL's order of the merged quads
    multi_rast: str = "in_order"


BOUNDARIES = [
    StreamBoundary("cp_draw", "draw_pkt_t", "CP -> IA"),
    StreamBoundary("ia_tri", "tri_pkt_t", "IA -> SETUP"),
    StreamBoundary("setup_tri", "setup_pkt_t", "SETUP -> COARSE"),
    StreamBoundary("coarse_tile", "tile_pkt_t", "COARSE -> FINE", "per_lane"),
    StreamBoundary("fine_quad", "quad_pkt_t", "FINE -> ZS", "per_owner"),
    StreamBoundary("pw_mem", "mem_line_req_t", "PW (colour cache line writes) -> line arbiter", "from_rtl"),
    # the geometry front end (OP_DRAW_FE), appended so the throttle bits above keep their index
    StreamBoundary("cp_idraw", "idraw_pkt_t", "CP -> index fetch: front-end draws, state writes, tokens"),
    StreamBoundary("if_index", "index_pkt_t", "index fetch -> vertex tags"),
    StreamBoundary("vt_vertex", "vfetch_pkt_t", "vertex tags -> vertex fetch (batch vertices, state writes)"),
    StreamBoundary("vt_prim", "prim_pkt_t", "vertex tags -> PA (batch triangles, state writes, tokens)"),
    StreamBoundary("vf_vtx", "vtx_in_pkt_t", "vertex fetch -> VTX"),
    StreamBoundary("vtx_clip", "clip_vtx_pkt_t", "VTX -> PA"),
    StreamBoundary("pa_tri", "pa_tri_pkt_t", "PA -> SETUP (merged with ia_tri)"),
    # depth/stencil, appended so the throttle bits above keep their index
    StreamBoundary("zs_quad", "quad_pkt_t", "ZS -> INTERP: the quads left after the depth and stencil tests", "per_owner"),
    # attribute interpolation, appended so the throttle bits above keep their index
    StreamBoundary("interp_quad", "interp_pkt_t", "INTERP -> TEX/COMB: the quads with per-pixel colour and texture coordinates", "per_owner"),
    # texturing and the combiner, appended so the throttle bits above keep their index
    StreamBoundary("comb_quad", "interp_pkt_t", "COMB -> PW: the quads after TEX and the combiner (pcolor combined, alpha-killed pixels removed, empty quads dropped)", "per_owner"),
]
# The boundaries inside front_end (rtl/top/front_end.sv): it hands their taps to pineda_top as one
# pineda_pkg::fe_taps_t (<name>_valid, <name>_ready, <name> per boundary), which pineda_top
# spreads onto its tap_<name>_* ports. pa_tri is front_end's own output, not a tap.
FE_TAPS = ["cp_idraw", "if_index", "vt_vertex", "vt_prim", "vf_vtx", "vtx_clip"]
