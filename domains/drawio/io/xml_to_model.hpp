// Internal to the reader: turns parsed pugixml trees into the lossless drawio model.
#pragma once

#include <pugixml.hpp>

#include "core/result.hpp"
#include "domains/drawio/model/attributes.hpp"
#include "domains/drawio/model/page.hpp"
#include "domains/drawio/model/xml_node.hpp"

namespace fcp::drawio::detail {

using core::Result;

// Verbatim subtrees deeper than this are refused (the copy and the writer recurse).
inline constexpr int max_verbatim_depth = 256;

// Copies the attributes of `element`, checking that names and values are valid XML text and
// that no name repeats.
Result<Attributes> read_attributes(const pugi::xml_node& element);
// A verbatim copy of `node` (element, text or CDATA), checked like read_attributes.
Result<XmlNode> read_verbatim(const pugi::xml_node& node, int depth = 0);
// Fills `page` (model attributes, cells, extras) from an <mxGraphModel> element.
Result<void> read_graph_model(const pugi::xml_node& model, Page& page);

}  // namespace fcp::drawio::detail
