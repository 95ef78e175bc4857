// Where `add` puts a shape when the op gives no at:: beside its reference (near:, else the latest
// shape, in its group with in:) in dir: or the page's flow direction, or further that way when
// something is there. Every lookup goes through the page's FrameGrid, so one placement costs
// what lies near the slot, not the size of the page.
#include "domains/drawio/verbs/placement.hpp"

#include <algorithm>
#include <cmath>

#include "domains/drawio/data/regions.hpp"
#include "domains/drawio/labels.hpp"

namespace fcp::drawio {
namespace placement {

Sweep sweep_of(data::Direction8 dir) {
  switch (dir) {
    case data::Direction8::left:
      return Sweep::left;
    case data::Direction8::right:
      return Sweep::right;
    case data::Direction8::above:
    case data::Direction8::above_left:
    case data::Direction8::above_right:
      return Sweep::up;
    default:
      return Sweep::down;
  }
}

std::string frame_of_parent(const OpContext& ctx, std::string_view parent) {
  const CellKind kind = ctx.index().kind(parent);
  return kind == CellKind::group || kind == CellKind::shape ? std::string(parent) : std::string();
}

std::pair<double, double> frame_origin(const OpContext& ctx, const std::string& frame) {
  return frame.empty() ? std::pair{0.0, 0.0} : child_origin(ctx.page(), frame);
}

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

}  // namespace placement

namespace {

using data::Direction8;
using placement::frame_of_parent;
using placement::frame_origin;
using placement::kClearance;
using placement::kGap;
using placement::kMaxDepth;
using placement::one_line_name;
using placement::Sweep;
using placement::sweep_of;

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

// The page's flow (set by orient or layout, else read from its edges) as the direction new
// shapes go: TB below, LR right, BT above, RL left.
Direction8 flow_direction(const OpContext& ctx) {
  const std::string flow = ctx.doc.page_flow(ctx.edit.page_index());
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
// The slot `add` tries first when no at: is given: its top-left, how a reply names it, and
// whether near: named it.
struct FirstSlot {
  std::pair<double, double> start{200.0, 200.0};
  std::string where;
  bool named = false;
};

core::Result<FirstSlot> first_slot(const OpContext& ctx, const std::string& parent, Direction8 dir,
                                   double w, double h) {
  FirstSlot first;
  if (const std::string* near = ctx.op.param("near")) {
    auto ref = resolve_shape_or_group(ctx, *near);
    if (!ref) return ref.error();
    first.start = beside(bounds_of(ctx, *ref), dir, w, h);
    first.where = side_text(dir) + " " + one_line_name(ctx, *ref);
    first.named = true;
    return first;
  }
  const bool in_group = ctx.index().kind(parent) == CellKind::group;
  const std::string anchor =
      in_group ? ctx.index().latest_shape_in(parent) : ctx.index().latest_shape();
  if (!anchor.empty()) {
    first.start = beside(bounds_of(ctx, anchor), dir, w, h);
    // The anchor is the latest shape of the group given by in:, not of the page: say so.
    first.where = side_text(dir) + " " + one_line_name(ctx, anchor) + ", the latest shape" +
                  (in_group ? " in " + one_line_name(ctx, parent) : std::string());
  } else if (in_group) {
    const Rect g = bounds_of(ctx, parent);
    first.start = {g.x + 40, g.y + 50};
    first.where = "at the top of " + one_line_name(ctx, parent);
  } else {
    first.where = "at 200,200, the first shape's default";
  }
  return first;
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
  auto first = first_slot(ctx, parent, *dir, w, h);
  if (!first) return first.error();
  const auto& [start, where, named] = *first;
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

std::string names_of(const OpContext& ctx, const std::vector<std::string>& ids) {
  constexpr std::size_t kMaxNames = 8;
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < kMaxNames; ++i)
    out += (i > 0 ? ", " : "") + one_line_name(ctx, ids[i]);
  if (ids.size() > kMaxNames) out += ", … " + std::to_string(ids.size() - kMaxNames) + " more";
  return out;
}

}  // namespace fcp::drawio
