// What fcp keeps in a draw.io file beyond the cells: the title, custom types and themes and the
// loaded stencil packs, as JSON in the <mxfile fcp-meta="…"> attribute (draw.io ignores it).
#pragma once

#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "domains/drawio/edit.hpp"
#include "domains/drawio/export/drawio_png.hpp"
#include "domains/drawio/model/diagram.hpp"

namespace fcp::drawio {

inline constexpr std::string_view kMetaAttribute = "fcp-meta";

// The state saved in `diagram` (defaults when absent or unreadable: a damaged attribute must not
// stop a file from opening).
DocumentState read_meta(const Diagram& diagram);
// Stores the saved parts of `state` in the diagram's attributes; leaves the attribute untouched
// when it already says the same (so open → save keeps it byte for byte) and removes it when
// there is nothing to save.
void write_meta(Diagram& diagram, const DocumentState& state);

// The file for `path`: `.drawio.svg`/`.dio.svg` → SVG with the diagram embedded,
// `.drawio.png`/`.png` → PNG with the diagram in its text chunk (`original`'s bytes when the
// diagram is unchanged since it was opened from them), `.xml` from a bare model → the bare
// <mxGraphModel>, anything else → a standard <mxfile> (each page compressed as it was read).
core::Result<std::string> serialize_diagram(const Diagram& diagram,
                                            const std::filesystem::path& path,
                                            const render::PngOriginal* original = nullptr);

}  // namespace fcp::drawio
