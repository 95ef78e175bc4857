// Internal to the export library: the SVG document around a rendered page.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/drawio/export/svg_renderer.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio::render::detail {

// render_svg, with `root_attributes` (already escaped, starting with a space) added to <svg>.
// With `allow_empty` an empty page gives a blank document of the border's size instead of
// the "empty page" error. Vertices drawn as placeholders are added to `placeholders` when given.
core::Result<std::string> render_svg_document(const Page& page, const SvgOptions& options,
                                              std::string_view root_attributes, bool allow_empty,
                                              std::vector<Placeholder>* placeholders = nullptr);

}  // namespace fcp::drawio::render::detail
