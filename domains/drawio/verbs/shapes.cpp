// Shape verbs: add, remove, define.
#include <algorithm>
#include <cmath>

#include "domains/drawio/data/colors.hpp"
#include "domains/drawio/data/node_types.hpp"
#include "domains/drawio/data/regions.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/label_room.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

constexpr double kMaxAutoWidth = 480;

// What `add` makes: the draw.io style, default size and FCP type name of a TYPE token.
struct ShapeKind {
  std::string type;        // reply name: builtin, custom or stencil id
  std::string base_style;  // draw.io style before theme colours
  double width = 0, height = 0;
  bool auto_width = true;  // grow to fit the label
  bool themed = true;      // gets the default blue theme
  std::string theme;       // custom type's theme
  std::string badge;       // custom type's badge
  bool custom = false;
};

core::Result<ShapeKind> kind_for(const OpContext& ctx, std::string_view token, bool typed) {
  const auto& state = ctx.doc.state();
  if (auto it = state.custom_types.find(std::string(token)); it != state.custom_types.end()) {
    const CustomType& custom = it->second;
    const data::NodeType* base = data::find_node_type(custom.base);
    if (base == nullptr) return core::make_error("custom type \"" + custom.name + "\" has no base");
    ShapeKind kind{custom.name,  std::string(base->base_style),
                   base->width,  base->height,
                   !custom.size, true,
                   custom.theme, custom.badge,
                   true};
    if (custom.size) std::tie(kind.width, kind.height) = *custom.size;
    return kind;
  }
  if (const auto* type = data::find_node_type(token)) {
    return ShapeKind{std::string(type->name),
                     std::string(type->base_style),
                     type->width,
                     type->height,
                     true,
                     true,
                     {},
                     {},
                     false};
  }
  for (const auto& pack_id : state.loaded_packs) {
    const auto* pack = data::find_stencil_pack(pack_id);
    if (pack == nullptr) continue;
    if (const auto* entry = data::find_stencil(*pack, token)) {
      return ShapeKind{std::string(entry->id),
                       std::string(entry->style),
                       entry->width,
                       entry->height,
                       false,
                       false,
                       {},
                       {},
                       false};
    }
  }
  if (!typed) {  // inferred from the label
    const auto* type = data::find_node_type(data::infer_node_type(token));
    return ShapeKind{std::string(type->name),
                     std::string(type->base_style),
                     type->width,
                     type->height,
                     true,
                     true,
                     {},
                     {},
                     false};
  }
  // An unknown TYPE: say which pack has it, or list the types.
  for (const auto& pack : data::stencil_packs()) {
    if (data::find_stencil(pack, token) != nullptr) {
      return core::make_error("\"" + std::string(token) + "\" is in the " + std::string(pack.name) +
                                  " stencil pack, which is not loaded",
                              {"load " + std::string(pack.id)});
    }
  }
  std::vector<std::string> names;
  for (const auto& type : data::node_types())
    names.emplace_back(type.name);
  for (const auto& [name, custom] : state.custom_types)
    names.push_back(name);
  std::string list;
  for (const auto& name : names)
    list += (list.empty() ? "" : ", ") + name;
  // What the word means: a type by another name (database → db, also misspelt), else the
  // closest type. Only a word close to no type may be the first word of an unquoted label.
  std::vector<std::string> words = names;
  for (const auto& synonym : data::node_type_synonyms())
    words.emplace_back(synonym.word);
  std::vector<std::string> hints;
  for (const auto& close : core::closest_matches(core::to_lower(token), words, 1)) {
    std::string type = close;
    for (const auto& synonym : data::node_type_synonyms()) {
      if (synonym.word == close) type = std::string(synonym.type);
    }
    std::string fixed = ctx.op.raw;
    fixed.replace(fixed.find(token), token.size(), type);
    hints.push_back(std::move(fixed));
  }
  if (hints.empty() && ctx.op.positionals.size() >= 2) {
    // Most often an unquoted label with spaces: `add Auth Service`.
    std::string words_text;
    for (const auto& p : ctx.op.positionals)
      words_text += (words_text.empty() ? "" : " ") + p;
    hints.push_back("add " + quote_token(words_text));
  }
  return core::make_error("unknown type \"" + std::string(token) + "\" — types: " + list +
                              " (quote a label with spaces)",
                          std::move(hints));
}

// Whether a group holds a shape or group (O(1) unless it holds mostly edges and badges).
bool has_members(const OpContext& ctx, const std::string& group_id) {
  for (const auto& child : ctx.index().children(group_id)) {
    const CellKind kind = ctx.index().kind(child);
    if (kind == CellKind::shape || kind == CellKind::group) return true;
  }
  return false;
}

std::pair<double, double> badge_offset(std::string_view position, double shape_w, double shape_h,
                                       double w, double h) {
  double x = shape_w - w / 2, y = -h / 2;  // top-right
  if (position.find("left") != std::string_view::npos) x = -w / 2;
  if (position == "top" || position == "bottom" || position == "center") x = (shape_w - w) / 2;
  if (position.starts_with("bottom")) y = shape_h - h / 2;
  if (position == "left" || position == "right" || position == "center") y = (shape_h - h) / 2;
  if (position == "right") x = shape_w - w / 2;
  return {x, y};
}

std::string add_badge_cell(OpContext& ctx, const std::string& shape_id, const std::string& text,
                           std::string_view position) {
  const Cell* shape = ctx.page().find(shape_id);
  const double shape_w = shape && shape->geometry ? shape->geometry->width.value_or(0) : 0;
  const double shape_h = shape && shape->geometry ? shape->geometry->height.value_or(0) : 0;
  const double h = 20, w = std::max(20.0, static_cast<double>(utf8_length(text)) * 7 + 10);
  auto [x, y] = badge_offset(position, shape_w, shape_h, w, h);
  Cell badge;
  badge.id = ctx.doc.allocate_id();
  badge.style = Style::parse(kBadgeStyle);
  badge.value = stored_label(badge, text);
  badge.vertex = true;
  badge.parent = shape_id;
  badge.geometry = Geometry{};
  badge.geometry->x = x;
  badge.geometry->y = y;
  badge.geometry->width = w;
  badge.geometry->height = h;
  return ctx.edit.insert(std::move(badge)).id;
}

}  // namespace

std::string make_badge(OpContext& ctx, const std::string& shape_id, const std::string& text,
                       std::string_view position) {
  return add_badge_cell(ctx, shape_id, text, position);
}

core::Result<void> verb_add(OpContext& ctx) {
  const auto& op = ctx.op;
  if (op.positionals.empty()) {
    return core::make_error("add requires at least a label", {"add svc Auth", "add db Users"});
  }
  if (op.positionals.size() > 2) {
    std::string words;
    for (std::size_t i = 1; i < op.positionals.size(); ++i)
      words += (words.empty() ? "" : " ") + op.positionals[i];
    return core::make_error("add takes TYPE and one LABEL; quote a label with spaces",
                            {"add " + op.positionals[0] + " " + quote_token(words)});
  }
  const bool typed = op.positionals.size() == 2;
  const std::string& typed_label = op.positionals[typed ? 1 : 0];
  auto kind = kind_for(ctx, typed ? std::string_view(op.positionals[0]) : typed_label, typed);
  if (!kind) return kind.error();
  std::string display = op.param_or("label", typed_label);
  if (display.empty() || typed_label.empty())
    return core::make_error("add: empty label — provide a name", {"add svc Name"});
  const bool aliased = op.has_param("label") && display != typed_label;

  std::optional<ThemeColors> theme;
  if (const std::string* name = op.param("theme")) {
    auto found = require_theme(ctx, *name);
    if (!found) return found.error();
    theme = *found;
  } else if (!kind->theme.empty()) {
    auto found = require_theme(ctx, kind->theme);
    if (!found) return found.error();
    theme = *found;
  } else if (kind->themed) {
    theme = find_theme_colors(ctx.doc, kDefaultTheme);
  }

  std::size_t count = 1;
  bool numbered = false;
  if (auto value = op.integer("count")) {
    count = static_cast<std::size_t>(*value);
    numbered = true;
    if (auto fits = core::check_creation(ctx.call, count, "shapes"); !fits) return fits.error();
  }
  std::optional<std::pair<double, double>> size;
  if (const std::string* text = op.param("size")) {
    auto parsed = parse_size(*text);
    if (!parsed) return parsed.error();
    size = *parsed;
  }
  std::string group_id;
  if (const std::string* in = op.param("in")) {
    auto group = resolve_group(ctx, *in);
    if (!group) return group.error();
    group_id = *group;
  }
  const std::string parent = group_id.empty() ? ctx.doc.active_layer() : group_id;
  // A shape added to a themed group takes the group's theme unless the op or its type names one.
  if (!group_id.empty() && kind->themed && kind->theme.empty() && !op.has_param("theme")) {
    if (const std::string group_theme = theme_name_of(ctx.doc, *ctx.page().find(group_id));
        !group_theme.empty())
      theme = find_theme_colors(ctx.doc, group_theme);
  }

  std::string previous;
  for (std::size_t n = 1; n <= count; ++n) {
    const std::string suffix = numbered ? std::to_string(n) : std::string();
    const std::string label = display + suffix;
    double w = kind->width, h = kind->height;
    if (size) {
      std::tie(w, h) = *size;
    } else if (kind->auto_width) {
      const data::NodeType* base = data::find_node_type(kind->custom ? "box" : kind->type);
      const double needed = std::ceil((static_cast<double>(utf8_length(label)) * 8 + 20) / 10) * 10;
      // Long labels widen the box up to kMaxAutoWidth; beyond that they wrap.
      if (base != nullptr || kind->custom) w = std::max(w, std::min(needed, kMaxAutoWidth));
      // A shape whose outline runs inside its box (cloud, ellipse, diamond, hexagon) grows
      // until the label fits inside the outline, as the `?` check after the batch measures it.
      Cell probe;
      probe.style = Style::parse(kind->base_style);
      probe.value = label;
      while (w < kMaxAutoWidth && label_too_long(probe, Rect{0, 0, w, h}))
        w += 10;
    }
    // Numbered copies stack below the previous one; the first goes where the params say.
    auto place = place_new_shape(ctx, w, h, parent, previous);
    if (!place) return place.error();
    const bool first_member = !group_id.empty() && !has_members(ctx, group_id);
    Cell cell;
    cell.id = ctx.doc.allocate_id();
    cell.style = Style::parse(kind->base_style);
    cell.style->set_trailing_semicolon(true);
    cell.value = stored_label(cell, label);
    if (theme) apply_theme(*cell.style, *theme);
    if (kind->custom) cell.set_note_type(kind->type);
    if (aliased) cell.set_note_alias(typed_label + suffix);
    if (op.has_param("theme")) cell.set_note_own_colours(true);
    cell.vertex = true;
    cell.parent = parent;
    auto [ox, oy] = child_origin(ctx.page(), parent);
    cell.geometry = Geometry{};
    cell.geometry->x = place->x - ox;
    cell.geometry->y = place->y - oy;
    cell.geometry->width = w;
    cell.geometry->height = h;
    const std::string id = ctx.edit.insert(std::move(cell)).id;
    previous = id;
    if (!size) ctx.edit.set_default_size(id, std::pair{w, h});
    if (!kind->badge.empty()) add_badge_cell(ctx, id, kind->badge, "top-right");
    std::vector<std::string> moved;
    if (!group_id.empty()) {
      moved = make_room(ctx, group_id, id, first_member, place->dir);
      // What moved aside was changed after the new shape: it is the latest again.
      if (!moved.empty()) ctx.edit.update(id, [](Cell&) {});
    }
    std::string text = shape_text(ctx.doc, ctx.page(), *ctx.page().find(id));
    if (!place->note.empty()) text += " (" + place->note + ")";
    ctx.lines.push_back(core::created(text));
    if (!moved.empty())
      ctx.lines.push_back(core::detail_line(one_line(display_name(ctx.doc, group_id)) +
                                            " grew: moved " + names_of(ctx, moved) +
                                            " out of the way"));
  }
  return {};
}

namespace {

// A shape, or a group named by its label (case-insensitively): remove takes the group with
// everything in it.
core::Result<std::string> shape_or_group_named(const OpContext& ctx, std::string_view ref) {
  auto shape = resolve_shape(ctx, ref);
  if (shape) return shape;
  const auto group = ctx.index().group_names().lookup(ref);
  if (group.ids.size() == 1 && group.level <= core::MatchLevel::case_insensitive)
    return group.ids.front();
  return shape;
}

}  // namespace

core::Result<void> verb_remove(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.empty()) return core::make_error("remove requires a target", {"remove Cache"});
  for (const auto& token : tokens) {
    if (token.is_arrow())
      return core::make_error("remove takes shapes; remove an edge with disconnect",
                              {"disconnect " + ctx.op.raw.substr(7)});
  }
  auto targets = resolve_targets(ctx, tokens, shape_or_group_named);
  if (!targets) return targets.error();
  if (nothing_to_change(ctx, *targets)) return {};
  std::vector<std::string> shapes;
  std::vector<std::string> groups;
  for (auto& id : targets->ids)
    (ctx.index().kind(id) == CellKind::group ? groups : shapes).push_back(std::move(id));
  for (const auto& group : groups) {
    std::vector<std::string> inside;
    std::vector<std::string> stack{group};
    while (!stack.empty()) {
      std::string next = std::move(stack.back());
      stack.pop_back();
      for (const auto& child : ctx.index().children(next)) {
        const CellKind kind = ctx.index().kind(child);
        if (kind == CellKind::shape) inside.push_back(child);
        if (kind == CellKind::group) stack.push_back(child);
      }
    }
    const std::string name = display_name(ctx.doc, group);
    std::size_t edges = 0;
    for (const auto& shape : inside) {
      if (ctx.page().contains(shape)) edges += remove_shape(ctx, shape).size();
    }
    remove_shape(ctx, group);
    ctx.lines.push_back(
        core::deleted("group " + name + " (" + core::plural(inside.size(), "shape") +
                      (edges ? ", " + core::plural(edges, "edge") : std::string()) + ")"));
  }
  for (const auto& shape : shapes) {
    if (!ctx.page().contains(shape)) continue;  // inside a group removed above
    const std::string name = display_name(ctx.doc, shape);
    const auto edges = remove_shape(ctx, shape);
    ctx.lines.push_back(core::deleted(
        name +
        (edges.empty() ? std::string() : " (and " + core::plural(edges.size(), "edge") + ")")));
  }
  return {};
}

core::Result<void> verb_define(OpContext& ctx) {
  const auto& op = ctx.op;
  if (op.positionals.empty())
    return core::make_error(
        "define requires a name",
        {"define gateway base:api theme:purple", "define theme brand fill:#fde2e4 stroke:#c9184a"});
  if (op.positionals[0] == "theme") {
    if (op.positionals.size() < 2)
      return core::make_error("define theme requires a name",
                              {"define theme brand fill:#fde2e4 stroke:#c9184a"});
    const std::string& name = op.positionals[1];
    if (!op.has_param("fill") || !op.has_param("stroke"))
      return core::make_error(
          "define theme requires fill: and stroke:",
          {"define theme " + quote_token(name) + " fill:#fde2e4 stroke:#c9184a"});
    CustomTheme theme{name, {}, {}, {}};
    for (auto [key, slot] :
         {std::pair{"fill", &theme.fill}, std::pair{"stroke", &theme.stroke},
          std::pair{"font-color", &theme.font_color}, std::pair{"font", &theme.font_color}}) {
      if (const std::string* value = op.param(key)) {
        auto color = data::parse_color(*value);
        if (!color)
          return core::make_error("invalid colour " + std::string(key) + ":" + *value + " — " +
                                  std::string(data::color_help()));
        *slot = *color;
      }
    }
    const bool existed = ctx.doc.state().custom_themes.contains(name);
    ctx.edit.update_state([&](DocumentState& state) { state.custom_themes[name] = theme; });
    const std::string text =
        "theme " + name + " (" + theme.fill + " / " + theme.stroke +
        (theme.font_color.empty() ? std::string() : " font:" + theme.font_color) + ")";
    ctx.lines.push_back(existed ? core::property_changed("redefined " + text)
                                : core::created("defined " + text));
    return {};
  }
  const std::string& name = op.positionals[0];
  if (data::find_node_type(name) != nullptr)
    return core::make_error("\"" + name + "\" is a built-in type; choose another name");
  const std::string base = op.param_or("base", "");
  if (data::find_node_type(base) == nullptr) {
    std::vector<std::string> hints;
    std::vector<std::string> names;
    for (const auto& type : data::node_types())
      names.emplace_back(type.name);
    for (const auto& close : core::closest_matches(base, names, 1))
      hints.push_back("define " + quote_token(name) + " base:" + close);
    if (hints.empty()) hints.push_back("define " + quote_token(name) + " base:svc");
    return core::make_error("define requires base:TYPE with a built-in type (got \"" + base + "\")",
                            std::move(hints));
  }
  CustomType type{name, base, op.param_or("theme", ""), op.param_or("badge", ""), std::nullopt};
  if (!type.theme.empty()) {
    if (auto theme = require_theme(ctx, type.theme); !theme) return theme.error();
  }
  if (const std::string* size = op.param("size")) {
    auto parsed = parse_size(*size);
    if (!parsed) return parsed.error();
    type.size = *parsed;
  }
  const bool existed = ctx.doc.state().custom_types.contains(name);
  ctx.edit.update_state([&](DocumentState& state) { state.custom_types[name] = type; });
  std::string text = name + " (base:" + base;
  if (!type.theme.empty()) text += " theme:" + type.theme;
  if (!type.badge.empty()) text += " badge:" + type.badge;
  if (type.size)
    text += " size:" + format_number(type.size->first) + "x" + format_number(type.size->second);
  text += ")";
  ctx.lines.push_back(existed ? core::property_changed("redefined " + text)
                              : core::created("defined " + text));
  return {};
}

}  // namespace fcp::drawio
