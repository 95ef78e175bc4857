// The FCP draft's universal verbs: modify (any property in place), copy (shapes with the edges
// among them), repeat (numbered copies at successive offsets).
#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

bool is_style_key_name(std::string_view key) {
  if (key.empty() || key.size() > 64) return false;
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  }
  return true;
}

// The label for the n-th copy: a trailing number counts on ("Worker1" → "Worker2"), otherwise
// " n" is appended ("Worker" → "Worker 2").
std::string numbered(const std::string& label, std::size_t n) {
  std::size_t digits = label.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(label[digits - 1])))
    --digits;
  if (digits < label.size() && label.size() - digits < 9) {
    const long base = std::stol(label.substr(digits));
    return label.substr(0, digits) + std::to_string(base + static_cast<long>(n) - 1);
  }
  return label + " " + std::to_string(n);
}

// Copies shapes (with their badges) and the edges among them, offset by (dx, dy). `relabel`
// gives each copy's label from the original's. Returns the new ids, in order.
std::vector<std::string> clone_shapes(OpContext& ctx, const std::vector<std::string>& ids,
                                      double dx, double dy,
                                      const std::function<std::string(const std::string&)>& relabel,
                                      std::size_t& edges_copied) {
  std::unordered_map<std::string, std::string> mapping;
  std::vector<std::string> created;
  for (const auto& id : ids) {
    const Cell* original = ctx.page().find(id);
    if (original == nullptr) continue;
    Cell copy = *original;
    copy.id = ctx.doc.allocate_id();
    copy.wrapper.reset();
    copy.order.clear();
    if (original->wrapper) {  // keep custom properties
      copy.wrapper = original->wrapper;
    }
    copy.value = stored_label(copy, relabel(cell_label(*original)));
    copy.set_note_alias("");
    if (copy.geometry) {
      copy.geometry->x = copy.geometry->x.value_or(0) + dx;
      copy.geometry->y = copy.geometry->y.value_or(0) + dy;
    }
    const std::string new_id = ctx.edit.insert(std::move(copy)).id;
    mapping.emplace(id, new_id);
    created.push_back(new_id);
    const auto children = ctx.index().children(id).to_vector();
    for (const auto& child : children) {
      if (ctx.index().kind(child) != CellKind::badge) continue;
      Cell badge = *ctx.page().find(child);
      badge.id = ctx.doc.allocate_id();
      badge.parent = new_id;
      ctx.edit.insert(std::move(badge));
    }
  }
  std::unordered_set<std::string> seen;
  for (const auto& id : ids) {
    const auto incident = ctx.index().incident_edges(id).to_vector();
    for (const auto& edge_id : incident) {
      if (!seen.insert(edge_id).second) continue;
      const Cell* edge = ctx.page().find(edge_id);
      if (edge == nullptr || !edge->source || !edge->target) continue;
      auto source = mapping.find(*edge->source);
      auto target = mapping.find(*edge->target);
      if (source == mapping.end() || target == mapping.end()) continue;
      Cell copy = *edge;
      copy.id = ctx.doc.allocate_id();
      copy.order.clear();
      copy.source = source->second;
      copy.target = target->second;
      if (copy.geometry && copy.geometry->points) {
        for (auto& point : *copy.geometry->points) {
          point.x = point.x_or_zero() + dx;
          point.y = point.y_or_zero() + dy;
        }
      }
      ctx.edit.insert(std::move(copy));
      ++edges_copied;
    }
  }
  return created;
}

// A custom property name: prop.NAME with NAME of letters, digits, _ - . (not id or label).
core::Result<void> check_property(const std::string& key) {
  if (key.size() == 5 || !is_style_key_name(key.substr(5)) || key.substr(5) == "id" ||
      key.substr(5) == "label")
    return core::make_error("modify " + key + " — a property name of letters, digits, _ - .");
  return {};
}

void set_property(Cell& cell, const std::string& key, const std::string& value) {
  if (!cell.wrapper) {
    cell.wrapper = Wrapper{};
    cell.wrapper->element = "object";
  }
  if (value.empty()) {
    cell.wrapper->attributes.erase(key.substr(5));
  } else {
    cell.wrapper->attributes.set(key.substr(5), value);
  }
}

// modify SRC -> TGT key:value…: the label, custom properties, and the edge's look as `style`
// sets it (width: is the line's width).
core::Result<void> modify_edges(OpContext& ctx, const std::vector<OpToken>& tokens) {
  if (tokens.size() != 3) {
    // Words after the edge are style's flags (dashed, curved, …): the same op as style.
    std::string op = "style";
    for (const auto& token : tokens)
      op += " " + (token.quoted ? core::quote_token(token.text) : token.text);
    for (const auto& param : ctx.op.params)
      op += " " + param.key + ":" + core::quote_token(param.value);
    return core::make_error(
        "modify takes key:value changes (one edge: modify SRC -> TGT "
        "key:value); words such as dashed or curved are style's flags",
        {op});
  }
  auto edges = resolve_edge_reference(ctx, tokens);
  if (!edges) return edges.error();
  std::vector<core::Param> look;
  std::string echo;
  for (const auto& param : ctx.op.params) {
    const std::string& key = param.key;
    if (key == "x" || key == "y" || key == "height" || key == "h" || key == "alias" ||
        key == "members")
      return core::make_error("modify " + key +
                              ": is for shapes; an edge takes label:, prop.NAME, "
                              "its look (stroke: width: dashed: rounded: theme: …), exit:/entry: "
                              "and any draw.io style key (edgeStyle, jumpStyle, exitX, …)");
    if (key == "label" && edges->ids.size() > 1)
      return core::make_error("modify label: needs a single edge; " + edges->name + " names " +
                              std::to_string(edges->ids.size()));
    if (key.starts_with("prop.")) {
      if (auto checked = check_property(key); !checked) return checked.error();
    } else if (key != "label") {
      look.push_back(param);
      if (key == "w") look.back().key = "width";
    }
    echo += " " + key + ":" + core::quote_token(param.value);
  }
  // What restyling did to the routes beyond the keys (ports handed back: waypoints dropped or
  // laid anew), as style's reply says it: after the keys it echoes, in the order given.
  std::string routes_note;
  std::vector<Cell> before;  // to tell a change from values the edges already had
  for (const auto& id : edges->ids) {
    if (const Cell* cell = ctx.page().find(id)) before.push_back(*cell);
  }
  if (!look.empty()) {
    auto changed = restyle_edges(ctx, *edges, {}, look);
    if (!changed) return changed.error();
    routes_note = std::move(changed->routes_note);
  }
  for (const auto& param : ctx.op.params) {
    if (param.key == "label") set_edge_label(ctx, edges->ids.front(), param.value);
    if (!param.key.starts_with("prop.")) continue;
    for (const auto& id : edges->ids)
      ctx.edit.update(id, [&](Cell& cell) { set_property(cell, param.key, param.value); });
  }
  const bool unchanged = std::all_of(before.begin(), before.end(), [&](const Cell& cell) {
    const Cell* now = ctx.page().find(cell.id);
    return now != nullptr && *now == cell;
  });
  // Trial 16: "modified edge … label:events" for a label that was "events" already.
  if (unchanged) {
    ctx.lines.push_back(core::connection_changed("edge " + edges->name + " already has" + echo +
                                                 " (unchanged)" + edges->count_note()));
    if (edges->selected) ctx.lines.push_back(edges->touched_line(ctx));
    return {};
  }
  ctx.lines.push_back(core::connection_changed("modified edge " + edges->name + echo + routes_note +
                                               edges->count_note()));
  if (edges->selected) ctx.lines.push_back(edges->touched_line(ctx));
  return {};
}

void report_created(OpContext& ctx, const std::vector<std::string>& created) {
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < created.size() && i < kShown; ++i)
    ctx.lines.push_back(
        core::created(shape_text(ctx.doc, ctx.page(), *ctx.page().find(created[i]))));
  if (created.size() > kShown)
    ctx.lines.push_back(core::created("… " + std::to_string(created.size() - kShown) + " more"));
}

}  // namespace

core::Result<void> verb_modify(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.empty() || ctx.op.params.empty())
    return core::make_error(
        "modify requires targets and key:value changes",
        {"modify Auth label:\"Auth Service\" width:180", "modify @type:db fill:#fff2cc shadow:1",
         "modify Auth prop.owner:alice"});
  if (tokens.size() >= 3 && tokens[1].is_arrow()) return modify_edges(ctx, tokens);
  for (const auto& token : tokens) {
    if (token.is_arrow())
      return core::make_error("modify: an edge is written SRC -> TGT, first in the op",
                              {"modify Web -> API rounded:0"});
  }
  auto targets = resolve_targets(ctx, tokens, resolve_shape_or_group);
  if (!targets) return targets.error();
  const std::vector<std::string>& ids = targets->ids;
  std::vector<std::string> echo;
  for (const auto& param : ctx.op.params) {
    const std::string& key = param.key;
    const std::string& value = param.value;
    if (key == "label" && ids.size() > 1)
      return core::make_error("modify label: needs a single target (labels identify shapes)");
    if (key == "x" || key == "y" || key == "width" || key == "height" || key == "w" || key == "h") {
      auto number = parse_number(value, key);
      if (!number) return number.error();
      if ((key != "x" && key != "y") && *number <= 0)
        return core::make_error("modify " + key + ":" + value + " — must be positive");
    } else if (key == "fill" || key == "stroke" || key == "font") {
      auto color = parse_color_param(ctx, value, key);
      if (!color) return color.error();
    } else if (key == "theme") {
      if (auto theme = require_theme(ctx, value); !theme) return theme.error();
    } else if (key.starts_with("prop.")) {
      if (auto checked = check_property(key); !checked) return checked.error();
    } else if (key == "exit" || key == "entry" || key == "source-arrow" || key == "target-arrow") {
      return core::make_error("modify " + key + ": is for edges: modify SRC -> TGT " + key + ":" +
                              value);
    } else if (key != "label" && key != "alias" && !is_style_key_name(key)) {
      return core::make_error("modify: \"" + key + "\" is not a property or draw.io style key");
    } else if (key != "label" && key != "alias") {
      if (auto checked = drawio_style_value(ctx, key, value); !checked) return checked.error();
    }
    echo.push_back(key + ":" + value);
  }
  if (nothing_to_change(ctx, *targets)) return {};
  // theme: on a group colours the members that follow it too (members: says which).
  std::vector<std::string> themed;
  const std::string* theme_name = ctx.op.param("theme");
  auto which = member_coloring(ctx);
  if (!which) return which.error();
  const bool any_group = std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
    return ctx.index().kind(id) == CellKind::group;
  });
  if (ctx.op.has_param("members") && (theme_name == nullptr || !any_group))
    return core::make_error(
        "members: says which members a group's theme colours: modify GROUP "
        "theme:T members:all");
  if (theme_name != nullptr) {
    for (const auto& id : ids) {
      if (ctx.index().kind(id) == CellKind::group)
        themed.push_back(theme_group(ctx, id, *require_theme(ctx, *theme_name), *which));
    }
  }
  // theme: first, so a colour given beside it (fill:, stroke:, font:) wins whatever the order.
  std::vector<core::Param> params;
  for (const auto& param : ctx.op.params) {
    if (param.key == "theme") params.push_back(param);
  }
  for (const auto& param : ctx.op.params) {
    if (param.key != "theme") params.push_back(param);
  }
  // x:, y:, width:, height: place the shapes: their edges are re-routed as after move and resize.
  const bool placed = std::any_of(params.begin(), params.end(), [](const core::Param& param) {
    return param.key == "x" || param.key == "y" || param.key == "width" || param.key == "height" ||
           param.key == "w" || param.key == "h";
  });
  const auto routed_before = placed ? edges_with_waypoints(ctx) : std::unordered_set<std::string>();
  for (const auto& id : ids) {
    Rect r = bounds_of(ctx, id);
    for (const auto& param : params) {
      const std::string& key = param.key;
      const std::string& value = param.value;
      if (key == "x" || key == "y" || key == "width" || key == "height" || key == "w" ||
          key == "h") {
        const double number = *parse_number(value, key);
        if (key == "x") r.x = number;
        if (key == "y") r.y = number;
        if (key == "width" || key == "w") r.width = number;
        if (key == "height" || key == "h") r.height = number;
        place_cell(ctx, id, r.x, r.y, std::pair{r.width, r.height});
        continue;
      }
      if (key == "members") continue;
      ctx.edit.update(id, [&](Cell& cell) {
        if (!cell.style) cell.style = Style{};
        if (key == "label") {
          cell.value = stored_label(cell, value);
        } else if (key == "alias") {
          cell.set_note_alias(value);
        } else if (key == "fill") {
          cell.style->set("fillColor", *parse_color_param(ctx, value, key));
          if (cell.vertex) cell.set_note_own_colours(true);
        } else if (key == "stroke") {
          cell.style->set("strokeColor", *parse_color_param(ctx, value, key));
        } else if (key == "font") {
          cell.style->set("fontColor", *parse_color_param(ctx, value, key));
        } else if (key == "theme") {
          apply_theme(*cell.style, *require_theme(ctx, value));
          if (cell.vertex) cell.set_note_own_colours(true);
        } else if (key.starts_with("prop.")) {
          set_property(cell, key, value);
        } else if (value.empty()) {
          cell.style->erase(key);
        } else {
          cell.style->set(key, *drawio_style_value(ctx, key, value));
        }
        if (!cell.style->empty()) cell.style->set_trailing_semicolon(true);
      });
    }
  }
  std::vector<std::string> moved(ids.begin(), ids.end());
  for (const auto& id : moved)
    refresh_ports(ctx, id);
  // x:, y:, width:, height: can take a member outside its group: the group grows to hold it.
  const auto grown = placed ? hold_in_groups(ctx, ids) : std::vector<std::string>();
  std::string props;
  for (const auto& item : echo)
    props += " " + item;
  const auto groups =
      static_cast<std::size_t>(std::count_if(ids.begin(), ids.end(), [&](const std::string& id) {
        return ctx.index().kind(id) == CellKind::group;
      }));
  std::string what = groups < ids.size() ? core::plural(ids.size() - groups, "shape") : "";
  if (groups > 0) what += (what.empty() ? "" : ", ") + core::plural(groups, "group");
  // Named, so that the lines of a batch of modifies say which is which (trial 8).
  const std::string names = names_of(ctx, {ids.begin(), ids.end()});
  what = ids.size() == 1 ? names : what + " (" + names + ")";
  ctx.lines.push_back(core::property_changed("modified " + what + ":" + props));
  ctx.lines.insert(ctx.lines.end(), grown.begin(), grown.end());
  // Trial 14: waypoints left where the shape was drew routes to its old place.
  if (placed) {
    if (auto line = reroute_edges(ctx, moved, routed_before, one_line(names)); !line.empty())
      ctx.lines.push_back(std::move(line));
  }
  for (auto& note : member_theme_notes(ctx, tokens))
    ctx.lines.push_back(std::move(note));
  for (const auto& text : themed)
    ctx.lines.push_back(core::detail_line(text));
  return {};
}

core::Result<void> verb_copy(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.empty())
    return core::make_error("copy requires shapes",
                            {"copy Auth by:200,0", "copy @group:Backend to:600,100"});
  auto targets = resolve_targets(ctx, tokens, resolve_shape_or_group);
  if (!targets) return targets.error();
  if (nothing_to_change(ctx, *targets)) return {};
  std::vector<std::string>& ids = targets->ids;
  std::erase_if(ids,
                [&](const std::string& id) { return ctx.index().kind(id) != CellKind::shape; });
  if (ids.empty()) return core::make_error("copy: no shapes among the targets");
  if (auto fits = core::check_creation(ctx.call, ids.size(), "shapes"); !fits) return fits.error();
  Rect box = bounds_of(ctx, ids.front());
  for (const auto& id : ids)
    box = box.united(bounds_of(ctx, id));
  double dx = 40, dy = 40;
  if (const std::string* to = ctx.op.param("to")) {
    auto xy = parse_xy(*to, "to");
    if (!xy) return xy.error();
    dx = xy->first - box.x;
    dy = xy->second - box.y;
  } else if (const std::string* by = ctx.op.param("by")) {
    auto delta = parse_xy(*by, "by");
    if (!delta) return delta.error();
    std::tie(dx, dy) = *delta;
  }
  const std::string suffix = ctx.op.param_or("suffix", " copy");
  std::size_t edges = 0;
  auto created = clone_shapes(
      ctx, ids, dx, dy, [&](const std::string& label) { return label + suffix; }, edges);
  report_created(ctx, created);
  ctx.lines.push_back(core::created("copied " + core::plural(created.size(), "shape") + ", " +
                                    core::plural(edges, "edge")));
  // A copy stays in its original's group: the group grows to hold it.
  for (auto& line : hold_in_groups(ctx, created))
    ctx.lines.push_back(std::move(line));
  return {};
}

core::Result<void> verb_repeat(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  const std::string* count_text = ctx.op.param("count");
  if (tokens.size() != 1 || count_text == nullptr)
    return core::make_error("repeat requires one shape and count:N",
                            {"repeat Worker count:3", "repeat Worker count:4 by:0,100"});
  auto id = resolve_shape(ctx, tokens[0].text);
  if (!id) return id.error();
  const auto count = ctx.op.integer("count").value_or(1);
  if (auto fits = core::check_creation(ctx.call, static_cast<std::size_t>(count), "shapes"); !fits)
    return fits.error();
  const Rect r = bounds_of(ctx, *id);
  double dx = r.width + 60, dy = 0;
  if (const std::string* by = ctx.op.param("by")) {
    auto delta = parse_xy(*by, "by");
    if (!delta) return delta.error();
    std::tie(dx, dy) = *delta;
  }
  const std::string label = display_name(ctx.doc, *id);
  std::vector<std::string> created;
  std::size_t edges = 0;
  for (std::size_t n = 1; n <= static_cast<std::size_t>(count); ++n) {
    auto made = clone_shapes(
        ctx, {*id}, dx * static_cast<double>(n), dy * static_cast<double>(n),
        [&](const std::string& original) { return numbered(original, n + 1); }, edges);
    created.insert(created.end(), made.begin(), made.end());
  }
  report_created(ctx, created);
  ctx.lines.push_back(core::created("repeated " + label + " ×" + std::to_string(created.size())));
  for (auto& line : hold_in_groups(ctx, created))
    ctx.lines.push_back(std::move(line));
  return {};
}

}  // namespace fcp::drawio
