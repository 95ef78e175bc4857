// How ops and queries name shapes and groups on a page: #id, the label through the engine's
// cascade (core::NameIndex), `type:Label` and `Group/Label`. Verbs and queries resolve through
// these functions, so a reference means the same in both.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/drawio/document.hpp"

namespace fcp::drawio {

// The page references are resolved on, and the op or query as written: errors offer it with
// the reference corrected as `try:` hints.
struct PageReferences {
  const DrawioDocument& doc;
  const Page& page;
  const PageIndex& index;
  std::string_view written;
};

// A shape: #id (a group's id too), `type:Label`, `Group/Label`, then the cascade over labels;
// a group's exact name (any case) gives the group, not a shape whose name starts with it.
core::Result<std::string> resolve_shape(const PageReferences& refs, std::string_view ref);
// A group: #id or the cascade over group labels.
core::Result<std::string> resolve_group(const PageReferences& refs, std::string_view ref);
// A shape or a group: the group only when its name matches at a better level of the cascade
// than any shape's (group "Backend" beats shape "Backend API" for `Backend`).
core::Result<std::string> resolve_shape_or_group(const PageReferences& refs, std::string_view ref);

// The group that directly contains `id`, or "".
std::string parent_group(const Page& page, const PageIndex& index, std::string_view id);

}  // namespace fcp::drawio
