// Writes the drawio model as a standard draw.io file (<mxfile>; each page compressed or not as
// it was read, new pages as XML).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "domains/drawio/model/diagram.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio {

struct WriteOptions {
  // true: every page as draw.io's compressed text (base64 of raw DEFLATE of URI-encoded XML)
  // instead of an <mxGraphModel> child; false: every page as XML. Unset: each page as it was
  // read (a new page as XML, which diffs and merges well).
  std::optional<bool> compress;
  // Indent with two spaces per level (ignored inside compressed pages).
  bool indent = true;
};

// An <mxfile> with the file's attributes, then each page as <diagram …> → <mxGraphModel …> →
// <root> → cells in document order, wrappers around their mxCell, geometry and every kept
// child, in the order read. A page read compressed is written compressed (its owner chose that
// form) unless options.compress says otherwise. The output is UTF-8 without an XML
// declaration, like draw.io's.
// Inside a call that must stop (core::call_stop: cancelled, past its time limit, the daemon
// shutting down) the text ends early and is incomplete: a caller inside a call asks
// core::stop_error after writing and drops the text (serialize_diagram and the export op do).
std::string write_drawio(const Diagram& diagram, const WriteOptions& options = {});
// The same text handed to `sink` in pieces of about a megabyte, in order, so that it is never
// whole in memory (a save streams it to its file); after `sink` returns false the rest is left
// out. Cut short inside a call that must stop, like the text above.
void write_drawio(const Diagram& diagram, const WriteOptions& options,
                  const std::function<bool(std::string_view)>& sink);
// Just the page's <mxGraphModel> element (a bare model file, or a page's compressed payload);
// cut short like write_drawio's text inside a call that must stop.
std::string write_graph_model(const Page& page, bool indent = true);

}  // namespace fcp::drawio
