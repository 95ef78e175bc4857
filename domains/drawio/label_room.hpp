// The room a shape gives its label inside its outline (clouds, ellipses, diamonds, hexagons and
// cylinders draw their outline inside their box), for sizing shapes on add and the `?` warning
// when a label does not fit.
#pragma once

#include "domains/drawio/model/cell.hpp"
#include "domains/drawio/model/style.hpp"
#include "domains/drawio/rect.hpp"

namespace fcp::drawio {

// The inner box of `box` a label `block` px high can fill without crossing the shape's outline:
// the whole box for rectangles; for cloud, ellipse, rhombus and hexagon the width the outline
// leaves at that height round the middle (its height: what the outline leaves at all); a
// cylinder's body between its top ellipse and bottom curve.
Rect label_room(const Style& style, const Rect& box, double block);
// Whether the cell's label needs more room than its shape gives it in `box` (an estimate: 7 px
// per character at fontSize 12, lines of 1.2 × fontSize; wrapped labels by their height).
bool label_too_long(const Cell& cell, const Rect& box);

}  // namespace fcp::drawio
