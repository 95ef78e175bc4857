// Writes .drawio.png files: a picture of the first page that draw.io re-opens as the diagram.
#pragma once

#include <string>

#include "core/result.hpp"
#include "domains/drawio/model/diagram.hpp"

namespace fcp::drawio::render {

// The diagram text a .drawio.png holds: the <mxfile> without indentation (as draw.io writes
// it), each page compressed or not as it was read.
std::string drawio_png_text(const Diagram& diagram);

// A `.drawio.png` file: the first page rendered like `export fmt:png` (the
// native renderer) at the `scale` and `border` (px) draw.io's PNG export recorded on <mxfile>
// (defaults 1 and 10; an empty page gives a blank picture; a drawing over kMaxRasterSide px
// is scaled down to fit), re-encoded by libpng with drawio_png_text(diagram) in a tEXt chunk
// "mxfile" as encodeURIComponent(xml) before the image data — exactly where and how draw.io
// puts it, so draw.io opens it as the diagram. read_drawio reads the result back into an
// equal Diagram. Errors: "the diagram has no pages", rendering or encoding failures. (A file
// saved without an edit is the file that was read: DrawioDocument keeps its bytes.)
// Thread: pure function of its arguments.
core::Result<std::string> write_drawio_png(const Diagram& diagram);

}  // namespace fcp::drawio::render
