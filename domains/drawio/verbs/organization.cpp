// Organization verbs: group (nestable containers) and ungroup.
#include <algorithm>

#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

// Re-parents a shape or group to `parent`, keeping its place on the page.
void reparent(OpContext& ctx, const std::string& id, const std::string& parent) {
  const Rect r = bounds_of(ctx, id);
  auto [ox, oy] = child_origin(ctx.page(), parent);
  // Structured bindings are captured by init-capture: clang before 16 cannot capture them.
  ctx.edit.update(id, [&, ox = ox, oy = oy](Cell& cell) {
    cell.parent = parent;
    if (!cell.geometry) cell.geometry = Geometry{};
    cell.geometry->x = r.x - ox;
    cell.geometry->y = r.y - oy;
  });
}

bool is_ancestor(const OpContext& ctx, const std::string& maybe_ancestor, const std::string& id) {
  for (std::string g = parent_group(ctx, id); !g.empty(); g = parent_group(ctx, g)) {
    if (g == maybe_ancestor) return true;
  }
  return false;
}

}  // namespace

core::Result<void> verb_group(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.empty())
    return core::make_error("group requires at least one REF",
                            {"group Auth Users as:Backend", "group @type:db as:\"Data Tier\""});
  const std::string* name = ctx.op.param("as");
  if (name == nullptr || name->empty())
    return core::make_error("group requires as:NAME", {ctx.op.raw + " as:Group"});
  if (ctx.index().group_names().lookup(*name).level == core::MatchLevel::exact)
    return core::make_error("a group named \"" + *name + "\" already exists on this page",
                            {"group … as:" + quote_token(*name + " 2")});
  auto targets = resolve_targets(ctx, tokens, resolve_shape_or_group);
  if (!targets) return targets.error();
  if (nothing_to_change(ctx, *targets)) return {};
  const std::vector<std::string>& members = targets->ids;
  // Members keep their innermost common container as the new group's parent, so groups nest.
  std::string parent = parent_group(ctx, members.front());
  for (const auto& id : members) {
    if (parent_group(ctx, id) != parent) {
      parent.clear();
      break;
    }
  }
  if (const std::string* in = ctx.op.param("in")) {
    auto outer = resolve_group(ctx, *in);
    if (!outer) return outer.error();
    parent = *outer;
  }
  for (const auto& id : members) {
    if (id == parent || (ctx.index().kind(id) == CellKind::group && is_ancestor(ctx, id, parent)))
      return core::make_error("cannot put group \"" + display_name(ctx.doc, id) +
                              "\" inside itself");
  }
  Cell group;
  group.id = ctx.doc.allocate_id();
  group.style = Style::parse(
      "rounded=0;whiteSpace=wrap;html=1;container=1;collapsible=0;verticalAlign=top;"
      "fontStyle=1;dashed=1;fillColor=none;strokeColor=#666666;");
  std::optional<ThemeColors> theme;
  if (const std::string* theme_name = ctx.op.param("theme")) {
    auto found = require_theme(ctx, *theme_name);
    if (!found) return found.error();
    theme = *found;
  }
  auto which = member_coloring(ctx);
  if (!which) return which.error();
  if (!theme && ctx.op.has_param("members"))
    return core::make_error("members: says which members a theme colours; give theme: too",
                            {ctx.op.raw + " theme:green"});
  group.value = stored_label(group, *name);
  group.vertex = true;
  group.parent = parent.empty() ? ctx.doc.active_layer() : parent;
  group.geometry = Geometry{};
  const Rect box = bounds_of(ctx, members.front());
  auto [ox, oy] = child_origin(ctx.page(), *group.parent);
  group.geometry->x = box.x - ox;
  group.geometry->y = box.y - oy;
  group.geometry->width = box.width;
  group.geometry->height = box.height;
  // The container goes below its first member in z-order, so members stay visible.
  const std::string group_id = ctx.edit.insert(std::move(group), members.front()).id;
  for (const auto& id : members)
    reparent(ctx, id, group_id);
  fit_group(ctx, group_id);
  reparent_edges_at(ctx, members);
  ctx.lines.push_back(
      core::created("group " + *name + " (" + core::plural(members.size(), "shape") + ")"));
  if (theme) ctx.lines.push_back(core::detail_line(theme_group(ctx, group_id, *theme, *which)));
  // The frame round the members can take in what is not a member (a shape between them, a
  // neighbouring group's frame): a reader sees it as part of the group (trial 17).
  const std::vector<std::string> covered =
      covered_by_group(ctx, group_id, bounds_of(ctx, group_id), std::nullopt);
  constexpr std::size_t kNamed = 3;
  std::vector<std::string> shapes, groups;
  for (const auto& id : covered)
    (ctx.index().kind(id) == CellKind::group ? groups : shapes)
        .push_back(display_name(ctx.doc, id));
  if (!shapes.empty()) {
    const bool one = shapes.size() == 1;
    ctx.lines.push_back(core::warning_line(
        "the frame of group " + *name + " covers " + named_list(shapes, kNamed) +
        (one ? ", which is not in it: it reads" : ", which are not in it: they read") +
        " as part of " + *name + "; move " + (one ? shapes.front() : std::string("them")) +
        " out, or ungroup " + *name + " and group again with " + (one ? "it" : "them")));
  }
  // Taking a group in would nest one tier in another (judge 13): frames that overlap are moved
  // apart, which a layout does.
  if (!groups.empty()) {
    ctx.lines.push_back(core::warning_line(
        "the frame of group " + *name + " overlaps the frame" +
        (groups.size() == 1 ? " of group " : "s of groups ") + named_list(groups, kNamed) +
        ": move them apart, or lay the groups out with layout @all"));
  }
  return {};
}

core::Result<void> verb_ungroup(OpContext& ctx) {
  const auto tokens = ordered_tokens(ctx.op);
  if (tokens.size() != 1)
    return core::make_error("ungroup requires one group name", {"ungroup Backend"});
  std::string ref = tokens[0].text;
  if (tokens[0].is_selector()) {
    const auto selector = core::parse_selector(ref);
    if (selector.type != "group") return core::make_error("ungroup takes a group name");
    ref = selector.value;
  }
  auto group = resolve_group(ctx, ref);
  if (!group) return group.error();
  const std::string name = display_name(ctx.doc, *group);
  const Cell* cell = ctx.page().find(*group);
  const std::string parent = cell->parent.value_or(ctx.doc.active_layer());
  const auto members = ctx.index().children(*group).to_vector();  // copy
  std::size_t shapes = 0;
  for (const auto& id : members) {
    const CellKind kind = ctx.index().kind(id);
    if (kind == CellKind::shape || kind == CellKind::group) ++shapes;
    if (kind == CellKind::edge) {
      move_edge_to(ctx, id, parent);
      continue;
    }
    reparent(ctx, id, parent);
  }
  reparent_edges_at(ctx, members);
  const auto attached =
      ctx.index().incident_edges(*group).to_vector();  // copy: they go with the group
  for (const auto& edge : attached) {
    const auto labels = ctx.index().children(edge).to_vector();
    for (const auto& label : labels)
      ctx.edit.erase(label);
    ctx.edit.erase(edge);
  }
  ctx.edit.erase(*group);
  ctx.lines.push_back(
      core::deleted("ungrouped " + name + " (" + core::plural(shapes, "shape") + ")"));
  return {};
}

}  // namespace fcp::drawio
