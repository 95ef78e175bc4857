// Concrete ops the replies offer for edges that read as one line (trial 16: agents who followed
// "set exit:/entry:" put the edges on one line again, three times).
#pragma once

#include <string>

#include "domains/drawio/model/page.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {

// An op that takes the edge `edge_id` off the lines of the others: `style A -> B exit:F entry:G`
// with the faces whose route, as that op lays it (round the shapes from the middle of those
// faces), runs on one line (or 4-8 px side by side over 100 px) with no other edge and crosses no
// more edges than it does now, the shortest such; empty when none does, when the op would name
// other edges too, or on pages of over 4 000 edges.
std::string one_line_fix(const Page& page, const PageIndex& index, const std::string& edge_id);

}  // namespace fcp::drawio
