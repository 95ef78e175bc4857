// An axis-aligned box in page (or container) coordinates: shapes' bounds, placement slots.
#pragma once

#include <algorithm>

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
  bool operator==(const Rect&) const = default;
};

}  // namespace fcp::drawio
