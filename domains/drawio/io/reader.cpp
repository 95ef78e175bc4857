#include "domains/drawio/io/reader.hpp"

#include <algorithm>
#include <cstring>
#include <pugixml.hpp>
#include <string>

#include "core/call_scope.hpp"
#include "domains/drawio/io/codec.hpp"
#include "domains/drawio/io/xml_to_model.hpp"

namespace fcp::drawio {
namespace {

using core::make_error;

struct ReadContext {
  const ReadLimits& limits;
  InflateBudget budget;
};

std::string not_drawio(std::string_view why) {
  return "not a draw.io file: " + std::string(why);
}

std::string position_of(std::string_view text, std::ptrdiff_t offset) {
  const std::size_t end =
      std::min(text.size(), static_cast<std::size_t>(std::max<std::ptrdiff_t>(offset, 0)));
  const std::string_view before = text.substr(0, end);
  const std::size_t line =
      static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = line_start == std::string_view::npos ? end + 1 : end - line_start;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Parses one XML document (the file, an svg `content` attribute, or a decoded page).
core::Result<void> parse_xml(std::string_view text, pugi::xml_document& doc,
                             const ReadLimits& limits, std::string_view what) {
  const auto elements = static_cast<std::size_t>(std::count(text.begin(), text.end(), '<'));
  const auto attributes = static_cast<std::size_t>(std::count(text.begin(), text.end(), '='));
  if (elements > limits.max_elements || attributes > limits.max_attributes) {
    return make_error(not_drawio(std::string(what) + " has more than " +
                                 std::to_string(limits.max_elements) + " elements or " +
                                 std::to_string(limits.max_attributes) + " attributes"));
  }
  const pugi::xml_parse_result parsed =
      doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_auto);
  if (!parsed) {
    return make_error(not_drawio("XML error in " + std::string(what) + " at " +
                                 position_of(text, parsed.offset) + ": " + parsed.description()));
  }
  if (!doc.document_element()) return make_error(not_drawio(std::string(what) + " is empty"));
  return {};
}

std::string page_label(std::size_t index, const Page& page) {
  std::string label = "page " + std::to_string(index + 1);
  if (!page.name().empty()) label += " (\"" + std::string(page.name()) + "\")";
  return label;
}

core::Result<void> read_compressed_page(std::string_view text, Page& page, ReadContext& ctx) {
  auto decoded = decode_page_text(text, ctx.budget);
  if (!decoded) return decoded.error();
  pugi::xml_document doc;
  if (auto ok = parse_xml(decoded->xml, doc, ctx.limits, "the page content"); !ok) {
    return ok.error();
  }
  const pugi::xml_node model = doc.document_element();
  if (std::strcmp(model.name(), "mxGraphModel") != 0) {
    return make_error("the page content is <" + std::string(model.name()) +
                      ">, not <mxGraphModel>");
  }
  page.set_was_compressed(decoded->compressed);
  return detail::read_graph_model(model, page);
}

core::Result<void> read_page_content(const pugi::xml_node& diagram, Page& page, ReadContext& ctx) {
  page.set_has_model(false);
  std::string text;
  bool model_seen = false;
  for (const pugi::xml_node& child : diagram.children()) {
    if (child.type() != pugi::node_element) {
      text += child.value();
    } else if (!model_seen && std::strcmp(child.name(), "mxGraphModel") == 0) {
      model_seen = true;
      if (auto ok = detail::read_graph_model(child, page); !ok) return ok.error();
    } else {
      auto copy = detail::read_verbatim(child, 1);
      if (!copy) return copy.error();
      page.diagram_extras().push_back(std::move(*copy));
    }
  }
  const bool blank = text.find_first_not_of(" \t\r\n") == std::string::npos;
  if (model_seen || blank) return {};
  return read_compressed_page(text, page, ctx);
}

core::Result<void> read_mxfile(const pugi::xml_node& mxfile, Diagram& diagram, ReadContext& ctx) {
  auto attributes = detail::read_attributes(mxfile);
  if (!attributes) return make_error(not_drawio(attributes.error().message));
  diagram.file_attributes() = std::move(*attributes);
  for (const pugi::xml_node& child : mxfile.children()) {
    if (child.type() == pugi::node_element && std::strcmp(child.name(), "diagram") == 0) {
      Page page;
      auto page_attributes = detail::read_attributes(child);
      if (page_attributes) page.diagram_attributes() = std::move(*page_attributes);
      auto ok = page_attributes ? read_page_content(child, page, ctx)
                                : core::Result<void>(page_attributes.error());
      if (!ok) {
        if (core::call_stop()) return ok.error();  // why the call stopped, not the page's fault
        return make_error("cannot read " + page_label(diagram.pages().size(), page) + ": " +
                          ok.error().message);
      }
      diagram.pages().push_back(std::move(page));
      continue;
    }
    auto copy = detail::read_verbatim(child, 1);
    if (!copy) return make_error(not_drawio(copy.error().message));
    diagram.file_extras().push_back(std::move(*copy));
  }
  return {};
}

core::Result<void> read_bare_model(const pugi::xml_node& model, Diagram& diagram) {
  Page page;
  if (auto ok = detail::read_graph_model(model, page); !ok) {
    return make_error("cannot read the <mxGraphModel>: " + ok.error().message);
  }
  diagram.pages().push_back(std::move(page));
  diagram.set_source_format(SourceFormat::graph_model);
  Page& added = diagram.pages().back();
  added.diagram_attributes().append("id", diagram.allocate_id());
  added.diagram_attributes().append("name", "Page-1");
  return {};
}

core::Result<void> read_document(const pugi::xml_node& root, Diagram& diagram, ReadContext& ctx,
                                 bool allow_svg);

// A .drawio.svg: the diagram file is the `content` attribute, as XML or compressed.
core::Result<void> read_svg(const pugi::xml_node& svg, Diagram& diagram, ReadContext& ctx) {
  const pugi::xml_attribute content = svg.attribute("content");
  if (!content || !*content.value()) {
    return make_error(not_drawio("the SVG has no embedded diagram (no content attribute)"));
  }
  auto decoded = decode_page_text(content.value(), ctx.budget);
  if (!decoded)
    return make_error(not_drawio("the SVG content attribute: " + decoded.error().message));
  pugi::xml_document doc;
  if (auto ok = parse_xml(decoded->xml, doc, ctx.limits, "the SVG content attribute"); !ok) {
    return ok.error();
  }
  if (auto ok = read_document(doc.document_element(), diagram, ctx, false); !ok) return ok;
  diagram.set_source_format(SourceFormat::svg);
  return {};
}

core::Result<void> read_document(const pugi::xml_node& root, Diagram& diagram, ReadContext& ctx,
                                 bool allow_svg) {
  const std::string_view name = root.name();
  if (name == "mxfile") return read_mxfile(root, diagram, ctx);
  if (name == "mxGraphModel") return read_bare_model(root, diagram);
  if (name == "svg" && allow_svg) return read_svg(root, diagram, ctx);
  return make_error(not_drawio("the root element is <" + std::string(name) +
                               ">, expected <mxfile>, <mxGraphModel> or a draw.io <svg>"));
}

// A .drawio.png: the diagram file is the text of a PNG text chunk.
core::Result<Diagram> read_png(std::string_view bytes, ReadContext& ctx) {
  PngLimits limits = ctx.limits.png;
  limits.max_chunk_bytes = std::min(limits.max_chunk_bytes, ctx.limits.max_input_bytes);
  auto embedded = read_png_diagram_text(bytes, limits, ctx.budget);
  if (!embedded) return embedded.error();
  const std::string what = "the PNG's " + embedded->chunk + " chunk";
  if (embedded->text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return make_error(not_drawio(what + " is empty"));
  }
  pugi::xml_document doc;
  if (auto ok = parse_xml(embedded->text, doc, ctx.limits, what); !ok) return ok.error();
  Diagram diagram;
  if (auto ok = read_document(doc.document_element(), diagram, ctx, false); !ok) {
    return ok.error();
  }
  diagram.set_source_format(SourceFormat::png);
  diagram.reserve_ids_in_use();
  return diagram;
}

}  // namespace

core::Result<Diagram> read_drawio(std::string_view bytes, const ReadLimits& limits) {
  if (bytes.size() > limits.max_input_bytes) {
    return make_error(not_drawio("the file is larger than " +
                                 std::to_string(limits.max_input_bytes >> 20) + " MiB"));
  }
  if (bytes.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return make_error(not_drawio("the file is empty"));
  }
  ReadContext ctx{limits, InflateBudget{}};
  ctx.budget.remaining = limits.max_inflated_bytes;
  if (is_png(bytes)) return read_png(bytes, ctx);
  pugi::xml_document doc;
  if (auto ok = parse_xml(bytes, doc, limits, "the file"); !ok) return ok.error();
  Diagram diagram;
  if (auto ok = read_document(doc.document_element(), diagram, ctx, true); !ok) return ok.error();
  diagram.reserve_ids_in_use();
  return diagram;
}

}  // namespace fcp::drawio
