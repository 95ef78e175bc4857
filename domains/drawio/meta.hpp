// What fcp reads from a draw.io file beyond draw.io's own fields, and how it writes one back.
// fcp keeps no private data in files: the title, custom types and themes live in the session;
// loaded stencil packs are read back from the shapes that use them. Files written by older fcp
// versions carried private fields (fcp-meta on <mxfile>, fcp-type and fcp-alias on cells,
// fcpBadge in badge styles): they are read once at open and taken out of the model.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "domains/drawio/edit.hpp"
#include "domains/drawio/export/drawio_png.hpp"
#include "domains/drawio/model/diagram.hpp"

namespace fcp::drawio {

// The session state an opened file implies, taking the private fields of older fcp versions out
// of `diagram` into it (and into the cells' session notes); a damaged field must not stop a file
// from opening, so what cannot be read is dropped. Stencil packs whose shapes the file uses
// count as loaded.
DocumentState adopt_file_state(Diagram& diagram);

// The file for `path`: `.drawio.svg`/`.dio.svg` → SVG with the diagram embedded,
// `.drawio.png`/`.png` → PNG with the diagram in its text chunk, `.xml` from a bare model → the
// bare <mxGraphModel>, anything else → a standard <mxfile> (each page compressed as it was read).
core::Result<std::string> serialize_diagram(const Diagram& diagram,
                                            const std::filesystem::path& path);
// The form serialize_diagram writes for `path` (for a file read in that form, a save without
// edits can give back the bytes that were read).
SourceFormat written_format(const Diagram& diagram, const std::filesystem::path& path);

}  // namespace fcp::drawio
