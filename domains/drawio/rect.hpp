// An axis-aligned box in page (or container) coordinates: shapes' bounds, placement slots.
#pragma once

#include <algorithm>
#include <cmath>

namespace fcp::drawio {

struct Rect {
  double x = 0, y = 0, width = 0, height = 0;
  double right() const { return x + width; }
  double bottom() const { return y + height; }
  double center_x() const { return x + width / 2; }
  double center_y() const { return y + height / 2; }
  // True when the rectangles come closer than `gap` on both axes.
  bool overlaps(const Rect& other, double gap = 0) const {
    return x < other.right() + gap && other.x < right() + gap && y < other.bottom() + gap &&
           other.y < bottom() + gap;
  }
  Rect united(const Rect& other) const {
    const double left = std::min(x, other.x);
    const double top = std::min(y, other.y);
    return {left, top, std::max(right(), other.right()) - left,
            std::max(bottom(), other.bottom()) - top};
  }
  // Whether the segment (ax,ay)–(bx,by) passes through the inside of this box shrunk by `inset`
  // on every side (Liang–Barsky clipping; a segment along an edge or touching a corner does not).
  bool segment_enters(double ax, double ay, double bx, double by, double inset = 0) const {
    const double x0 = x + inset, x1 = right() - inset;
    const double y0 = y + inset, y1 = bottom() - inset;
    if (x1 <= x0 || y1 <= y0) return false;
    double t0 = 0, t1 = 1;
    const double dx = bx - ax, dy = by - ay;
    const double step[4] = {-dx, dx, -dy, dy};
    const double room[4] = {ax - x0, x1 - ax, ay - y0, y1 - ay};
    for (int i = 0; i < 4; ++i) {
      if (std::abs(step[i]) < 1e-12) {
        if (room[i] <= 0) return false;
        continue;
      }
      const double t = room[i] / step[i];
      if (step[i] < 0) {
        t0 = std::max(t0, t);
      } else {
        t1 = std::min(t1, t);
      }
      if (t0 >= t1) return false;
    }
    return true;
  }
  bool operator==(const Rect&) const = default;
};

}  // namespace fcp::drawio
