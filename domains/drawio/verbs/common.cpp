// Helpers shared by the drawio verbs: geometry, groups, removal, params, themes, reply lines.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <span>
#include <unordered_set>

#include "domains/drawio/data/colors.hpp"
#include "domains/drawio/data/style_keys.hpp"
#include "domains/drawio/data/themes.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

constexpr double kMaxCoordinate = 1e7;

std::optional<double> to_double(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  if (text.starts_with('+')) text.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  if (!std::isfinite(value) || std::abs(value) > kMaxCoordinate) return std::nullopt;
  return value;
}

}  // namespace

std::string display_name(const DrawioDocument& doc, std::string_view id) {
  const Cell* cell = doc.page().find(id);
  if (cell == nullptr) return std::string(id);
  std::string label = cell_label(*cell);
  return label.empty() ? std::string(id) : label;
}

Rect bounds_of(const OpContext& ctx, std::string_view id) {
  const Cell* cell = ctx.page().find(id);
  return cell != nullptr ? absolute_rect(ctx.page(), *cell) : Rect{};
}

void place_cell(OpContext& ctx, std::string_view id, double x, double y,
                std::optional<std::pair<double, double>> size) {
  const Cell* cell = ctx.page().find(id);
  if (cell == nullptr) return;
  auto [ox, oy] = cell->parent ? child_origin(ctx.page(), *cell->parent) : std::pair{0.0, 0.0};
  // Structured bindings are captured by init-capture: clang before 16 cannot capture them.
  ctx.edit.update(id, [&, ox = ox, oy = oy](Cell& c) {
    if (!c.geometry) c.geometry = Geometry{};
    c.geometry->x = std::round((x - ox) * 100) / 100;
    c.geometry->y = std::round((y - oy) * 100) / 100;
    if (size) {
      c.geometry->width = size->first;
      c.geometry->height = size->second;
    }
  });
}

std::string parent_group(const OpContext& ctx, std::string_view id) {
  return parent_group(ctx.page(), ctx.index(), id);
}

std::vector<std::string> group_members(const OpContext& ctx, std::string_view group_id) {
  std::vector<std::string> members;
  for (const auto& child : ctx.index().children(group_id)) {
    const CellKind kind = ctx.index().kind(child);
    if (kind == CellKind::shape || kind == CellKind::group) members.push_back(child);
  }
  // Document order, so replies and layouts are stable.
  std::sort(members.begin(), members.end(), [&](const auto& a, const auto& b) {
    return ctx.index().touched_at(a) < ctx.index().touched_at(b);
  });
  return members;
}

void set_group_box(OpContext& ctx, const std::string& group_id, const Rect& old, const Rect& box) {
  const double dx = old.x - box.x, dy = old.y - box.y;
  if (dx != 0 || dy != 0) {
    // The members stay where they are on the page: their coordinates, and the waypoints and
    // loose ends of the edges the group holds, are in the group's; its origin moved by -dx,-dy.
    const auto shift = [dx, dy](Point& point) {
      point.x = point.x_or_zero() + dx;
      point.y = point.y_or_zero() + dy;
    };
    const auto children = ctx.index().children(group_id).to_vector();  // copy: updates reorder it
    for (const auto& child : children) {
      ctx.edit.update(child, [&](Cell& c) {
        if (!c.geometry) return;
        if (c.edge) {
          if (c.geometry->points)
            std::for_each(c.geometry->points->begin(), c.geometry->points->end(), shift);
          if (c.geometry->source_point) shift(*c.geometry->source_point);
          if (c.geometry->target_point) shift(*c.geometry->target_point);
          return;
        }
        if (c.geometry->relative) return;
        c.geometry->x = c.geometry->x.value_or(0) + dx;
        c.geometry->y = c.geometry->y.value_or(0) + dy;
      });
    }
  }
  place_cell(ctx, group_id, box.x, box.y, std::pair{box.width, box.height});
}

void fit_group(OpContext& ctx, std::string_view group_id, bool outer_groups) {
  std::string current(group_id);
  for (int depth = 0; depth < 64 && !current.empty(); ++depth) {
    const Cell* group = ctx.page().find(current);
    if (group == nullptr || ctx.index().kind(current) != CellKind::group) return;
    const auto members = group_members(ctx, current);
    if (members.empty()) return;
    std::optional<Rect> content;
    for (const auto& member : members) {
      const Rect rect = bounds_of(ctx, member);
      content = content ? content->united(rect) : rect;
    }
    const Rect old = absolute_rect(ctx.page(), *group);
    const std::string name = cell_label(*group);
    Rect fitted{content->x - kGroupPadSide, content->y - kGroupPadTop,
                content->width + 2 * kGroupPadSide,
                content->height + kGroupPadTop + kGroupPadBottom};
    fitted.width = std::max(fitted.width, static_cast<double>(utf8_length(name)) * 9 + 80);
    set_group_box(ctx, current, old, fitted);
    if (!outer_groups) return;
    current = parent_group(ctx, current);
  }
}

bool grow_group(OpContext& ctx, const std::string& group_id, std::span<const Rect> rects) {
  const Cell* group = ctx.page().find(group_id);
  if (group == nullptr || ctx.index().kind(group_id) != CellKind::group) return false;
  const Rect old = absolute_rect(ctx.page(), *group);
  Rect box = old;
  for (const Rect& r : rects)
    box = box.united(Rect{r.x - kGroupPadSide, r.y - kGroupPadTop, r.width + 2 * kGroupPadSide,
                          r.height + kGroupPadTop + kGroupPadBottom});
  if (box == old) return false;
  set_group_box(ctx, group_id, old, box);
  return true;
}

std::vector<GroupGrowth> grow_groups_to_hold(OpContext& ctx, std::span<const std::string> ids) {
  std::vector<GroupGrowth> grown;  // in the order they first grew
  for (const auto& id : ids) {
    std::string held = id;
    for (int depth = 0; depth < 64; ++depth) {
      const std::string group = parent_group(ctx, held);
      if (group.empty()) break;
      const Rect before = bounds_of(ctx, group);
      const Rect hold = bounds_of(ctx, held);
      if (!grow_group(ctx, group, std::span(&hold, 1))) break;
      auto it = std::find_if(grown.begin(), grown.end(),
                             [&](const GroupGrowth& entry) { return entry.group == group; });
      if (it == grown.end()) it = grown.insert(grown.end(), GroupGrowth{group, before, before, {}});
      it->after = bounds_of(ctx, group);
      const std::string name = display_name(ctx.doc, held);
      if (std::find(it->held.begin(), it->held.end(), name) == it->held.end())
        it->held.push_back(name);
      held = group;
    }
  }
  return grown;
}

std::vector<std::string> covered_by_group(const OpContext& ctx, const std::string& group,
                                          const Rect& box, std::optional<Rect> before) {
  const auto within = [&](std::string id, const std::string& outer) {
    for (int depth = 0; depth < 64 && !id.empty(); ++depth) {
      if (id == outer) return true;
      id = parent_group(ctx, id);
    }
    return false;
  };
  std::vector<std::string> covered;
  std::unordered_set<std::string> covered_ids;
  for (const Cell& cell : ctx.page().cells()) {
    const CellKind kind = ctx.index().kind(cell.id);
    if (kind != CellKind::shape && kind != CellKind::group) continue;
    if (within(cell.id, group) || within(group, cell.id)) continue;
    // A group covered is named, not its members.
    bool in_covered = false;
    for (std::string up = parent_group(ctx, cell.id); !up.empty() && !in_covered;
         up = parent_group(ctx, up))
      in_covered = covered_ids.contains(up);
    if (in_covered) continue;
    const Rect r = bounds_of(ctx, cell.id);
    if (r.overlaps(box) && !(before && r.overlaps(*before))) {
      covered.push_back(cell.id);
      covered_ids.insert(cell.id);
    }
  }
  return covered;
}

std::string named_list(std::span<const std::string> names, std::size_t named) {
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < named; ++i)
    list += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > named) list += " and " + std::to_string(names.size() - named) + " more";
  return list;
}

std::vector<std::string> growth_lines(const OpContext& ctx, std::span<const GroupGrowth> grown) {
  std::vector<std::string> lines;
  constexpr std::size_t kNamed = 3;
  for (const GroupGrowth& g : grown) {
    const std::string& group = g.group;
    const std::string names = named_list(g.held, kNamed);
    lines.push_back(core::property_changed(
        "group " + display_name(ctx.doc, group) + " grown from " + format_number(g.before.width) +
        "x" + format_number(g.before.height) + " to " + format_number(g.after.width) + "x" +
        format_number(g.after.height) + " to hold " + names));
    // What the grown box now covers that it did not: shapes and groups neither in it nor round
    // it (nothing is pushed aside; the reply says so).
    std::vector<std::string> covered = covered_by_group(ctx, group, g.after, g.before);
    for (auto& id : covered)
      id = display_name(ctx.doc, id);
    if (!covered.empty()) {
      lines.push_back(core::warning_line(
          "group " + display_name(ctx.doc, group) + " grown over " + named_list(covered, kNamed) +
          " (nothing was pushed aside); move what it covers, or the member that made it grow"));
    }
  }
  return lines;
}

std::vector<std::string> hold_in_groups(OpContext& ctx, std::span<const std::string> ids) {
  const auto grown = grow_groups_to_hold(ctx, ids);
  return growth_lines(ctx, grown);
}

void translate_cells(OpContext& ctx, const std::vector<std::string>& ids, double dx, double dy) {
  std::unordered_set<std::string> moving(ids.begin(), ids.end());
  for (const auto& id : ids) {
    const Rect r = bounds_of(ctx, id);
    place_cell(ctx, id, r.x + dx, r.y + dy);
  }
  std::unordered_set<std::string> seen;
  for (const auto& id : ids) {
    const auto edges = ctx.index().incident_edges(id).to_vector();  // copy: updates reorder it
    for (const auto& edge_id : edges) {
      if (!seen.insert(edge_id).second) continue;
      const auto entry = ctx.index().entry(edge_id);
      if (!entry) continue;
      const bool both = moving.contains(std::string(entry->source)) &&
                        moving.contains(std::string(entry->target));
      ctx.edit.update(edge_id, [&](Cell& edge) {
        if (!edge.geometry || !edge.geometry->points) return;
        if (both) {
          for (auto& point : *edge.geometry->points) {
            point.x = point.x_or_zero() + dx;
            point.y = point.y_or_zero() + dy;
          }
        } else {
          edge.geometry->points.reset();
        }
      });
    }
  }
}

namespace {

// `id` and the cells above it, innermost first, as far as the root.
std::vector<std::string> ancestors_of(const Page& page, const std::string& id) {
  std::vector<std::string> chain;
  std::string current = id;
  for (int depth = 0; depth < 64 && !current.empty(); ++depth) {
    chain.push_back(current);
    const Cell* cell = page.find(current);
    if (cell == nullptr || !cell->parent) break;
    current = *cell->parent;
  }
  return chain;
}

}  // namespace

void move_edge_to(OpContext& ctx, const std::string& edge_id, const std::string& parent) {
  const Cell* edge = ctx.page().find(edge_id);
  if (edge == nullptr || edge->parent == parent) return;
  const auto [fx, fy] = child_origin(ctx.page(), edge->parent.value_or(""));
  const auto [tx, ty] = child_origin(ctx.page(), parent);
  ctx.edit.update(edge_id, [&, dx = fx - tx, dy = fy - ty](Cell& cell) {
    cell.parent = parent;
    if (!cell.geometry || !cell.geometry->points) return;
    for (auto& point : *cell.geometry->points) {
      point.x = std::round((point.x_or_zero() + dx) * 100) / 100;
      point.y = std::round((point.y_or_zero() + dy) * 100) / 100;
    }
  });
}

std::string edge_parent(const OpContext& ctx, const std::string& source, const std::string& target,
                        const std::string& fallback) {
  const Page& page = ctx.page();
  auto chain = [&](const std::string& end) {
    auto cells = ancestors_of(page, end);
    // The end itself is an ancestor only as a group holding the other end.
    if (!cells.empty() && (source == target || ctx.index().kind(end) != CellKind::group))
      cells.erase(cells.begin());
    return cells;
  };
  const auto from = chain(source), to = chain(target);
  for (const auto& id : from) {
    if (std::find(to.begin(), to.end(), id) == to.end()) continue;
    const Cell* cell = page.find(id);
    return cell != nullptr && cell->vertex ? id : fallback;
  }
  return fallback;
}

void reparent_edges_at(OpContext& ctx, const std::vector<std::string>& shapes) {
  std::vector<std::string> pending(shapes.begin(), shapes.end());
  std::unordered_set<std::string> seen_shapes, seen_edges;
  std::vector<std::string> edges;
  while (!pending.empty()) {
    const std::string id = std::move(pending.back());
    pending.pop_back();
    if (!seen_shapes.insert(id).second) continue;
    for (const auto& edge : ctx.index().incident_edges(id)) {
      if (seen_edges.insert(edge).second) edges.push_back(edge);
    }
    for (const auto& child : ctx.index().children(id)) {
      const CellKind kind = ctx.index().kind(child);
      if (kind == CellKind::shape || kind == CellKind::group) pending.push_back(child);
    }
  }
  for (const auto& edge_id : edges) {
    const Cell* edge = ctx.page().find(edge_id);
    if (edge == nullptr || !edge->source || !edge->target) continue;
    const Cell* parent = edge->parent ? ctx.page().find(*edge->parent) : nullptr;
    // An edge in a layer stays in it unless a group now holds both ends; one in a group that no
    // longer holds both goes to the page's active layer.
    const std::string fallback =
        parent != nullptr && !parent->vertex ? *edge->parent : ctx.doc.active_layer();
    move_edge_to(ctx, edge_id, edge_parent(ctx, *edge->source, *edge->target, fallback));
  }
}

std::vector<std::string> remove_shape(OpContext& ctx, std::string_view id) {
  std::vector<std::string> removed_edges;
  const std::string shape(id);
  const auto edges =
      ctx.index().incident_edges(shape).to_vector();  // copy: erasing changes the index
  for (const auto& edge_id : edges) {
    const auto entry = ctx.index().entry(edge_id);
    if (!entry) continue;
    removed_edges.push_back(display_name(ctx.doc, entry->source) + "->" +
                            display_name(ctx.doc, entry->target));
    const auto labels = ctx.index().children(edge_id).to_vector();
    for (const auto& label : labels)
      ctx.edit.erase(label);
    ctx.edit.erase(edge_id);
  }
  // Descendants (badges, nested cells), deepest first.
  std::vector<std::string> stack{shape}, order;
  while (!stack.empty()) {
    std::string next = std::move(stack.back());
    stack.pop_back();
    for (const auto& child : ctx.index().children(next))
      stack.push_back(child);
    order.push_back(std::move(next));
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (*it != shape && !ctx.index().incident_edges(*it).empty()) remove_shape(ctx, *it);
    ctx.edit.erase(*it);
  }
  return removed_edges;
}

core::Result<std::pair<double, double>> parse_xy(std::string_view text, std::string_view param) {
  const auto comma = text.find(',');
  if (comma != std::string_view::npos) {
    auto x = to_double(text.substr(0, comma));
    auto y = to_double(text.substr(comma + 1));
    if (x && y) return std::pair{*x, *y};
  }
  return core::make_error("invalid " + std::string(param) + ":" + std::string(text) + " — use " +
                          std::string(param) + ":X,Y (numbers, e.g. " + std::string(param) +
                          ":200,120)");
}

core::Result<std::pair<double, double>> parse_size(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x != std::string_view::npos) {
    auto w = to_double(text.substr(0, x));
    auto h = to_double(text.substr(x + 1));
    if (w && h && *w > 0 && *h > 0) return std::pair{*w, *h};
  }
  return core::make_error("invalid size \"" + std::string(text) +
                          "\" — use WIDTHxHEIGHT with positive numbers, e.g. 160x80");
}

core::Result<double> parse_number(std::string_view text, std::string_view param) {
  if (auto value = to_double(text)) return *value;
  return core::make_error("invalid " + std::string(param) + ":" + std::string(text) +
                          " — expected a number");
}

core::Result<bool> parse_bool(std::string_view text, std::string_view param) {
  const std::string lower = core::to_lower(text);
  if (lower == "true" || lower == "1" || lower == "yes" || lower == "on") return true;
  if (lower == "false" || lower == "0" || lower == "no" || lower == "off") return false;
  return core::make_error("invalid " + std::string(param) + ":" + std::string(text) +
                          " — use true or false");
}

namespace {

// The op with its `key:written` token replaced by `key:fixed` (or by `replacement` whole); ""
// when the token is not found as written.
std::string op_with(const OpContext& ctx, std::string_view key, std::string_view written,
                    std::string_view replacement) {
  std::string op = ctx.op.raw;
  const std::string token = std::string(key) + ":" + std::string(written);
  const auto at = op.find(token);
  if (at == std::string::npos) return {};
  op.replace(at, token.size(), replacement);
  return op;
}

bool is_face(std::string_view value) {
  const std::string_view face = value.substr(0, value.find('@'));
  return face == "top" || face == "bottom" || face == "left" || face == "right";
}

}  // namespace

core::Result<std::string> drawio_style_value(const OpContext& ctx, std::string_view key,
                                             std::string_view value) {
  const std::string named = std::string(key) + ":" + std::string(value);
  if (value.find(';') != std::string_view::npos || value.find('=') != std::string_view::npos)
    return core::make_error("invalid " + named + " — no ';' or '=' in values");
  const data::StyleValueRule* rule = data::style_value_rule(key);
  if (rule == nullptr || value.empty()) return std::string(value);  // "" removes the key
  std::vector<std::string> hints;
  auto hint = [&](std::string_view replacement) {
    if (std::string op = op_with(ctx, key, value, replacement); !op.empty())
      hints.push_back(std::move(op));
  };
  switch (rule->form) {
    case data::StyleValueForm::number: {
      if (auto number = core::to_number(value)) return format_number(*number);
      const bool port = key.starts_with("exit") || key.starts_with("entry");
      if (port && is_face(value)) {
        const std::string end(key.starts_with("exit") ? "exit" : "entry");
        hint(end + ":" + std::string(value));
        return core::make_error("invalid " + named + " — " + std::string(key) +
                                    " is a fraction of the shape (0 … 1); a face is " + end + ":" +
                                    std::string(value),
                                std::move(hints));
      }
      return core::make_error("invalid " + named + " — " + std::string(key) + " takes a number");
    }
    case data::StyleValueForm::flag: {
      if (auto on = parse_bool(value, key)) return std::string(*on ? "1" : "0");
      hint(std::string(key) + ":1");
      return core::make_error("invalid " + named + " — " + std::string(key) + " takes 0 or 1",
                              std::move(hints));
    }
    case data::StyleValueForm::choice: {
      std::vector<std::string> choices(rule->choices.begin(), rule->choices.end());
      for (const auto& choice : choices) {
        if (core::to_lower(choice) == core::to_lower(value)) return choice;
      }
      for (const auto& close : core::closest_matches(value, choices, 1))
        hint(std::string(key) + ":" + close);
      std::string list;
      for (const auto& choice : choices)
        list += (list.empty() ? "" : ", ") + choice;
      return core::make_error("invalid " + named + " — " + std::string(key) + " is one of " + list,
                              std::move(hints));
    }
  }
  return std::string(value);
}

core::Result<std::string> parse_color_param(const OpContext& ctx, std::string_view text,
                                            std::string_view param) {
  if (auto color = data::parse_color(text)) return *color;
  if (auto theme = find_theme_colors(ctx.doc, text)) {
    return param == "stroke" ? theme->stroke : param == "font" ? theme->font_color : theme->fill;
  }
  return core::make_error("invalid colour " + std::string(param) + ":" + std::string(text) + " — " +
                              std::string(data::color_help()),
                          {std::string(param) + ":#dae8fc", std::string(param) + ":blue"});
}

std::pair<double, double> region_position(const OpContext& ctx, int row, int col, double width,
                                          double height, std::string_view exclude_id) {
  std::optional<Rect> content;
  for (const Cell& cell : ctx.page().cells()) {
    const CellKind kind = ctx.index().kind(cell.id);
    if ((kind != CellKind::shape && kind != CellKind::group) || cell.id == exclude_id) continue;
    const Rect rect = absolute_rect(ctx.page(), cell);
    content = content ? content->united(rect) : rect;
  }
  Rect canvas =
      content ? Rect{content->x - 60, content->y - 60, content->width + 120, content->height + 120}
              : Rect{0, 0, 800, 600};
  const double cell_w = canvas.width / 3, cell_h = canvas.height / 3;
  const double cx = canvas.x + cell_w * (col + 0.5), cy = canvas.y + cell_h * (row + 0.5);
  return {std::round(cx - width / 2), std::round(cy - height / 2)};
}

std::optional<ThemeColors> find_theme_colors(const DrawioDocument& doc, std::string_view name) {
  if (auto it = doc.state().custom_themes.find(std::string(name));
      it != doc.state().custom_themes.end()) {
    return ThemeColors{it->second.name, it->second.fill, it->second.stroke, it->second.font_color};
  }
  if (const auto* theme = data::find_theme(name)) {
    return ThemeColors{std::string(theme->name), std::string(theme->fill),
                       std::string(theme->stroke), std::string(theme->font_color)};
  }
  return std::nullopt;
}

core::Result<ThemeColors> require_theme(const OpContext& ctx, std::string_view name) {
  if (auto theme = find_theme_colors(ctx.doc, name)) return *theme;
  std::vector<std::string> names;
  for (const auto& theme : data::themes())
    names.emplace_back(theme.name);
  for (const auto& [custom, theme] : ctx.doc.state().custom_themes)
    names.push_back(custom);
  return core::unknown_reference({"theme", ctx.op.raw}, name, names);
}

void apply_theme(Style& style, const ThemeColors& theme) {
  style.set("fillColor", theme.fill);
  style.set("strokeColor", theme.stroke);
  if (!theme.font_color.empty()) {
    style.set("fontColor", theme.font_color);
  } else {
    style.erase("fontColor");
  }
}

namespace {

constexpr std::size_t kMaxNamedMembers = 12;
constexpr int kMaxGroupDepth = 64;

// Whether a member follows its group's colours: no fill of its own, add's default colours, or
// the colours the group has now (an earlier group theme gave them).
bool follows_group(const OpContext& ctx, const Cell& member, const Cell& group) {
  if (member.note_own_colours()) return false;  // the user coloured it
  const auto fill = member.style_value("fillColor");
  if (!fill) return true;
  const std::string lower = core::to_lower(*fill);
  if (const auto plain = find_theme_colors(ctx.doc, kDefaultTheme);
      plain && lower == core::to_lower(plain->fill))
    return true;
  const auto group_fill = group.style_value("fillColor");
  return group_fill && *group_fill != "none" && lower == core::to_lower(*group_fill);
}

// The shapes inside a group, nested groups' shapes too, in document order.
std::vector<std::string> shapes_inside(const OpContext& ctx, const std::string& group_id) {
  std::vector<std::string> out;
  for (const Cell& cell : ctx.page().cells()) {
    if (ctx.index().kind(cell.id) != CellKind::shape) continue;
    std::string_view parent = cell.parent ? std::string_view(*cell.parent) : std::string_view();
    for (int depth = 0; depth < kMaxGroupDepth && !parent.empty(); ++depth) {
      if (parent == group_id) {
        out.push_back(cell.id);
        break;
      }
      if (ctx.index().kind(parent) != CellKind::group) break;
      const Cell* up = ctx.page().find(parent);
      parent = up != nullptr && up->parent ? std::string_view(*up->parent) : std::string_view();
    }
  }
  return out;
}

std::string names_text(const OpContext& ctx, const std::vector<std::string>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < kMaxNamedMembers; ++i)
    out += (i > 0 ? ", " : "") + one_line(display_name(ctx.doc, ids[i]));
  if (ids.size() > kMaxNamedMembers)
    out += ", … " + std::to_string(ids.size() - kMaxNamedMembers) + " more";
  return out;
}

}  // namespace

core::Result<MemberColoring> member_coloring(const OpContext& ctx) {
  const std::string* which = ctx.op.param("members");
  if (which == nullptr || *which == "plain") return MemberColoring::plain;
  if (*which == "all") return MemberColoring::all;
  if (*which == "none") return MemberColoring::none;
  return core::make_error("invalid members:" + *which + " — plain, all or none");
}

std::string theme_group(OpContext& ctx, const std::string& group_id, const ThemeColors& theme,
                        MemberColoring which) {
  const Cell* group = ctx.page().find(group_id);
  if (group == nullptr) return {};
  std::vector<std::string> coloured, kept;
  for (const auto& id : shapes_inside(ctx, group_id)) {
    const Cell* member = ctx.page().find(id);
    if (member == nullptr || member->is_text()) continue;
    const bool colour = which == MemberColoring::all ||
                        (which == MemberColoring::plain && follows_group(ctx, *member, *group));
    (colour ? coloured : kept).push_back(id);
  }
  // The members first: whether one follows the group is read from the group's colours before.
  for (const auto& id : coloured) {
    ctx.edit.update(id, [&](Cell& cell) {
      if (!cell.style) cell.style = Style{};
      apply_theme(*cell.style, theme);
      cell.style->set_trailing_semicolon(true);
    });
  }
  ctx.edit.update(group_id, [&](Cell& cell) {
    if (!cell.style) cell.style = Style{};
    apply_theme(*cell.style, theme);
    cell.style->set("dashed", "0");
    cell.style->set_trailing_semicolon(true);
  });
  std::string text = "theme " + theme.name + ": the container";
  // Colours given beside theme: win on the container (whatever their order), not on members.
  std::string given;
  for (const auto& param : ctx.op.params) {
    if (param.key == "fill" || param.key == "stroke" || param.key == "font" ||
        param.key == "font-color" || param.key == "fontColor")
      given += (given.empty() ? "" : " ") + param.key + ":" + param.value;
  }
  if (!given.empty()) text += " (" + given + " as given, on the container only)";
  if (!coloured.empty())
    text +=
        " and " + core::plural(coloured.size(), "member") + " (" + names_text(ctx, coloured) + ")";
  if (!kept.empty()) {
    const bool one = kept.size() == 1;
    text += "; " + core::plural(kept.size(), "member") + " kept " +
            (which == MemberColoring::none
                 ? std::string(one ? "its" : "their") + " colours (members:none)"
                 : std::string(one ? "its" : "their") + " own colours (members:all recolours " +
                       (one ? "it" : "them") + ")") +
            ": " + names_text(ctx, kept);
  }
  return text;
}

std::vector<std::string> member_theme_notes(const OpContext& ctx,
                                            std::span<const OpToken> targets) {
  std::vector<std::string> notes;
  const std::string* theme = ctx.op.param("theme");
  if (theme == nullptr) return notes;
  for (const auto& target : targets) {
    if (!target.is_selector()) continue;
    const auto selector = core::parse_selector(target.text);
    if (selector.type != "group" || selector.negated) continue;
    const auto group = ctx.index().group_names().lookup(selector.value);
    if (group.ids.size() != 1) continue;
    const std::string name = display_name(ctx.doc, group.ids[0]);
    notes.push_back(core::detail_line("theme " + *theme + ": the members of " + one_line(name) +
                                      " only; its container keeps its colours (style " +
                                      quote_token(name) + " theme:" + *theme +
                                      " colours the container too)"));
  }
  return notes;
}

std::string theme_name_of(const DrawioDocument& doc, const Cell& cell) {
  if (!cell.style) return {};
  auto fill = cell.style->get("fillColor");
  if (!fill) return {};
  const std::string lower = core::to_lower(*fill);
  for (const auto& [name, theme] : doc.state().custom_themes) {
    if (core::to_lower(theme.fill) == lower) return name;
  }
  if (const auto* theme = data::theme_with_fill(lower)) return std::string(theme->name);
  return {};
}

std::string format_xy(double x, double y) {
  return format_number(x) + "," + format_number(y);
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";  // as an op writes a line break
    } else if (c != '\r') {
      out += c;
    }
  }
  return out;
}

std::string shape_text(const DrawioDocument& doc, const Page& page, const Cell& cell) {
  const Rect r = absolute_rect(page, cell);
  std::string text = shape_type(cell) + " " + one_line(cell_label(cell)) + " @(" +
                     format_xy(r.x, r.y) + " " + format_number(r.width) + "x" +
                     format_number(r.height) + ")";
  if (std::string theme = theme_name_of(doc, cell); !theme.empty()) text += " " + theme;
  return text;
}

}  // namespace fcp::drawio
