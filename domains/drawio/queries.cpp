// drawio_query: list, describe, connections, stats, map, find, pages, layers, types, themes.
// Every query reads the model once or a bounded number of times: output stays linear (n log n
// where it sorts) in the size of the page, whatever the number of edges.
#include "domains/drawio/queries.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/response.hpp"
#include "core/tokenizer.hpp"
#include "domains/drawio/data/arrows.hpp"
#include "domains/drawio/data/node_types.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/data/themes.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/references.hpp"
#include "domains/drawio/selection.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

constexpr std::size_t kMaxBlocks = 200;        // describe * / connections *
constexpr std::size_t kMaxMapRows = 200;       // map lines after the header
constexpr std::size_t kMaxListedMembers = 20;  // describe of a group
constexpr int kMaxDepth = 64;                  // nesting walks (files can be cyclic)

using Lines = std::vector<std::string>;

std::string join(const Lines& lines, std::string_view separator = "\n") {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += separator;
    out += lines[i];
  }
  return out;
}

// The page a query reads.
struct View {
  const DrawioDocument& doc;
  std::size_t number;
  const Page& page;
  const PageIndex& index;
};

View view_of(const DrawioDocument& doc, std::size_t number) {
  return View{doc, number, doc.page(number), doc.index(number)};
}

// Facts about a page gathered in one pass, for queries that need them for many cells:
// document order (for stable output) and layer names.
class PageFacts {
 public:
  explicit PageFacts(const View& v) {
    positions_.reserve(v.page.cell_count());
    std::size_t at = 0;
    for (const Cell& cell : v.page.cells()) {
      positions_.try_emplace(cell.id, at++);
      if (v.index.kind(cell.id) == CellKind::layer) {
        std::string label = cell_label(cell);
        if (label.empty()) label = layer_names_.empty() ? "Default" : cell.id;
        layer_names_.try_emplace(cell.id, std::move(label));
      }
    }
  }
  std::size_t position(std::string_view id) const {
    auto it = positions_.find(id);
    return it == positions_.end() ? positions_.size() : it->second;
  }
  void sort(std::vector<std::string>& ids) const {
    std::sort(ids.begin(), ids.end(),
              [&](const auto& a, const auto& b) { return position(a) < position(b); });
  }
  // A layer's name: its label; draw.io's unlabelled first layer is "Default", others their id.
  std::string layer_name(const std::string& id) const {
    auto it = layer_names_.find(id);
    return it == layer_names_.end() ? id : it->second;
  }

 private:
  std::unordered_map<std::string_view, std::size_t> positions_;
  std::unordered_map<std::string, std::string> layer_names_;
};

// Labels on one line: a newline shows as \n, as it would be typed in a quoted reference.
std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// A cell's name as users see and type it: its label, or #id when it has none.
std::string name_of(const Cell& cell) {
  std::string label = cell_label(cell);
  return label.empty() ? "#" + cell.id : one_line(label);
}

std::string list_entry(const Cell& cell) {
  return name_of(cell) + "(" + shape_type(cell) + ")";
}

std::string round_text(double value) {
  const double rounded = std::floor(value + 0.5);  // JavaScript's Math.round, as the reference
  return std::to_string(static_cast<long long>(rounded == 0 ? 0 : rounded));
}

std::vector<const Cell*> shapes_in_order(const View& v) {
  std::vector<const Cell*> out;
  out.reserve(v.index.shapes());
  for (const Cell& cell : v.page.cells()) {
    if (v.index.kind(cell.id) == CellKind::shape) out.push_back(&cell);
  }
  return out;
}

// The nearest ancestor that is of `kind`, or null (stops at layers and the root).
const Cell* ancestor_of_kind(const View& v, const Cell& cell, CellKind kind) {
  const Cell* current = &cell;
  for (int depth = 0; depth < kMaxDepth && current->parent; ++depth) {
    const Cell* parent = v.page.find(*current->parent);
    if (parent == nullptr) return nullptr;
    const CellKind parent_kind = v.index.kind(parent->id);
    if (parent_kind == kind) return parent;
    if (parent_kind == CellKind::layer || parent_kind == CellKind::root) return nullptr;
    current = parent;
  }
  return nullptr;
}

std::string layer_of(const View& v, const PageFacts& facts, const Cell& cell) {
  const Cell* current = &cell;
  for (int depth = 0; depth < kMaxDepth && current->parent; ++depth) {
    const Cell* parent = v.page.find(*current->parent);
    if (parent == nullptr) return {};
    if (v.index.kind(parent->id) == CellKind::layer) return one_line(facts.layer_name(parent->id));
    current = parent;
  }
  return {};
}

// An edge's label: its own value, else the first label cell on it.
std::string edge_label(const View& v, const Cell& edge) {
  std::string label = cell_label(edge);
  if (!label.empty()) return one_line(label);
  for (const auto& child_id : v.index.children(edge.id)) {
    const Cell* child = v.page.find(child_id);
    if (child != nullptr && v.index.kind(child_id) == CellKind::edge_label) {
      label = cell_label(*child);
      if (!label.empty()) return one_line(label);
    }
  }
  return {};
}

std::string end_name(const View& v, std::string_view id) {
  if (id.empty()) return "(unattached)";
  const Cell* cell = v.page.find(id);
  return cell == nullptr ? "#" + std::string(id) : name_of(*cell);
}

// ---- structured answers -----------------------------------------------------------------------

// A shape or group as a structured item: its id, its label ("" when none: the text's #id).
core::QueryItem cell_item(const Cell& cell, std::string kind) {
  return core::QueryItem{cell.id, one_line(cell_label(cell)), std::move(kind)};
}

core::QueryItem shape_item(const Cell& cell) {
  return cell_item(cell, shape_type(cell));
}

std::int64_t rounded(double value) {
  const double r = std::floor(value + 0.5);  // as round_text
  return static_cast<std::int64_t>(r == 0 ? 0 : r);
}

// The counts of the page a query read (drawio's @page:NAME reads another than the active one).
core::QueryData page_data(const View& v) {
  core::QueryData data;
  data.counts = {{"shapes", static_cast<std::int64_t>(v.index.shapes())},
                 {"edges", static_cast<std::int64_t>(v.index.edges())},
                 {"groups", static_cast<std::int64_t>(v.index.groups())},
                 {"pages", static_cast<std::int64_t>(v.doc.diagram().pages().size())},
                 {"layers", static_cast<std::int64_t>(v.page.layers().size())}};
  return data;
}

std::string page_name(const DrawioDocument& doc, std::size_t number) {
  std::string_view name = doc.page(number).name();
  return name.empty() ? "Page-" + std::to_string(number + 1) : std::string(name);
}

// ---- references -------------------------------------------------------------------------------

struct Target {
  CellKind kind = CellKind::shape;
  std::string id;
};

// A shape or group as ops resolve it (references.hpp); hints correct `written`, the query.
core::Result<Target> resolve(const View& v, std::string_view written, std::string_view ref) {
  auto id = resolve_shape_or_group({v.doc, v.page, v.index, written}, ref);
  if (!id) return id.error();
  return Target{v.index.kind(*id), std::move(*id)};
}

// What a query's selector tokens choose (core's engine, see selection.hpp), in document order.
struct Selection {
  std::size_t page = 0;
  std::vector<const Cell*> shapes;
  std::string nothing_matched;  // set when shapes is empty
};

// The selectors a query's words choose together; @page:NAME reads that page.
struct SelectorQuery {
  const std::vector<core::Token>& tokens;
  const core::EventLog& log;
  std::string_view written;  // the query as typed, for hints
};

core::Result<Selection> select(const DrawioDocument& doc, const SelectorQuery& query,
                               std::string_view verb) {
  std::vector<core::Selector> selectors;
  selectors.reserve(query.tokens.size());
  for (const auto& token : query.tokens)
    core::append_selectors(selectors, token.text, token.value_quoted);
  auto page = page_selector(doc, selectors, verb);
  if (!page) return page.error();
  auto chosen = select_shapes(doc, *page, selectors, query.log, query.written);
  if (!chosen) return chosen.error();
  Selection out{*page, {}, std::move(chosen->nothing_matched)};
  const Page& shapes_page = doc.page(*page);
  out.shapes.reserve(chosen->ids.size());
  for (const auto& id : chosen->ids)
    out.shapes.push_back(shapes_page.find(id));
  return out;
}

// The answer to a query whose selectors matched nothing: what exists instead.
std::string nothing_matched_answer(const Selection& selection) {
  std::string text = selection.nothing_matched;
  if (!text.empty()) text.front() = static_cast<char>(std::toupper(text.front()));
  return text;
}

// ---- list, find -------------------------------------------------------------------------------

// Every shape listed: the text shows them all (limits.max_reply_bytes bounds the answer).
core::QueryAnswer listed(const View& v, const std::vector<const Cell*>& shapes) {
  core::QueryData data = page_data(v);
  Lines lines;
  for (const Cell* cell : shapes) {
    lines.push_back(list_entry(*cell));
    data.add(shape_item(*cell));
  }
  return {join(lines), std::move(data)};
}

core::Result<core::QueryAnswer> query_list(const DrawioDocument& doc, const SelectorQuery& query) {
  const auto& tokens = query.tokens;
  for (const auto& token : tokens) {
    if (token.quoted || !token.text.starts_with('@'))
      return core::make_error("list takes selectors, not \"" + token.text + "\"",
                              {"list", "list @type:" + token.text, "find " + token.text});
  }
  if (tokens.empty()) {
    const View v = view_of(doc, doc.active_page_index());
    auto shapes = shapes_in_order(v);
    if (shapes.empty()) return core::QueryAnswer{"No shapes on this page.", page_data(v)};
    return listed(v, shapes);
  }
  auto selection = select(doc, query, "list");
  if (!selection) return selection.error();
  const View v = view_of(doc, selection->page);
  if (selection->shapes.empty())
    return core::QueryAnswer{nothing_matched_answer(*selection), page_data(v)};
  return listed(v, selection->shapes);
}

core::Result<std::string> query_find(const DrawioDocument& doc,
                                     const std::vector<core::Token>& tokens) {
  std::string text;
  for (const auto& token : tokens)
    text += (text.empty() ? "" : " ") + token.text;
  if (text.empty()) return core::make_error("find needs text: find TEXT", {"find auth"});
  const std::string needle = core::to_lower(text);
  const View v = view_of(doc, doc.active_page_index());
  Lines lines;
  for (const Cell* cell : shapes_in_order(v)) {
    bool match = core::to_lower(cell_label(*cell)).find(needle) != std::string::npos;
    if (const std::string_view alias = cell->note_alias(); !match && !alias.empty())
      match = core::to_lower(alias).find(needle) != std::string::npos;
    if (match) lines.push_back(list_entry(*cell));
  }
  if (lines.empty()) return "No shapes matching \"" + text + "\"";
  return join(lines);
}

// ---- describe ---------------------------------------------------------------------------------

std::string property_value(std::string_view value) {
  if (value.find_first_of(" ,=\"\n") == std::string_view::npos && !value.empty())
    return std::string(value);
  return "\"" + one_line(value) + "\"";
}

void add_edge_counts(const View& v, const std::string& id, Lines& lines) {
  std::size_t out = 0, in = 0;
  for (const auto& edge_id : v.index.incident_edges(id)) {
    const auto entry = v.index.entry(edge_id);
    if (!entry) continue;
    if (entry->source == id) ++out;
    if (entry->target == id) ++in;
  }
  if (out + in == 0) {
    lines.emplace_back("  edges: none");
  } else {
    lines.push_back("  edges: " + std::to_string(out) + " out, " + std::to_string(in) + " in");
  }
}

void add_geometry(const View& v, const Cell& cell, Lines& lines) {
  const Rect r = absolute_rect(v.page, cell);
  lines.push_back("  position: (" + format_number(r.x) + ", " + format_number(r.y) + ")");
  lines.push_back("  size: " + format_number(r.width) + "x" + format_number(r.height));
}

// "  properties: owner=alice, …": the custom properties (draw.io's Edit Data) of a cell.
void add_properties(const Cell& cell, Lines& lines) {
  if (!cell.wrapper || cell.wrapper->attributes.empty()) return;
  Lines properties;
  for (const auto& attribute : cell.wrapper->attributes)
    properties.push_back(attribute.name + "=" + property_value(attribute.value));
  lines.push_back("  properties: " + join(properties, ", "));
}

// "  theme: …", "  fill: …", "  stroke: …" as far as the cell's style says.
void add_colors(const View& v, const Cell& cell, Lines& lines) {
  if (std::string theme = theme_name_of(v.doc, cell); !theme.empty())
    lines.push_back("  theme: " + theme);
  if (auto fill = cell.style_value("fillColor")) lines.push_back("  fill: " + std::string(*fill));
  if (auto stroke = cell.style_value("strokeColor"))
    lines.push_back("  stroke: " + std::string(*stroke));
}

Lines describe_shape(const View& v, const Cell& cell, const PageFacts& facts) {
  Lines lines{name_of(cell) + " (" + shape_type(cell) + ")"};
  add_geometry(v, cell, lines);
  add_colors(v, cell, lines);
  if (const Cell* group = ancestor_of_kind(v, cell, CellKind::group))
    lines.push_back("  group: " + name_of(*group));
  std::vector<std::string> badge_ids;
  for (const auto& child : v.index.children(cell.id)) {
    if (v.index.kind(child) == CellKind::badge) badge_ids.push_back(child);
  }
  if (!badge_ids.empty()) {
    facts.sort(badge_ids);
    Lines badges;
    for (const auto& id : badge_ids)
      badges.push_back(one_line(cell_label(*v.page.find(id))));
    lines.push_back("  badges: " + join(badges, ", "));
  }
  if (std::string layer = layer_of(v, facts, cell); !layer.empty())
    lines.push_back("  layer: " + layer);
  if (const std::string_view alias = cell.note_alias(); !alias.empty())
    lines.push_back("  alias: " + one_line(alias));
  lines.push_back("  id: " + cell.id);
  add_properties(cell, lines);
  add_edge_counts(v, cell.id, lines);
  return lines;
}

Lines describe_group(const View& v, const Cell& group, const PageFacts& facts) {
  std::size_t shapes = 0, groups = 0;
  Lines members;
  for (const Cell& cell : v.page.cells()) {  // document order
    if (!cell.parent || *cell.parent != group.id) continue;
    const CellKind kind = v.index.kind(cell.id);
    if (kind != CellKind::shape && kind != CellKind::group) continue;
    if (kind == CellKind::shape) {
      ++shapes;
    } else {
      ++groups;
    }
    if (members.size() < kMaxListedMembers)
      members.push_back(kind == CellKind::shape ? list_entry(cell) : name_of(cell) + "(group)");
  }
  std::string counts = core::plural(shapes, "shape");
  if (groups > 0) counts += ", " + core::plural(groups, "group");
  Lines lines{name_of(group) + " (group, " + counts + ")"};
  add_geometry(v, group, lines);
  add_colors(v, group, lines);
  if (shapes + groups > 0) {
    std::string listed = join(members, ", ");
    if (shapes + groups > members.size())
      listed += ", … " + std::to_string(shapes + groups - members.size()) + " more";
    lines.push_back("  members: " + listed);
  }
  if (const Cell* outer = ancestor_of_kind(v, group, CellKind::group))
    lines.push_back("  group: " + name_of(*outer));
  if (std::string layer = layer_of(v, facts, group); !layer.empty())
    lines.push_back("  layer: " + layer);
  lines.push_back("  id: " + group.id);
  add_edge_counts(v, group.id, lines);
  return lines;
}

std::string arrow_end(const Cell& edge, std::string_view end) {
  const std::string prefix(end);
  const auto arrow = edge.style_value(prefix + "Arrow");
  const std::string_view value = arrow ? *arrow : (end == "end" ? "classic" : "none");
  const bool filled = edge.style_value(prefix + "Fill").value_or("1") != "0";
  if (const auto* kind = data::arrow_kind_for(value, filled)) return std::string(kind->name);
  return std::string(value);
}

// An edge port as exit:/entry: write it (right@0.5), from draw.io's relative x,y; "" when unset.
std::string port_text(const Cell& edge, std::string_view end) {
  const auto x_text = edge.style_value(std::string(end) + "X");
  const auto y_text = edge.style_value(std::string(end) + "Y");
  if (!x_text || !y_text) return {};
  const double x = std::atof(std::string(*x_text).c_str());
  const double y = std::atof(std::string(*y_text).c_str());
  const auto along = [](double value) { return format_number(value); };
  if (y == 0) return "top@" + along(x);
  if (y == 1) return "bottom@" + along(x);
  if (x == 0) return "left@" + along(y);
  if (x == 1) return "right@" + along(y);
  return along(x) + "," + along(y);
}

// How draw.io routes an edge, in the words of connect's style: (edgeStyle, curved, rounded).
std::string routing_text(const Cell& edge) {
  const std::string_view style = edge.style_value("edgeStyle").value_or("");
  std::string text;
  if (edge.style_value("curved") == "1") {
    text = "curved";
  } else if (style.empty() || style == "none") {
    text = "straight";
  } else if (style == "orthogonalEdgeStyle") {
    text = "orthogonal";
  } else if (style == "elbowEdgeStyle") {
    text = edge.style_value("elbow") == "vertical" ? "elbow (vertical)" : "elbow";
  } else if (style == "entityRelationEdgeStyle") {
    text = "entity-relation";
  } else {
    text = "edgeStyle=" + std::string(style);
  }
  if (text != "curved" && edge.style_value("rounded") == "1") text += ", rounded corners";
  if (auto jumps = edge.style_value("jumpStyle"); jumps && *jumps != "none")
    text += ", " + std::string(*jumps) + " jumps at crossings";
  return text;
}

Lines describe_edge(const View& v, const Cell& edge, const PageFacts& facts) {
  const auto entry = v.index.entry(edge.id);
  const std::string source = end_name(v, entry ? entry->source : "");
  const std::string target = end_name(v, entry ? entry->target : "");
  Lines lines{source + " -> " + target + " (edge)"};
  lines.push_back("  source: " + source);
  lines.push_back("  target: " + target);
  if (std::string label = edge_label(v, edge); !label.empty())
    lines.push_back("  label: \"" + label + "\"");
  lines.push_back("  arrows: " + arrow_end(edge, "start") + " -> " + arrow_end(edge, "end"));
  lines.push_back("  routing: " + routing_text(edge));
  Lines words;
  if (edge.style_value("dashed") == "1")
    words.emplace_back(edge.style_value("dashPattern") ? "dotted" : "dashed");
  if (edge.style_value("curved") == "1") words.emplace_back("curved");
  if (edge.style_value("flowAnimation") == "1") words.emplace_back("animated");
  if (auto width = edge.style_value("strokeWidth")) {
    const double w = std::atof(std::string(*width).c_str());
    if (w >= 3) words.emplace_back("thick");
  }
  if (!words.empty()) lines.push_back("  style: " + join(words, ", "));
  if (auto stroke = edge.style_value("strokeColor"))
    lines.push_back("  stroke: " + std::string(*stroke));
  if (auto width = edge.style_value("strokeWidth"))
    lines.push_back("  width: " + std::string(*width));
  const std::string exit_port = port_text(edge, "exit");
  const std::string entry_port = port_text(edge, "entry");
  if (!exit_port.empty() || !entry_port.empty()) {
    lines.push_back("  ports: exit " + (exit_port.empty() ? std::string("free") : exit_port) +
                    ", entry " + (entry_port.empty() ? std::string("free") : entry_port) +
                    (v.doc.has_automatic_ports(edge.id) ? " (chosen automatically)" : ""));
  }
  if (edge.geometry && edge.geometry->points && !edge.geometry->points->empty()) {
    // In page coordinates, as `position` of a shape: an edge inside a group keeps its points
    // relative to the group.
    const auto [dx, dy] = child_origin(v.page, edge.parent.value_or(""));
    std::string text = "  waypoints: " + std::to_string(edge.geometry->points->size());
    for (const Point& point : *edge.geometry->points)
      text += " (" + format_number(point.x_or_zero() + dx) + ", " +
              format_number(point.y_or_zero() + dy) + ")";
    lines.push_back(std::move(text));
  }
  if (std::string layer = layer_of(v, facts, edge); !layer.empty())
    lines.push_back("  layer: " + layer);
  lines.push_back("  id: " + edge.id);
  add_properties(edge, lines);
  return lines;
}

std::string tokens_text(const std::vector<core::Token>& tokens, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i)
    out += (i > from ? " " : "") + tokens[i].text;
  return out;
}

// `describe A -> B` (also <-> and --, which match either direction).
core::Result<core::QueryAnswer> describe_edges(const View& v, const SelectorQuery& query,
                                               std::size_t arrow_at) {
  const auto& tokens = query.tokens;
  const std::string left = tokens_text(tokens, 0, arrow_at);
  const std::string right = tokens_text(tokens, arrow_at + 1, tokens.size());
  if (left.empty() || right.empty())
    return core::make_error("describe an edge as: describe SOURCE -> TARGET");
  auto source = resolve(v, query.written, left);
  if (!source) return source.error();
  auto target = resolve(v, query.written, right);
  if (!target) return target.error();
  const bool any_direction = tokens[arrow_at].text != "->";
  std::vector<std::string> edges;
  bool reverse_exists = false;
  for (const auto& edge_id : v.index.incident_edges(source->id)) {
    const auto entry = v.index.entry(edge_id);
    if (!entry) continue;
    const bool forward = entry->source == source->id && entry->target == target->id;
    const bool backward = entry->source == target->id && entry->target == source->id;
    if (forward || (any_direction && backward)) {
      edges.push_back(edge_id);
    } else if (backward) {
      reverse_exists = true;
    }
  }
  if (edges.empty()) {
    const std::string a = quote_token(left), b = quote_token(right);
    std::vector<std::string> hints;
    if (reverse_exists) hints.push_back("describe " + b + " -> " + a);
    hints.push_back("connections " + a);
    return core::make_error("no edge from " + left + " to " + right, std::move(hints));
  }
  const PageFacts facts(v);
  facts.sort(edges);
  Lines blocks;
  core::QueryData data = page_data(v);
  for (const auto& id : edges) {
    const Cell& edge = *v.page.find(id);
    blocks.push_back(join(describe_edge(v, edge, facts)));
    core::QueryItem item{edge.id, edge_label(v, edge), "edge"};
    if (const auto entry = v.index.entry(id)) {
      item.fields = {{"source", std::string(entry->source)},
                     {"source_name", end_name(v, entry->source)},
                     {"target", std::string(entry->target)},
                     {"target_name", end_name(v, entry->target)}};
    }
    data.add(std::move(item));
  }
  return core::QueryAnswer{join(blocks, "\n\n"), std::move(data)};
}

// Up to kMaxBlocks blocks, one per shape, separated by blank lines.
template <class Fn>
std::string per_shape(const std::vector<const Cell*>& shapes, Fn&& block) {
  Lines blocks;
  for (std::size_t i = 0; i < shapes.size() && i < kMaxBlocks; ++i)
    blocks.push_back(block(*shapes[i]));
  std::string out = join(blocks, "\n\n");
  if (shapes.size() > kMaxBlocks)
    out += "\n\n… " + std::to_string(shapes.size() - kMaxBlocks) + " more shapes";
  return out;
}

// The shapes `tokens` name for describe/connections: `*`, selectors, or nullopt for a reference.
std::optional<core::Result<Selection>> wildcard_or_selection(const DrawioDocument& doc,
                                                             const SelectorQuery& query,
                                                             std::string_view verb) {
  const auto& tokens = query.tokens;
  if (tokens.size() == 1 && !tokens[0].quoted && tokens[0].text == "*") {
    return Selection{doc.active_page_index(),
                     shapes_in_order(view_of(doc, doc.active_page_index())), ""};
  }
  const bool selectors = std::all_of(tokens.begin(), tokens.end(), [](const core::Token& t) {
    return !t.quoted && t.text.starts_with('@');
  });
  if (selectors) return select(doc, query, verb);
  return std::nullopt;
}

core::Result<std::string> needs_reference(const View& v, std::string_view verb) {
  std::vector<std::string> hints{std::string(verb) + " *"};
  for (const Cell* cell : shapes_in_order(v)) {
    hints.push_back(std::string(verb) + " " + quote_token(cell_label(*cell)));
    break;
  }
  return core::make_error(std::string(verb) + " needs a shape: " + std::string(verb) + " REF, " +
                              std::string(verb) + " * or " + std::string(verb) + " @SELECTOR",
                          std::move(hints));
}

// A described shape's facts, typed.
core::QueryItem described_shape(const View& v, const Cell& cell) {
  core::QueryItem item = shape_item(cell);
  const Rect r = absolute_rect(v.page, cell);
  item.fields = {{"x", rounded(r.x)},
                 {"y", rounded(r.y)},
                 {"width", rounded(r.width)},
                 {"height", rounded(r.height)}};
  if (const Cell* group = ancestor_of_kind(v, cell, CellKind::group))
    item.fields.emplace_back("group", group->id);
  return item;
}

core::Result<core::QueryAnswer> query_describe(const DrawioDocument& doc,
                                               const SelectorQuery& query) {
  const auto& tokens = query.tokens;
  const View active = view_of(doc, doc.active_page_index());
  if (tokens.empty()) return needs_reference(active, "describe").error();
  if (auto many = wildcard_or_selection(doc, query, "describe")) {
    if (!*many) return many->error();
    const View v = view_of(doc, (*many)->page);
    if ((*many)->shapes.empty()) {
      if (!(*many)->nothing_matched.empty())
        return core::QueryAnswer{nothing_matched_answer(**many), page_data(v)};
      return core::QueryAnswer{"No shapes on this page.", page_data(v)};
    }
    const PageFacts facts(v);
    const auto& shapes = (*many)->shapes;
    core::QueryData data = page_data(v);
    // The blocks per_shape shows (its cap), the rest counted in total.
    for (std::size_t i = 0; i < shapes.size() && i < kMaxBlocks; ++i)
      data.items.push_back(described_shape(v, *shapes[i]));
    data.total = shapes.size();
    return core::QueryAnswer{
        per_shape(shapes, [&](const Cell& cell) { return join(describe_shape(v, cell, facts)); }),
        std::move(data)};
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].quoted && core::is_arrow(tokens[i].text))
      return describe_edges(active, query, i);
  }
  auto target = resolve(active, query.written, tokens_text(tokens, 0, tokens.size()));
  if (!target) return target.error();
  const Cell& cell = *active.page.find(target->id);
  const PageFacts facts(active);
  core::QueryData data = page_data(active);
  if (target->kind == CellKind::group) {
    core::QueryItem item = cell_item(cell, "group");
    const Rect r = absolute_rect(active.page, cell);
    item.fields = {{"x", rounded(r.x)},
                   {"y", rounded(r.y)},
                   {"width", rounded(r.width)},
                   {"height", rounded(r.height)}};
    data.add(std::move(item));
    return core::QueryAnswer{join(describe_group(active, cell, facts)), std::move(data)};
  }
  data.add(described_shape(active, cell));
  return core::QueryAnswer{join(describe_shape(active, cell, facts)), std::move(data)};
}

// ---- connections ------------------------------------------------------------------------------

std::string connections_block(const View& v, const Cell& cell, const PageFacts& facts) {
  std::vector<std::string> edges = v.index.incident_edges(cell.id).to_vector();
  facts.sort(edges);
  Lines out, in;
  for (const auto& edge_id : edges) {
    const auto entry = v.index.entry(edge_id);
    const Cell* edge = v.page.find(edge_id);
    if (!entry || edge == nullptr) continue;
    const std::string label = edge_label(v, *edge);
    const std::string suffix = label.empty() ? "" : "(\"" + label + "\")";
    if (entry->source == cell.id) out.push_back(end_name(v, entry->target) + suffix);
    if (entry->target == cell.id) in.push_back(end_name(v, entry->source) + suffix);
  }
  return "connections for " + name_of(cell) +
         ":\n  out: " + (out.empty() ? std::string("(none)") : join(out, ", ")) +
         "\n  in: " + (in.empty() ? std::string("(none)") : join(in, ", "));
}

core::Result<std::string> query_connections(const DrawioDocument& doc, const SelectorQuery& query) {
  const auto& tokens = query.tokens;
  const View active = view_of(doc, doc.active_page_index());
  if (tokens.empty()) return needs_reference(active, "connections");
  if (auto many = wildcard_or_selection(doc, query, "connections")) {
    if (!*many) return many->error();
    if ((*many)->shapes.empty()) {
      if (!(*many)->nothing_matched.empty()) return nothing_matched_answer(**many);
      return std::string("No shapes on this page.");
    }
    const View v = view_of(doc, (*many)->page);
    const PageFacts facts(v);
    return per_shape((*many)->shapes,
                     [&](const Cell& cell) { return connections_block(v, cell, facts); });
  }
  auto target = resolve(active, query.written, tokens_text(tokens, 0, tokens.size()));
  if (!target) return target.error();
  return connections_block(active, *active.page.find(target->id), PageFacts(active));
}

// ---- stats, pages, layers ---------------------------------------------------------------------

// The shape types of the page, most frequent first; each also as an item of `data`.
std::string type_counts(const View& v, core::QueryData& data) {
  std::map<std::string, std::size_t> counts;
  for (const Cell* cell : shapes_in_order(v))
    ++counts[shape_type(*cell)];
  std::vector<std::pair<std::string, std::size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  Lines parts;
  for (const auto& [type, count] : sorted) {
    parts.push_back(std::to_string(count) + " " + type);
    data.add({type, type, "type", {{"shapes", static_cast<std::int64_t>(count)}}});
  }
  return parts.empty() ? std::string("none") : join(parts, ", ");
}

// The size the page draws (its shapes and groups and the waypoints of its edges), as a line of
// stats; nothing for an empty page.
std::string size_line(const DrawioDocument& doc, std::size_t page) {
  const auto bounds = doc.content_bounds(page);
  if (!bounds) return {};
  return "\nsize: " + round_text(bounds->width) + "x" + round_text(bounds->height) + " at (" +
         round_text(bounds->x) + "," + round_text(bounds->y) + ")";
}

core::QueryAnswer query_stats(const DrawioDocument& doc) {
  const View v = view_of(doc, doc.active_page_index());
  core::QueryData data = page_data(v);
  std::string text = "shapes: " + std::to_string(v.index.shapes()) +
                     ", edges: " + std::to_string(v.index.edges()) +
                     ", groups: " + std::to_string(v.index.groups()) +
                     ", pages: " + std::to_string(doc.diagram().pages().size()) +
                     "\ntypes: " + type_counts(v, data) +
                     "\nlayers: " + std::to_string(v.page.layers().size()) +
                     size_line(doc, v.number);
  return {std::move(text), std::move(data)};
}

std::string query_pages(const DrawioDocument& doc) {
  Lines lines{"pages:"};
  for (std::size_t i = 0; i < doc.diagram().pages().size(); ++i) {
    const PageIndex& idx = doc.index(i);
    lines.push_back(
        "  " + page_name(doc, i) + " (" + (i == doc.active_page_index() ? "active, " : "") +
        std::to_string(idx.shapes()) + " shapes, " + std::to_string(idx.edges()) + " edges)");
  }
  return join(lines);
}

std::string query_layers(const DrawioDocument& doc) {
  const View v = view_of(doc, doc.active_page_index());
  const PageFacts facts(v);
  const std::string active = doc.active_layer();
  Lines lines{"layers:"};
  for (const Cell* layer : v.page.layers()) {
    Lines flags;
    if (layer->id == active) flags.emplace_back("active");
    if (!layer->is_visible()) flags.emplace_back("hidden");
    if (layer->is_locked()) flags.emplace_back("locked");
    lines.push_back("  " + one_line(facts.layer_name(layer->id)) +
                    (flags.empty() ? std::string() : " (" + join(flags, ", ") + ")"));
  }
  if (lines.size() == 1) lines.emplace_back("  (none)");
  return join(lines);
}

// ---- map --------------------------------------------------------------------------------------

bool is_vertical_flow(std::string_view flow) {
  return flow == "TB" || flow == "BT";
}

std::string flow_of(const View& v) {
  return v.doc.page_flow(v.number);
}

std::string region_of(double cx, double cy, const Rect& canvas) {
  const double third_w = canvas.width / 3, third_h = canvas.height / 3;
  const double rx = cx - canvas.x, ry = cy - canvas.y;
  const char* col = rx < third_w ? "left" : rx < third_w * 2 ? "center" : "right";
  const char* row = ry < third_h ? "top" : ry < third_h * 2 ? "middle" : "bottom";
  return std::string(row) + "-" + col;
}

struct Placed {
  const Cell* cell;
  Rect rect;
};

void sort_placed(std::vector<Placed>& items, bool vertical) {
  std::stable_sort(items.begin(), items.end(), [vertical](const Placed& a, const Placed& b) {
    if (vertical) return a.rect.y != b.rect.y ? a.rect.y < b.rect.y : a.rect.x < b.rect.x;
    return a.rect.x != b.rect.x ? a.rect.x < b.rect.x : a.rect.y < b.rect.y;
  });
}

std::string map_entry(const Placed& p) {
  return list_entry(*p.cell) + " @(" + round_text(p.rect.x) + "," + round_text(p.rect.y) + ")";
}

// A shape of the map with its place, as the text shows it.
core::QueryItem placed_item(const Placed& p, const Cell* group) {
  core::QueryItem item = shape_item(*p.cell);
  item.fields = {{"x", rounded(p.rect.x)}, {"y", rounded(p.rect.y)}};
  if (group != nullptr) {
    item.fields.emplace_back("group", group->id);
  } else {
    item.fields.emplace_back("ungrouped", true);
  }
  return item;
}

core::QueryAnswer query_map(const DrawioDocument& doc) {
  const View v = view_of(doc, doc.active_page_index());
  core::QueryData data = page_data(v);
  const auto canvas = doc.content_bounds(v.number);
  if (!canvas || v.index.shapes() == 0) return {"map: empty diagram", std::move(data)};
  const std::string flow = flow_of(v);
  const bool vertical = is_vertical_flow(flow);
  std::vector<Placed> groups, ungrouped;
  std::unordered_map<std::string_view, std::vector<Placed>> members;
  for (const Cell& cell : v.page.cells()) {
    const CellKind kind = v.index.kind(cell.id);
    if (kind == CellKind::group) {
      groups.push_back({&cell, absolute_rect(v.page, cell)});
    } else if (kind == CellKind::shape) {
      const Cell* group = ancestor_of_kind(v, cell, CellKind::group);
      auto& bucket = group != nullptr ? members[group->id] : ungrouped;
      bucket.push_back({&cell, absolute_rect(v.page, cell)});
    }
  }
  sort_placed(groups, vertical);
  sort_placed(ungrouped, vertical);
  // Groups whose frames overlap, neither inside the other (trial 17: an agent's tiers overlapped
  // and neither map nor resize to:fit said so). A few hundred groups at most are compared.
  const auto nested = [&](const Cell& inner, const Cell& outer) {
    const Cell* up = &inner;
    for (int depth = 0; depth < kMaxDepth && up != nullptr && up->parent; ++depth) {
      if (*up->parent == outer.id) return true;
      up = v.page.find(*up->parent);
    }
    return false;
  };
  std::unordered_map<std::string_view, Lines> overlapping;
  for (std::size_t i = 0; i < groups.size() && i < kMaxMapRows; ++i) {
    for (std::size_t j = i + 1; j < groups.size() && j < kMaxMapRows; ++j) {
      const Placed& a = groups[i];
      const Placed& b = groups[j];
      if (!a.rect.overlaps(b.rect) || nested(*a.cell, *b.cell) || nested(*b.cell, *a.cell))
        continue;
      overlapping[a.cell->id].push_back(name_of(*b.cell));
      overlapping[b.cell->id].push_back(name_of(*a.cell));
    }
  }
  Lines lines{"map: " + round_text(canvas->width) + "x" + round_text(canvas->height) +
              " flow:" + flow + " | " + std::to_string(v.index.shapes()) + "s " +
              std::to_string(v.index.edges()) + "e " + std::to_string(v.index.groups()) + "g"};
  std::size_t rows = 0, shapes_shown = 0, groups_shown = 0;
  const auto full = [&] { return rows >= kMaxMapRows; };
  for (const Placed& group : groups) {
    if (full()) break;
    const Rect& b = group.rect;
    lines.emplace_back();
    const std::string region = region_of(b.center_x(), b.center_y(), *canvas);
    lines.push_back("  [" + name_of(*group.cell) + "] " + region + " (" + round_text(b.x) + "," +
                    round_text(b.y) + ")-(" + round_text(b.right()) + "," + round_text(b.bottom()) +
                    ")");
    core::QueryItem group_item = cell_item(*group.cell, "group");
    group_item.fields = {{"region", region},
                         {"x", rounded(b.x)},
                         {"y", rounded(b.y)},
                         {"right", rounded(b.right())},
                         {"bottom", rounded(b.bottom())}};
    if (auto over = overlapping.find(group.cell->id); over != overlapping.end()) {
      lines.back() += " — overlaps " + join(over->second, ", ");
      group_item.fields.emplace_back("overlaps", join(over->second, ", "));
    }
    data.items.push_back(std::move(group_item));
    ++rows;
    ++groups_shown;
    auto it = members.find(group.cell->id);
    if (it == members.end()) continue;
    auto& inside = it->second;
    sort_placed(inside, vertical);
    for (std::size_t i = 0; i < inside.size() && !full(); i += 3, ++rows) {
      Lines row;
      for (std::size_t j = i; j < inside.size() && j < i + 3; ++j, ++shapes_shown) {
        row.push_back(map_entry(inside[j]));
        data.items.push_back(placed_item(inside[j], group.cell));
      }
      lines.push_back("    " + join(row, " | "));
    }
  }
  if (!ungrouped.empty() && !full()) {
    if (!groups.empty()) lines.emplace_back();
    for (std::size_t i = 0; i < ungrouped.size() && !full(); ++i, ++rows, ++shapes_shown) {
      lines.push_back("  " + map_entry(ungrouped[i]) + " — ungrouped");
      data.items.push_back(placed_item(ungrouped[i], nullptr));
    }
  }
  // The map covers every shape and group of the page; items are the ones its rows show.
  data.total = v.index.shapes() + groups.size();
  const std::size_t more_shapes = v.index.shapes() - std::min(shapes_shown, v.index.shapes());
  const std::size_t more_groups = groups.size() - groups_shown;
  if (more_shapes + more_groups > 0) {
    Lines more;
    if (more_shapes > 0) more.push_back(std::to_string(more_shapes) + " more shapes");
    if (more_groups > 0) more.push_back(std::to_string(more_groups) + " more groups");
    lines.push_back("  … " + join(more, ", ") + " (list or find show them)");
  }
  return {join(lines), std::move(data)};
}

// ---- vocabulary -------------------------------------------------------------------------------

std::string query_types(const DrawioDocument& doc) {
  Lines lines{"types:"};
  for (const auto& type : data::node_types()) {
    lines.push_back("  " + std::string(type.name) + " — " + std::string(type.description) + ", " +
                    format_number(type.width) + "x" + format_number(type.height));
  }
  lines.emplace_back("  text — free text (no box); group — a container (use the group verb)");
  if (!doc.state().custom_types.empty()) {
    lines.emplace_back("custom types:");
    for (const auto& [name, type] : doc.state().custom_types) {
      std::string line = "  " + name + " (base:" + type.base;
      if (!type.theme.empty()) line += " theme:" + type.theme;
      if (!type.badge.empty()) line += " badge:" + quote_token(type.badge);
      if (type.size)
        line += " size:" + format_number(type.size->first) + "x" + format_number(type.size->second);
      lines.push_back(line + ")");
    }
  }
  Lines unloaded;
  for (const auto& pack : data::stencil_packs()) {
    const bool loaded = std::find(doc.state().loaded_packs.begin(), doc.state().loaded_packs.end(),
                                  pack.id) != doc.state().loaded_packs.end();
    if (!loaded) {
      unloaded.emplace_back(pack.id);
      continue;
    }
    Lines ids;
    for (const auto& entry : pack.entries)
      ids.emplace_back(entry.id);
    lines.push_back("stencils " + std::string(pack.id) + " (" + std::string(pack.name) +
                    "): " + join(ids, ", "));
  }
  if (!unloaded.empty())
    lines.push_back("stencil packs not loaded (load PACK): " + join(unloaded, ", "));
  return join(lines);
}

std::string theme_line(std::string_view name, std::string_view fill, std::string_view stroke,
                       std::string_view font) {
  std::string line =
      "  " + std::string(name) + " fill:" + std::string(fill) + " stroke:" + std::string(stroke);
  if (!font.empty()) line += " font:" + std::string(font);
  return line;
}

std::string query_themes(const DrawioDocument& doc) {
  Lines lines{"themes:"};
  for (const auto& theme : data::themes())
    lines.push_back(theme_line(theme.name, theme.fill, theme.stroke, theme.font_color));
  for (const auto& [name, theme] : doc.state().custom_themes)
    lines.push_back(theme_line(name, theme.fill, theme.stroke, theme.font_color) + " (custom)");
  return join(lines);
}

}  // namespace

std::optional<core::Result<core::QueryAnswer>> run_query(const DrawioDocument& doc,
                                                         std::string_view verb,
                                                         std::string_view args,
                                                         const core::CallContext& ctx) {
  using Answer = core::Result<core::QueryAnswer>;
  const std::string word = core::to_lower(verb);
  static const std::unordered_set<std::string_view> known{
      "list", "describe", "connections", "stats", "map",
      "find", "pages",    "layers",      "types", "themes"};
  if (!known.contains(word)) return std::nullopt;
  auto tokens = core::tokenize(args);
  if (!tokens) return Answer(tokens.error());
  const std::string written = word + " " + std::string(args);
  const SelectorQuery query{*tokens, ctx.log, written};
  if (word == "list") return query_list(doc, query);
  if (word == "describe") return query_describe(doc, query);
  if (word == "connections") return core::text_only(query_connections(doc, query));
  if (word == "find") return core::text_only(query_find(doc, *tokens));
  if (word == "stats") return Answer(query_stats(doc));
  if (word == "map") return Answer(query_map(doc));
  if (word == "pages") return core::text_only(query_pages(doc));
  if (word == "layers") return core::text_only(query_layers(doc));
  if (word == "types") return core::text_only(query_types(doc));
  return core::text_only(query_themes(doc));
}

std::vector<core::VerbSpec> query_specs() {
  return {
      core::VerbSpec{"list", "[@SELECTOR…]", "queries",
                     "shapes as Label(type) in document order; the same selector type unites, "
                     "different types intersect; @page:NAME reads another page"}
          .with_structured_answer(),
      core::VerbSpec{"describe", "REF | * | A -> B", "queries",
                     "position, size, colours, group, badges, layer, properties and edges of a "
                     "shape, group or edge"}
          .with_structured_answer(),
      {"connections", "REF | *", "queries",
       "outgoing and incoming edges of a shape, with their labels"},
      core::VerbSpec{"stats", "", "queries",
                     "counts of shapes, edges, groups, pages, types and layers, and the size the "
                     "page draws (shapes, groups and edge waypoints)"}
          .with_structured_answer(),
      core::VerbSpec{"map", "", "queries",
                     "spatial summary: canvas (shapes, groups and edge waypoints), flow, groups "
                     "with region, members and the groups their frames overlap, ungrouped shapes"}
          .with_structured_answer(),
      core::VerbSpec{"find", "TEXT", "queries", "shapes whose label or alias contains TEXT"}
          .text_argument(),
      {"pages", "", "queries", "the pages with their shape and edge counts"},
      {"layers", "", "queries", "the layers of the active page and their flags"},
      {"types", "", "queries", "node types, custom types and loaded stencils for add"},
      {"themes", "", "queries", "built-in and custom colour themes"},
  };
}

}  // namespace fcp::drawio
