// The drawio verbs: one handler per verb, grouped by file (shapes, connections, appearance,
// position, organization, structure, meta, universal), plus the helpers they share.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/domain.hpp"
#include "core/response.hpp"
#include "domains/drawio/data/regions.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/references.hpp"

namespace fcp::drawio {

// Everything a verb handler works with. Handlers validate, change the model through `edit`,
// and append reply lines; returning an error makes the Edit roll everything back.
struct OpContext {
  DrawioDocument& doc;
  Edit& edit;
  core::CallContext& call;
  const core::ParsedOp& op;
  std::vector<std::string> lines;
  std::vector<core::Attachment> attachments;

  const Page& page() const { return edit.page(); }
  const PageIndex& index() const { return edit.index(); }
};

// Every drawio verb with its keys, help and handler (table.cpp).
const core::VerbTable<OpContext>& verb_table();

// One token of an op after the verb, in order (selectors and arrows included, params excluded).
struct OpToken {
  std::string text;
  bool quoted = false;
  bool value_quoted = false;  // a quoted region inside it (@group:"Sales, EU")
  bool is_selector() const { return !quoted && text.starts_with('@'); }
  bool is_arrow() const;
};
// The op's positionals, selectors and arrows in the order written (ParsedOp keeps them apart).
std::vector<OpToken> ordered_tokens(const core::ParsedOp& op);

// ---- references (references.cpp) -----------------------------------------------------------
// The active page's references for the op (references.hpp): errors offer the op corrected.
PageReferences references_of(const OpContext& ctx);
core::Result<std::string> resolve_shape(const OpContext& ctx, std::string_view ref);
core::Result<std::string> resolve_group(const OpContext& ctx, std::string_view ref);
core::Result<std::string> resolve_shape_or_group(const OpContext& ctx, std::string_view ref);
// What an op's target tokens name: each named reference, resolved by `resolve`, united with
// the shapes all its selector tokens choose together on the active page (core's selector
// engine, see selection.hpp). Deduplicated: references in the order written, then the
// selection in document order.
struct Targets {
  std::vector<std::string> ids;
  std::string nothing_matched;  // the selectors matched nothing (references still count)
};
using ReferenceResolver = core::Result<std::string> (*)(const OpContext&, std::string_view);
core::Result<Targets> resolve_targets(const OpContext& ctx, std::span<const OpToken> tokens,
                                      ReferenceResolver resolve);
// Adds the `?` line when the selectors matched nothing; true when nothing is left to change.
bool nothing_to_change(OpContext& ctx, const Targets& targets);

// ---- shared model helpers (common.cpp) ------------------------------------------------------
// The label users see for a cell ("" → its id).
std::string display_name(const DrawioDocument& doc, std::string_view id);
// Absolute bounds of a cell of the active page.
Rect bounds_of(const OpContext& ctx, std::string_view id);
// Sets a cell's absolute top-left (converting to its parent's coordinates) and optionally size.
void place_cell(OpContext& ctx, std::string_view id, double x, double y,
                std::optional<std::pair<double, double>> size = std::nullopt);
// The group (container) a cell sits in, or "".
std::string parent_group(const OpContext& ctx, std::string_view id);
// Shapes and groups directly inside a group.
std::vector<std::string> group_members(const OpContext& ctx, std::string_view group_id);
// Grows/shrinks a group (and the groups around it unless `outer_groups` is false) to fit its
// members with padding, keeping the members where they are on the page. O(members).
void fit_group(OpContext& ctx, std::string_view group_id, bool outer_groups = true);
// fit_group's room round a group's members, px: each side, the top (its label) and the bottom.
constexpr double kGroupPadSide = 40, kGroupPadTop = 50, kGroupPadBottom = 35;
// Grows a group (never shrinks it) to hold the absolute boxes `rects` with fit_group's padding,
// keeping its members where they are on the page; true when it changed. O(1) unless the group
// grows left or up (its members' coordinates then shift).
bool grow_group(OpContext& ctx, const std::string& group_id, std::span<const Rect> rects);
// Moves a group's box from `old` to `box` (absolute) keeping its members where they are on the
// page.
void set_group_box(OpContext& ctx, const std::string& group_id, const Rect& old, const Rect& box);
// A group that grew to hold cells: its absolute box before and after, the cells' names.
struct GroupGrowth {
  std::string group;
  Rect before, after;
  std::vector<std::string> held;
};
// Grows the groups round each of `ids` (and the groups round those) to hold it, as draw.io
// extends a parent to hold a moved child; never shrinks one. Members keep their places on the
// page. Returns the groups that grew, in the order they first grew.
std::vector<GroupGrowth> grow_groups_to_hold(OpContext& ctx, std::span<const std::string> ids);
// The reply's lines for `grown`, as the page is now: "* group NAME grown from WxH to WxH to hold
// X" per group, and a `?` line naming what a grown box now covers that it did not (nothing is
// pushed aside).
// The shapes and groups a group's frame at `box` covers, neither inside it nor round it, that
// `before` (its frame before a change, if any) did not: their ids, a group's rather than its
// members'.
std::vector<std::string> covered_by_group(const OpContext& ctx, const std::string& group,
                                          const Rect& box, std::optional<Rect> before);
// "A, B, C and 2 more": the first `named` names and a count of the rest.
std::string named_list(std::span<const std::string> names, std::size_t named);
std::vector<std::string> growth_lines(const OpContext& ctx, std::span<const GroupGrowth> grown);
// grow_groups_to_hold, then growth_lines.
std::vector<std::string> hold_in_groups(OpContext& ctx, std::span<const std::string> ids);
// Moves every cell in `ids` by (dx, dy), translating the waypoints of edges both of whose ends
// move and dropping those of edges only one end of which moves (they would be stale).
void translate_cells(OpContext& ctx, const std::vector<std::string>& ids, double dx, double dy);
// The parent draw.io gives an edge between `source` and `target`: their nearest common ancestor
// when that is a group or shape (a group holding the other end counts), else `fallback` (a
// layer). Waypoints of an edge are relative to its parent, so such an edge moves with its group.
std::string edge_parent(const OpContext& ctx, const std::string& source, const std::string& target,
                        const std::string& fallback);
// Moves an edge to `parent`, converting its waypoints to the new parent's coordinates.
void move_edge_to(OpContext& ctx, const std::string& edge_id, const std::string& parent);
// Re-parents each edge at a shape of `shapes` (or inside it) whose ends' nearest common ancestor
// changed (group, ungroup), keeping its waypoints where they are on the page.
void reparent_edges_at(OpContext& ctx, const std::vector<std::string>& shapes);
// Removes a shape with its badges and every edge attached to it; returns the removed edges'
// "src->tgt" names for the reply.
std::vector<std::string> remove_shape(OpContext& ctx, std::string_view id);

// ---- placement (placement.cpp) -------------------------------------------------------------
// Where `add` puts a new w×h shape whose parent will be `parent` (a layer or a group): at: as
// written; else beside its reference — near:, else the latest shape (in the group, with a
// group parent), else the group's top or 200,200 — in dir: (default: the page's flow
// direction, below), and when something is within 30 px of that slot, further that way to the
// first free one. `previous`: a numbered copy goes below the copy before it.
struct NewShapePlace {
  double x = 0, y = 0;  // absolute top-left
  std::string note;     // what decided the place, when the op did not say it: for the reply
  data::Direction8 dir = data::Direction8::below;  // the direction it went (groups grow that way)
};
core::Result<NewShapePlace> place_new_shape(const OpContext& ctx, double w, double h,
                                            const std::string& parent, const std::string& previous);
// After `shape_id` went into group `group_id`: the group grows to hold it (fits it when it was
// its first member) and so do the groups around it; what a grown group now covers in its frame
// moves out of its way, in the direction it grew. Returns what moved, for the reply.
std::vector<std::string> make_room(OpContext& ctx, const std::string& group_id,
                                   const std::string& shape_id, bool first_member,
                                   data::Direction8 dir);
// "A, B, … 3 more": cells' one-line names for a reply.
std::string names_of(const OpContext& ctx, const std::vector<std::string>& ids);

// Adds a badge (a small labelled child shown at `position` of the shape); returns its id.
std::string make_badge(OpContext& ctx, const std::string& shape_id, const std::string& text,
                       std::string_view position);

// Re-chooses the automatic ports (faces toward the other end, spread per face) of the edges
// attached to a shape after it moved. Edges with ports the user gave are left alone.
void refresh_ports(OpContext& ctx, const std::string& shape_id);
// Makes an edge's ports automatic again, as connect gives them: its port keys and waypoints go,
// its ends' faces point toward each other (spread with the other automatic edges on them), and
// the edge is no longer one whose ports the user set. When draw.io's route from those ports
// runs through a shape it is laid round the shapes; returns whether it was.
bool give_ports_back(OpContext& ctx, const std::string& edge_id);
// Where connect puts the label of `edge_id`, a labelled edge leaving `source`, along its route
// (draw.io's relative geometry x): the slot of the spread of `source`'s labelled edges (-0.3 …
// 0.3) farthest from its siblings' labels (a tie with `current`, the slot the label has, keeps
// it); nullopt when it is the only labelled edge leaving `source` (the middle, 0) or `source` has
// too many edges to spread.
std::optional<double> label_slot(const OpContext& ctx, const std::string& source,
                                 const std::string& edge_id,
                                 std::optional<double> current = std::nullopt);
// ---- re-routing after a hand move or resize (reroute.cpp) ----------------------------------
// The edges of the active page that have waypoints: taken before an op moves anything, they say
// which edges had routes of their own (translate_cells drops the waypoints that went stale).
std::unordered_set<std::string> edges_with_waypoints(const OpContext& ctx);
// Re-routes the orthogonal edges attached to `moved` (shapes, or groups with their shapes) that
// had waypoints before the op (`routed_before`) or have now, and those with automatic ports
// whose draw.io route now runs through a shape: draw.io's own route when it runs through no
// shape, else one round the shapes in the way (ports and waypoints). Edges with ports the user
// chose and no waypoints are left alone. Returns "~ re-routed N edges of NAME", or "" when none.
std::string reroute_edges(OpContext& ctx, const std::vector<std::string>& moved,
                          const std::unordered_set<std::string>& routed_before,
                          const std::string& name);
// Lanes for edges laid one by one (move/resize/swap re-routes, a pinned layout's edges laid round
// shapes): a run of one of `edges` closer than 10 px beside another edge's run over more than
// 10 px moves sideways a lane (10 px) at a time to the nearest line clear of other edges that
// crosses no more shapes than before (none for a clear route); a run at an end slides its port
// along the side (onto a slanted or round outline with exitPerimeter=0 / entryPerimeter=0).
// Ports the user set stay.
void separate_lanes(OpContext& ctx, const std::vector<std::string>& edges);
// Drops the waypoints of an edge and routes it anew from its ports (exitX/exitY, entryX/entryY;
// a side without one faces the other end) round every other shape, its own ends included
// (layout::route_between_ports): `routed`. An edge whose edgeStyle reads waypoints otherwise
// than as corners (elbow and the other connectors) keeps none and routes itself: `by_style`.
// `no_route` when no route leaves from the ports: the edge keeps no waypoints (draw.io routes
// it from its ports).
enum class EdgeRouteResult { routed, by_style, no_route };
EdgeRouteResult route_edge_around_shapes(OpContext& ctx, const std::string& edge_id);
// Edge ids from `source` to `target` (also target → source when `any_direction`).
std::vector<std::string> edges_between(const OpContext& ctx, const std::string& source,
                                       const std::string& target, bool any_direction);

// The edges an op names as `SRC ARROW TGT` (its first three tokens): every edge from SRC to
// TGT, and from TGT to SRC too unless ARROW is ->. Never empty: with none the error says so and
// offers the op reversed when the edge runs the other way, else the connect that makes it.
struct EdgeReference {
  std::string source, target;
  std::string name;              // "Web->API" as replies write it (the arrow as written)
  std::vector<std::string> ids;  // in the page's index order
  bool selected = false;         // an end is a selector (`Kafka -> @all`)
  // " (2 edges)" when the reference names more than one, else "".
  std::string count_note() const;
  // "Kafka->Dispatch, Kafka->Risk" (the first 20), for replies.
  std::string edge_names(const OpContext& ctx) const;
  // For a selected reference, the reply's line naming every edge it touched ("" otherwise).
  std::string touched_line(const OpContext& ctx) const;
};
core::Result<EdgeReference> resolve_edge_reference(const OpContext& ctx,
                                                   std::span<const OpToken> tokens);
// What restyle_edges changed, as the reply writes it: the keys and flags it set (echo), then what
// that did to the routes (routes_note: ports handed back, waypoints dropped or laid anew; "" when
// no port key was given), which starts with ", " when there is one.
struct EdgeRestyle {
  std::string echo;
  std::string routes_note;
  std::string text() const { return echo + routes_note; }
};
// Applies flags (dashed, curved, …) and key:values to the edges as `style SRC -> TGT` does;
// returns what changed. Port keys fix the edges' ports.
core::Result<EdgeRestyle> restyle_edges(OpContext& ctx, const EdgeReference& edges,
                                        const std::vector<OpToken>& flags,
                                        std::span<const core::Param> params);

// Sets an edge's label text: in its label cell when the label is kept in one, else on the edge.
void set_edge_label(OpContext& ctx, const std::string& edge_id, std::string_view text);

// A layer's display name: its label, "Default" for an unnamed first layer, else Layer-{id}.
std::string layer_name(const Page& page, const Cell& layer);

// The value to store for label text on `cell`: HTML-escaped (newlines as <br>) when the cell
// has html=1, verbatim otherwise.
std::string stored_label(const Cell& cell, std::string_view text);

// The exit:/entry: value that hands an end's port back to fcp (style, modify on edges).
inline constexpr std::string_view kAutomaticPort = "auto";
// An exit:/entry: value (top|bottom|left|right[@0..1]) as draw.io's relative port x,y; an
// error offers `op` (the op as written) with the value corrected.
core::Result<std::pair<double, double>> port_position(std::string_view text, std::string_view param,
                                                      std::string_view op);

// Parsers for param values; errors name the param and the accepted form.
core::Result<std::pair<double, double>> parse_xy(std::string_view text, std::string_view param);
core::Result<std::pair<double, double>> parse_size(std::string_view text);
core::Result<double> parse_number(std::string_view text, std::string_view param);
core::Result<std::string> parse_color_param(const OpContext& ctx, std::string_view text,
                                            std::string_view param);
// True for true/1/yes/on, false for false/0/no/off, error otherwise.
core::Result<bool> parse_bool(std::string_view text, std::string_view param);
// A value for the draw.io style key `key` as it is written into the style: checked where
// draw.io reads a number, a flag or one of a few words (data::style_value_rule), flags as 0/1
// (true, yes, on → 1), other keys as written; "" (removes the key) as is. Errors offer the op
// corrected (exitX:top → exit:top, edgeStyle:elbow → edgeStyle:elbowEdgeStyle).
core::Result<std::string> drawio_style_value(const OpContext& ctx, std::string_view key,
                                             std::string_view value);

// The 9 region cells over the page content (or an 800x600 canvas): top-left of a w×h box
// centred in region (row, col).
std::pair<double, double> region_position(const OpContext& ctx, int row, int col, double width,
                                          double height, std::string_view exclude_id = {});

// Theme colours by name (built-in or custom); nullopt when unknown.
struct ThemeColors {
  std::string name, fill, stroke, font_color;
};
std::optional<ThemeColors> find_theme_colors(const DrawioDocument& doc, std::string_view name);
core::Result<ThemeColors> require_theme(const OpContext& ctx, std::string_view name);
void apply_theme(Style& style, const ThemeColors& theme);
// The theme `add` gives a shape when the op names none.
inline constexpr std::string_view kDefaultTheme = "blue";
// Which members a theme given to a group colours (members:): `plain` — those that follow the
// group (no fill of their own, add's default colours, or the group's colours from an earlier
// theme), `all`, or `none` (the container only). Shapes in nested groups count as members.
enum class MemberColoring : std::uint8_t { plain, all, none };
core::Result<MemberColoring> member_coloring(const OpContext& ctx);
// Gives a group's container and the members `which` chooses the theme's colours; returns what
// was coloured and what was kept, for a detail line of the reply.
std::string theme_group(OpContext& ctx, const std::string& group_id, const ThemeColors& theme,
                        MemberColoring which);
// Detail lines for theme: given to @group:NAME selectors among `targets`: the selector stands for
// the group's members, so the container is not coloured (the reply says so).
std::vector<std::string> member_theme_notes(const OpContext& ctx, std::span<const OpToken> targets);
// The theme a style's fill matches (built-in or custom), or "".
std::string theme_name_of(const DrawioDocument& doc, const Cell& cell);

// Reply fragments. `one_line`: text for one reply line, a line break written as \n.
std::string one_line(std::string_view text);
std::string format_xy(double x, double y);
// "svc Auth @(200,200 140x60) blue": a shape as add, copy and repeat report it.
std::string shape_text(const DrawioDocument& doc, const Page& page, const Cell& cell);

// ---- handlers -------------------------------------------------------------------------------
core::Result<void> verb_add(OpContext& ctx);
core::Result<void> verb_remove(OpContext& ctx);
core::Result<void> verb_define(OpContext& ctx);
core::Result<void> verb_connect(OpContext& ctx);
core::Result<void> verb_disconnect(OpContext& ctx);
core::Result<void> verb_style(OpContext& ctx);
core::Result<void> verb_label(OpContext& ctx);
core::Result<void> verb_badge(OpContext& ctx);
core::Result<void> verb_move(OpContext& ctx);
core::Result<void> verb_resize(OpContext& ctx);
core::Result<void> verb_swap(OpContext& ctx);
core::Result<void> verb_align(OpContext& ctx);
core::Result<void> verb_distribute(OpContext& ctx);
core::Result<void> verb_layout(OpContext& ctx);
core::Result<void> verb_orient(OpContext& ctx);
core::Result<void> verb_group(OpContext& ctx);
core::Result<void> verb_ungroup(OpContext& ctx);
core::Result<void> verb_page(OpContext& ctx);
core::Result<void> verb_layer(OpContext& ctx);
core::Result<void> verb_title(OpContext& ctx);
core::Result<void> verb_load(OpContext& ctx);
core::Result<void> verb_export(OpContext& ctx);
core::Result<void> verb_modify(OpContext& ctx);
core::Result<void> verb_copy(OpContext& ctx);
core::Result<void> verb_repeat(OpContext& ctx);

}  // namespace fcp::drawio
