#include "domains/drawio/io/writer.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/call_scope.hpp"
#include "domains/drawio/io/codec.hpp"
#include "domains/drawio/io/xml_out.hpp"

namespace fcp::drawio {
namespace {

using detail::XmlOut;

// Cells written between two asks whether the call must stop (about a millisecond's work).
constexpr std::size_t kStopCheckCells = 1024;

void write_attributes(XmlOut& out, const Attributes& attributes, std::size_t from = 0) {
  for (std::size_t i = from; i < attributes.size(); ++i) {
    out.attribute(attributes[i].name, attributes[i].value);
  }
}

void write_node(XmlOut& out, const XmlNode& node, int depth) {
  if (node.kind == XmlNode::Kind::text) return out.text(node.text);
  if (node.kind == XmlNode::Kind::cdata) return out.cdata(node.text);
  out.open(node.name, depth);
  write_attributes(out, node.attributes);
  out.end_open(!node.children.empty());
  if (node.children.empty()) return;
  const bool was_inline = out.is_inline();
  bool mixed = false;
  for (const XmlNode& child : node.children)
    mixed |= child.kind != XmlNode::Kind::element;
  if (mixed) out.set_inline(true);
  for (const XmlNode& child : node.children)
    write_node(out, child, depth + 1);
  out.close(node.name, depth);
  out.set_inline(was_inline);
}

bool has_text(const std::vector<XmlNode>& nodes) {
  return std::any_of(nodes.begin(), nodes.end(),
                     [](const XmlNode& node) { return node.kind != XmlNode::Kind::element; });
}

// While alive, writes without indentation when the element being written has text among the
// children read from the file: the line breaks and spaces the writer puts between elements would
// otherwise become part of that text when the file is read again (as write_node does for
// verbatim elements).
class KeepTextAsRead {
 public:
  KeepTextAsRead(XmlOut& out, bool has_text) : out_(out), was_inline_(out.is_inline()) {
    if (has_text) out_.set_inline(true);
  }
  ~KeepTextAsRead() { out_.set_inline(was_inline_); }
  KeepTextAsRead(const KeepTextAsRead&) = delete;
  KeepTextAsRead& operator=(const KeepTextAsRead&) = delete;

 private:
  XmlOut& out_;
  bool was_inline_;
};

void write_nodes(XmlOut& out, const std::vector<XmlNode>& nodes, int depth) {
  for (const XmlNode& node : nodes)
    write_node(out, node, depth);
}

// An attribute with a typed field: its slot, its name and its value when present.
template <class Slot>
struct TypedAttribute {
  Slot slot;
  std::string_view name;
  std::optional<std::string_view> value;
};

// Writes typed and other attributes in the order read (`order`), then typed ones that were not
// there (in the given order), then others beyond those the order accounts for.
template <class Slot>
void write_in_order(XmlOut& out, std::span<const Slot> order, std::span<TypedAttribute<Slot>> typed,
                    const Attributes& others) {
  std::size_t next_other = 0;
  for (Slot slot : order) {
    if (slot == Slot::other) {
      if (next_other < others.size()) {
        out.attribute(others[next_other].name, others[next_other].value);
        ++next_other;
      }
      continue;
    }
    for (TypedAttribute<Slot>& attribute : typed) {
      if (attribute.slot != slot || !attribute.value) continue;
      out.attribute(attribute.name, *attribute.value);
      attribute.value.reset();
    }
  }
  for (const TypedAttribute<Slot>& attribute : typed) {
    if (attribute.value) out.attribute(attribute.name, *attribute.value);
  }
  write_attributes(out, others, next_other);
}

std::optional<std::string_view> optional_view(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  return std::string_view(*value);
}

bool contains(std::span<const CellSlot> order, CellSlot slot) {
  return std::find(order.begin(), order.end(), slot) != order.end();
}

void write_point(XmlOut& out, const Point& point, std::string_view as, int depth) {
  out.open("mxPoint", depth);
  if (point.x) out.number_attribute("x", *point.x);
  if (point.y) out.number_attribute("y", *point.y);
  write_attributes(out, point.attributes);
  if (!as.empty()) out.attribute("as", as);
  out.end_open(false);
}

void write_points(XmlOut& out, const std::vector<Point>& points, int depth) {
  out.open("Array", depth);
  out.attribute("as", "points");
  out.end_open(!points.empty());
  if (points.empty()) return;
  for (const Point& point : points)
    write_point(out, point, {}, depth + 1);
  out.close("Array", depth);
}

// Writes the typed geometry child `slot` if present and not yet written.
void write_geometry_slot(XmlOut& out, const Geometry& geometry, GeometrySlot slot, int depth,
                         std::array<bool, 4>& written) {
  const auto index = static_cast<std::size_t>(slot);
  if (written[index]) return;
  written[index] = true;
  switch (slot) {
    case GeometrySlot::source_point:
      if (geometry.source_point) write_point(out, *geometry.source_point, "sourcePoint", depth);
      break;
    case GeometrySlot::target_point:
      if (geometry.target_point) write_point(out, *geometry.target_point, "targetPoint", depth);
      break;
    case GeometrySlot::points:
      if (geometry.points) write_points(out, *geometry.points, depth);
      break;
    case GeometrySlot::offset:
      if (geometry.offset) write_point(out, *geometry.offset, "offset", depth);
      break;
    case GeometrySlot::other:
      break;
  }
}

void write_geometry_attributes(XmlOut& out, const Geometry& geometry) {
  std::array<std::string, 4> numbers;
  const std::array<const OptDouble*, 4> fields{&geometry.x, &geometry.y, &geometry.width,
                                               &geometry.height};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (*fields[i]) numbers[i] = detail::format_number(**fields[i]);
  }
  auto number = [&](std::size_t i) {
    return *fields[i] ? std::optional<std::string_view>(numbers[i]) : std::nullopt;
  };
  std::array<TypedAttribute<GeometryAttr>, 6> typed{{
      {GeometryAttr::x, "x", number(0)},
      {GeometryAttr::y, "y", number(1)},
      {GeometryAttr::width, "width", number(2)},
      {GeometryAttr::height, "height", number(3)},
      {GeometryAttr::relative, "relative",
       geometry.relative ? std::optional<std::string_view>("1") : std::nullopt},
      {GeometryAttr::as, "as", "geometry"},
  }};
  // New geometries (no recorded order) put `as` last, after the other attributes, like draw.io.
  if (geometry.attribute_order.empty()) {
    std::span<TypedAttribute<GeometryAttr>> all(typed);
    write_in_order<GeometryAttr>(out, {}, all.first(5), geometry.attributes);
    out.attribute("as", "geometry");
    return;
  }
  write_in_order<GeometryAttr>(out, geometry.attribute_order, typed, geometry.attributes);
}

void write_geometry(XmlOut& out, const Geometry& geometry, int depth) {
  out.open("mxGeometry", depth);
  write_geometry_attributes(out, geometry);
  const bool has_children = geometry.source_point || geometry.target_point || geometry.points ||
                            geometry.offset || !geometry.children.empty();
  out.end_open(has_children);
  if (!has_children) return;
  const KeepTextAsRead keep(out, has_text(geometry.children));
  std::array<bool, 4> written{};
  std::size_t next_other = 0;
  for (GeometrySlot slot : geometry.child_order) {
    if (slot != GeometrySlot::other) {
      write_geometry_slot(out, geometry, slot, depth + 1, written);
    } else if (next_other < geometry.children.size()) {
      write_node(out, geometry.children[next_other++], depth + 1);
    }
  }
  for (GeometrySlot slot : {GeometrySlot::source_point, GeometrySlot::target_point,
                            GeometrySlot::points, GeometrySlot::offset}) {
    write_geometry_slot(out, geometry, slot, depth + 1, written);
  }
  for (; next_other < geometry.children.size(); ++next_other) {
    write_node(out, geometry.children[next_other], depth + 1);
  }
  out.close("mxGeometry", depth);
}

// The <mxCell> element; id and value are left to the wrapper unless `id_here`/`value_here`.
void write_mxcell(XmlOut& out, const Cell& cell, bool id_here, bool value_here, int depth) {
  const std::string style = cell.style ? cell.style->str() : std::string();
  std::array<TypedAttribute<CellSlot>, 8> typed{{
      {CellSlot::id, "id",
       id_here && !cell.id.empty() ? std::optional(std::string_view(cell.id)) : std::nullopt},
      {CellSlot::value, "value", value_here ? optional_view(cell.value) : std::nullopt},
      {CellSlot::style, "style",
       cell.style ? std::optional(std::string_view(style)) : std::nullopt},
      {CellSlot::parent, "parent", optional_view(cell.parent)},
      {CellSlot::source, "source", optional_view(cell.source)},
      {CellSlot::target, "target", optional_view(cell.target)},
      {CellSlot::vertex, "vertex",
       cell.vertex ? std::optional(std::string_view("1")) : std::nullopt},
      {CellSlot::edge, "edge", cell.edge ? std::optional(std::string_view("1")) : std::nullopt},
  }};
  out.open("mxCell", depth);
  write_in_order<CellSlot>(out, cell.order, typed, cell.attributes);
  const bool has_children = cell.geometry || !cell.children.empty();
  out.end_open(has_children);
  if (!has_children) return;
  const KeepTextAsRead keep(out, has_text(cell.children));
  if (cell.geometry) write_geometry(out, *cell.geometry, depth + 1);
  write_nodes(out, cell.children, depth + 1);
  out.close("mxCell", depth);
}

void write_cell(XmlOut& out, const Cell& cell, int depth) {
  if (!cell.wrapper) return write_mxcell(out, cell, true, true, depth);
  const Wrapper& wrapper = *cell.wrapper;
  // The id and label stay where they were read; new ones go on the wrapper, as draw.io does.
  const bool id_on_wrapper =
      contains(wrapper.order, CellSlot::id) || !contains(cell.order, CellSlot::id);
  const bool value_on_wrapper =
      contains(wrapper.order, CellSlot::value) || !contains(cell.order, CellSlot::value);
  std::array<TypedAttribute<CellSlot>, 2> typed{{
      {CellSlot::value, "label", value_on_wrapper ? optional_view(cell.value) : std::nullopt},
      {CellSlot::id, "id",
       id_on_wrapper && !cell.id.empty() ? std::optional(std::string_view(cell.id)) : std::nullopt},
  }};
  out.open(wrapper.element, depth);
  write_in_order<CellSlot>(out, wrapper.order, typed, wrapper.attributes);
  out.end_open(true);
  const KeepTextAsRead keep(out,
                            has_text(wrapper.children_before) || has_text(wrapper.children_after));
  write_nodes(out, wrapper.children_before, depth + 1);
  write_mxcell(out, cell, !id_on_wrapper, !value_on_wrapper, depth + 1);
  write_nodes(out, wrapper.children_after, depth + 1);
  out.close(wrapper.element, depth);
}

void write_root(XmlOut& out, const Page& page, int depth) {
  const std::vector<RootExtra>& extras = page.root_extras();
  std::vector<bool> written(extras.size(), false);
  auto write_extras_after = [&](std::string_view id) {
    for (std::size_t i = 0; i < extras.size(); ++i) {
      if (written[i] || extras[i].after_id != id) continue;
      write_node(out, extras[i].node, depth + 1);
      written[i] = true;
    }
  };
  out.open("root", depth);
  write_attributes(out, page.root_attributes());
  const bool has_children = page.cell_count() > 0 || !extras.empty();
  out.end_open(has_children);
  if (!has_children) return;
  const KeepTextAsRead keep(out, std::any_of(extras.begin(), extras.end(), [](const RootExtra& e) {
                              return e.node.kind != XmlNode::Kind::element;
                            }));
  write_extras_after("");
  std::size_t written_cells = 0;
  for (const Cell& cell : page.cells()) {
    // A call that must stop ends the text here; see write_drawio's contract.
    if (++written_cells % kStopCheckCells == 0 && core::call_stop()) break;
    write_cell(out, cell, depth + 1);
    if (!extras.empty() && !cell.id.empty()) write_extras_after(cell.id);
    out.flush_point();
    if (out.failed()) break;  // the file takes no more: the save fails, the rest is not made
  }
  for (std::size_t i = 0; i < extras.size(); ++i) {
    if (!written[i]) write_node(out, extras[i].node, depth + 1);
  }
  out.close("root", depth);
}

void write_model(XmlOut& out, const Page& page, int depth) {
  out.open("mxGraphModel", depth);
  write_attributes(out, page.model_attributes());
  out.end_open(true);
  const KeepTextAsRead keep(out, has_text(page.model_extras()));
  write_root(out, page, depth + 1);
  write_nodes(out, page.model_extras(), depth + 1);
  out.close("mxGraphModel", depth);
}

void write_page(XmlOut& out, const Page& page, const WriteOptions& options, int depth) {
  out.open("diagram", depth);
  write_attributes(out, page.diagram_attributes());
  const bool has_model = page.has_model() || page.cell_count() > 0;
  const bool has_children = has_model || !page.diagram_extras().empty();
  out.end_open(has_children);
  if (!has_children) return;
  const KeepTextAsRead keep(out, has_text(page.diagram_extras()));
  if (has_model && options.compress.value_or(page.was_compressed())) {
    out.text(encode_page_text(write_graph_model(page, false)));
  } else if (has_model) {
    write_model(out, page, depth + 1);
  }
  write_nodes(out, page.diagram_extras(), depth + 1);
  out.close("diagram", depth);
}

// Rough output size, to reserve once: about 400 bytes per cell.
std::size_t estimate_size(const Diagram& diagram) {
  std::size_t cells = 0;
  for (const Page& page : diagram.pages())
    cells += page.cell_count();
  return 1024 + cells * 400;
}

// Pieces a streamed text is handed over in.
constexpr std::size_t kStreamPiece = std::size_t{1} << 20;

void write_mxfile(XmlOut& out, const Diagram& diagram, const WriteOptions& options) {
  out.open("mxfile", 0);
  write_attributes(out, diagram.file_attributes());
  const bool has_children = !diagram.pages().empty() || !diagram.file_extras().empty();
  out.end_open(has_children);
  if (has_children) {
    const KeepTextAsRead keep(out, has_text(diagram.file_extras()));
    for (const Page& page : diagram.pages())
      write_page(out, page, options, 1);
    write_nodes(out, diagram.file_extras(), 1);
    out.close("mxfile", 0);
  }
}

}  // namespace

std::string write_drawio(const Diagram& diagram, const WriteOptions& options) {
  std::string text;
  text.reserve(estimate_size(diagram));
  XmlOut out(text, options.indent);
  write_mxfile(out, diagram, options);
  text += '\n';
  return text;
}

void write_drawio(const Diagram& diagram, const WriteOptions& options,
                  const std::function<bool(std::string_view)>& sink) {
  std::string text;
  text.reserve(kStreamPiece + kStreamPiece / 4);
  XmlOut out(text, options.indent);
  out.stream_to(sink, kStreamPiece);
  write_mxfile(out, diagram, options);
  text += '\n';
  out.flush();
}

std::string write_graph_model(const Page& page, bool indent) {
  std::string text;
  text.reserve(1024 + page.cell_count() * 400);
  XmlOut out(text, indent);
  write_model(out, page, 0);
  if (indent) text += '\n';
  return text;
}

}  // namespace fcp::drawio
