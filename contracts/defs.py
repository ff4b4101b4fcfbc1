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
"""

# ----------------------------------------------------------------------------- constants
# (name, value, doc). Values are ints; widths are given where SV needs a typed constant.
CONSTANTS = [
    ("CONTRACT_VERSION", 5, "bumped whenever any packet, encoding or register changes"),
    ("COORD_W", 24, "snapped coordinate width: signed 16.8 fixed point"),
    ("COORD_FRAC", 8, "fractional bits of a snapped coordinate"),
    ("DELTA_W", 25, "edge coefficient width (difference of two COORD_W values)"),
    ("EDGE_W", 50, "edge function value width; see docs/numerics.md for the bound"),
    ("PIX_W", 15, "pixel coordinate width (0..16384, half-open rectangles)"),
    ("TILE_W", 13, "raster-tile coordinate width (0..4096, half-open rectangles; 4x4-pixel tiles at 4x MSAA)"),
    ("FINE_W", 31, "fine rasterizer per-sample datapath width (docs/numerics.md section 5.2)"),
    ("MAX_RT_DIM", 16384, "largest render-target width/height in pixels"),
    ("TILE_SIZE", 8, "tile edge in pixels"),
    ("TAG_W", 8, "memory tag width; [7:6] = client id in the arbiter"),
    ("NUM_FENCES", 16, "CPU-visible fence registers"),
    ("NUM_STATE", 16, "draw-state registers written by SET_STATE"),
    ("VERTEX_BYTES", 8, "vertex buffer stride in v1: int32 x, int32 y (16.8)"),
    ("RET_STACK_DEPTH", 4, "CALL return-stack levels (a 5th nested CALL is ERR_STACK_OVERFLOW)"),
    ("EOP_QUEUE_DEPTH", 4, "end-of-pipe WRITE_REGs in flight; the next one waits for a completion"),
    # FP32 and the vertex transform (docs/numerics.md section 7, docs/contract.md section 5.1)
    ("FP32_QNAN", 0x7FC00000, "the one NaN every FP32 operation returns (positive quiet NaN, payload 0)"),
    ("FP32_ONE", 0x3F800000, "1.0f (the VTX matrix resets to the identity)"),
    ("FIX16_8_MAX", 0x7FFFFF, "largest 16.8 value (2^23 - 1) a float->16.8 conversion saturates to"),
    ("VTX_KIND_VERTEX", 0, "vtx_in_pkt_t.kind: an object-space vertex to transform"),
    ("VTX_KIND_MATRIX_ROW", 1, "vtx_in_pkt_t.kind: pos = row `row` of the position matrix"),
    # Input assembly front end: index fetch and vertex cache tags (docs/frontend.md)
    ("VTX_BATCH_SLOTS", 32, "vertices per batch (vertex cache tag entries)"),
    ("VTX_BATCH_TRIS", 64, "triangles per batch at most (a batch closes after this many; the triangle FIFO in front of PA holds one batch)"),
    ("INDEX_CUT_16", 0xFFFF, "16-bit strip-cut index"),
    ("INDEX_CUT_32", 0xFFFFFFFF, "32-bit strip-cut index"),
    # Front-end state registers, carried in order by state-write packets (docs/frontend.md
    # section 4); they become SET_STATE indices when the front end is connected behind the CP.
    ("FE_VB0_BASE", 16, "front-end state: vertex buffer 0 (per vertex) byte address"),
    ("FE_VB0_STRIDE", 17, "front-end state: vertex buffer 0 stride in bytes ([15:0])"),
    ("FE_VB0_SIZE", 18, "front-end state: vertex buffer 0 size in bytes"),
    ("FE_VB1_BASE", 19, "front-end state: vertex buffer 1 (per instance) byte address"),
    ("FE_VB1_STRIDE", 20, "front-end state: vertex buffer 1 stride in bytes ([15:0])"),
    ("FE_VB1_SIZE", 21, "front-end state: vertex buffer 1 size in bytes"),
    ("FE_ATTR_POS", 22, "front-end state: position attribute: [2:0] ATTR_FMT_*, [3] buffer 1, [31:16] byte offset"),
    ("FE_ATTR_COLOR", 23, "front-end state: colour attribute (same layout)"),
    ("FE_ATTR_TEX0", 24, "front-end state: texture coordinate 0 attribute (same layout)"),
    ("FE_ATTR_TEX1", 25, "front-end state: texture coordinate 1 attribute (same layout)"),
    ("FE_IB_BASE", 26, "front-end state held by the CP: index buffer byte address (into idraw_pkt_t.ib_base)"),
    ("FE_IB_SIZE", 27, "front-end state held by the CP: index buffer size in bytes (into idraw_pkt_t.ib_size)"),
    ("FE_STATE_END", 64, "SET_STATE indices [NUM_STATE, FE_STATE_END) are front-end state, sent down the front end as writes"),
    ("FE_MATRIX0", 32, "front-end state: position matrix M[r][c] at FE_MATRIX0 + 4r + c (FP32; reset identity)"),
    ("ATTR_FMT_NONE", 0, "attribute not fetched: reads the default (0, 0, 0, 1)"),
    ("ATTR_FMT_F32X1", 1, "one FP32; y, z, w default to 0, 0, 1"),
    ("ATTR_FMT_F32X2", 2, "two FP32; z, w default to 0, 1"),
    ("ATTR_FMT_F32X3", 3, "three FP32; w defaults to 1"),
    ("ATTR_FMT_F32X4", 4, "four FP32"),
    ("ATTR_FMT_UNORM8X4", 5, "four UNORM8 in one dword, x in [7:0]"),
    # Primitive assembly, clip, viewport, snap, cull (docs/frontend.md section 6, docs/numerics.md
    # section 8): front-end state written on the triangle stream (prim_pkt_t.wr).
    ("FE_VP_X", 48, "front-end state: viewport top-left X (FP32; reset 0)"),
    ("FE_VP_Y", 49, "front-end state: viewport top-left Y (FP32; reset 0)"),
    ("FE_VP_W", 50, "front-end state: viewport width (FP32; reset 0)"),
    ("FE_VP_H", 51, "front-end state: viewport height (FP32; reset 0)"),
    ("FE_VP_ZMIN", 52, "front-end state: viewport min depth (FP32; reset 0)"),
    ("FE_VP_ZMAX", 53, "front-end state: viewport max depth (FP32; reset 0)"),
    ("FE_RASTER", 54, "front-end state: [1:0] cull PA_CULL_*, [2] front face counter-clockwise, [3] depth clip off (reset 0)"),
    ("FE_RT_BASE", 55, "front-end state: render target byte address (as ST_RT_BASE)"),
    ("FE_RT_PITCH", 56, "front-end state: render target row pitch in bytes ([15:0], as ST_RT_PITCH)"),
    ("FE_RT_SIZE", 57, "front-end state: width [15:0], height [31:16] (as ST_RT_SIZE)"),
    ("FE_SCISSOR_X", 58, "front-end state: scissor x0 [15:0], x1 [31:16] (as ST_SCISSOR_X; reset 0xFFFF0000)"),
    ("FE_SCISSOR_Y", 59, "front-end state: scissor y0 [15:0], y1 [31:16] (as ST_SCISSOR_Y; reset 0xFFFF0000)"),
    ("PA_CULL_NONE", 0, "FE_RASTER[1:0]: no face culling (3 is read as none too)"),
    ("PA_CULL_FRONT", 1, "FE_RASTER[1:0]: cull front faces"),
    ("PA_CULL_BACK", 2, "FE_RASTER[1:0]: cull back faces"),
    ("PA_CLIP_EPS", 0x37800000, "clip plane w >= PA_CLIP_EPS (2^-16, FP32)"),
    ("PA_MAX_POLY", 10, "vertices of a triangle clipped by the 7 planes, at most"),
]

# Command encoding, version 2 (v1 plus WAIT_REG, JUMP, CALL, RET, INTERRUPT, COPY). Header dword: [31:24] opcode, [23:12] arg, [11:0] len.
# `len` counts the payload dwords that follow the header.
OPCODES = [
    ("OP_NOP", 0x00, "skip `len` payload dwords (padding)"),
    ("OP_SET_STATE", 0x01, "state[arg + i] = payload[i] for i < len"),
    ("OP_DRAW", 0x02, "len = 2: payload[0] = first vertex, payload[1] = vertex count (triangle list)"),
    ("OP_WRITE_REG", 0x03, "len = 1: fence[arg[3:0]] = payload[0]; arg[11] = end of pipe"),
    ("OP_WAIT_REG", 0x04, "len = 1: block until fence[arg[3:0]] == payload (arg[11] = 0) or (int32)(fence - payload) >= 0 (arg[11] = 1)"),
    ("OP_JUMP", 0x05, "len = 2: payload = IB byte address, IB length in dwords; continue there, no return pushed"),
    ("OP_CALL", 0x06, "len = 2: like JUMP, but pushes the return position (after the CALL)"),
    ("OP_RET", 0x07, "len = 0: return from the current IB (an IB that runs out of dwords returns too)"),
    ("OP_INTERRUPT", 0x08, "len = 1: INT_PAYLOAD = payload, IRQ cause INTERRUPT"),
    ("OP_COPY", 0x09, "len = 3: payload = src byte address, dst byte address, byte count (DMA, any alignment)"),
    ("OP_DRAW_FE", 0x0A, "len = 5: a front-end draw (object-space vertices, transform, clip): payload = first, count, base_vertex, instance_count, start_instance; arg[0] indexed, arg[1] 32-bit indices, arg[2] strip, arg[3] strip restart"),
    ("OP_END", 0x0F, "len = 0: stop; STATUS.HALTED, IRQ cause END"),
]
CMD_FIELDS = [  # name, msb, lsb
    ("CMD_OP", 31, 24),
    ("CMD_ARG", 23, 12),
    ("CMD_LEN", 11, 0),
]
WRITE_REG_EOP_BIT = 11
WAIT_REG_GEQUAL_BIT = 11

# Draw-state registers (SET_STATE index space). Reset value 0 unless given.
STATE_REGS = [
    ("ST_VB_BASE", 0, 0, "vertex buffer byte address (dword aligned)"),
    ("ST_COLOR", 1, 0, "flat colour RGBA8: R in [7:0], G [15:8], B [23:16], A [31:24]"),
    ("ST_RT_BASE", 2, 0, "render target byte address (dword aligned)"),
    ("ST_RT_PITCH", 3, 0, "render target row pitch in bytes ([15:0]); [16] 4x MSAA (4 samples per pixel)"),
    ("ST_RT_SIZE", 4, 0, "width [15:0], height [31:16] in pixels (clamped to MAX_RT_DIM)"),
    ("ST_SCISSOR_X", 5, 0xFFFF0000, "scissor x0 [15:0] inclusive, x1 [31:16] exclusive"),
    ("ST_SCISSOR_Y", 6, 0xFFFF0000, "scissor y0 [15:0] inclusive, y1 [31:16] exclusive"),
]

# Host register port: dword index -> register.
HOST_REGS = [
    ("REG_ID", 0x00, "RO", "0x50490000 | CONTRACT_VERSION"),
    ("REG_CONTROL", 0x01, "RW", "bit0 ENABLE; bit1 CP_RESET (write 1: abort and reset the decoder, reads 0); any write clears STATUS.HALTED"),
    ("REG_STATUS", 0x02, "RO", "bit0 RUNNING, bit1 HALTED, bit2 ERROR, bit3 PIPE_BUSY, bit4 RING_EMPTY, bit5 WAITING, bit6 IN_IB, bit7 COPYING"),
    ("REG_RING_BASE", 0x03, "RW", "ring byte address (dword aligned)"),
    ("REG_RING_SIZE", 0x04, "RW", "ring size in bytes (multiple of 4)"),
    ("REG_RING_WPTR", 0x05, "RW", "byte offset the host has written up to"),
    ("REG_RING_RPTR", 0x06, "RO", "byte offset of the next dword the CP decodes"),
    ("REG_ERROR_CAUSE", 0x07, "RO", "ERR_* code of the first error"),
    ("REG_ERROR_ADDR", 0x08, "RO", "byte address of the command header that failed"),
    ("REG_IRQ_STATUS", 0x09, "W1C", "IRQ_* cause bits"),
    ("REG_IRQ_ENABLE", 0x0A, "RW", "mask for irq_o"),
    ("REG_INT_PAYLOAD", 0x0B, "RO", "payload of the last INTERRUPT command"),
    ("REG_VALID_BASE", 0x0C, "RW", "lowest byte address the CP may fetch from or copy from/to (reset 0)"),
    ("REG_VALID_LIMIT", 0x0D, "RW", "highest such byte address, inclusive (reset 0xFFFFFFFF)"),
    ("REG_WATCHDOG", 0x0E, "RW", "WAIT_REG watchdog in cycles (0 = off); expiry is ERR_WAIT_TIMEOUT"),
    ("REG_IB_DEPTH", 0x0F, "RO", "return-stack entries in use"),
    ("REG_FENCE0", 0x10, "RW", "fence registers FENCE0..FENCE15 at 0x10..0x1F"),
    ("REG_PERF0", 0x40, "RO", "performance counters, see PERF_* (index = REG_PERF0 + PERF_x)"),
]
STATUS_BITS = [
    ("STATUS_RUNNING", 0), ("STATUS_HALTED", 1), ("STATUS_ERROR", 2),
    ("STATUS_PIPE_BUSY", 3), ("STATUS_RING_EMPTY", 4), ("STATUS_WAITING", 5),
    ("STATUS_IN_IB", 6), ("STATUS_COPYING", 7),
]
CONTROL_BITS = [("CONTROL_ENABLE", 0), ("CONTROL_CP_RESET", 1)]
VALID_LIMIT_RESET = 0xFFFFFFFF
IRQ_BITS = [("IRQ_END", 0), ("IRQ_ERROR", 1), ("IRQ_INTERRUPT", 2)]
ERROR_CAUSES = [
    ("ERR_NONE", 0, "no error"),
    ("ERR_BAD_OPCODE", 1, "unknown opcode"),
    ("ERR_BAD_LEN", 2, "len does not match the opcode"),
    ("ERR_BAD_ARG", 3, "arg out of range (state index + len > FE_STATE_END, fence index >= 16, OP_DRAW_FE arg >= 16); COPY with overlapping ranges"),
    ("ERR_BAD_ADDR", 4, "ring, JUMP/CALL target or COPY range outside [VALID_BASE, VALID_LIMIT] or misaligned IB"),
    ("ERR_STACK_OVERFLOW", 5, "CALL with RET_STACK_DEPTH return positions already pushed"),
    ("ERR_STACK_UNDERFLOW", 6, "RET while executing the ring"),
    ("ERR_WAIT_TIMEOUT", 7, "WAIT_REG not satisfied within WATCHDOG cycles"),
]
# Performance counters: one cycle counter, then busy/stalled/starved per unit.
PERF_UNITS = ["CP", "IA", "SETUP", "COARSE", "FINE", "PW"]
PERF_KINDS = ["BUSY", "STALLED", "STARVED"]

# Memory clients (tag[7:6] at the arbiter).
MEM_CLIENTS = [("MEM_CLIENT_CP", 0), ("MEM_CLIENT_IA", 1), ("MEM_CLIENT_PW", 2), ("MEM_CLIENT_DMA", 3)]

# ----------------------------------------------------------------------------- structs
STRUCTS = [
    ("vtx_t", "Vtx", "snapped screen-space vertex", [
        ("x", 24, "s", "16.8 fixed point"),
        ("y", 24, "s", "16.8 fixed point"),
    ]),
    ("rect_t", "Rect", "pixel rectangle, half-open [x0,x1) x [y0,y1)", [
        ("x0", 15, "u", ""), ("y0", 15, "u", ""), ("x1", 15, "u", ""), ("y1", 15, "u", ""),
    ]),
    ("trect_t", "TRect", "raster-tile rectangle, half-open (a raster tile is 8x8 samples: 8x8 pixels, 4x4 at 4x MSAA)", [
        ("x0", 13, "u", ""), ("y0", 13, "u", ""), ("x1", 13, "u", ""), ("y1", 13, "u", ""),
    ]),
    ("target_t", "Target", "render target binding", [
        ("base", 32, "u", "byte address"),
        ("pitch", 16, "u", "row pitch in bytes"),
        ("msaa", 1, "u", "1: 4 samples per pixel (4x MSAA), sample s of pixel (x, y) at base + y*pitch + x*16 + s*4"),
    ]),
    ("edge_t", "Edge", "edge function E = a*(X-xi) + b*(Y-yi) + bias, in 1/65536 px^2", [
        ("a", 25, "s", "yi - yj (16.8)"),
        ("b", 25, "s", "xj - xi (16.8)"),
        ("e", 50, "s", "value at a reference sample (see the packet)"),
    ]),
    # ---- stream packets
    ("draw_pkt_t", "DrawPkt", "CP -> IA: one draw with the state it needs carried along", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("vb_base", 32, "u", "vertex buffer byte address"),
        ("first_vertex", 32, "u", ""),
        ("vertex_count", 32, "u", "triangle list: floor(count/3) triangles"),
        ("color", 32, "u", "RGBA8"),
        ("target", 1, "target_t", ""),
        ("clip", 1, "rect_t", "scissor intersected with the render target"),
        ("draw_id", 16, "u", "sequence number of the draw (wraps)"),
    ]),
    ("tri_pkt_t", "TriPkt", "IA -> SETUP: one triangle", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("v", 3, "vtx_t", "vertices in API order"),
        ("color", 32, "u", ""),
        ("target", 1, "target_t", ""),
        ("clip", 1, "rect_t", ""),
        ("tri_id", 32, "u", "sequence number of the triangle since reset"),
    ]),
    ("setup_pkt_t", "SetupPkt", "SETUP -> COARSE: a triangle that may cover samples", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("edges", 3, "edge_t", "e = E at the first sample of raster tile (start, tiles.y0)"),
        ("tiles", 1, "trect_t", "raster tiles touched by pix"),
        ("start", 13, "u", "first column of the tile walk (tiles.x0 <= start < tiles.x1)"),
        ("pix", 1, "rect_t", "sample bounding box intersected with clip (non-empty)"),
        ("color", 32, "u", ""),
        ("target", 1, "target_t", ""),
        ("tri_id", 32, "u", ""),
    ]),
    ("tile_pkt_t", "TilePkt", "COARSE -> FINE: one raster tile (8x8 samples) not rejected by the corner test", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("tx", 13, "u", ""),
        ("ty", 13, "u", ""),
        ("edge_in", 3, "u", "bit k: all 64 samples inside edge k (all three: trivially accepted)"),
        ("edges", 3, "edge_t", "e = E at the tile's first sample"),
        ("pix", 1, "rect_t", ""),
        ("color", 32, "u", ""),
        ("target", 1, "target_t", ""),
        ("tri_id", 32, "u", ""),
    ]),
    ("quad_pkt_t", "QuadPkt", "FINE -> PW: coverage of one 2x2 pixel quad (never empty)", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("qx", 13, "u", "quad column: pixels x = 2*qx, 2*qx + 1"),
        ("qy", 13, "u", "quad row: pixels y = 2*qy, 2*qy + 1"),
        ("mask", 16, "u", "1x: bit p covers pixel (2*qx + p%2, 2*qy + p/2), p < 4; 4x: bit 4*p + s its sample s"),
        ("color", 32, "u", ""),
        ("target", 1, "target_t", ""),
        ("tri_id", 32, "u", ""),
    ]),
    ("mem_req_t", "MemReq", "memory request (client -> arbiter -> memory)", [
        ("we", 1, "u", "1 = write"),
        ("addr", 32, "u", "byte address, dword aligned (addr[1:0] ignored)"),
        ("wdata", 32, "u", ""),
        ("be", 4, "u", "byte enables for writes"),
        ("tag", 8, "u", "returned with the response"),
    ]),
    ("mem_rsp_t", "MemRsp", "memory response, one per request, in request order", [
        ("we", 1, "u", "1 = write acknowledgement"),
        ("rdata", 32, "u", ""),
        ("tag", 8, "u", ""),
    ]),
    # ---- vertex transform (VTX: vertex fetch -> VTX -> PA)
    ("fvec4_t", "FVec4", "four FP32 values (IEEE binary32 bit patterns)", [
        ("x", 32, "u", ""), ("y", 32, "u", ""), ("z", 32, "u", ""), ("w", 32, "u", ""),
    ]),
    ("fvec2_t", "FVec2", "a texture coordinate: two FP32 values", [
        ("u", 32, "u", ""), ("v", 32, "u", ""),
    ]),
    ("vtx_in_pkt_t", "VtxInPkt", "-> VTX: an object-space vertex, or one row of the position matrix", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("kind", 2, "u", "VTX_KIND_* (when eop = 0); other values are consumed and ignored"),
        ("row", 2, "u", "VTX_KIND_MATRIX_ROW: the matrix row that pos replaces"),
        ("pos", 1, "fvec4_t", "vertex: object-space position; matrix row: (M[row][0..3]) in (x, y, z, w)"),
        ("color", 32, "u", "RGBA8, passed through"),
        ("tex0", 1, "fvec2_t", "passed through"),
        ("tex1", 1, "fvec2_t", "passed through"),
        ("vtx_id", 32, "u", "passed through (order / post-transform slot)"),
    ]),
    ("clip_vtx_pkt_t", "ClipVtxPkt", "VTX ->: a clip-space vertex, pos = M * pos in the documented order", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("pos", 1, "fvec4_t", "clip-space position"),
        ("color", 32, "u", ""),
        ("tex0", 1, "fvec2_t", ""),
        ("tex1", 1, "fvec2_t", ""),
        ("vtx_id", 32, "u", ""),
    ]),
    # ---- input assembly front end (docs/frontend.md: index fetch, vertex tags, vertex fetch)
    ("idraw_pkt_t", "IDrawPkt", "CP -> IA front end: an indexed or non-indexed, instanced triangle draw", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("indexed", 1, "u", "1: indices from the index buffer; 0: index = first + k"),
        ("index32", 1, "u", "index format: 0 = 16-bit, 1 = 32-bit"),
        ("strip", 1, "u", "topology: 0 = triangle list, 1 = triangle strip"),
        ("restart", 1, "u", "strips: the cut index (INDEX_CUT_16/32) restarts the strip"),
        ("ib_base", 32, "u", "index buffer byte address (a multiple of the index size)"),
        ("ib_size", 32, "u", "index buffer size in bytes: an index at or beyond it reads as 0"),
        ("first", 32, "u", "start index (indexed) or start vertex (non-indexed)"),
        ("count", 32, "u", "indices (or vertices) per instance"),
        ("base_vertex", 32, "u", "indexed: added to every index value (mod 2^32)"),
        ("instance_count", 32, "u", "instances; 0 draws nothing"),
        ("start_instance", 32, "u", "instance id of the first instance"),
        ("draw_id", 16, "u", ""),
        ("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        ("wr_idx", 8, "u", "state register index (FE_*)"),
        ("wr_val", 32, "u", ""),
    ]),
    ("index_pkt_t", "IndexPkt", "index fetch -> vertex tags: one index position of one instance", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("index", 32, "u", "vertex index: index value + base_vertex, or first + k (mod 2^32); 0 on a cut"),
        ("inst_id", 32, "u", "instance id: start_instance + i (mod 2^32)"),
        ("cut", 1, "u", "strip cut at this position: the strip restarts after it"),
        ("strip", 1, "u", "topology of the draw (0 list, 1 strip)"),
        ("last", 1, "u", "last position of this instance"),
        ("draw_id", 16, "u", ""),
        ("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        ("wr_idx", 8, "u", "state register index (FE_*)"),
        ("wr_val", 32, "u", ""),
    ]),
    ("vfetch_pkt_t", "VFetchPkt", "vertex tags -> vertex fetch: one vertex (cache miss) of a batch", [
        ("index", 32, "u", "vertex index"),
        ("inst_id", 32, "u", "instance id"),
        ("slot", 5, "u", "batch slot, allocated 0, 1, 2, ... in order"),
        ("last", 1, "u", "last vertex of the batch"),
        ("draw_id", 16, "u", ""),
        ("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        ("wr_idx", 8, "u", "state register index (FE_*)"),
        ("wr_val", 32, "u", ""),
    ]),
    ("prim_pkt_t", "PrimPkt", "vertex tags -> primitive assembly: one triangle of a batch, by batch slot", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("s0", 5, "u", "slot of vertex 0 (API order; odd strip triangles swap v0 and v1)"),
        ("s1", 5, "u", "slot of vertex 1"),
        ("s2", 5, "u", "slot of vertex 2"),
        ("last", 1, "u", "last triangle of the batch"),
        ("prim_id", 32, "u", "triangle sequence number since reset"),
        ("draw_id", 16, "u", ""),
        ("wr", 1, "u", "1: a front-end state write, state[wr_idx] = wr_val (every other field 0)"),
        ("wr_idx", 8, "u", "state register index (FE_*)"),
        ("wr_val", 32, "u", ""),
    ]),
    # ---- primitive assembly (docs/frontend.md section 6)
    ("pa_attr_t", "PaAttr", "per-vertex attributes of a PA triangle, for the interpolation unit", [
        ("z", 32, "u", "screen depth z/w * (zmax - zmin) + zmin (FP32, not clamped)"),
        ("rhw", 32, "u", "1/w (FP32)"),
        ("color", 32, "u", "RGBA8"),
        ("tex0", 1, "fvec2_t", ""),
        ("tex1", 1, "fvec2_t", ""),
    ]),
    ("pa_tri_pkt_t", "PaTriPkt", "PA -> SETUP: a clipped, projected, snapped, not culled triangle", [
        ("eop", 1, "u", "1: end-of-pipe token (every other field 0), forwarded in order, never culled"),
        ("v", 3, "vtx_t", "snapped vertices in API order (the fan order of a clipped primitive)"),
        ("color", 32, "u", "flat colour: the provoking vertex v0's colour of the input triangle"),
        ("target", 1, "target_t", ""),
        ("clip", 1, "rect_t", "scissor intersected with the render target"),
        ("tri_id", 32, "u", "sequence number of the output triangle since reset"),
        ("attr", 3, "pa_attr_t", "per-vertex attributes, same order as v"),
        ("prim_id", 32, "u", "prim_id of the input triangle it comes from"),
        ("draw_id", 16, "u", ""),
    ]),
]

# Stream boundaries tapped by the full-pipeline harness, in pipeline order. From this list
# contracts/gen.py makes the Boundary enum and BOUNDARY_<NAME> throttle-bit indices, the C++
# record of one stream per boundary (cpp_model/common/pineda_boundaries.h: the model's Trace,
# the harness's expected streams, checkers and tap loop) and the stream-rule checkers bound
# into pineda_top (rtl/top/pineda_top_tap_chk.sv). Adding a boundary: add it here, give
# pineda_top its tap_<name>_valid_o / _ready_o / _o ports (the consumer side of a
# stream_throttle on throttle_i[pineda_pkg::BOUNDARY_<NAME>]) and record its packets in the
# model (cpp_model/top/gpu.cpp); the harness and the trace need nothing more.
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
    StreamBoundary("fine_quad", "quad_pkt_t", "FINE -> PW", "per_owner"),
    StreamBoundary("pw_mem", "mem_req_t", "PW -> memory arbiter", "from_rtl"),
    # the geometry front end (OP_DRAW_FE), appended so the throttle bits above keep their index
    StreamBoundary("cp_idraw", "idraw_pkt_t", "CP -> index fetch: front-end draws, state writes, tokens"),
    StreamBoundary("if_index", "index_pkt_t", "index fetch -> vertex tags"),
    StreamBoundary("vt_vertex", "vfetch_pkt_t", "vertex tags -> vertex fetch (batch vertices, state writes)"),
    StreamBoundary("vt_prim", "prim_pkt_t", "vertex tags -> PA (batch triangles, state writes, tokens)"),
    StreamBoundary("vf_vtx", "vtx_in_pkt_t", "vertex fetch -> VTX"),
    StreamBoundary("vtx_clip", "clip_vtx_pkt_t", "VTX -> PA"),
    StreamBoundary("pa_tri", "pa_tri_pkt_t", "PA -> SETUP (merged with ia_tri)"),
]
