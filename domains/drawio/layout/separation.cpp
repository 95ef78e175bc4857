#include "domains/drawio/layout/separation.hpp"

#include <algorithm>
#include <numeric>

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kTolerance = 1.0;  // px of overlap that does not count (Graphviz rounds to points)
constexpr int kMaxSweeps = 500;

// Separates boxes a and b if they are closer than `gap`; returns whether anything moved.
bool push_apart(Box& a, Box& b, bool a_fixed, bool b_fixed, double gap) {
  const double over_x = std::min(a.right() + gap - b.x, b.right() + gap - a.x);
  const double over_y = std::min(a.bottom() + gap - b.y, b.bottom() + gap - a.y);
  if (over_x <= kTolerance || over_y <= kTolerance || (a_fixed && b_fixed)) return false;
  const double share_a = a_fixed ? 0 : b_fixed ? 1 : 0.5;
  const double share_b = 1 - share_a;
  if (over_x <= over_y) {
    const double sign = a.cx() <= b.cx() ? 1 : -1;  // a goes left of b, or right
    a.x -= sign * over_x * share_a;
    b.x += sign * over_x * share_b;
  } else {
    const double sign = a.cy() <= b.cy() ? 1 : -1;
    a.y -= sign * over_y * share_a;
    b.y += sign * over_y * share_b;
  }
  return true;
}

}  // namespace

bool separate_boxes(std::vector<Box>& boxes, const std::vector<bool>& fixed, double gap,
                    std::vector<bool>& moved) {
  std::vector<size_t> order(boxes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    // Sweep in order of left edges: only boxes starting before this one's right edge (plus the
    // gap) can be too close to it. A sweep that moves nothing has seen every close pair.
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return boxes[a].x < boxes[b].x; });
    bool changed = false;
    for (size_t i = 0; i < order.size(); ++i) {
      for (size_t j = i + 1; j < order.size(); ++j) {
        Box& a = boxes[order[i]];
        Box& b = boxes[order[j]];
        if (b.x >= a.right() + gap - kTolerance) break;
        if (!push_apart(a, b, fixed[order[i]], fixed[order[j]], gap)) continue;
        changed = true;
        if (!fixed[order[i]]) moved[order[i]] = true;
        if (!fixed[order[j]]) moved[order[j]] = true;
      }
    }
    if (!changed) return true;
  }
  return false;
}

}  // namespace fcp::drawio::layout::detail
