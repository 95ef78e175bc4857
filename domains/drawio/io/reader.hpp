// Reads draw.io files (.drawio, .xml, .drawio.svg, .drawio.png, bare <mxGraphModel>) into the
// lossless model.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/result.hpp"
#include "domains/drawio/io/png_text.hpp"
#include "domains/drawio/model/diagram.hpp"

namespace fcp::drawio {

// Bounds on what one file may cost to read. Exceeding one is an error, never a crash.
// max_input_bytes is the session's default limits.max_file_bytes (512 MiB), so that a real
// 1 M-cell file (130–400 MB) opens; what such a file may cost in memory is bounded before it is
// read by the session (limits.max_document_bytes against DrawioDomain::estimated_bytes_for_file)
// and here by the element and attribute counts (what pugixml's tree of the file costs: about
// 16 elements and 64 attributes a cell for 1 M cells, 1 GB of tree at most).
struct ReadLimits {
  std::size_t max_input_bytes = std::size_t{512} << 20;
  std::size_t max_inflated_bytes = std::size_t{256} << 20;  // all compressed pages together
  std::size_t max_elements = std::size_t{16} << 20;         // per XML document, counted as '<'
  std::size_t max_attributes = std::size_t{64} << 20;       // per XML document, counted as '='
  PngLimits png;  // a .drawio.png (a text chunk is also bounded by max_input_bytes)
};

// Accepts <mxfile> with one or many <diagram> pages, each holding an <mxGraphModel> or
// compressed text (base64 of raw DEFLATE of URI-encoded XML; zlib-wrapped and URI-encoded-only
// variants too), an <svg> whose `content` attribute holds such a file, and a bare
// <mxGraphModel> (one page, given id and name "Page-1"; source_format() remembers it), and a
// PNG (told by its signature, whatever the file is called) whose text chunk holds such a file
// (read_png_diagram_text; source_format() is then png). Elements and attributes this program does
// not interpret are kept verbatim. Errors start with "not a draw.io file: " (not XML, wrong root
// element, limits, a PNG without a diagram), "damaged PNG: " or "cannot read page N …". After
// reading, every id in the file is reserved in the diagram's id allocator.
core::Result<Diagram> read_drawio(std::string_view bytes, const ReadLimits& limits = {});

}  // namespace fcp::drawio
