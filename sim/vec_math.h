// SPDX-License-Identifier: Apache-2.0
// Double-precision vectors and 4x4 matrices for the front-end scenes: D3DX-style transforms in a
// left-handed world, and a camera. Internal to the scenes library.
#pragma once

#include <cmath>

namespace pineda::scenes {

inline constexpr double kPi = 3.141592653589793;

struct V3 {
  double x = 0, y = 0, z = 0;
};
inline V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(V3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline V3 normalize(V3 a) {
  const double l = std::sqrt(dot(a, a));
  return l > 0 ? a * (1.0 / l) : V3{0, 0, 0};
}

// Row-major 4x4, column-vector convention (clip = M * v), like the hardware's FE_MATRIX.
struct M4 {
  double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
};
inline M4 operator*(const M4& a, const M4& b) {
  M4 r;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int k = 0; k < 4; ++k) s += a.m[i][k] * b.m[k][j];
      r.m[i][j] = s;
    }
  }
  return r;
}
inline M4 translate(V3 t) {
  M4 r;
  r.m[0][3] = t.x;
  r.m[1][3] = t.y;
  r.m[2][3] = t.z;
  return r;
}
inline M4 scale(double s) {
  M4 r;
  r.m[0][0] = r.m[1][1] = r.m[2][2] = s;
  return r;
}
inline M4 rotate_y(double a) {
  M4 r;
  r.m[0][0] = std::cos(a);
  r.m[0][2] = std::sin(a);
  r.m[2][0] = -std::sin(a);
  r.m[2][2] = std::cos(a);
  return r;
}
inline M4 rotate_x(double a) {
  M4 r;
  r.m[1][1] = std::cos(a);
  r.m[1][2] = -std::sin(a);
  r.m[2][1] = std::sin(a);
  r.m[2][2] = std::cos(a);
  return r;
}
// D3DXMatrixPerspectiveFovLH, transposed for column vectors: clip.w = view z, clip.z / clip.w in
// [0, 1] between the near and far planes.
inline M4 perspective_lh(double fovy, double aspect, double zn, double zf) {
  M4 r;
  const double ys = 1.0 / std::tan(fovy / 2);
  r.m[0][0] = ys / aspect;
  r.m[1][1] = ys;
  r.m[2][2] = zf / (zf - zn);
  r.m[2][3] = -zn * zf / (zf - zn);
  r.m[3][2] = 1;
  r.m[3][3] = 0;
  return r;
}
// D3DXMatrixLookAtLH, transposed.
inline M4 look_at_lh(V3 eye, V3 at, V3 up) {
  const V3 z = normalize(at - eye), x = normalize(cross(up, z)), y = cross(z, x);
  M4 r;
  const V3 axes[3] = {x, y, z};
  for (int i = 0; i < 3; ++i) {
    r.m[i][0] = axes[i].x;
    r.m[i][1] = axes[i].y;
    r.m[i][2] = axes[i].z;
    r.m[i][3] = -dot(axes[i], eye);
  }
  return r;
}
// A camera: projection times view, for a square target.
struct Camera {
  V3 eye, at;
  double fovy = 1.0, zn = 0.5, zf = 50.0;
  M4 view_proj(double aspect = 1.0) const { return perspective_lh(fovy, aspect, zn, zf) * look_at_lh(eye, at, {0, 1, 0}); }
};

}  // namespace pineda::scenes
