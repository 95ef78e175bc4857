#include "domains/drawio/io/xml_to_model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/call_scope.hpp"
#include "domains/drawio/io/codec.hpp"

namespace fcp::drawio::detail {
namespace {

using core::make_error;

Result<void> check_text(std::string_view text, std::string_view what, std::string_view element) {
  if (auto bad = find_invalid_xml_text(text)) {
    return make_error("invalid UTF-8 or XML character at byte " + std::to_string(*bad) + " of " +
                      std::string(what) + " in <" + std::string(element) + ">");
  }
  return {};
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// A coordinate written as a plain finite number; anything else is kept verbatim instead.
std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Calls visit(name, value) for each attribute of `element` in document order, each checked
// first: names and values valid XML text, no name repeated. The views are pugixml's (valid
// while the tree holds the element), so a caller copies only what it keeps, with no list of
// the element's attributes made in between.
template <class Visit>
Result<void> visit_attributes(const pugi::xml_node& element, Visit&& visit) {
  constexpr std::size_t kListed = 8;  // names compared one by one up to here, then a set
  std::array<std::string_view, kListed> first{};
  std::unordered_set<std::string_view> seen;
  std::size_t count = 0;
  for (const pugi::xml_attribute& a : element.attributes()) {
    const std::string_view name = a.name();
    const std::string_view value = a.value();
    if (auto ok = check_text(name, "an attribute name", element.name()); !ok) return ok.error();
    if (auto ok = check_text(value, "attribute \"" + std::string(name) + "\"", element.name());
        !ok) {
      return ok.error();
    }
    bool repeated = false;
    if (count < kListed) {
      const auto listed = first.begin() + static_cast<std::ptrdiff_t>(count);
      repeated = std::find(first.begin(), listed, name) != listed;
      *listed = name;
    } else {
      if (seen.empty()) seen.insert(first.begin(), first.end());
      repeated = !seen.insert(name).second;
    }
    ++count;
    if (repeated) {
      return make_error("attribute \"" + std::string(name) + "\" repeats in <" +
                        std::string(element.name()) + ">");
    }
    visit(name, value);
  }
  return {};
}

// Reads x and y of an <mxPoint> into `point`; other attributes except `skip` are kept.
Result<Point> read_point(const pugi::xml_node& element, std::string_view skip) {
  Point point;
  auto ok = visit_attributes(element, [&](std::string_view name, std::string_view value) {
    OptDouble* field = name == "x" ? &point.x : name == "y" ? &point.y : nullptr;
    if (field != nullptr && !*field) {
      if (auto number = parse_number(value)) {
        *field = number;
        return;
      }
    }
    if (name == "as" && value == skip) return;
    point.attributes.append(std::string(name), std::string(value));
  });
  if (!ok) return ok.error();
  return point;
}

// An <mxPoint> this reader can model exactly: no children.
bool is_plain_point(const pugi::xml_node& node) {
  return std::strcmp(node.name(), "mxPoint") == 0 && !node.first_child();
}

// <Array as="points"> holding only plain <mxPoint>s (anything else stays verbatim).
bool is_plain_point_array(const pugi::xml_node& node) {
  if (std::strcmp(node.name(), "Array") != 0) return false;
  const pugi::xml_attribute first = node.first_attribute();
  if (!first || std::strcmp(first.name(), "as") != 0 || std::strcmp(first.value(), "points") != 0 ||
      first.next_attribute()) {
    return false;
  }
  for (const pugi::xml_node& child : node.children()) {
    if (!is_plain_point(child)) return false;
  }
  return true;
}

Result<void> read_geometry_attributes(const pugi::xml_node& element, Geometry& geometry) {
  return visit_attributes(element, [&](std::string_view name, std::string_view value) {
    const GeometryAttr kind = name == "x"        ? GeometryAttr::x
                              : name == "y"      ? GeometryAttr::y
                              : name == "width"  ? GeometryAttr::width
                              : name == "height" ? GeometryAttr::height
                                                 : GeometryAttr::other;
    OptDouble* field = kind == GeometryAttr::x        ? &geometry.x
                       : kind == GeometryAttr::y      ? &geometry.y
                       : kind == GeometryAttr::width  ? &geometry.width
                       : kind == GeometryAttr::height ? &geometry.height
                                                      : nullptr;
    if (field != nullptr && !*field) {
      if (auto number = parse_number(value)) {
        *field = number;
        geometry.attribute_order.push_back(kind);
        return;
      }
    }
    if (name == "relative" && value == "1" && !geometry.relative) {
      geometry.relative = true;
      geometry.attribute_order.push_back(GeometryAttr::relative);
    } else if (name == "as" && value == "geometry") {
      geometry.attribute_order.push_back(GeometryAttr::as);
    } else {
      geometry.attributes.append(std::string(name), std::string(value));
      geometry.attribute_order.push_back(GeometryAttr::other);
    }
  });
}

// Reads one geometry child into its typed slot; false when it must be kept verbatim.
Result<bool> read_geometry_child(const pugi::xml_node& child, Geometry& geometry) {
  const std::string_view as = child.attribute("as").value();
  if (is_plain_point_array(child) && !geometry.points) {
    geometry.points.emplace();
    for (const pugi::xml_node& point : child.children()) {
      auto read = read_point(point, {});
      if (!read) return read.error();
      geometry.points->push_back(std::move(*read));
    }
    geometry.child_order.push_back(GeometrySlot::points);
    return true;
  }
  if (!is_plain_point(child)) return false;
  const GeometrySlot kind = as == "sourcePoint"   ? GeometrySlot::source_point
                            : as == "targetPoint" ? GeometrySlot::target_point
                            : as == "offset"      ? GeometrySlot::offset
                                                  : GeometrySlot::other;
  Boxed<Point>* slot = kind == GeometrySlot::source_point   ? &geometry.source_point
                       : kind == GeometrySlot::target_point ? &geometry.target_point
                       : kind == GeometrySlot::offset       ? &geometry.offset
                                                            : nullptr;
  if (slot == nullptr || *slot) return false;
  auto point = read_point(child, as);
  if (!point) return point.error();
  *slot = std::move(*point);
  geometry.child_order.push_back(kind);
  return true;
}

Result<Geometry> read_geometry(const pugi::xml_node& element) {
  Geometry geometry;
  if (auto ok = read_geometry_attributes(element, geometry); !ok) return ok.error();
  for (const pugi::xml_node& child : element.children()) {
    if (child.type() == pugi::node_pcdata && is_blank(child.value())) continue;
    if (child.type() == pugi::node_element) {
      auto typed = read_geometry_child(child, geometry);
      if (!typed) return typed.error();
      if (*typed) continue;
    }
    auto copy = read_verbatim(child, 1);
    if (!copy) return copy.error();
    geometry.children.push_back(std::move(*copy));
    geometry.child_order.push_back(GeometrySlot::other);
  }
  return geometry;
}

bool is_geometry(const pugi::xml_node& node) {
  return node.type() == pugi::node_element && std::strcmp(node.name(), "mxGeometry") == 0 &&
         std::strcmp(node.attribute("as").value(), "geometry") == 0;
}

}  // namespace

namespace {

// Puts one <mxCell> attribute into its typed field when it fits, else keeps it verbatim.
CellSlot assign_cell_attribute(Cell& cell, std::string_view name, std::string_view value) {
  if (name == "id" && cell.id.empty() && !value.empty()) {
    cell.id = value;
    return CellSlot::id;
  }
  if (name == "value" && !cell.value) {
    cell.value.emplace(value);
    return CellSlot::value;
  }
  if (name == "style") {
    cell.style = Style::parse(value);
    return CellSlot::style;
  }
  if (name == "vertex" && value == "1") {
    cell.vertex = true;
    return CellSlot::vertex;
  }
  if (name == "edge" && value == "1") {
    cell.edge = true;
    return CellSlot::edge;
  }
  std::optional<std::string>* link = name == "parent"   ? &cell.parent
                                     : name == "source" ? &cell.source
                                     : name == "target" ? &cell.target
                                                        : nullptr;
  if (link != nullptr) {
    link->emplace(value);
    return name == "parent"   ? CellSlot::parent
           : name == "source" ? CellSlot::source
                              : CellSlot::target;
  }
  cell.attributes.append(std::string(name), std::string(value));
  return CellSlot::other;
}

Result<void> read_wrapper(const pugi::xml_node& element, const pugi::xml_node& inner, Cell& cell) {
  Wrapper& wrapper = cell.wrapper.emplace();
  auto read = visit_attributes(element, [&](std::string_view name, std::string_view value) {
    if (name == "id" && !value.empty()) {
      cell.id = value;
      wrapper.order.push_back(CellSlot::id);
    } else if (name == "label") {
      cell.value.emplace(value);
      wrapper.order.push_back(CellSlot::value);
    } else {
      wrapper.attributes.append(std::string(name), std::string(value));
      wrapper.order.push_back(CellSlot::other);
    }
  });
  if (!read) return read.error();
  wrapper.element = element.name();
  if (auto ok = check_text(wrapper.element, "an element name", "root"); !ok) return ok.error();
  bool after = false;
  for (const pugi::xml_node& child : element.children()) {
    if (child == inner) {
      after = true;
      continue;
    }
    auto copy = read_verbatim(child, 1);
    if (!copy) return copy.error();
    (after ? wrapper.children_after : wrapper.children_before).push_back(std::move(*copy));
  }
  return {};
}

// Reads an <mxCell>, and the <object>/<UserObject> around it when `wrapper` is not null.
Result<Cell> read_cell(const pugi::xml_node& element, const pugi::xml_node& wrapper) {
  Cell cell;
  if (wrapper) {
    if (auto ok = read_wrapper(wrapper, element, cell); !ok) return ok.error();
  }
  auto read = visit_attributes(element, [&](std::string_view name, std::string_view value) {
    cell.order.push_back(assign_cell_attribute(cell, name, value));
  });
  if (!read) return read.error();
  for (const pugi::xml_node& child : element.children()) {
    if (!cell.geometry && is_geometry(child)) {
      auto geometry = read_geometry(child);
      if (!geometry) return geometry.error();
      cell.geometry = std::move(*geometry);
      continue;
    }
    auto copy = read_verbatim(child, 1);
    if (!copy) return copy.error();
    cell.children.push_back(std::move(*copy));
  }
  return cell;
}

Result<void> read_root(const pugi::xml_node& root, Page& page) {
  auto attributes = read_attributes(root);
  if (!attributes) return attributes.error();
  page.root_attributes() = std::move(*attributes);
  const auto children = root.children();
  page.reserve(page.cell_count() +
               static_cast<std::size_t>(std::distance(children.begin(), children.end())));
  std::string last_id;
  // A big page is read in steps between which a call that must stop (cancelled, past its time
  // limit) stops: the half-read diagram is dropped.
  core::StopPoll poll;
  // Each child is taken out of pugixml's tree once it is in the model: pugixml gives a memory
  // page of its tree back as soon as nothing on it is in use, and the tree is laid out in
  // document order, so the tree shrinks while the cells grow instead of both being whole at once
  // (at 1 M cells about 450 MB of tree beside as much of cells).
  pugi::xml_node parent = root;
  for (pugi::xml_node child = parent.first_child(); child;) {
    if (auto stop = poll.check("reading the diagram", "no document was opened")) return *stop;
    const pugi::xml_node next = child.next_sibling();
    const bool is_element = child.type() == pugi::node_element;
    const bool plain = is_element && std::strcmp(child.name(), "mxCell") == 0;
    const pugi::xml_node inner = plain || !is_element ? child : child.child("mxCell");
    if (is_element && inner) {
      auto cell = read_cell(inner, plain ? pugi::xml_node() : child);
      if (!cell) return cell.error();
      if (!cell->id.empty()) last_id = cell->id;
      page.append_from_file(std::move(*cell));
    } else {
      auto copy = read_verbatim(child, 1);
      if (!copy) return copy.error();
      page.root_extras().push_back(RootExtra{last_id, std::move(*copy)});
    }
    parent.remove_child(child);
    child = next;
  }
  return {};
}

}  // namespace

Result<Attributes> read_attributes(const pugi::xml_node& element) {
  Attributes out;
  auto read = visit_attributes(element, [&](std::string_view name, std::string_view value) {
    out.append(std::string(name), std::string(value));
  });
  if (!read) return read.error();
  return out;
}

Result<XmlNode> read_verbatim(const pugi::xml_node& node, int depth) {
  if (depth > max_verbatim_depth) {
    return make_error("elements nest deeper than " + std::to_string(max_verbatim_depth) +
                      " levels");
  }
  XmlNode out;
  if (node.type() != pugi::node_element) {
    out.kind = node.type() == pugi::node_cdata ? XmlNode::Kind::cdata : XmlNode::Kind::text;
    out.text = node.value();
    if (auto ok = check_text(out.text, "text", node.parent().name()); !ok) return ok.error();
    return out;
  }
  out.name = node.name();
  if (auto ok = check_text(out.name, "an element name", out.name); !ok) return ok.error();
  auto attributes = read_attributes(node);
  if (!attributes) return attributes.error();
  out.attributes = std::move(*attributes);
  for (const pugi::xml_node& child : node.children()) {
    auto copy = read_verbatim(child, depth + 1);
    if (!copy) return copy.error();
    out.children.push_back(std::move(*copy));
  }
  return out;
}

Result<void> read_graph_model(const pugi::xml_node& model, Page& page) {
  auto attributes = read_attributes(model);
  if (!attributes) return attributes.error();
  page.model_attributes() = std::move(*attributes);
  page.set_has_model(true);
  bool root_seen = false;
  for (const pugi::xml_node& child : model.children()) {
    if (!root_seen && child.type() == pugi::node_element &&
        std::strcmp(child.name(), "root") == 0) {
      root_seen = true;
      if (auto ok = read_root(child, page); !ok) return ok.error();
      continue;
    }
    auto copy = read_verbatim(child, 1);
    if (!copy) return copy.error();
    page.model_extras().push_back(std::move(*copy));
  }
  return {};
}

}  // namespace fcp::drawio::detail
