// Where `add` puts a shape when the op gives no at:: beside its reference (near:, else the latest
// shape, in its group with in:) in dir: or the page's flow direction, or further that way when
// something is there; and the room a group makes when a new member makes it grow. Every lookup
// goes through the page's FrameGrid, so one placement costs what lies near the slot, not the page.
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "domains/drawio/data/regions.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

using data::Direction8;

constexpr double kGap = 60;        // between a shape and the one it is placed beside
constexpr double kClearance = 30;  // a slot is free when nothing comes closer than this
constexpr int kMaxDepth = 64;

// The axis a slot search moves along: a diagonal goes down or up.
enum class Sweep : std::uint8_t { down, up, left, right };

Sweep sweep_of(Direction8 dir) {
  switch (dir) {
    case Direction8::left:
      return Sweep::left;
    case Direction8::right:
      return Sweep::right;
    case Direction8::above:
    case Direction8::above_left:
    case Direction8::above_right:
      return Sweep::up;
    default:
      return Sweep::down;
  }
}

std::string_view further(Sweep sweep) {
  switch (sweep) {
    case Sweep::up:
      return "further up";
    case Sweep::left:
      return "further left";
    case Sweep::right:
      return "further right";
    case Sweep::down:
      break;
  }
  return "further down";
}

// "below", "right of", "above-left of": a direction as a reply puts it before a name.
std::string side_text(Direction8 dir) {
  std::string side(data::direction_name(dir));
  if (dir != Direction8::below && dir != Direction8::above) side += " of";
  return side;
}

// The top-left for a new w×h shape next to `ref` in direction `dir`.
std::pair<double, double> beside(const Rect& ref, Direction8 dir, double w, double h) {
  switch (dir) {
    case Direction8::above:
      return {ref.center_x() - w / 2, ref.y - kGap - h};
    case Direction8::left:
      return {ref.x - kGap - w, ref.center_y() - h / 2};
    case Direction8::right:
      return {ref.right() + kGap, ref.center_y() - h / 2};
    case Direction8::below_right:
      return {ref.right() + kGap, ref.bottom() + kGap};
    case Direction8::below_left:
      return {ref.x - kGap - w, ref.bottom() + kGap};
    case Direction8::above_right:
      return {ref.right() + kGap, ref.y - kGap - h};
    case Direction8::above_left:
      return {ref.x - kGap - w, ref.y - kGap - h};
    case Direction8::below:
      break;
  }
  return {ref.center_x() - w / 2, ref.bottom() + kGap};
}

// The page's flow (flowDirection, set by layout) as the direction new shapes go: TB below, LR
// right, BT above, RL left.
Direction8 flow_direction(const OpContext& ctx) {
  const auto flow = ctx.page().diagram_attributes().get("flowDirection");
  if (flow == "LR") return Direction8::right;
  if (flow == "RL") return Direction8::left;
  if (flow == "BT") return Direction8::above;
  return Direction8::below;
}

core::Result<Direction8> direction_param(const OpContext& ctx) {
  const std::string* dir = ctx.op.param("dir");
  if (dir == nullptr) return flow_direction(ctx);
  if (auto parsed = data::parse_direction(*dir)) return *parsed;
  return core::make_error("unknown dir:" + *dir +
                              " — use below, above, left, right, below-right, below-left, "
                              "above-right or above-left",
                          {"dir:below", "dir:right"});
}

// A cell's name for one line of a reply: its label's lines joined, at most 40 characters.
std::string one_line_name(const OpContext& ctx, std::string_view id) {
  std::string name = display_name(ctx.doc, id);
  std::replace(name.begin(), name.end(), '\n', ' ');
  std::replace(name.begin(), name.end(), '\r', ' ');
  std::size_t chars = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if ((static_cast<unsigned char>(name[i]) & 0xC0U) == 0x80U) continue;  // inside a character
    if (++chars > 40) return name.substr(0, i) + "…";
  }
  return name;
}

// The frame (frame_grid.hpp) a new child of `parent` is in: the page unless the parent is a
// group or shape.
std::string frame_of_parent(const OpContext& ctx, std::string_view parent) {
  const CellKind kind = ctx.index().kind(parent);
  return kind == CellKind::group || kind == CellKind::shape ? std::string(parent) : std::string();
}

std::pair<double, double> frame_origin(const OpContext& ctx, const std::string& frame) {
  return frame.empty() ? std::pair{0.0, 0.0} : child_origin(ctx.page(), frame);
}

double overlap_area(const Rect& a, const Rect& b) {
  const double w = std::min(a.right(), b.right()) - std::max(a.x, b.x);
  const double h = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
  return std::max(w, 0.0) * std::max(h, 0.0);
}

struct FreeSlot {
  double x = 0, y = 0;   // absolute top-left
  std::string taken_by;  // what was at the first slot tried ("" when it was free)
};

// A frame a slot must be free in, with its origin on the page.
struct SearchFrame {
  std::string id;
  double x = 0, y = 0;
};

// `frame` and every frame around it, innermost first: a shape in a group must not land on
// what lies over the group either (a shape of the page drawn on a container it is not in).
std::vector<SearchFrame> frames_around(const OpContext& ctx, const std::string& frame) {
  std::vector<SearchFrame> out;
  std::string current = frame;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    const auto [x, y] = frame_origin(ctx, current);
    out.push_back({current, x, y});
    if (current.empty()) break;
    const Cell* cell = ctx.page().find(current);
    current = frame_of_parent(ctx, cell != nullptr && cell->parent ? *cell->parent : "");
  }
  return out;
}

// What lies within kClearance of the absolute box `r` in any of `frames`, in page coordinates.
std::vector<std::pair<std::string, Rect>> blockers_of(const OpContext& ctx,
                                                      const std::vector<SearchFrame>& frames,
                                                      const Rect& r) {
  std::vector<std::pair<std::string, Rect>> out;
  const FrameGrid& grid = ctx.index().grid();
  for (std::size_t level = 0; level < frames.size(); ++level) {
    const SearchFrame& frame = frames[level];
    const Rect local{r.x - frame.x, r.y - frame.y, r.width, r.height};
    // Around the slot's own frame only what lies over its container counts: what lies beside
    // the container is moved aside when the container grows.
    const FrameGrid::Item* holder = level > 0 ? grid.find(frames[level - 1].id) : nullptr;
    for (const auto* item : grid.near(frame.id, local, kClearance)) {
      if (level > 0 &&
          (holder == nullptr || item->id == holder->id || !item->rect.overlaps(holder->rect)))
        continue;
      const Rect& b = item->rect;
      out.emplace_back(item->id, Rect{b.x + frame.x, b.y + frame.y, b.width, b.height});
    }
  }
  // Shapes that reach outside their containers lie where no frame above says; they are few.
  for (const auto& id : grid.sticking_out()) {
    const Rect b = bounds_of(ctx, id);
    const bool holder =
        std::any_of(frames.begin(), frames.end(), [&](const SearchFrame& f) { return f.id == id; });
    if (!holder && b.overlaps(r, kClearance)) out.emplace_back(id, b);
  }
  return out;
}

// The first free slot for a w×h box in `frame` from the absolute top-left (x, y), jumping past
// whatever is there in the direction of `sweep` (each jump passes at least one item, so this
// ends within the page's item count).
FreeSlot first_free_slot(const OpContext& ctx, const std::string& frame, double x, double y,
                         double w, double h, Sweep sweep) {
  const auto frames = frames_around(ctx, frame);
  Rect r{std::round(x), std::round(y), w, h};
  FreeSlot slot;
  for (std::size_t step = 0; step <= ctx.index().grid().size(); ++step) {
    const auto blockers = blockers_of(ctx, frames, r);
    if (blockers.empty()) break;
    if (step == 0) {
      const auto* first = &blockers.front();
      for (const auto& item : blockers) {
        const double area = overlap_area(item.second, r), best = overlap_area(first->second, r);
        if (area > best || (area == best && item.first < first->first)) first = &item;
      }
      slot.taken_by = first->first;
    }
    double edge = 0;
    bool seen = false;
    for (const auto& [id, b] : blockers) {
      const double value = sweep == Sweep::down    ? b.bottom()
                           : sweep == Sweep::up    ? b.y
                           : sweep == Sweep::right ? b.right()
                                                   : b.x;
      const bool ahead =
          sweep == Sweep::down || sweep == Sweep::right ? value > edge : value < edge;
      if (!seen || ahead) edge = value;
      seen = true;
    }
    switch (sweep) {
      case Sweep::down:
        r.y = edge + kGap;
        break;
      case Sweep::up:
        r.y = edge - kGap - h;
        break;
      case Sweep::right:
        r.x = edge + kGap;
        break;
      case Sweep::left:
        r.x = edge - kGap - w;
        break;
    }
  }
  slot.x = r.x;
  slot.y = r.y;
  return slot;
}

// "placed `where`" or, when that slot was taken, what was there and where the shape went.
std::string slot_note(const OpContext& ctx, const std::string& where, const FreeSlot& slot,
                      Sweep sweep) {
  if (slot.taken_by.empty()) return "placed " + where;
  const bool group = ctx.index().kind(slot.taken_by) == CellKind::group;
  // "below A, the latest shape" takes a closing comma before what follows.
  const std::string closed = where.find(", ") != std::string::npos ? where + "," : where;
  return "the slot " + closed + " is taken by " + (group ? "group " : "") +
         one_line_name(ctx, slot.taken_by) + ": placed " + std::string(further(sweep));
}

// What a unit (a shape or group of a frame) is pushed by, and which way.
struct Push {
  std::string id;
  Rect before, after;  // frame coordinates
  Sweep sweep;
  std::size_t batch;  // the units one push moved together share it
};

// The side of `from` that `item` lies on, preferring `preferred`.
std::optional<Sweep> side_of(const Rect& item, const Rect& from, Sweep preferred) {
  auto lies = [&](Sweep side) {
    switch (side) {
      case Sweep::down:
        return item.y >= from.bottom();
      case Sweep::up:
        return item.bottom() <= from.y;
      case Sweep::right:
        return item.x >= from.right();
      case Sweep::left:
        return item.right() <= from.x;
    }
    return false;
  };
  if (lies(preferred)) return preferred;
  for (Sweep side : {Sweep::down, Sweep::right, Sweep::left, Sweep::up}) {
    if (lies(side)) return side;
  }
  return std::nullopt;
}

// `rect` (a unit's box in its frame) with the parts of its children that reach outside it.
Rect reach_of(const OpContext& ctx, const std::string& id, const Rect& rect, int depth = 0) {
  Rect reach = rect;
  if (depth >= kMaxDepth) return reach;
  for (const auto& child : ctx.index().grid().sticking_out_of(id)) {
    const FrameGrid::Item* item = ctx.index().grid().find(child);
    if (item == nullptr) continue;
    const Rect& c = item->rect;
    reach = reach.united(
        reach_of(ctx, child, Rect{c.x + rect.x, c.y + rect.y, c.width, c.height}, depth + 1));
  }
  return reach;
}

// The move that takes `item` just clear of `pusher` in direction `sweep`.
std::pair<double, double> clearing_move(const Rect& item, const Rect& pusher, Sweep sweep) {
  switch (sweep) {
    case Sweep::down:
      return {0, pusher.bottom() + kClearance - item.y};
    case Sweep::up:
      return {0, pusher.y - kClearance - item.bottom()};
    case Sweep::right:
      return {pusher.right() + kClearance - item.x, 0};
    case Sweep::left:
      return {pusher.x - kClearance - item.right(), 0};
  }
  return {0, 0};
}

// The parts of `a` outside `b`: up to four boxes.
std::vector<Rect> outside(const Rect& a, const Rect& b) {
  if (!a.overlaps(b)) return {a};
  std::vector<Rect> parts;
  const double top = std::max(a.y, b.y), bottom = std::min(a.bottom(), b.bottom());
  if (a.y < b.y) parts.push_back({a.x, a.y, a.width, b.y - a.y});
  if (a.bottom() > b.bottom()) parts.push_back({a.x, b.bottom(), a.width, a.bottom() - b.bottom()});
  if (a.x < b.x) parts.push_back({a.x, top, b.x - a.x, bottom - top});
  if (a.right() > b.right()) parts.push_back({b.right(), top, a.right() - b.right(), bottom - top});
  return parts;
}

Rect widened(const Rect& r, double by) {
  return {r.x - by, r.y - by, r.width + 2 * by, r.height + 2 * by};
}

struct FrameUnit {
  std::string id;
  Rect rect;
};

// The units of `frame` that overlap `after` and not `before`, or come within kClearance of
// `after` and not of `before` (and some more): only the strips a box gained are searched, so a
// tall group that grows by one row costs that row, not its height. Copies: moving units
// changes the grid.
std::vector<FrameUnit> newly_near(const OpContext& ctx, const std::string& frame,
                                  const Rect& before, const Rect& after) {
  // What comes to overlap reaches into after \ before; what comes near, into the same strips
  // widened by the clearance.
  std::vector<Rect> strips = outside(after, before);
  for (const Rect& strip : outside(widened(after, kClearance), widened(before, kClearance)))
    strips.push_back(strip);
  std::vector<FrameUnit> out;
  for (const Rect& strip : strips) {
    for (const auto* item : ctx.index().grid().near(frame, strip, 0))
      out.push_back({item->id, item->rect});
  }
  std::sort(out.begin(), out.end(),
            [](const FrameUnit& a, const FrameUnit& b) { return a.id < b.id; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const FrameUnit& a, const FrameUnit& b) { return a.id == b.id; }),
            out.end());
  return out;
}

// Moves the units of `frame` that `grown` now covers out of its way, and then what those cover
// in turn, each in the direction it was pushed. The group moves what its growth made overlap it
// or come within kClearance of it; what overlapped it before stays as it was. The units one
// push hits move together, by the largest distance any of them needs, so they keep their
// places among themselves. Returns the units moved, in the order moved.
std::vector<std::string> push_aside(OpContext& ctx, const std::string& frame,
                                    const std::string& grown, const Rect& before, const Rect& after,
                                    Sweep preferred) {
  const auto [ox, oy] = frame_origin(ctx, frame);
  const auto to_frame = [&, ox = ox, oy = oy](const Rect& r) {
    return Rect{r.x - ox, r.y - oy, r.width, r.height};
  };
  std::vector<Push> queue{{grown, to_frame(before), to_frame(after), preferred, 0}};
  std::unordered_map<std::string, std::size_t> batch_of;  // the push that moved a unit last
  std::unordered_map<std::string, Rect> waiting;  // pushed units not followed yet: first rect
  std::vector<std::string> moved;
  // Every push moves its units on, away from the group; the budget guards against the
  // pathological.
  const std::size_t budget = 16 * ctx.index().grid().size() + 64;
  std::size_t batches = 0;
  for (std::size_t next = 0; next < queue.size() && next < budget; ++next) {
    const Push pusher = queue[next];
    if (next > 0) {  // a unit pushed again since: its later push is further on in the queue
      const FrameGrid::Item* now = ctx.index().grid().find(pusher.id);
      if (now == nullptr || !(now->rect == pusher.after)) continue;
      waiting.erase(pusher.id);
    }
    std::map<Sweep, std::vector<std::pair<std::string, Rect>>> hit;
    for (const auto& item : newly_near(ctx, frame, pusher.before, pusher.after)) {
      if (item.id == pusher.id || item.id == grown) continue;
      const bool overlapping = item.rect.overlaps(pusher.after);
      if (next == 0) {
        if (overlapping ? item.rect.overlaps(pusher.before)
                        : item.rect.overlaps(pusher.before, kClearance))
          continue;
        hit[side_of(item.rect, pusher.before, preferred).value_or(preferred)].emplace_back(
            item.id, item.rect);
        continue;
      }
      // A moved unit moves what it lies on, and what it came near that was not near before and
      // did not move with it.
      if (!overlapping) {
        auto it = batch_of.find(item.id);
        if (it != batch_of.end() && it->second == pusher.batch) continue;
        if (item.rect.overlaps(pusher.before, kClearance)) continue;
      }
      hit[pusher.sweep].emplace_back(item.id, item.rect);
    }
    for (auto& [sweep, units] : hit) {
      double dx = 0, dy = 0;
      for (const auto& [id, rect] : units) {
        // Children drawn outside the unit move with it: they clear the pusher too.
        const auto [mx, my] = clearing_move(reach_of(ctx, id, rect), pusher.after, sweep);
        if (std::abs(mx) > std::abs(dx)) dx = mx;
        if (std::abs(my) > std::abs(dy)) dy = my;
      }
      std::sort(units.begin(), units.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<std::string> ids;
      for (const auto& unit : units)
        ids.push_back(unit.first);
      translate_cells(ctx, ids, dx, dy);
      const std::size_t batch = ++batches;
      for (const auto& [id, rect] : units) {
        refresh_ports(ctx, id);
        const FrameGrid::Item* now = ctx.index().grid().find(id);
        if (now == nullptr) continue;
        // A unit pushed again before its push was followed searches from where it was first.
        const Rect from = waiting.try_emplace(id, rect).first->second;
        queue.push_back({id, from, now->rect, sweep, batch});
        if (batch_of.insert_or_assign(id, batch).second) moved.push_back(id);
      }
    }
  }
  return moved;
}

}  // namespace

core::Result<NewShapePlace> place_new_shape(const OpContext& ctx, double w, double h,
                                            const std::string& parent,
                                            const std::string& previous) {
  NewShapePlace place;
  auto dir = direction_param(ctx);
  if (!dir) return dir.error();
  place.dir = *dir;
  const std::string frame = frame_of_parent(ctx, parent);
  if (!previous.empty()) {  // a numbered copy: below the one before
    const auto [x, y] = beside(bounds_of(ctx, previous), Direction8::below, w, h);
    const FreeSlot slot = first_free_slot(ctx, frame, x, y, w, h, Sweep::down);
    place.x = slot.x;
    place.y = slot.y;
    if (!slot.taken_by.empty())
      place.note = slot_note(ctx, "below " + one_line_name(ctx, previous), slot, Sweep::down);
    return place;
  }
  if (const std::string* at = ctx.op.param("at")) {
    place.forced = true;
    if (auto region = data::parse_region(*at)) {
      std::tie(place.x, place.y) = region_position(ctx, region->first, region->second, w, h);
      return place;
    }
    auto xy = parse_xy(*at, "at");
    if (!xy) return xy.error();
    std::tie(place.x, place.y) = *xy;
    return place;
  }
  const Sweep sweep = sweep_of(*dir);
  std::string where;  // the slot the op's words or the defaults chose, for the reply
  std::pair<double, double> start{200.0, 200.0};
  bool named = false;  // near: named the reference
  if (const std::string* near = ctx.op.param("near")) {
    auto ref = resolve_shape_or_group(ctx, *near);
    if (!ref) return ref.error();
    start = beside(bounds_of(ctx, *ref), *dir, w, h);
    where = side_text(*dir) + " " + one_line_name(ctx, *ref);
    named = true;
  } else {
    const bool in_group = ctx.index().kind(parent) == CellKind::group;
    const std::string anchor =
        in_group ? ctx.index().latest_shape_in(parent) : ctx.index().latest_shape();
    if (!anchor.empty()) {
      start = beside(bounds_of(ctx, anchor), *dir, w, h);
      where = side_text(*dir) + " " + one_line_name(ctx, anchor) + ", the latest shape";
    } else if (in_group) {
      const Rect g = bounds_of(ctx, parent);
      start = {g.x + 40, g.y + 50};
      where = "at the top of " + one_line_name(ctx, parent);
    } else {
      where = "at 200,200, the first shape's default";
    }
  }
  const FreeSlot slot = first_free_slot(ctx, frame, start.first, start.second, w, h, sweep);
  place.x = slot.x;
  place.y = slot.y;
  if (!named) {
    place.note = "no at:/near: given: " + slot_note(ctx, where, slot, sweep);
  } else if (!slot.taken_by.empty()) {
    place.note = slot_note(ctx, where, slot, sweep);
  }
  return place;
}

std::vector<std::string> make_room(OpContext& ctx, const std::string& group_id,
                                   const std::string& shape_id, bool first_member,
                                   data::Direction8 dir) {
  std::vector<std::string> moved;
  std::vector<Rect> hold{bounds_of(ctx, shape_id)};
  std::string current = group_id;
  for (int depth = 0; depth < kMaxDepth && !current.empty(); ++depth) {
    const Rect before = bounds_of(ctx, current);
    if (first_member && depth == 0) {
      fit_group(ctx, current, false);
    } else {
      grow_group(ctx, current, hold);
    }
    const Rect after = bounds_of(ctx, current);
    if (after == before) break;
    const Cell* cell = ctx.page().find(current);
    const std::string frame = frame_of_parent(ctx, cell && cell->parent ? *cell->parent : "");
    const auto pushed = push_aside(ctx, frame, current, before, after, sweep_of(dir));
    hold = {after};
    for (const auto& id : pushed) {
      hold.push_back(bounds_of(ctx, id));
      if (std::find(moved.begin(), moved.end(), id) == moved.end()) moved.push_back(id);
    }
    current = ctx.index().kind(frame) == CellKind::group ? frame : std::string();
  }
  return moved;
}

std::string names_of(const OpContext& ctx, const std::vector<std::string>& ids) {
  constexpr std::size_t kMaxNames = 8;
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < kMaxNames; ++i)
    out += (i > 0 ? ", " : "") + one_line_name(ctx, ids[i]);
  if (ids.size() > kMaxNames) out += ", … " + std::to_string(ids.size() - kMaxNames) + " more";
  return out;
}

}  // namespace fcp::drawio
