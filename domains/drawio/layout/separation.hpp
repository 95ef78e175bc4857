// Overlap removal that respects pinned boxes: pushes boxes apart until all keep a minimum gap.
#pragma once

#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// Moves boxes until every two are at least `gap` apart on one axis (within 1 px), each pair
// along the axis on which that takes the shorter move. `fixed` boxes never move (two fixed boxes
// may keep overlapping); every box that moves gets its `moved` flag set. Gives up after a bounded
// number of sweeps; returns whether it finished.
bool separate_boxes(std::vector<Box>& boxes, const std::vector<bool>& fixed, double gap,
                    std::vector<bool>& moved);

}  // namespace fcp::drawio::layout::detail
