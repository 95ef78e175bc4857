// Arrow-end kinds: the names users type (source-arrow:/target-arrow:) and their draw.io values.
#pragma once

#include <span>
#include <string_view>

namespace fcp::drawio::data {

struct ArrowKind {
  std::string_view name;          // "open-diamond"
  std::string_view drawio_arrow;  // startArrow/endArrow value: "diamond"
  bool filled;                    // startFill/endFill
};

// Every kind, user-facing name first: arrow(classic,filled) open-arrow(open)
// diamond(diamond,filled) open-diamond circle(oval,filled) open-circle crow-foot(ERmany) one(ERone)
// mandatory-one(ERmandOne) zero-many(ERzeroToMany) block(block,filled) open-block dash(dash)
// cross(cross) none(none), plus one-many(ERoneToMany) and zero-one(ERzeroToOne).
std::span<const ArrowKind> arrow_kinds();

// The kind with this name, ignoring ASCII case; nullptr if unknown.
const ArrowKind* find_arrow_kind(std::string_view name);

// The kind name for a draw.io arrow value + fill flag (reverse, for describe), nullptr if unknown.
// The fill flag is ignored for arrows draw.io never fills (open, dash, cross, ER ends, none).
const ArrowKind* arrow_kind_for(std::string_view drawio_arrow, bool filled);

}  // namespace fcp::drawio::data
