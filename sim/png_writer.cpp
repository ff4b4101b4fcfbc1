// SPDX-License-Identifier: Apache-2.0
#include "png_writer.h"

#include <png.h>

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "pineda_contract.h"

namespace pineda {

std::vector<uint8_t> read_rgba(const Memory& mem, uint32_t base, uint32_t pitch, uint32_t width, uint32_t height,
                               uint32_t fmt) {
  std::vector<uint8_t> px(static_cast<size_t>(width) * height * 4);
  if (fmt == RT_FMT_B5G6R5) {
    std::vector<uint8_t> row(static_cast<size_t>(width) * 2);
    for (uint32_t y = 0; y < height; ++y) {
      mem.read(base + y * pitch, row.data(), row.size());
      for (uint32_t x = 0; x < width; ++x) {
        const uint32_t p = row[2 * x] | (uint32_t{row[2 * x + 1]} << 8);
        const uint32_t r = p >> 11, g = (p >> 5) & 63u, b = p & 31u;
        uint8_t* o = px.data() + (static_cast<size_t>(y) * width + x) * 4;
        o[0] = static_cast<uint8_t>(r << 3 | r >> 2);
        o[1] = static_cast<uint8_t>(g << 2 | g >> 4);
        o[2] = static_cast<uint8_t>(b << 3 | b >> 2);
        o[3] = 255;
      }
    }
    return px;
  }
  for (uint32_t y = 0; y < height; ++y) {
    mem.read(base + y * pitch, px.data() + static_cast<size_t>(y) * width * 4, static_cast<size_t>(width) * 4);
  }
  if (fmt == RT_FMT_BGRA8) {
    for (size_t i = 0; i < px.size(); i += 4) std::swap(px[i], px[i + 2]);
  }
  return px;
}

void write_png(const std::string& path, const Memory& mem, uint32_t base, uint32_t pitch, uint32_t width,
               uint32_t height, uint32_t fmt) {
  if (width == 0 || height == 0) throw std::runtime_error("write_png: empty image");
  std::vector<uint8_t> px = read_rgba(mem, base, pitch, width, height, fmt);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("write_png: cannot open " + path);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, nullptr);
    std::fclose(f);
    throw std::runtime_error("write_png: libpng initialisation failed");
  }
  std::vector<png_bytep> rows(height);
  for (uint32_t y = 0; y < height; ++y) rows[y] = px.data() + static_cast<size_t>(y) * width * 4;
  volatile bool ok = false;
  if (setjmp(png_jmpbuf(png)) == 0) {
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, rows.data());
    png_write_end(png, nullptr);
    ok = true;
  }
  png_destroy_write_struct(&png, &info);
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) throw std::runtime_error("write_png: writing " + path + " failed");
}

}  // namespace pineda
