// SPDX-License-Identifier: Apache-2.0
#include "image_diff.h"

#include <sstream>

#include "om/om_blend.h"
#include "dma/resolve.h"
#include "png_writer.h"

namespace pineda {

Image target_image(const Memory& mem, const TargetView& t) {
  Image img;
  img.width = t.width;
  img.height = t.height;
  if (t.samples == 4) {
    // the samples of a row are consecutive: decode them as a row of 4 * width pixels
    const std::vector<uint8_t> s = read_rgba(mem, t.base, t.pitch, t.width * 4, t.height, t.fmt);
    img.rgba.resize(static_cast<size_t>(t.width) * t.height * 4);
    const auto px = [&s](size_t i) {
      return s[4 * i] | (uint32_t{s[4 * i + 1]} << 8) | (uint32_t{s[4 * i + 2]} << 16) | (uint32_t{s[4 * i + 3]} << 24);
    };
    for (size_t i = 0; i < static_cast<size_t>(t.width) * t.height; ++i) {
      const uint32_t v = model::resolve4(px(4 * i), px(4 * i + 1), px(4 * i + 2), px(4 * i + 3));
      for (int c = 0; c < 4; ++c) img.rgba[4 * i + static_cast<size_t>(c)] = static_cast<uint8_t>(v >> (8 * c));
    }
  } else {
    img.rgba = read_rgba(mem, t.base, t.pitch, t.width, t.height, t.fmt);
  }
  return img;
}

void write_image_png(const std::string& path, const Image& img) {
  Memory m;
  m.write(0, img.rgba.data(), img.rgba.size());
  write_png(path, m, 0, img.width * 4, img.width, img.height);
}

PixelDiff diff_targets(const Memory& expected, const Memory& actual, const TargetView& t) {
  PixelDiff d;
  d.picture = target_image(expected, t);
  const uint32_t bpp = model::om::bytes_per_pixel(t.fmt) * t.samples;
  std::vector<uint8_t> a(bpp), b(bpp);
  for (uint32_t y = 0; y < t.height; ++y) {
    for (uint32_t x = 0; x < t.width; ++x) {
      const uint32_t addr = t.base + y * t.pitch + x * bpp;
      expected.read(addr, a.data(), bpp);
      actual.read(addr, b.data(), bpp);
      uint8_t* p = &d.picture.rgba[(static_cast<size_t>(y) * t.width + x) * 4];
      if (a != b) {
        if (!d.first) d.first = std::make_pair(x, y);
        ++d.pixels;
        p[0] = 255, p[1] = 0, p[2] = 0, p[3] = 255;
      } else {  // grey, at 40%: the red marks stand out on any picture
        const uint32_t g = (p[0] * 77u + p[1] * 150u + p[2] * 29u) >> 8;
        p[0] = p[1] = p[2] = static_cast<uint8_t>(g * 2 / 5);
        p[3] = 255;
      }
    }
  }
  return d;
}

std::optional<uint32_t> last_triangle_at(const model::Trace& trace, uint32_t base, uint32_t x, uint32_t y) {
  std::optional<uint32_t> tri;
  for (const QuadPkt& q : trace.fine_quad) {
    if (q.eop || q.target.base != base) continue;
    if (q.qx != x / 2 || q.qy != y / 2) continue;
    const uint32_t p = (x & 1) + 2 * (y & 1);
    const uint32_t bits = q.target.msaa ? (static_cast<uint32_t>(q.mask) >> (4 * p)) & 0xFu
                                        : (static_cast<uint32_t>(q.mask) >> p) & 1u;
    if (bits) tri = static_cast<uint32_t>(q.tri_id);
  }
  return tri;
}

std::string write_mismatch_images(const std::string& dir, const std::string& name, const Memory& model_mem,
                                  const Memory& rtl_mem, const TargetView& t, const model::Trace* trace) {
  const std::string stem = dir + "/" + name;
  write_image_png(stem + ".model.png", target_image(model_mem, t));
  write_image_png(stem + ".rtl.png", target_image(rtl_mem, t));
  const PixelDiff d = diff_targets(model_mem, rtl_mem, t);
  write_image_png(stem + ".diff.png", d.picture);
  std::ostringstream os;
  os << "IMAGES test=" << name << ": " << d.pixels << " of " << uint64_t{t.width} * t.height << " pixels differ";
  if (d.first) {
    const auto [x, y] = *d.first;
    os << ", the first at pixel=(" << x << "," << y << ")";
    if (trace) {
      if (const auto tri = last_triangle_at(*trace, t.base, x, y)) {
        os << " written last by tri_id=" << *tri << " in the model";
      } else {
        os << " (no triangle of the model covers it: the RTL wrote it, or it is the background)";
      }
    }
  } else {
    os << " (the difference is outside the render target)";
  }
  os << "; " << stem << ".{model,rtl,diff}.png\n";
  return os.str();
}

}  // namespace pineda
