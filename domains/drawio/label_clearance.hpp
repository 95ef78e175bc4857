// Edge labels clear of shapes that are not their edge's ends (issue 13: an expert reviewer read
// labels 4-7 px beside such a shape as that shape's). Shared by the batch warnings and the ops
// that lay an edge's route.
#pragma once

#include <optional>

#include "domains/drawio/model/cell.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {

// px a label's estimated box keeps from a shape that is not an end of its edge (nor holds one).
inline constexpr double kLabelShapeGap = 9;
// px a label's estimated box keeps from another edge's line, a group's title and a group's frame
// (issue 13, judge 11: "events" 5 px above a solid line read as that line's; "HTTPS" under the
// Data title made its line read as the title's underline).
inline constexpr double kLabelLineGap = 8;
// The height of a group's title as draw.io draws it (bold 12 px, one line, with its spacing).
inline constexpr double kGroupTitleHeight = 20;

// For an edge whose label (on its route, no offset) now sits closer than kLabelShapeGap to such
// a shape: the relative position along its route as draw.io draws it (geometry x, -1 … 1)
// nearest the current one where the label is clear of every such shape (and lies on none);
// nullopt when the label is clear already or no place along the route is.
std::optional<double> clear_label_position(const Page& page, const PageIndex& index,
                                           const Cell& edge);

}  // namespace fcp::drawio
