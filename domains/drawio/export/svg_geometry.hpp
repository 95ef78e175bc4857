// Internal to the SVG renderer: points and rectangles in page coordinates (px, y down).
#pragma once

#include <algorithm>
#include <cmath>

namespace fcp::drawio::render::detail {

struct Vec {
  double x = 0;
  double y = 0;

  friend Vec operator+(Vec a, Vec b) { return {a.x + b.x, a.y + b.y}; }
  friend Vec operator-(Vec a, Vec b) { return {a.x - b.x, a.y - b.y}; }
  friend Vec operator*(Vec a, double k) { return {a.x * k, a.y * k}; }
  friend bool operator==(Vec a, Vec b) { return a.x == b.x && a.y == b.y; }
  double length() const { return std::hypot(x, y); }
};

struct Box {
  double x = 0;
  double y = 0;
  double w = 0;
  double h = 0;

  double right() const { return x + w; }
  double bottom() const { return y + h; }
  Vec center() const { return {x + w / 2, y + h / 2}; }
  bool contains_x(double px) const { return px >= x && px <= x + w; }
  bool contains_y(double py) const { return py >= y && py <= y + h; }
};

// Grows `bounds` to cover `box` (sets it when it was empty).
inline void include(Box& bounds, bool& has_bounds, const Box& box) {
  if (!has_bounds) {
    bounds = box;
    has_bounds = true;
    return;
  }
  const double right = std::max(bounds.right(), box.right());
  const double bottom = std::max(bounds.bottom(), box.bottom());
  bounds.x = std::min(bounds.x, box.x);
  bounds.y = std::min(bounds.y, box.y);
  bounds.w = right - bounds.x;
  bounds.h = bottom - bounds.y;
}

}  // namespace fcp::drawio::render::detail
