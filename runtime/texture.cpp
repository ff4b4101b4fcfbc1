// SPDX-License-Identifier: Apache-2.0
// Host-side texture data: see texture.h and docs/runtime.md "Textures". PNG files are read with
// libpng (its simplified API: exact error messages); the stb libraries (Debian libstb-dev: other
// image formats, BC1/BC3 encoding, mip resizing) are compiled here with static linkage.
#include "texture.h"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/stat.h>

#define STB_DXT_STATIC
#define STB_DXT_IMPLEMENTATION
#include <stb/stb_dxt.h>
#define STB_IMAGE_RESIZE_STATIC
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb/stb_image_resize.h>
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace pineda::rt::tex {

bool format_valid(TexFormat f) { return static_cast<uint32_t>(f) <= TEX_FMT_BC3; }
bool is_bc(TexFormat f) { return f == TexFormat::BC1_UNORM || f == TexFormat::BC3_UNORM; }

const char* format_name(TexFormat f) {
  switch (f) {
    case TexFormat::R8G8B8A8_UNORM: return "R8G8B8A8_UNORM";
    case TexFormat::B8G8R8A8_UNORM: return "B8G8R8A8_UNORM";
    case TexFormat::B5G6R5_UNORM: return "B5G6R5_UNORM";
    case TexFormat::R8G8B8A8_UNORM_SRGB: return "R8G8B8A8_UNORM_SRGB";
    case TexFormat::BC1_UNORM: return "BC1_UNORM";
    case TexFormat::BC3_UNORM: return "BC3_UNORM";
  }
  return "unknown";
}

uint32_t bytes_per_block(TexFormat f) {
  switch (f) {
    case TexFormat::B5G6R5_UNORM: return 32;
    case TexFormat::BC1_UNORM: return 8;
    case TexFormat::BC3_UNORM: return 16;
    default: return 64;
  }
}

uint32_t bytes_per_texel(TexFormat f) {
  if (is_bc(f)) return 0;
  return f == TexFormat::B5G6R5_UNORM ? 2 : 4;
}

uint32_t full_chain_levels(uint32_t w, uint32_t h) {
  uint32_t m = std::max(w, h), n = 1;
  while (m > 1) {
    m >>= 1;
    ++n;
  }
  return n;
}

std::vector<Level> chain_layout(uint32_t w, uint32_t h, uint32_t levels, TexFormat f, uint32_t* total) {
  std::vector<Level> out;
  uint32_t off = 0, end = 0;
  for (uint32_t l = 0; l < levels; ++l) {
    Level v;
    v.width = std::max(1u, w >> l);
    v.height = std::max(1u, h >> l);
    v.blocks_x = (v.width + 3) / 4;
    v.blocks_y = (v.height + 3) / 4;
    v.offset = off;
    v.bytes = v.blocks_x * v.blocks_y * bytes_per_block(f);
    end = off + v.bytes;
    off = (end + 63u) & ~63u;
    out.push_back(v);
  }
  if (total) *total = end;
  return out;
}

namespace {

// The RGBA8 texel (tx, ty) of the application's RGBA8 rows, clamped to [0, w) x [0, h).
void fetch_rgba8(const uint8_t* p, uint32_t pitch, uint32_t w, uint32_t h, uint32_t tx, uint32_t ty, uint8_t* out) {
  tx = std::min(tx, w - 1);
  ty = std::min(ty, h - 1);
  std::memcpy(out, p + static_cast<size_t>(ty) * pitch + static_cast<size_t>(tx) * 4, 4);
}

// RGBA8 -> the 16-bit B5G6R5 texel, each channel rounded to nearest (c * 31 + 127) / 255.
uint16_t to_565(const uint8_t* c) {
  const uint32_t r = (c[0] * 31u + 127u) / 255u, g = (c[1] * 63u + 127u) / 255u, b = (c[2] * 31u + 127u) / 255u;
  return static_cast<uint16_t>(r << 11 | g << 5 | b);
}

}  // namespace

std::vector<uint8_t> encode_blocks(TexFormat f, bool rgba8, const void* data, uint32_t row_pitch, const BlockRect& rect,
                                   uint32_t level_w, uint32_t level_h) {
  const uint8_t* src = static_cast<const uint8_t*>(data);
  const uint32_t bpb = bytes_per_block(f);
  const uint32_t nbx = rect.bx1 - rect.bx0, nby = rect.by1 - rect.by0;
  std::vector<uint8_t> out(static_cast<size_t>(nbx) * nby * bpb);
  // texels present in the data, from the rect's origin
  const uint32_t w = std::min(level_w - rect.bx0 * 4, nbx * 4), h = std::min(level_h - rect.by0 * 4, nby * 4);
  for (uint32_t by = 0; by < nby; ++by) {
    for (uint32_t bx = 0; bx < nbx; ++bx) {
      uint8_t* blk = &out[(static_cast<size_t>(by) * nbx + bx) * bpb];
      if (is_bc(f) && !rgba8) {
        std::memcpy(blk, src + static_cast<size_t>(by) * row_pitch + static_cast<size_t>(bx) * bpb, bpb);
        continue;
      }
      uint8_t px[64];  // the block's 16 texels as RGBA8 (or raw format bytes when !rgba8)
      for (uint32_t t = 0; t < 16; ++t) {
        const uint32_t tx = std::min(bx * 4 + t % 4, w - 1), ty = std::min(by * 4 + t / 4, h - 1);
        if (rgba8) {
          fetch_rgba8(src, row_pitch, w, h, tx, ty, &px[4 * t]);
        } else {
          const uint32_t bpt = bytes_per_texel(f);
          std::memcpy(&px[bpt * t], src + static_cast<size_t>(ty) * row_pitch + static_cast<size_t>(tx) * bpt, bpt);
        }
      }
      if (!rgba8) {
        std::memcpy(blk, px, bpb);  // uncompressed: texel (x, y) of the block at (4y + x) * bpt
        continue;
      }
      switch (f) {
        case TexFormat::R8G8B8A8_UNORM:
        case TexFormat::R8G8B8A8_UNORM_SRGB:
          std::memcpy(blk, px, 64);
          break;
        case TexFormat::B8G8R8A8_UNORM:
          for (uint32_t t = 0; t < 16; ++t) {
            blk[4 * t + 0] = px[4 * t + 2];
            blk[4 * t + 1] = px[4 * t + 1];
            blk[4 * t + 2] = px[4 * t + 0];
            blk[4 * t + 3] = px[4 * t + 3];
          }
          break;
        case TexFormat::B5G6R5_UNORM:
          for (uint32_t t = 0; t < 16; ++t) {
            const uint16_t v = to_565(&px[4 * t]);
            blk[2 * t] = static_cast<uint8_t>(v);
            blk[2 * t + 1] = static_cast<uint8_t>(v >> 8);
          }
          break;
        case TexFormat::BC1_UNORM:
          for (uint32_t t = 0; t < 16; ++t) px[4 * t + 3] = 255;  // stb_dxt wants constant alpha without an alpha block
          stb_compress_dxt_block(blk, px, 0, STB_DXT_HIGHQUAL);
          break;
        case TexFormat::BC3_UNORM:
          stb_compress_dxt_block(blk, px, 1, STB_DXT_HIGHQUAL);
          break;
      }
    }
  }
  return out;
}

std::vector<std::vector<uint8_t>> generate_mips_rgba8(const uint8_t* level0, uint32_t w, uint32_t h, uint32_t levels,
                                                      bool srgb) {
  std::vector<std::vector<uint8_t>> out;
  const uint8_t* prev = level0;
  uint32_t pw = w, ph = h;
  for (uint32_t l = 1; l < levels; ++l) {
    const uint32_t lw = std::max(1u, w >> l), lh = std::max(1u, h >> l);
    std::vector<uint8_t> img(static_cast<size_t>(lw) * lh * 4);
    // Box filter (each texel the average of the 2x2 texels below it, fractional at odd sizes),
    // clamped edges, every channel filtered on its own (no alpha weighting: the "premultiplied"
    // flag only tells stb not to weight by alpha); sRGB channels averaged in linear light.
    stbir_resize_uint8_generic(prev, static_cast<int>(pw), static_cast<int>(ph), 0, img.data(), static_cast<int>(lw),
                               static_cast<int>(lh), 0, 4, 3, STBIR_FLAG_ALPHA_PREMULTIPLIED, STBIR_EDGE_CLAMP,
                               STBIR_FILTER_BOX, srgb ? STBIR_COLORSPACE_SRGB : STBIR_COLORSPACE_LINEAR, nullptr);
    out.push_back(std::move(img));
    prev = out.back().data();
    pw = lw;
    ph = lh;
  }
  return out;
}

namespace {

// A PNG through libpng's simplified API, whose error text names the chunk and the fault ("IDAT:
// incorrect data check", "read beyond end of data"); "" on success.
std::string decode_png(const std::vector<uint8_t>& f, std::vector<uint8_t>* rgba, uint32_t* w, uint32_t* h) {
  png_image im{};
  im.version = PNG_IMAGE_VERSION;
  auto problem = [&im]() -> std::string {
    const std::string m = im.message;
    png_image_free(&im);
    if (m.find("read beyond end") != std::string::npos) return "truncated PNG (the file ends inside its image data; libpng: " + m + ")";
    if (m.find("CRC") != std::string::npos) return "corrupt PNG (a chunk's CRC does not match its data; libpng: " + m + ")";
    return "corrupt PNG (libpng: " + m + ")";
  };
  if (!png_image_begin_read_from_memory(&im, f.data(), f.size())) return problem();
  if (uint64_t{im.width} * im.height > (uint64_t{1} << 28)) {
    png_image_free(&im);
    return "PNG of " + std::to_string(im.width) + "x" + std::to_string(im.height) + " pixels is too large for a texture";
  }
  im.format = PNG_FORMAT_RGBA;
  rgba->assign(PNG_IMAGE_SIZE(im), 0);
  if (!png_image_finish_read(&im, nullptr, rgba->data(), 0, nullptr)) return problem();
  *w = im.width;
  *h = im.height;
  return "";
}

}  // namespace

bool load_image_rgba8(const std::string& path, std::vector<uint8_t>* rgba, uint32_t* w, uint32_t* h,
                      std::string* error) {
  auto failed = [&](const std::string& why) {
    if (error) *error = (path.empty() ? std::string("(empty path)") : path) + ": " + why;
    return false;
  };
  // The file first: a missing, unreadable or odd file is said as such, not as a decoder failure.
  struct stat st {};
  if (path.empty()) return failed("no file name given");
  if (::stat(path.c_str(), &st) != 0) return failed(std::string("cannot open: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return failed("is a directory, not an image file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return failed(std::string("cannot open: ") + std::strerror(errno));
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return failed(std::string("cannot read: ") + std::strerror(errno));
  if (bytes.empty()) return failed("the file is empty, not an image");
  if (bytes.size() > 0x7FFFFFFFu) return failed("the file is too large to be a texture");
  static const uint8_t kPngSig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), kPngSig, 8) == 0) {
    const std::string problem = decode_png(bytes, rgba, w, h);
    return problem.empty() || failed(problem);
  }
  // JPEG and the other formats stb_image reads.
  int iw = 0, ih = 0, n = 0;
  unsigned char* p = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &iw, &ih, &n, 4);
  if (!p) {
    const std::string r = stbi_failure_reason() ? stbi_failure_reason() : "";
    if (r == "unknown image type") return failed("truncated or not an image file (no PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC or PNM header)");
    return failed("cannot decode the image (stb_image: " + (r.empty() ? std::string("no reason given") : r) + ")");
  }
  rgba->assign(p, p + static_cast<size_t>(iw) * ih * 4);
  stbi_image_free(p);
  *w = static_cast<uint32_t>(iw);
  *h = static_cast<uint32_t>(ih);
  return true;
}

}  // namespace pineda::rt::tex
