// Appearance verbs: style (shapes, groups and edges), label, badge.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/resolve.hpp"
#include "domains/drawio/data/arrows.hpp"
#include "domains/drawio/data/colors.hpp"
#include "domains/drawio/data/style_keys.hpp"
#include "domains/drawio/label_clearance.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

constexpr std::array<std::string_view, 12> kFontFlags{
    "bold",   "no-bold",   "italic",  "no-italic",  "underline", "no-underline",
    "shadow", "no-shadow", "rounded", "no-rounded", "dashed",    "thick"};

bool is_flag(std::string_view word) {
  return std::find(kFontFlags.begin(), kFontFlags.end(), word) != kFontFlags.end() ||
         word == "solid" || word == "dotted" || word == "curved" || word == "straight" ||
         word == "animated" || word == "thin";
}

// One style change: the draw.io key and value (empty value: erase the key).
struct StyleSet {
  std::vector<std::pair<std::string, std::string>> keys;
  int font_set = 0, font_clear = 0;  // fontStyle bits: 1 bold, 2 italic, 4 underline
  std::vector<std::string> echo;     // what the reply lists
};

core::Result<void> add_flag(StyleSet& set, std::string_view flag, bool edge) {
  auto bit = [&](int value, bool on) { (on ? set.font_set : set.font_clear) |= value; };
  if (flag == "bold")
    bit(1, true);
  else if (flag == "no-bold")
    bit(1, false);
  else if (flag == "italic")
    bit(2, true);
  else if (flag == "no-italic")
    bit(2, false);
  else if (flag == "underline")
    bit(4, true);
  else if (flag == "no-underline")
    bit(4, false);
  else if (flag == "shadow")
    set.keys.emplace_back("shadow", "1");
  else if (flag == "no-shadow")
    set.keys.emplace_back("shadow", "0");
  else if (flag == "rounded")
    set.keys.emplace_back("rounded", "1");
  else if (flag == "no-rounded")
    set.keys.emplace_back("rounded", "0");
  else if (flag == "dashed")
    set.keys.emplace_back("dashed", "1");
  else if (flag == "solid") {
    set.keys.emplace_back("dashed", "0");
    set.keys.emplace_back("dashPattern", "");
  } else if (flag == "dotted") {
    set.keys.emplace_back("dashed", "1");
    set.keys.emplace_back("dashPattern", "1 3");
  } else if (flag == "thick")
    set.keys.emplace_back("strokeWidth", "3");
  else if (flag == "thin")
    set.keys.emplace_back("strokeWidth", "1");
  else if (edge && flag == "curved") {
    set.keys.emplace_back("curved", "1");
    set.keys.emplace_back("rounded", "");
  } else if (edge && flag == "straight") {
    set.keys.emplace_back("edgeStyle", "");
  } else if (edge && flag == "animated") {
    set.keys.emplace_back("flowAnimation", "1");
  } else {
    return core::make_error("unknown style flag \"" + std::string(flag) + "\"");
  }
  set.echo.emplace_back(flag);
  return {};
}

// Sets a port from exit:/entry: (FACE[@0..1]) as draw.io's four keys; `auto` takes them out
// (with the port's perimeter key), so fcp chooses that end's port again.
core::Result<void> add_port(StyleSet& set, const std::string& end, std::string_view value,
                            std::string_view op) {
  if (value == kAutomaticPort) {
    for (const char* suffix : {"X", "Y", "Dx", "Dy", "Perimeter"})
      set.keys.emplace_back(end + suffix, "");
    return {};
  }
  auto port = port_position(value, end, op);
  if (!port) return port.error();
  set.keys.emplace_back(end + "X", format_number(port->first));
  set.keys.emplace_back(end + "Y", format_number(port->second));
  set.keys.emplace_back(end + "Dx", "0");
  set.keys.emplace_back(end + "Dy", "0");
  return {};
}

core::Result<std::string> number_value(std::string_view key, std::string_view value) {
  auto number = parse_number(value, key);
  if (!number) return number.error();
  return format_number(*number);
}

// One key:value of `style` (or of `modify` on an edge) as draw.io keys.
core::Result<void> add_param(const OpContext& ctx, StyleSet& set, const core::Param& param,
                             bool edge) {
  const std::string& key = param.key;
  const std::string& value = param.value;
  auto color = [&](std::string_view drawio_key, std::string_view kind) -> core::Result<void> {
    auto parsed = parse_color_param(ctx, value, kind);
    if (!parsed) return parsed.error();
    set.keys.emplace_back(drawio_key, *parsed);
    return {};
  };
  auto number = [&](std::string_view drawio_key) -> core::Result<void> {
    auto parsed = number_value(key, value);
    if (!parsed) return parsed.error();
    set.keys.emplace_back(drawio_key, *parsed);
    return {};
  };
  if (key == "fill") return color("fillColor", "fill");
  if (key == "stroke" || (edge && key == "color")) return color("strokeColor", "stroke");
  if (key == "font" || key == "font-color" || key == "fontColor") return color("fontColor", "font");
  if (key == "fontSize" || key == "font-size") return number("fontSize");
  if (key == "opacity") return number("opacity");
  if (key == "width" || key == "stroke-width") return number("strokeWidth");
  if (key == "font-family" || key == "fontFamily") {
    set.keys.emplace_back("fontFamily", value);
    return {};
  }
  if (key == "align" || key == "valign") {
    set.keys.emplace_back(key == "align" ? "align" : "verticalAlign", core::to_lower(value));
    return {};
  }
  if (key == "theme") {
    auto theme = require_theme(ctx, value);
    if (!theme) return theme.error();
    // An edge takes the theme's line colour; its label the theme's text colour.
    if (!edge) set.keys.emplace_back("fillColor", theme->fill);
    set.keys.emplace_back("strokeColor", theme->stroke);
    set.keys.emplace_back("fontColor", theme->font_color);
    return {};
  }
  if (edge && (key == "exit" || key == "entry")) return add_port(set, key, value, ctx.op.raw);
  if (edge && (key == "source-arrow" || key == "target-arrow")) {
    const auto* kind = data::find_arrow_kind(value);
    if (kind == nullptr) return core::make_error("unknown arrow kind \"" + value + "\"");
    const std::string end = key == "source-arrow" ? "start" : "end";
    set.keys.emplace_back(end + "Arrow", std::string(kind->drawio_arrow));
    set.keys.emplace_back(end + "Fill", kind->filled ? "1" : "0");
    return {};
  }
  if (data::is_drawio_style_key(key)) {  // rounded, dashed, shadow are draw.io's own too
    auto checked = drawio_style_value(ctx, key, value);
    if (!checked) return checked.error();
    set.keys.emplace_back(key, *checked);
    return {};
  }
  std::string keys =
      "fill stroke font fontSize opacity rounded dashed shadow font-family align valign width "
      "theme";
  if (edge) keys += " exit entry source-arrow target-arrow";
  return core::make_error(
      "unknown style key \"" + key + "\" for " + (edge ? "an edge" : "a shape") +
      " — keys: " + keys +
      ", flags: bold italic underline shadow dashed dotted thick, or a "
      "draw.io key such as " +
      (edge ? "edgeStyle, jumpStyle, exitX" : "spacingTop, arcSize, gradientColor"));
}

core::Result<StyleSet> style_changes(const OpContext& ctx, const std::vector<OpToken>& flags,
                                     std::span<const core::Param> params, bool edge) {
  StyleSet set;
  // theme: first, so a colour given beside it (fill:, stroke:, font:) wins whatever the order.
  for (const auto& param : params) {
    if (param.key != "theme") continue;
    if (auto added = add_param(ctx, set, param, edge); !added) return added.error();
  }
  for (const auto& flag : flags) {
    if (auto added = add_flag(set, flag.text, edge); !added) return added.error();
  }
  for (const auto& param : params) {
    if (param.key == "members" && !edge) {  // which members a group's theme colours
      set.echo.push_back(param.key + ":" + param.value);
      continue;
    }
    if (param.key != "theme") {
      if (auto added = add_param(ctx, set, param, edge); !added) return added.error();
    }
    set.echo.push_back(param.key + ":" + param.value);
  }
  if (set.echo.empty())
    return core::make_error("style needs at least one change",
                            {"style " + ctx.op.positionals.front() + " fill:#dae8fc bold"});
  return set;
}

void apply_set(Cell& cell, const StyleSet& set) {
  if (!cell.style) cell.style = Style{};
  for (const auto& [key, value] : set.keys) {
    if (cell.vertex && key == "fillColor" && !value.empty()) cell.set_note_own_colours(true);
    if (value.empty()) {
      cell.style->erase(key);
    } else {
      cell.style->set(key, value);
    }
  }
  if (set.font_set != 0 || set.font_clear != 0) {
    int bits = 0;
    if (auto current = cell.style->get("fontStyle"))
      bits = std::atoi(std::string(*current).c_str());
    bits = (bits | set.font_set) & ~set.font_clear;
    cell.style->set("fontStyle", std::to_string(bits));
  }
  if (!cell.style->empty()) cell.style->set_trailing_semicolon(true);
}

std::string echo(const StyleSet& set) {
  std::string out;
  for (const auto& item : set.echo)
    out += (out.empty() ? "" : " ") + item;
  return out;
}

// The value to store for label text: HTML-escaped (newlines as <br>) for html=1 cells.
std::string label_value(const Cell& cell, std::string_view text) {
  if (!is_html(cell)) return std::string(text);
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\n':
        out += "<br>";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The label kept on an edge placed on the route an op gave it as connect places it: its slot among
// its source's labelled edges (label_slot; the middle when it is alone), then clear of shapes that
// are not its ends (clear_label_position); the offset laid for the old route is dropped (trial 15:
// after new ports a label kept x 0.9 and sat on the new route's arrowhead). Its new place along
// the route when that differs from the old one, else nullopt.
// `before`: the edge's geometry before the op changed its route.
std::optional<double> replace_label(OpContext& ctx, const std::string& edge_id,
                                    const std::optional<Geometry>& before) {
  const Cell* edge = ctx.page().find(edge_id);
  if (edge == nullptr || !edge->source || cell_label(*edge).empty()) return std::nullopt;
  const double slot =
      label_slot(ctx, *edge->source, edge_id, before ? before->x.value_or(0) : 0.0).value_or(0.0);
  ctx.edit.update(edge_id, [slot](Cell& cell) {
    if (!cell.geometry) cell.geometry = Geometry{};
    cell.geometry->relative = true;
    if (slot == 0) {
      cell.geometry->x.reset();
    } else {
      cell.geometry->x = slot;
    }
    cell.geometry->y.reset();
    cell.geometry->offset.reset();
  });
  if (const Cell* placed = ctx.page().find(edge_id)) {
    if (const auto x = clear_label_position(ctx.page(), ctx.index(), *placed))
      ctx.edit.update(edge_id, [x = *x](Cell& cell) { cell.geometry->x = x; });
  }
  const Cell* after = ctx.page().find(edge_id);
  const double x_now = after->geometry->x.value_or(0);
  const auto x_then = before ? before->x.value_or(0) : 0.0;
  const bool offset_then =
      before &&
      ((before->y && *before->y != 0) ||
       (before->offset && (before->offset->x_or_zero() != 0 || before->offset->y_or_zero() != 0)));
  if (std::abs(x_now - x_then) < 0.005 && !offset_then) return std::nullopt;
  return x_now;
}

// "the middle", "0.3 along it": where replace_label put a label.
std::string label_place(double x) {
  if (std::abs(x) < 0.005) return "the middle of its new route";
  return format_number(std::round(x * 100) / 100) + " along its new route (" +
         (x < 0 ? "source" : "target") + " half)";
}

}  // namespace

void set_edge_label(OpContext& ctx, const std::string& edge_id, std::string_view text) {
  // A label kept in a child label cell (draw.io's edgeLabel) is changed there, so the edge does
  // not show two labels.
  for (const auto& child : ctx.index().children(edge_id)) {
    const Cell* cell = ctx.page().find(child);
    if (cell == nullptr || ctx.index().kind(child) != CellKind::edge_label) continue;
    if (cell_label(*cell).empty()) continue;
    ctx.edit.update(child, [&](Cell& label) { label.value = label_value(label, text); });
    return;
  }
  ctx.edit.update(edge_id, [&](Cell& cell) { cell.value = label_value(cell, text); });
}

std::string stored_label(const Cell& cell, std::string_view text) {
  return label_value(cell, text);
}

core::Result<EdgeRestyle> restyle_edges(OpContext& ctx, const EdgeReference& edges,
                                        const std::vector<OpToken>& flags,
                                        std::span<const core::Param> params) {
  auto set = style_changes(ctx, flags, params, true);
  if (!set) return set.error();
  // Ports the user chose stay where they are: moves no longer re-route the edge. exit:auto /
  // entry:auto hand that end's port back to fcp.
  std::uint8_t fixes = 0, frees = 0;
  for (const auto& [key, value] : set->keys) {
    const std::uint8_t end = key.starts_with("exit")    ? kExitPort
                             : key.starts_with("entry") ? kEntryPort
                                                        : 0;
    if (!value.empty()) fixes |= end;
    if (value.empty() && (key == "exitX" || key == "entryX")) frees |= end;
  }
  const bool fixes_ports = fixes != 0, frees_ports = frees != 0;
  // `straight` draws the edge as one line from port to port: waypoints would bend it (trial 16:
  // the reply said styled while the stored waypoints kept the route as it was).
  const bool straight = std::any_of(flags.begin(), flags.end(), [](const OpToken& flag) {
    return flag.text == "straight" && !flag.quoted;
  });
  std::size_t dropped = 0;
  // Waypoints laid for the old ports would take the edge through shapes: it is routed anew from
  // the new ones, round the other shapes and its own ends.
  std::size_t routed = 0, by_style = 0, automatic = 0;
  std::vector<std::pair<std::string, double>> labels_moved;
  for (const auto& edge : edges.ids) {
    std::optional<Geometry> geometry_then;
    if (const Cell* cell = ctx.page().find(edge)) geometry_then = cell->geometry;
    ctx.edit.update(edge, [&](Cell& cell) { apply_set(cell, *set); });
    const auto drop_waypoints = [&] {
      const Cell* cell = ctx.page().find(edge);
      if (cell == nullptr || !cell->geometry || !cell->geometry->points ||
          cell->geometry->points->empty())
        return;
      ctx.edit.update(edge, [](Cell& c) { c.geometry->points.reset(); });
      ++dropped;
    };
    if (straight && !fixes_ports && !frees_ports) {
      const std::size_t before = dropped;
      drop_waypoints();
      if (dropped != before) {
        if (const auto x = replace_label(ctx, edge, geometry_then))
          labels_moved.emplace_back(edge, *x);
      }
    }
    if (!fixes_ports && !frees_ports) continue;
    const auto& user_ports = ctx.doc.state().user_ports;
    const auto found = user_ports.find(edge);
    const std::uint8_t before = found == user_ports.end() ? 0 : found->second;
    const std::uint8_t after = static_cast<std::uint8_t>((before | fixes) & ~frees);
    // A port the file gave the other end stays (ports fcp or a layout chose go with the user's).
    const Cell* cell = ctx.page().find(edge);
    const bool file_port_left =
        before == 0 && cell != nullptr && !ctx.doc.has_automatic_ports(edge) &&
        (cell->style_value("exitX").has_value() || cell->style_value("entryX").has_value());
    if (after == 0 && !file_port_left) {
      // No port of the user's left: the edge is automatic again, as connect makes it.
      if (give_ports_back(ctx, edge)) ++routed;
      ++automatic;
      if (straight) drop_waypoints();
      if (const auto x = replace_label(ctx, edge, geometry_then))
        labels_moved.emplace_back(edge, *x);
      continue;
    }
    ctx.edit.set_automatic_ports(edge, false);
    ctx.edit.update_state([&edge, after](DocumentState& state) {
      if (after == 0) {
        state.user_ports.erase(edge);
      } else {
        state.user_ports[edge] = after;
      }
    });
    if (straight) {
      drop_waypoints();
    } else {
      const EdgeRouteResult result = route_edge_around_shapes(ctx, edge);
      if (result == EdgeRouteResult::routed) ++routed;
      if (result == EdgeRouteResult::by_style) ++by_style;
    }
    if (const auto x = replace_label(ctx, edge, geometry_then)) labels_moved.emplace_back(edge, *x);
  }
  EdgeRestyle changed{.echo = echo(*set), .routes_note = {}};
  std::string& note = changed.routes_note;
  const std::size_t count = edges.ids.size();
  // The label moved with the route: where it is now (one line for one edge, a count for more).
  const auto label_note = [&] {
    if (labels_moved.empty()) return;
    if (count == 1) {
      note += ", its label moved to " + label_place(labels_moved.front().second);
    } else {
      note += ", " + core::plural(labels_moved.size(), "label") +
              " moved onto the new routes (where connect puts them)";
    }
  };
  if (straight) {
    if (dropped > 0) {
      note += count == 1 ? ", its waypoints dropped so it is drawn straight from port to port"
                         : ", the waypoints of " + core::plural(dropped, "edge") +
                               " dropped so they are drawn straight from port to port";
    }
    label_note();
    return changed;
  }
  if (!fixes_ports && !frees_ports) return changed;
  if (automatic == count) {
    note = count == 1 ? ", its ports chosen by fcp again (faces toward each other)"
                      : ", their ports chosen by fcp again (faces toward each other)";
    if (routed == 0) {
      note += ", no waypoints";
    } else if (routed == count) {
      note += ", re-routed round the shapes in the way";
    } else {
      note += ", " + std::to_string(routed) + " of " + std::to_string(count) +
              " re-routed round the shapes in the way (the others without waypoints)";
    }
  } else if (routed == count) {
    note = ", re-routed round the shapes";
  } else if (by_style == count) {
    note = ", no waypoints (its edgeStyle routes it from the ports)";
  } else {
    note = ", re-routed round the shapes: " + std::to_string(routed) + " of " +
           std::to_string(count) + " (the others without waypoints: draw.io routes them)";
  }
  label_note();
  return changed;
}

core::Result<void> verb_style(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.empty())
    return core::make_error("style requires a target", {"style Auth fill:#dae8fc bold"});
  // An edge: style A -> B …
  if (tokens.size() >= 3 && tokens[1].is_arrow()) {
    auto edges = resolve_edge_reference(ctx, tokens);
    if (!edges) return edges.error();
    std::vector<OpToken> flags(tokens.begin() + 3, tokens.end());
    auto changed = restyle_edges(ctx, *edges, flags, ctx.op.params);
    if (!changed) return changed.error();
    ctx.lines.push_back(core::connection_changed("styled edge " + edges->name + " " +
                                                 changed->text() + edges->count_note()));
    if (edges->selected) ctx.lines.push_back(edges->touched_line(ctx));
    return {};
  }
  std::vector<OpToken> targets{tokens.front()};
  std::vector<OpToken> flags;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (tokens[i].is_arrow())
      return core::make_error("style: an edge is styled as style SRC -> TGT …");
    (is_flag(tokens[i].text) && !tokens[i].quoted ? flags : targets).push_back(tokens[i]);
  }
  auto set = style_changes(ctx, flags, ctx.op.params, false);
  if (!set) return set.error();
  // A group name styles the group's container.
  if (targets.size() == 1 && !targets[0].is_selector()) {
    // resolve_shape gives the group for its exact name or #id (never a shape named like it).
    auto shape = resolve_shape(ctx, targets[0].text);
    if (!shape) return shape.error();
    if (ctx.index().kind(*shape) == CellKind::group) {
      const std::string& group = *shape;
      // theme: colours the members that follow the group too (members: says which).
      std::string themed;
      if (const std::string* theme_name = ctx.op.param("theme")) {
        auto which = member_coloring(ctx);
        if (!which) return which.error();
        themed = theme_group(ctx, group, *require_theme(ctx, *theme_name), *which);
      } else if (ctx.op.has_param("members")) {
        return core::make_error("members: says which members a theme colours; give theme: too",
                                {ctx.op.raw + " theme:green"});
      }
      ctx.edit.update(group, [&](Cell& cell) { apply_set(cell, *set); });
      ctx.lines.push_back(core::property_changed("styled group " + display_name(ctx.doc, group) +
                                                 " " + echo(*set)));
      if (!themed.empty()) ctx.lines.push_back(core::detail_line(themed));
      return {};
    }
  }
  if (ctx.op.has_param("members")) {
    const std::string named = targets.size() == 1 && !targets[0].is_selector()
                                  ? display_name(ctx.doc, *resolve_shape(ctx, targets[0].text))
                                  : std::string("the targets");
    return core::make_error("members: is for a group's theme, and " + named +
                            " is not a group (drop members:, or name a group: style GROUP "
                            "theme:T members:all)");
  }
  auto chosen = resolve_targets(ctx, targets, resolve_shape);
  if (!chosen) return chosen.error();
  if (nothing_to_change(ctx, *chosen)) return {};
  for (const auto& id : chosen->ids)
    ctx.edit.update(id, [&](Cell& cell) { apply_set(cell, *set); });
  // Named targets by what they resolved to: a name that matched a shape by its start says so.
  std::string names;
  for (const auto& target : targets) {
    std::string name = target.text;
    if (!target.is_selector()) {
      if (auto id = resolve_shape(ctx, target.text)) {
        const std::string shown = display_name(ctx.doc, *id);
        if (core::to_lower(shown) != core::to_lower(target.text) && !target.text.starts_with('#'))
          name = shown + " (matched \"" + target.text + "\")";
      }
    }
    names += (names.empty() ? "" : " ") + name;
  }
  ctx.lines.push_back(core::property_changed("styled " + names + " " + echo(*set) + " (" +
                                             core::plural(chosen->ids.size(), "shape") + ")"));
  for (auto& note : member_theme_notes(ctx, targets))
    ctx.lines.push_back(std::move(note));
  return {};
}

core::Result<void> verb_label(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.size() >= 2 && tokens[1].is_arrow()) {
    if (tokens.size() != 4)
      return core::make_error("label edge requires: label SRC -> TGT \"text\"",
                              {"label Web -> API \"calls\""});
    auto edges = resolve_edge_reference(ctx, tokens);
    if (!edges) return edges.error();
    if (edges->ids.size() > 1 && edges->selected) {
      const auto first = ctx.index().entry(edges->ids.front());
      return core::make_error("label names one edge; " + edges->name + " names " +
                                  std::to_string(edges->ids.size()) + ": " + edges->edge_names(ctx),
                              {"label " + core::quote_token(display_name(ctx.doc, first->source)) +
                               " -> " + core::quote_token(display_name(ctx.doc, first->target)) +
                               " " + core::quote_token(tokens[3].text)});
    }
    set_edge_label(ctx, edges->ids.front(), tokens[3].text);
    ctx.lines.push_back(core::connection_changed(one_line(edges->name) + " labeled \"" +
                                                 one_line(tokens[3].text) + "\""));
    if (edges->selected) ctx.lines.push_back(edges->touched_line(ctx));
    return {};
  }
  if (tokens.size() != 2)
    return core::make_error("label requires REF and text", {"label Auth \"Auth Service\""});
  auto id = resolve_shape_or_group(ctx, tokens[0].text);
  if (!id) return id.error();
  if (tokens[1].text.empty()) return core::make_error("label: empty text");
  const std::string old = display_name(ctx.doc, *id);
  ctx.edit.update(*id, [&](Cell& cell) { cell.value = label_value(cell, tokens[1].text); });
  ctx.lines.push_back(
      core::property_changed("labeled " + one_line(old) + " \"" + one_line(tokens[1].text) + "\""));
  return {};
}

core::Result<void> verb_badge(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.size() != 2)
    return core::make_error(
        "badge requires REF and text",
        {"badge Auth \"v2\"", "badge Auth \"beta\" pos:bottom-left", "badge Auth clear"});
  auto id = resolve_shape(ctx, tokens[0].text);
  if (!id) return id.error();
  if (tokens[1].text == "clear" && !tokens[1].quoted) {
    std::vector<std::string> badges;
    for (const auto& child : ctx.index().children(*id)) {
      if (ctx.index().kind(child) == CellKind::badge) badges.push_back(child);
    }
    for (const auto& badge : badges)
      ctx.edit.erase(badge);
    ctx.lines.push_back(core::property_changed("badges cleared " + display_name(ctx.doc, *id) +
                                               " (" + std::to_string(badges.size()) + ")"));
    return {};
  }
  const std::string position = ctx.op.param_or("pos", "top-right");
  static constexpr std::array<std::string_view, 9> kPositions{
      "top-right", "top-left", "bottom-right", "bottom-left", "top",
      "bottom",    "left",     "right",        "center"};
  if (std::find(kPositions.begin(), kPositions.end(), position) == kPositions.end())
    return core::make_error("invalid pos:" + position +
                                " — top-right, top-left, bottom-right, bottom-left, top, bottom, "
                                "left, right or center",
                            {"badge " + quote_token(tokens[0].text) + " " +
                             quote_token(tokens[1].text) + " pos:top-right"});
  if (tokens[1].text.empty()) return core::make_error("badge: empty text");
  make_badge(ctx, *id, tokens[1].text, position);
  ctx.lines.push_back(
      core::property_changed("badge \"" + tokens[1].text + "\" " + display_name(ctx.doc, *id)));
  return {};
}

}  // namespace fcp::drawio
