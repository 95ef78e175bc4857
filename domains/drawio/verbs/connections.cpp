// Connection verbs: connect (chains, selector endpoints, arrows, edge styles, ports) and
// disconnect.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <tuple>

#include "core/op_contract.hpp"
#include "domains/drawio/data/arrows.hpp"
#include "domains/drawio/data/colors.hpp"
#include "domains/drawio/label_clearance.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/layout/port_routes.hpp"
#include "domains/drawio/scene.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

constexpr std::size_t kMaxEdgesPerOp = 10'000;
constexpr std::size_t kMaxSpreadDegree = 12;
constexpr std::size_t kMaxExistingSaid = 5;  // edges found existing, one line each

enum class Face { top, right, bottom, left };

std::string_view face_name(Face face) {
  switch (face) {
    case Face::top:
      return "top";
    case Face::right:
      return "right";
    case Face::bottom:
      return "bottom";
    case Face::left:
      return "left";
  }
  return "right";
}

// (x, y) on the unit box for a position 0..1 along a face.
std::pair<double, double> face_point(Face face, double along) {
  switch (face) {
    case Face::top:
      return {along, 0};
    case Face::bottom:
      return {along, 1};
    case Face::left:
      return {0, along};
    case Face::right:
      return {1, along};
  }
  return {0.5, 0.5};
}

Face face_toward(const Rect& from, const Rect& to) {
  // When the boxes overlap along one axis and are apart along the other, the faces across the
  // gap are the only ones an orthogonal route can join without running through an end.
  const double gap_x = std::max(to.x - from.right(), from.x - to.right());
  const double gap_y = std::max(to.y - from.bottom(), from.y - to.bottom());
  if (gap_x <= 0 && gap_y > 0) return to.center_y() > from.center_y() ? Face::bottom : Face::top;
  if (gap_y <= 0 && gap_x > 0) return to.center_x() > from.center_x() ? Face::right : Face::left;
  const double angle =
      std::atan2(to.center_y() - from.center_y(), to.center_x() - from.center_x()) * 180 /
      std::numbers::pi;
  if (angle >= -45 && angle < 45) return Face::right;
  if (angle >= 45 && angle < 135) return Face::bottom;
  if (angle >= -135 && angle < -45) return Face::top;
  return Face::left;
}

Face opposite(Face face) {
  switch (face) {
    case Face::top:
      return Face::bottom;
    case Face::bottom:
      return Face::top;
    case Face::left:
      return Face::right;
    case Face::right:
      return Face::left;
  }
  return Face::left;
}

// exit:/entry: values: top|bottom|left|right[@0..1]. Errors offer `op` (the op as written) with
// the value corrected.
core::Result<std::pair<double, double>> parse_port(std::string_view text, std::string_view param,
                                                   std::string_view op) {
  std::string_view face = text;
  double along = 0.5;
  if (auto at = text.find('@'); at != std::string_view::npos) {
    face = text.substr(0, at);
    auto value = parse_number(text.substr(at + 1), param);
    if (!value || *value < 0 || *value > 1)
      return core::make_error(
          "invalid " + std::string(param) + ":" + std::string(text) +
              " — the position after @ is 0..1, e.g. " + std::string(param) + ":bottom@0.25",
          {core::replace_param_token(op, param,
                                     std::string(param) + ":" + std::string(face) + "@0.5")});
    along = *value;
  }
  for (Face f : {Face::top, Face::right, Face::bottom, Face::left}) {
    if (face == face_name(f)) return face_point(f, along);
  }
  return core::make_error("invalid " + std::string(param) + ":" + std::string(text) +
                              " — use top, bottom, left or right, optionally @0..1, or auto (fcp "
                              "chooses)",
                          {core::replace_param_token(op, param, std::string(param) + ":right"),
                           core::replace_param_token(op, param, std::string(param) + ":auto")});
}

struct EdgeLook {
  std::string base =
      "edgeStyle=orthogonalEdgeStyle;rounded=1;orthogonalLoop=1;jettySize=auto;html=1;";
  std::vector<std::pair<std::string, std::string>> keys;    // set after the base
  std::vector<std::string> removed;                         // keys taken out of the base
  std::vector<std::pair<std::string, std::string>> drawio;  // draw.io keys, set last
  std::vector<std::string> words;                           // for the reply
  bool sets_ports = false;          // exit:/entry: or a draw.io port key: the user chose the ports
  std::uint8_t user_port_ends = 0;  // which (kExitPort, kEntryPort)
};

bool is_connect_key(std::string_view key) {
  for (std::string_view declared : {"label", "style", "exit", "entry", "source-arrow",
                                    "target-arrow", "stroke", "color", "width", "new"}) {
    if (key == declared) return true;
  }
  return false;
}

core::Result<void> add_edge_style(EdgeLook& look, std::string_view word) {
  if (word == "dashed") {
    look.keys.emplace_back("dashed", "1");
  } else if (word == "dotted") {
    look.keys.emplace_back("dashed", "1");
    look.keys.emplace_back("dashPattern", "1 3");
  } else if (word == "solid") {
    look.keys.emplace_back("dashed", "0");
  } else if (word == "animated") {
    look.keys.emplace_back("flowAnimation", "1");
  } else if (word == "curved") {
    look.removed.emplace_back("rounded");
    look.keys.emplace_back("curved", "1");
  } else if (word == "straight") {
    look.removed.emplace_back("edgeStyle");
  } else if (word == "orthogonal") {
    // the default
  } else if (word == "elbow") {
    look.keys.emplace_back("edgeStyle", "elbowEdgeStyle");
  } else if (word == "thick") {
    look.keys.emplace_back("strokeWidth", "3");
  } else if (word == "thin") {
    look.keys.emplace_back("strokeWidth", "1");
  } else {
    return core::make_error("unknown edge style \"" + std::string(word) +
                                "\" — use dashed, dotted, solid, animated, curved, straight, "
                                "orthogonal, elbow, thick or thin",
                            {"style:dashed", "style:thick"});
  }
  if (word != "orthogonal") look.words.emplace_back(word);
  return {};
}

core::Result<void> add_arrow(EdgeLook& look, std::string_view end, std::string_view kind_name) {
  const auto* kind = data::find_arrow_kind(kind_name);
  if (kind == nullptr) {
    std::string names;
    for (const auto& k : data::arrow_kinds())
      names += (names.empty() ? "" : ", ") + std::string(k.name);
    return core::make_error("unknown arrow kind \"" + std::string(kind_name) + "\" — use " + names);
  }
  look.keys.emplace_back(std::string(end) + "Arrow", std::string(kind->drawio_arrow));
  look.keys.emplace_back(std::string(end) + "Fill", kind->filled ? "1" : "0");
  return {};
}

// Everything connect params say about the edges' look, validated once per op.
core::Result<EdgeLook> edge_look(const OpContext& ctx, std::string_view arrow) {
  EdgeLook look;
  if (arrow == "<->") {
    look.keys.emplace_back("startArrow", "classic");
    look.keys.emplace_back("startFill", "1");
  } else if (arrow == "--") {
    look.keys.emplace_back("endArrow", "none");
  }
  if (const std::string* styles = ctx.op.param("style")) {
    std::string_view rest = *styles;
    while (!rest.empty()) {
      const auto comma = rest.find_first_of(",+");
      if (auto added = add_edge_style(look, rest.substr(0, comma)); !added) return added.error();
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  if (const std::string* kind = ctx.op.param("source-arrow")) {
    if (auto added = add_arrow(look, "start", *kind); !added) return added.error();
  }
  if (const std::string* kind = ctx.op.param("target-arrow")) {
    if (auto added = add_arrow(look, "end", *kind); !added) return added.error();
  }
  for (const char* key : {"stroke", "color"}) {
    if (const std::string* value = ctx.op.param(key)) {
      auto color = data::parse_color(*value);
      if (!color)
        return core::make_error("invalid colour " + std::string(key) + ":" + *value + " — " +
                                std::string(data::color_help()));
      look.keys.emplace_back("strokeColor", *color);
    }
  }
  if (auto width = ctx.op.number("width"))
    look.keys.emplace_back("strokeWidth", format_number(*width));
  const auto user_port = [&ctx](std::string_view end) {
    const std::string* value = ctx.op.param(end);
    return value != nullptr && *value != kAutomaticPort;
  };
  look.sets_ports = user_port("exit") || user_port("entry");
  if (user_port("exit")) look.user_port_ends |= kExitPort;
  if (user_port("entry")) look.user_port_ends |= kEntryPort;
  for (const char* end : {"exit", "entry"}) {
    if (const std::string* value = ctx.op.param(end)) look.words.push_back(end + (":" + *value));
  }
  for (const auto& param : ctx.op.params) {
    if (is_connect_key(param.key)) continue;
    auto value = drawio_style_value(ctx, param.key, param.value);
    if (!value) return value.error();
    look.drawio.emplace_back(param.key, *value);
    look.words.push_back(param.key + ":" + param.value);
    if (param.key.starts_with("exit") || param.key.starts_with("entry")) look.sets_ports = true;
    if (param.key.starts_with("exit")) look.user_port_ends |= kExitPort;
    if (param.key.starts_with("entry")) look.user_port_ends |= kEntryPort;
  }
  return look;
}

// The position 0..1 of an edge's port (`prefix` exit/entry) along `face` of its shape, when the
// style puts it on that face; nullopt otherwise.
std::optional<double> port_along(const Cell& edge, std::string_view prefix, Face face) {
  if (!edge.style) return std::nullopt;
  const auto x = edge.style->get(std::string(prefix) + "X");
  const auto y = edge.style->get(std::string(prefix) + "Y");
  if (!x || !y) return std::nullopt;
  const auto px = parse_number(*x, "port"), py = parse_number(*y, "port");
  if (!px || !py) return std::nullopt;
  switch (face) {
    case Face::left:
      return *px == 0 ? std::optional<double>(*py) : std::nullopt;
    case Face::right:
      return *px == 1 ? std::optional<double>(*py) : std::nullopt;
    case Face::top:
      return *py == 0 ? std::optional<double>(*px) : std::nullopt;
    case Face::bottom:
      return *py == 1 ? std::optional<double>(*px) : std::nullopt;
  }
  return std::nullopt;
}

// An edge with automatic ports between two facing sides whose shapes overlap across the gap
// would be drawn with a jog half-way, its label on it, when its ports are not level (trial 14: a
// 60 px service level with an 80 px store at the top). A port alone on its side moves onto the
// other port's line when that lies on its side 10 px clear of the corners; both alone, they meet
// on the line nearest the middle between the shapes' centres within the overlap. Ports stay
// 15 px from the other ports on their sides.
void align_facing_ports(OpContext& ctx, const std::string& edge_id) {
  constexpr double kCornerInset = 10;
  constexpr double kPortGap = 15;
  const Cell* edge = ctx.page().find(edge_id);
  if (edge == nullptr || !edge->style || !edge->source || !edge->target ||
      *edge->source == *edge->target || !ctx.doc.has_automatic_ports(edge_id))
    return;
  const std::string source = *edge->source, target = *edge->target;
  const Rect from = bounds_of(ctx, source), to = bounds_of(ctx, target);
  const Face exit = face_toward(from, to);
  const Face entry = opposite(exit);
  const auto exit_along = port_along(*edge, "exit", exit);
  const auto entry_along = port_along(*edge, "entry", entry);
  if (!exit_along || !entry_along) return;
  const bool across_y = exit == Face::left || exit == Face::right;
  const auto start = [&](const Rect& r) { return across_y ? r.y : r.x; };
  const auto length = [&](const Rect& r) { return across_y ? r.height : r.width; };
  const double exit_at = start(from) + *exit_along * length(from);
  const double entry_at = start(to) + *entry_along * length(to);
  if (std::abs(exit_at - entry_at) <= 0.5) return;  // already one line
  // The other ports on each side.
  const auto others_on = [&](const std::string& shape, Face face, const Rect& rect) {
    std::vector<double> taken;
    for (const auto& other_id : ctx.index().incident_edges(shape).to_vector()) {
      const Cell* other = ctx.page().find(other_id);
      if (other_id == edge_id || other == nullptr) continue;
      for (const bool is_source : {true, false}) {
        if ((is_source ? other->source : other->target) != shape) continue;
        if (const auto along = port_along(*other, is_source ? "exit" : "entry", face))
          taken.push_back(start(rect) + *along * length(rect));
      }
    }
    return taken;
  };
  const std::vector<double> exit_others = others_on(source, exit, from);
  const std::vector<double> entry_others = others_on(target, entry, to);
  const bool move_exit = exit_others.empty(), move_entry = entry_others.empty();
  if (!move_exit && !move_entry) return;
  // The span the moving ports may take: the side of each port that moves (one at least).
  const auto end_of = [&](const Rect& r) { return start(r) + length(r); };
  double lo = move_exit ? start(from) : start(to);
  double hi = move_exit ? end_of(from) : end_of(to);
  if (move_exit && move_entry) {
    lo = std::max(start(from), start(to));
    hi = std::min(end_of(from), end_of(to));
  }
  lo += kCornerInset;
  hi -= kCornerInset;
  // Ports are written to the hundredth of a side (format_number): a line is taken where the ports
  // written so meet (exactly, else within half a pixel, drawn straight), clear of the others.
  const auto written = [&](const Rect& r, double at) {
    return std::round((at - start(r)) / length(r) * 100) / 100;
  };
  const auto fits = [&](double at, double tolerance) {
    if (at < lo || at > hi) return false;
    const double exit_line = move_exit ? start(from) + written(from, at) * length(from) : exit_at;
    const double entry_line = move_entry ? start(to) + written(to, at) * length(to) : entry_at;
    const auto clear = [&](const std::vector<double>& taken) {
      return std::none_of(taken.begin(), taken.end(),
                          [&](double port) { return std::abs(port - at) < kPortGap; });
    };
    return std::abs(exit_line - entry_line) <= tolerance && clear(exit_others) &&
           clear(entry_others);
  };
  std::optional<double> found;
  if (move_exit && move_entry) {
    const double from_mid = start(from) + length(from) / 2, to_mid = start(to) + length(to) / 2;
    const double middle = std::clamp((from_mid + to_mid) / 2, lo, hi);
    for (const double tolerance : {0.01, 0.5}) {
      for (double step = 0; !found && step <= hi - lo; step += 0.1) {
        for (const double at : {middle - step, middle + step}) {
          if (!found && fits(at, tolerance)) found = at;
        }
      }
    }
  } else {
    const double line = move_exit ? entry_at : exit_at;  // the port that stays
    if (fits(line, 0.5)) found = line;
  }
  if (!found) return;
  const auto [ex, ey] = face_point(exit, move_exit ? written(from, *found) : *exit_along);
  const auto [nx, ny] = face_point(entry, move_entry ? written(to, *found) : *entry_along);
  // Structured bindings are captured by init-capture: clang before 16 cannot capture them.
  ctx.edit.update(edge_id, [ex = ex, ey = ey, nx = nx, ny = ny](Cell& c) {
    c.style->set("exitX", format_number(ex));
    c.style->set("exitY", format_number(ey));
    c.style->set("entryX", format_number(nx));
    c.style->set("entryY", format_number(ny));
  });
}

// Spreads the ports of the edges leaving (or entering) one face of a shape so they do not
// overlap: N edges get positions (i+1)/(N+1), ordered by where their other end is.
void spread_face(OpContext& ctx, const std::string& shape_id, Face face) {
  const auto& incident = ctx.index().incident_edges(shape_id);
  if (incident.size() > kMaxSpreadDegree) return;
  struct Port {
    std::string edge;
    bool is_source;
    double other;
  };
  std::vector<Port> ports;
  const auto [fx, fy] = face_point(face, 0.5);
  for (const auto& edge_id : incident) {
    const Cell* edge = ctx.page().find(edge_id);
    if (edge == nullptr || !edge->style || !ctx.doc.has_automatic_ports(edge_id)) continue;
    const bool is_source = edge->source == shape_id;
    const std::string_view prefix = is_source ? "exit" : "entry";
    const auto x = edge->style->get(std::string(prefix) + "X");
    const auto y = edge->style->get(std::string(prefix) + "Y");
    if (!x || !y) continue;
    const bool vertical = face == Face::left || face == Face::right;
    const bool on_face = vertical ? *x == format_number(fx) : *y == format_number(fy);
    if (!on_face) continue;
    const std::string& other_id = is_source ? edge->target.value_or("") : edge->source.value_or("");
    const Rect other = bounds_of(ctx, other_id);
    ports.push_back({edge_id, is_source, vertical ? other.center_y() : other.center_x()});
  }
  if (ports.size() < 2) return;
  std::sort(ports.begin(), ports.end(),
            [](const Port& a, const Port& b) { return a.other < b.other; });
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const double along = static_cast<double>(i + 1) / static_cast<double>(ports.size() + 1);
    const auto [x, y] = face_point(face, std::round(along * 100) / 100);
    const std::string prefix = ports[i].is_source ? "exit" : "entry";
    // Structured bindings are captured by init-capture: clang before 16 cannot capture them.
    ctx.edit.update(ports[i].edge, [&, x = x, y = y](Cell& c) {
      c.style->set(prefix + "X", format_number(x));
      c.style->set(prefix + "Y", format_number(y));
    });
  }
  for (const Port& port : ports)
    align_facing_ports(ctx, port.edge);
}

}  // namespace

// Labelled edges leaving one shape get their labels spread along the edges (relative positions
// -0.3 … 0.3 of each edge's length, draw.io's geometry x) so they do not sit on top of each other:
// the slot of that spread farthest from its siblings' labels (trial 15: adding an edge moved a
// sibling's label onto a bend of its route, unsaid). nullopt when it is the only labelled edge
// leaving `source` (its place is the middle, 0) or `source` has too many edges to look at.
std::optional<double> label_slot(const OpContext& ctx, const std::string& source,
                                 const std::string& edge_id, std::optional<double> current) {
  const auto incident = ctx.index().incident_edges(source).to_vector();
  if (incident.size() > kMaxSpreadDegree) return std::nullopt;
  std::vector<double> taken;
  std::size_t labelled = 0;
  for (const auto& id : incident) {
    const Cell* edge = ctx.page().find(id);
    if (edge == nullptr || edge->source != source || !edge->value || edge->value->empty()) continue;
    ++labelled;
    if (id != edge_id)
      taken.push_back(edge->geometry && edge->geometry->x ? *edge->geometry->x : 0.0);
  }
  if (labelled < 2) return std::nullopt;
  double best = 0, best_room = -1;
  for (std::size_t i = 0; i < labelled; ++i) {
    const double slot = -0.3 + 0.6 * static_cast<double>(i) / static_cast<double>(labelled - 1);
    double room = 1;
    for (const double x : taken)
      room = std::min(room, std::abs(x - slot));
    // A tie keeps the slot the label has (its place among its siblings does not change).
    const bool kept = current && std::abs(*current - slot) < 0.005;
    if (room > best_room || (kept && room >= best_room)) {
      best = slot;
      best_room = room;
    }
  }
  return std::round(best * 100) / 100;
}

namespace {

// Only the new edge's label is placed (label_slot); its siblings' stay where they are.
void place_new_label(OpContext& ctx, const std::string& source, const std::string& new_edge) {
  const auto slot = label_slot(ctx, source, new_edge);
  if (!slot) return;
  ctx.edit.update(new_edge, [&](Cell& edge) {
    if (!edge.geometry) edge.geometry = Geometry{};
    edge.geometry->relative = true;
    edge.geometry->x = *slot;
  });
}

core::Result<std::string> connect_pair(OpContext& ctx, const std::string& source,
                                       const std::string& target, const EdgeLook& look,
                                       std::string_view arrow) {
  Cell edge;
  edge.id = ctx.doc.allocate_id();
  edge.value = ctx.op.param_or("label", "");
  Style style = Style::parse(look.base);
  for (const auto& key : look.removed)
    style.erase(key);
  for (const auto& [key, value] : look.keys)
    style.set(key, value);
  const Rect from = bounds_of(ctx, source), to = bounds_of(ctx, target);
  const std::string* exit = ctx.op.param("exit");
  const std::string* entry = ctx.op.param("entry");
  std::optional<Face> auto_exit, auto_entry;
  if (look.sets_ports) {
    if (exit != nullptr && *exit != kAutomaticPort) {
      auto port = parse_port(*exit, "exit", ctx.op.raw);
      if (!port) return port.error();
      style.set("exitX", format_number(port->first));
      style.set("exitY", format_number(port->second));
      style.set("exitDx", "0");
      style.set("exitDy", "0");
    }
    if (entry != nullptr && *entry != kAutomaticPort) {
      auto port = parse_port(*entry, "entry", ctx.op.raw);
      if (!port) return port.error();
      style.set("entryX", format_number(port->first));
      style.set("entryY", format_number(port->second));
      style.set("entryDx", "0");
      style.set("entryDy", "0");
    }
  } else if (source != target) {
    auto_exit = face_toward(from, to);
    auto_entry = opposite(*auto_exit);
    const auto [ex, ey] = face_point(*auto_exit, 0.5);
    const auto [nx, ny] = face_point(*auto_entry, 0.5);
    style.set("exitX", format_number(ex));
    style.set("exitY", format_number(ey));
    style.set("exitDx", "0");
    style.set("exitDy", "0");
    style.set("entryX", format_number(nx));
    style.set("entryY", format_number(ny));
    style.set("entryDx", "0");
    style.set("entryDy", "0");
  }
  for (const auto& [key, value] : look.drawio) {
    if (value.empty()) {
      style.erase(key);
    } else {
      style.set(key, value);
    }
  }
  style.set_trailing_semicolon(true);
  edge.style = std::move(style);
  edge.edge = true;
  edge.parent = edge_parent(ctx, source, target, ctx.doc.active_layer());
  edge.source = source;
  edge.target = target;
  edge.geometry = Geometry{};
  edge.geometry->relative = true;
  const std::string edge_id = edge.id;
  ctx.edit.insert(std::move(edge));
  if (look.sets_ports)
    ctx.edit.update_state(
        [&](DocumentState& state) { state.user_ports[edge_id] |= look.user_port_ends; });
  if (auto_exit) {
    ctx.edit.set_automatic_ports(edge_id, true);
    spread_face(ctx, source, *auto_exit);
    spread_face(ctx, target, *auto_entry);
    align_facing_ports(ctx, edge_id);
  }
  if (!ctx.op.param_or("label", "").empty()) place_new_label(ctx, source, edge_id);
  std::string text = display_name(ctx.doc, source) + std::string(arrow == "->" ? "->" : arrow) +
                     display_name(ctx.doc, target);
  if (const std::string* label = ctx.op.param("label"); label && !label->empty())
    text += " \"" + *label + "\"";
  for (const auto& word : look.words)
    text += " " + word;
  return core::connection_changed(text);
}

// The text of an edge's label: its value, else its first labelled label cell.
std::string edge_text(const OpContext& ctx, const std::string& edge_id) {
  const Cell* edge = ctx.page().find(edge_id);
  if (edge == nullptr) return {};
  if (std::string label = cell_label(*edge); !label.empty()) return label;
  for (const auto& child : ctx.index().children(edge_id)) {
    const Cell* cell = ctx.page().find(child);
    if (cell != nullptr && ctx.index().kind(child) == CellKind::edge_label) {
      if (std::string label = cell_label(*cell); !label.empty()) return label;
    }
  }
  return {};
}

// Whether one of `edges` is the edge the op asks for: same ends (the caller chose them) and,
// when the op gives label:, the same label.
bool has_same_edge(const OpContext& ctx, const std::vector<std::string>& edges) {
  const std::string* label = ctx.op.param("label");
  return std::any_of(edges.begin(), edges.end(), [&](const std::string& id) {
    return label == nullptr || edge_text(ctx, id) == *label;
  });
}

}  // namespace

core::Result<std::pair<double, double>> port_position(std::string_view text, std::string_view param,
                                                      std::string_view op) {
  return parse_port(text, param, op);
}

bool give_ports_back(OpContext& ctx, const std::string& edge_id) {
  const Cell* edge = ctx.page().find(edge_id);
  if (edge == nullptr || !edge->source || !edge->target) return false;
  const std::string source = *edge->source, target = *edge->target;
  ctx.edit.update(edge_id, [](Cell& cell) {
    if (cell.geometry) cell.geometry->points.reset();
    if (!cell.style) cell.style = Style{};
    for (const char* key : {"exitX", "exitY", "exitDx", "exitDy", "exitPerimeter", "entryX",
                            "entryY", "entryDx", "entryDy", "entryPerimeter"})
      cell.style->erase(key);
  });
  ctx.edit.update_state([&edge_id](DocumentState& state) { state.user_ports.erase(edge_id); });
  if (source == target) return false;
  ctx.edit.set_automatic_ports(edge_id, true);
  refresh_ports(ctx, source);
  refresh_ports(ctx, target);
  if (edges_through_shapes(ctx.page(), ctx.index(), std::span(&edge_id, 1)).empty()) return false;
  return route_edge_around_shapes(ctx, edge_id) == EdgeRouteResult::routed;
}

void refresh_ports(OpContext& ctx, const std::string& shape_id) {
  const auto incident = ctx.index().incident_edges(shape_id).to_vector();
  if (incident.size() > kMaxSpreadDegree) return;
  std::vector<std::pair<std::string, Face>> faces;
  for (const auto& edge_id : incident) {
    const Cell* edge = ctx.page().find(edge_id);
    if (edge == nullptr || !edge->style || !ctx.doc.has_automatic_ports(edge_id)) continue;
    const std::string source = edge->source.value_or(""), target = edge->target.value_or("");
    if (source.empty() || target.empty() || source == target) continue;
    const Face exit = face_toward(bounds_of(ctx, source), bounds_of(ctx, target));
    const auto [ex, ey] = face_point(exit, 0.5);
    const auto [nx, ny] = face_point(opposite(exit), 0.5);
    // Structured bindings are captured by init-capture: clang before 16 cannot capture them.
    ctx.edit.update(edge_id, [&, ex = ex, ey = ey, nx = nx, ny = ny](Cell& c) {
      c.style->set("exitX", format_number(ex));
      c.style->set("exitY", format_number(ey));
      c.style->set("entryX", format_number(nx));
      c.style->set("entryY", format_number(ny));
    });
    faces.emplace_back(source, exit);
    faces.emplace_back(target, opposite(exit));
  }
  for (const auto& [shape, face] : faces)
    spread_face(ctx, shape, face);
  for (const auto& edge_id : incident)
    align_facing_ports(ctx, edge_id);
}

EdgeRouteResult route_edge_around_shapes(OpContext& ctx, const std::string& edge_id) {
  const Cell* edge = ctx.page().find(edge_id);
  if (edge == nullptr || !edge->source || !edge->target || *edge->source == *edge->target)
    return EdgeRouteResult::no_route;
  const Cell* source = ctx.page().find(*edge->source);
  const Cell* target = ctx.page().find(*edge->target);
  if (source == nullptr || target == nullptr) return EdgeRouteResult::no_route;
  const Rect from = absolute_rect(ctx.page(), *source), to = absolute_rect(ctx.page(), *target);
  // The edge's own ports; a side it has none for faces the other end.
  auto port = [&edge](std::string_view prefix, std::pair<double, double> fallback) {
    const auto x = edge->style_value(std::string(prefix) + "X");
    const auto y = edge->style_value(std::string(prefix) + "Y");
    auto number = [](std::optional<std::string_view> text) -> std::optional<double> {
      if (!text) return std::nullopt;
      auto value = parse_number(*text, "port");
      return value ? std::optional<double>(*value) : std::nullopt;
    };
    const auto px = number(x), py = number(y);
    return layout::Point2{px.value_or(fallback.first), py.value_or(fallback.second)};
  };
  const Face exit = face_toward(from, to);
  const layout::PortEnd start{{source->id, from.x, from.y, from.width, from.height},
                              port("exit", face_point(exit, 0.5))};
  const layout::PortEnd end{{target->id, to.x, to.y, to.width, to.height},
                            port("entry", face_point(opposite(exit), 0.5))};
  std::vector<layout::ClusterBox> obstacles;
  for (const Cell& cell : ctx.page().cells()) {
    if (ctx.index().kind(cell.id) != CellKind::shape || cell.is_text() || &cell == source ||
        &cell == target)
      continue;
    const Rect r = absolute_rect(ctx.page(), cell);
    // A shape holding an end (a container shape) is crossed to reach it.
    if (r.x <= from.x && r.y <= from.y && r.right() >= from.right() && r.bottom() >= from.bottom())
      continue;
    if (r.x <= to.x && r.y <= to.y && r.right() >= to.right() && r.bottom() >= to.bottom())
      continue;
    obstacles.push_back({cell.id, r.x, r.y, r.width, r.height});
  }
  // Waypoints are corners only to orthogonal (or straight) edges: draw.io's elbow and other
  // connector styles read them differently, so those edges keep no waypoints and route
  // themselves from their ports.
  const auto edge_style = edge->style_value("edgeStyle");
  const bool corners = !edge_style || edge_style->empty() || *edge_style == "orthogonalEdgeStyle";
  const auto route = corners ? layout::route_between_ports(start, end, obstacles)
                             : std::optional<std::vector<layout::Point2>>();
  // Waypoints are in the coordinates of the edge's parent when that is a shape or group.
  double ox = 0, oy = 0;
  if (edge->parent) {
    const Cell* parent = ctx.page().find(*edge->parent);
    if (parent != nullptr && parent->vertex) {
      const Rect r = absolute_rect(ctx.page(), *parent);
      ox = r.x;
      oy = r.y;
    }
  }
  ctx.edit.update(edge_id, [&](Cell& cell) {
    if (!route || route->empty()) {
      if (cell.geometry) cell.geometry->points.reset();
      return;
    }
    if (!cell.geometry) cell.geometry = Geometry{};
    cell.geometry->relative = true;
    std::vector<Point> points;
    for (const layout::Point2& p : *route) {
      Point point;
      point.x = std::round(p.x - ox);
      point.y = std::round(p.y - oy);
      points.push_back(std::move(point));
    }
    cell.geometry->points = std::move(points);
  });
  // A label the new route leaves beside a shape that is not an end of the edge slides along the
  // route clear of it, when the route has room (the batch warns about one that stays).
  if (route) {
    if (const Cell* routed = ctx.page().find(edge_id)) {
      if (const auto x = clear_label_position(ctx.page(), ctx.index(), *routed))
        ctx.edit.update(edge_id, [x = *x](Cell& cell) { cell.geometry->x = x; });
    }
  }
  if (!corners) return EdgeRouteResult::by_style;
  return route ? EdgeRouteResult::routed : EdgeRouteResult::no_route;
}

core::Result<void> verb_connect(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  // REF ARROW REF [ARROW REF]…
  if (tokens.size() < 3 || tokens.size() % 2 == 0)
    return core::make_error("connect requires REF ARROW REF (arrows: -> <-> --)",
                            {"connect Web -> API", "connect A -> B -> C label:\"calls\""});
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const bool want_arrow = i % 2 == 1;
    if (tokens[i].is_arrow() != want_arrow) {
      if (!want_arrow)
        return core::make_error("connect: expected a shape after \"" + tokens[i - 1].text +
                                "\", got the arrow \"" + tokens[i].text + "\"");
      return core::make_error(
          "connect: expected an arrow (-> <-> --) between \"" + tokens[i - 1].text + "\" and \"" +
              tokens[i].text + "\"; quote labels with spaces",
          {"connect " + quote_token(tokens[i - 1].text + " " + tokens[i].text) + " -> …"});
    }
  }
  std::vector<std::vector<std::string>> ends;
  for (std::size_t i = 0; i < tokens.size(); i += 2) {
    auto end = resolve_targets(ctx, std::span(&tokens[i], 1), resolve_shape_or_group);
    if (!end) return end.error();
    if (nothing_to_change(ctx, *end)) return {};
    ends.push_back(std::move(end->ids));
  }
  std::size_t planned = 0;
  for (std::size_t i = 0; i + 1 < ends.size(); ++i)
    planned += ends[i].size() * ends[i + 1].size();
  if (planned > kMaxEdgesPerOp)
    return core::make_error("connect would create " + std::to_string(planned) +
                            " edges; the limit per op is " + std::to_string(kMaxEdgesPerOp));
  std::size_t existing_found = 0;
  bool add_again = false;
  if (const std::string* again = ctx.op.param("new")) {
    auto parsed = parse_bool(*again, "new");
    if (!parsed) return parsed.error();
    add_again = *parsed;
  }
  for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
    const std::string& arrow = tokens[2 * i + 1].text;
    auto look = edge_look(ctx, arrow);
    if (!look) return look.error();
    for (const auto& source : ends[i]) {
      for (const auto& target : ends[i + 1]) {
        // Selector expansions skip self edges; an explicit `A -> A` makes one.
        if (source == target && (ends[i].size() > 1 || ends[i + 1].size() > 1)) continue;
        const auto existing = edges_between(ctx, source, target, arrow != "->");
        const std::string pair =
            display_name(ctx.doc, source) + " " + arrow + " " + display_name(ctx.doc, target);
        // The same pair as an op writes it (names with spaces quoted), for the ops suggested.
        const std::string pair_op = core::quote_token(display_name(ctx.doc, source)) + " " + arrow +
                                    " " + core::quote_token(display_name(ctx.doc, target));
        if (!add_again && has_same_edge(ctx, existing)) {
          // A retried call must not double the diagram's edges.
          if (++existing_found <= kMaxExistingSaid)
            ctx.lines.push_back(core::warning_line(
                pair + " exists already; nothing added (new:true adds another beside it; style " +
                pair_op + " … changes the one there)"));
          continue;
        }
        auto line = connect_pair(ctx, source, target, *look, arrow);
        if (!line) return line.error();
        ctx.lines.push_back(std::move(*line));
        if (!existing.empty() && !add_again) {
          // A second edge beside the first is rarely what was meant: say so, and how to change
          // the one that is there instead.
          ctx.lines.push_back(
              core::warning_line(pair + " already had " + core::plural(existing.size(), "edge") +
                                 "; now " + std::to_string(existing.size() + 1) +
                                 " run side by side (to change the existing one: " + "style " +
                                 pair_op + " …; to drop it: disconnect " + pair_op + ")"));
        }
      }
    }
  }
  if (existing_found > kMaxExistingSaid)
    ctx.lines.push_back(core::warning_line("… and " +
                                           std::to_string(existing_found - kMaxExistingSaid) +
                                           " more edges exist already; nothing added for them"));
  return {};
}

std::vector<std::string> edges_between(const OpContext& ctx, const std::string& source,
                                       const std::string& target, bool any_direction) {
  std::vector<std::string> found;
  for (const auto& edge_id : ctx.index().incident_edges(source)) {
    const auto entry = ctx.index().entry(edge_id);
    if (!entry) continue;
    if ((entry->source == source && entry->target == target) ||
        (any_direction && entry->source == target && entry->target == source))
      found.push_back(edge_id);
  }
  return found;
}

std::string EdgeReference::count_note() const {
  return ids.size() > 1 ? " (" + core::plural(ids.size(), "edge") + ")" : std::string();
}

std::string EdgeReference::edge_names(const OpContext& ctx) const {
  constexpr std::size_t kMaxNamed = 20;
  std::string text;
  for (std::size_t i = 0; i < ids.size() && i < kMaxNamed; ++i) {
    const auto entry = ctx.index().entry(ids[i]);
    if (!entry) continue;
    text += (text.empty() ? "" : ", ") + one_line(display_name(ctx.doc, entry->source)) + "->" +
            one_line(display_name(ctx.doc, entry->target));
  }
  if (ids.size() > kMaxNamed) text += ", … " + std::to_string(ids.size() - kMaxNamed) + " more";
  return text;
}

std::string EdgeReference::touched_line(const OpContext& ctx) const {
  return selected ? core::detail_line("edges: " + edge_names(ctx)) : std::string();
}

namespace {

// The op as written with its two edge ends exchanged (`style B -> A …` for `style A -> B …`).
std::string reversed_op(const OpContext& ctx, std::span<const OpToken> tokens) {
  // A selector end stays a selector (quoted, it would name a shape).
  auto end = [](const OpToken& token) {
    return token.is_selector() ? token.text : core::quote_token(token.text);
  };
  std::string op = ctx.op.verb + " " + end(tokens[2]) + " " + tokens[1].text + " " + end(tokens[0]);
  for (std::size_t i = 3; i < tokens.size(); ++i)
    op += " " + (tokens[i].quoted ? core::quote_token(tokens[i].text) : tokens[i].text);
  for (const auto& param : ctx.op.params)
    op += " " + param.key + ":" + core::quote_token(param.value);
  return op;
}

}  // namespace

namespace {

// `SRC ARROW TGT` where an end is a selector (`Kafka -> @all`, `@group:Data -> Kafka`): every
// edge from a shape SRC chooses to one TGT chooses (either way unless ARROW is ->).
core::Result<EdgeReference> resolve_edge_selection(const OpContext& ctx,
                                                   std::span<const OpToken> tokens) {
  std::array<std::unordered_set<std::string>, 2> ends;
  for (std::size_t side = 0; side < 2; ++side) {
    const OpToken& token = tokens[side * 2];
    auto chosen = resolve_targets(ctx, std::span(&token, 1), resolve_shape_or_group);
    if (!chosen) return chosen.error();
    if (chosen->ids.empty()) {
      const OpToken& other = tokens[2 - side * 2];
      return core::make_error(
          tokens[0].text + " " + tokens[1].text + " " + tokens[2].text + " names no edge: " +
              (chosen->nothing_matched.empty() ? token.text + " matches no shape"
                                               : chosen->nothing_matched),
          {other.is_selector() ? std::string("drawio_query list")
                               : "drawio_query \"connections " + other.text + "\""});
    }
    ends[side].insert(chosen->ids.begin(), chosen->ids.end());
  }
  const bool any_direction = tokens[1].text != "->";
  auto joins = [&](const std::unordered_set<std::string>& from,
                   const std::unordered_set<std::string>& to, const std::string& edge_id) {
    const auto entry = ctx.index().entry(edge_id);
    return entry && from.contains(std::string(entry->source)) &&
           to.contains(std::string(entry->target));
  };
  // Walk the edges at the smaller end: `Kafka -> @all` looks at Kafka's edges only.
  const auto& walk = ends[0].size() <= ends[1].size() ? ends[0] : ends[1];
  std::unordered_set<std::string> seen;
  EdgeReference edges;
  edges.name = tokens[0].text + tokens[1].text + tokens[2].text;
  edges.selected = true;
  bool reversed_only = false;
  for (const auto& shape : walk) {
    for (const auto& edge_id : ctx.index().incident_edges(shape)) {
      if (!seen.insert(edge_id).second) continue;
      if (joins(ends[0], ends[1], edge_id) || (any_direction && joins(ends[1], ends[0], edge_id)))
        edges.ids.push_back(edge_id);
      else if (joins(ends[1], ends[0], edge_id))
        reversed_only = true;
    }
  }
  if (!edges.ids.empty()) {
    // In the page's order, so replies and undo read the same on every run.
    std::unordered_map<std::string_view, std::size_t> order;
    for (const Cell& cell : ctx.page().cells())
      order.emplace(cell.id, order.size());
    std::sort(edges.ids.begin(), edges.ids.end(),
              [&](const std::string& a, const std::string& b) { return order[a] < order[b]; });
    return edges;
  }
  const std::string what = "no edge from " + tokens[0].text + " to " + tokens[2].text;
  if (reversed_only)
    return core::make_error(what + "; edges run from " + tokens[2].text + " to " + tokens[0].text,
                            {reversed_op(ctx, tokens)});
  return core::make_error(what, {"drawio_query \"connections " + tokens[0].text + "\""});
}

}  // namespace

core::Result<EdgeReference> resolve_edge_reference(const OpContext& ctx,
                                                   std::span<const OpToken> tokens) {
  if (tokens[0].is_selector() || tokens[2].is_selector())
    return resolve_edge_selection(ctx, tokens);
  auto source = resolve_shape_or_group(ctx, tokens[0].text);
  if (!source) return source.error();
  auto target = resolve_shape_or_group(ctx, tokens[2].text);
  if (!target) return target.error();
  EdgeReference edges{*source, *target, {}, {}};
  edges.name = one_line(display_name(ctx.doc, *source)) + tokens[1].text +
               one_line(display_name(ctx.doc, *target));
  edges.ids = edges_between(ctx, *source, *target, tokens[1].text != "->");
  if (!edges.ids.empty()) return edges;
  const std::string what = "no edge from " + tokens[0].text + " to " + tokens[2].text;
  if (!edges_between(ctx, *target, *source, false).empty())
    return core::make_error(
        what + "; the edge runs from " + tokens[2].text + " to " + tokens[0].text,
        {reversed_op(ctx, tokens)});
  return core::make_error(what, {"connect " + core::quote_token(tokens[0].text) + " " +
                                 tokens[1].text + " " + core::quote_token(tokens[2].text)});
}

core::Result<void> verb_disconnect(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.size() < 3 || !tokens[1].is_arrow())
    return core::make_error("disconnect requires REF ARROW REF", {"disconnect Web -> API"});
  const bool all = tokens.size() == 4 && tokens[3].text == "all";
  if (tokens.size() > 3 && !all)
    return core::make_error("disconnect takes one pair: SRC -> TGT [all]");
  auto sources = resolve_targets(ctx, std::span(&tokens[0], 1), resolve_shape_or_group);
  if (!sources) return sources.error();
  if (nothing_to_change(ctx, *sources)) return {};
  auto targets = resolve_targets(ctx, std::span(&tokens[2], 1), resolve_shape_or_group);
  if (!targets) return targets.error();
  if (nothing_to_change(ctx, *targets)) return {};
  const bool any_direction = tokens[1].text != "->";
  std::size_t removed = 0;
  for (const auto& source : sources->ids) {
    for (const auto& target : targets->ids) {
      auto edges = edges_between(ctx, source, target, any_direction);
      if (edges.empty()) continue;
      if (!all) edges.resize(1);
      for (const auto& edge_id : edges) {
        const auto labels = ctx.index().children(edge_id).to_vector();
        for (const auto& label : labels)
          ctx.edit.erase(label);
        ctx.edit.erase(edge_id);
        ctx.lines.push_back(core::deleted("edge " + display_name(ctx.doc, source) + "->" +
                                          display_name(ctx.doc, target)));
        ++removed;
      }
    }
  }
  if (removed == 0) {
    return core::make_error("no edge from " + tokens[0].text + " to " + tokens[2].text +
                            " (drawio_query \"connections " + tokens[0].text + "\" lists them)");
  }
  return {};
}

}  // namespace fcp::drawio
