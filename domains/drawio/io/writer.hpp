// Writes the drawio model as a standard draw.io file (<mxfile>, uncompressed by default).
#pragma once

#include <string>

#include "domains/drawio/model/diagram.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio {

struct WriteOptions {
  // Write each page as draw.io's compressed text (base64 of raw DEFLATE of URI-encoded XML)
  // instead of an <mxGraphModel> child. Off by default: plain XML diffs and merges well.
  bool compress = false;
  // Indent with two spaces per level (ignored inside compressed pages).
  bool indent = true;
};

// An <mxfile> with the file's attributes, then each page as <diagram …> → <mxGraphModel …> →
// <root> → cells in document order, wrappers around their mxCell, geometry and every kept
// child, in the order read. Pages read compressed are written uncompressed unless
// options.compress. The output is UTF-8 without an XML declaration, like draw.io's.
std::string write_drawio(const Diagram& diagram, const WriteOptions& options = {});
// Just the page's <mxGraphModel> element (a bare model file, or a page's compressed payload).
std::string write_graph_model(const Page& page, bool indent = true);

}  // namespace fcp::drawio
