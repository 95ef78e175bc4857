// The room a group makes when a new member makes it grow: it and the groups around it grow to
// hold the member, and what a grown group now covers moves out of its way, then what that
// covers in turn. Only the strips a box gained are searched, through the page's FrameGrid.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

#include "domains/drawio/verbs/placement.hpp"

namespace fcp::drawio {
namespace {

using placement::frame_of_parent;
using placement::frame_origin;
using placement::kClearance;
using placement::kMaxDepth;
using placement::Sweep;

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

// A shape or group of a frame, with its box in the frame's coordinates.
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

// Moves the units of one frame out of the way of a grown group, and then what those cover in
// turn, each in the direction it was pushed. The group moves what its growth made overlap it or
// come within kClearance of it; what overlapped it before stays as it was. A moved unit moves
// what it now lies on, and what it came near that was not near before and did not move with
// it. The units one push hits move together, by the largest distance any of them needs, so
// they keep their places among themselves.
class Pushes {
 public:
  Pushes(OpContext& ctx, std::string frame, std::string grown, Sweep preferred)
      : ctx_(ctx), frame_(std::move(frame)), grown_(std::move(grown)), preferred_(preferred) {}

  // `before` and `after`: the grown group's absolute boxes. Returns the units moved, in order.
  std::vector<std::string> run(const Rect& before, const Rect& after) {
    const auto [ox, oy] = frame_origin(ctx_, frame_);
    const Rect from{before.x - ox, before.y - oy, before.width, before.height};
    const Rect to{after.x - ox, after.y - oy, after.width, after.height};
    queue_.push_back({grown_, from, to, preferred_, 0});
    // Every push moves its units on, away from the group; the budget guards against the
    // pathological.
    const std::size_t budget = 16 * ctx_.index().grid().size() + 64;
    for (std::size_t next = 0; next < queue_.size() && next < budget; ++next) {
      const Push pusher = queue_[next];
      if (next > 0) {  // pushed again since: its later push is further on in the queue
        const FrameGrid::Item* now = ctx_.index().grid().find(pusher.id);
        if (now == nullptr || !(now->rect == pusher.after)) continue;
        waiting_.erase(pusher.id);
      }
      for (auto& [sweep, units] : hit_by(pusher, next == 0))
        move(pusher, sweep, units);
    }
    return moved_;
  }

 private:
  struct Push {
    std::string id;
    Rect before, after;  // frame coordinates
    Sweep sweep;
    std::size_t batch;  // the units one push moved together share it
  };

  // What `pusher` moves, by the direction each goes.
  std::map<Sweep, std::vector<FrameUnit>> hit_by(const Push& pusher, bool group) const {
    std::map<Sweep, std::vector<FrameUnit>> hit;
    for (auto& unit : newly_near(ctx_, frame_, pusher.before, pusher.after)) {
      if (unit.id == pusher.id || unit.id == grown_) continue;
      const bool overlapping = unit.rect.overlaps(pusher.after);
      if (group) {
        if (overlapping ? unit.rect.overlaps(pusher.before)
                        : unit.rect.overlaps(pusher.before, kClearance))
          continue;
        const Sweep side = side_of(unit.rect, pusher.before, preferred_).value_or(preferred_);
        hit[side].push_back(std::move(unit));
        continue;
      }
      if (!overlapping) {
        auto it = batch_of_.find(unit.id);
        if (it != batch_of_.end() && it->second == pusher.batch) continue;
        if (unit.rect.overlaps(pusher.before, kClearance)) continue;
      }
      hit[pusher.sweep].push_back(std::move(unit));
    }
    return hit;
  }

  void move(const Push& pusher, Sweep sweep, const std::vector<FrameUnit>& units) {
    double dx = 0, dy = 0;
    std::vector<std::string> ids;
    for (const FrameUnit& unit : units) {
      // Children drawn outside the unit move with it: they clear the pusher too.
      const auto [mx, my] = clearing_move(reach_of(ctx_, unit.id, unit.rect), pusher.after, sweep);
      if (std::abs(mx) > std::abs(dx)) dx = mx;
      if (std::abs(my) > std::abs(dy)) dy = my;
      ids.push_back(unit.id);
    }
    translate_cells(ctx_, ids, dx, dy);
    const std::size_t batch = ++batches_;
    for (const FrameUnit& unit : units) {
      refresh_ports(ctx_, unit.id);
      const FrameGrid::Item* now = ctx_.index().grid().find(unit.id);
      if (now == nullptr) continue;
      // A unit pushed again before its push was followed searches from where it was first.
      const Rect from = waiting_.try_emplace(unit.id, unit.rect).first->second;
      queue_.push_back({unit.id, from, now->rect, sweep, batch});
      if (batch_of_.insert_or_assign(unit.id, batch).second) moved_.push_back(unit.id);
    }
  }

  OpContext& ctx_;
  const std::string frame_, grown_;
  const Sweep preferred_;
  std::vector<Push> queue_;
  std::unordered_map<std::string, std::size_t> batch_of_;  // the push that moved a unit last
  std::unordered_map<std::string, Rect> waiting_;          // pushed, not followed yet: where it was
  std::vector<std::string> moved_;
  std::size_t batches_ = 0;
};

}  // namespace

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
    const auto pushed = Pushes(ctx, frame, current, placement::sweep_of(dir)).run(before, after);
    hold = {after};
    for (const auto& id : pushed) {
      hold.push_back(bounds_of(ctx, id));
      if (std::find(moved.begin(), moved.end(), id) == moved.end()) moved.push_back(id);
    }
    current = ctx.index().kind(frame) == CellKind::group ? frame : std::string();
  }
  return moved;
}

}  // namespace fcp::drawio
