#include "domains/drawio/frame_grid.hpp"

#include <algorithm>
#include <cmath>

namespace fcp::drawio {
namespace {

constexpr double kMaxGrid = 1 << 30;

std::int64_t grid_of(double value, double cell) {
  if (!std::isfinite(value)) return 0;
  return static_cast<std::int64_t>(std::clamp(std::floor(value / cell), -kMaxGrid, kMaxGrid));
}

void remove_one(std::vector<std::uint32_t>& list, std::uint32_t slot) {
  for (std::size_t i = list.size(); i-- > 0;) {
    if (list[i] == slot) {
      list[i] = list.back();
      list.pop_back();
      return;
    }
  }
}

}  // namespace

FrameGrid::Span FrameGrid::span_of(const Rect& rect) {
  return {grid_of(rect.x, kCellSize), grid_of(rect.y, kCellSize), grid_of(rect.right(), kCellSize),
          grid_of(rect.bottom(), kCellSize)};
}

std::uint64_t FrameGrid::key(std::int64_t gx, std::int64_t gy) {
  return (static_cast<std::uint64_t>(gx) << 32) ^ static_cast<std::uint32_t>(gy);
}

void FrameGrid::insert(std::string_view frame, std::string_view id, const Rect& rect,
                       bool sticks_out) {
  erase(id);
  if (sticks_out) sticking_out_[std::string(frame)].emplace(id);
  std::uint32_t slot = 0;
  if (free_.empty()) {
    slot = static_cast<std::uint32_t>(items_.size());
    items_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  Item& item = items_[slot];
  item.id = std::string(id);
  item.frame = std::string(frame);
  item.rect = rect;
  slots_.emplace(item.id, slot);
  Frame& cells = frames_[item.frame];
  const Span span = span_of(rect);
  if (span.cells() > kMaxSpan) {
    cells.big.push_back(slot);
    return;
  }
  for (std::int64_t gx = span.x0; gx <= span.x1; ++gx) {
    for (std::int64_t gy = span.y0; gy <= span.y1; ++gy)
      cells.cells[key(gx, gy)].push_back(slot);
  }
}

void FrameGrid::erase(std::string_view id) {
  auto it = slots_.find(std::string(id));
  if (it == slots_.end()) return;
  const std::uint32_t slot = it->second;
  slots_.erase(it);
  if (auto out =
          sticking_out_.empty() ? sticking_out_.end() : sticking_out_.find(items_[slot].frame);
      out != sticking_out_.end()) {
    out->second.erase(items_[slot].id);
    if (out->second.empty()) sticking_out_.erase(out);
  }
  unlink(slot);
  items_[slot] = Item{};
  free_.push_back(slot);
}

void FrameGrid::unlink(std::uint32_t slot) {
  const Item& item = items_[slot];
  auto frame = frames_.find(item.frame);
  if (frame == frames_.end()) return;
  Frame& cells = frame->second;
  const Span span = span_of(item.rect);
  if (span.cells() > kMaxSpan) {
    remove_one(cells.big, slot);
  } else {
    for (std::int64_t gx = span.x0; gx <= span.x1; ++gx) {
      for (std::int64_t gy = span.y0; gy <= span.y1; ++gy) {
        auto bucket = cells.cells.find(key(gx, gy));
        if (bucket == cells.cells.end()) continue;
        remove_one(bucket->second, slot);
        if (bucket->second.empty()) cells.cells.erase(bucket);
      }
    }
  }
  if (cells.cells.empty() && cells.big.empty()) frames_.erase(frame);
}

std::vector<std::string> FrameGrid::sticking_out() const {
  std::vector<std::string> out;
  if (sticking_out_.empty()) return out;
  for (const auto& [frame, ids] : sticking_out_)
    out.insert(out.end(), ids.begin(), ids.end());
  return out;
}

std::vector<std::string> FrameGrid::sticking_out_of(std::string_view frame) const {
  if (sticking_out_.empty()) return {};
  auto it = sticking_out_.find(std::string(frame));
  if (it == sticking_out_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

void FrameGrid::container_resized(std::string_view frame, double width, double height) {
  if (sticking_out_.empty()) return;
  auto out = sticking_out_.find(std::string(frame));
  if (out == sticking_out_.end()) return;
  std::erase_if(out->second, [&](const std::string& id) {
    const Item* item = find(id);
    if (item == nullptr) return true;
    const Rect& r = item->rect;
    return r.x >= 0 && r.y >= 0 && r.right() <= width && r.bottom() <= height;
  });
  if (out->second.empty()) sticking_out_.erase(out);
}

const FrameGrid::Item* FrameGrid::find(std::string_view id) const {
  auto it = slots_.find(std::string(id));
  return it == slots_.end() ? nullptr : &items_[it->second];
}

std::vector<const FrameGrid::Item*> FrameGrid::near(std::string_view frame_id, const Rect& area,
                                                    double gap) const {
  std::vector<const Item*> out;
  auto frame = frames_.find(std::string(frame_id));
  if (frame == frames_.end()) return out;
  const Frame& cells = frame->second;
  std::vector<std::uint32_t> candidates = cells.big;
  const Rect reach{area.x - gap, area.y - gap, area.width + 2 * gap, area.height + 2 * gap};
  const Span span = span_of(reach);
  if (span.cells() > static_cast<std::int64_t>(cells.cells.size())) {
    // A query larger than the frame's occupied cells: read those instead.
    for (const auto& [cell, slots] : cells.cells)
      candidates.insert(candidates.end(), slots.begin(), slots.end());
  } else {
    for (std::int64_t gx = span.x0; gx <= span.x1; ++gx) {
      for (std::int64_t gy = span.y0; gy <= span.y1; ++gy) {
        auto bucket = cells.cells.find(key(gx, gy));
        if (bucket != cells.cells.end())
          candidates.insert(candidates.end(), bucket->second.begin(), bucket->second.end());
      }
    }
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (std::uint32_t slot : candidates) {
    if (items_[slot].rect.overlaps(area, gap)) out.push_back(&items_[slot]);
  }
  return out;
}

}  // namespace fcp::drawio
