// Where the shapes and groups of a page lie, frame by frame, so that placement asks "what is
// near this box?" without scanning the page.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "domains/drawio/rect.hpp"

namespace fcp::drawio {

// A frame is the space a cell's geometry is written in: the page ("") for the cells of a
// layer, else the container (a group, or a shape holding other shapes) whose child it is.
// Items are kept in a uniform grid per frame; an item wider or taller than the grid can hold
// cheaply (a big group) is kept in a short list that every query checks. Insert, erase and a
// query of a shape-sized box cost O(1) expected, whatever the page's size.
// Thread: owned by a PageIndex, touched from the document's strand only.
class FrameGrid {
 public:
  struct Item {
    std::string id;
    std::string frame;
    Rect rect;  // in the frame's coordinates
  };

  // Puts `id` at `rect` in `frame`, replacing where it was. `sticks_out`: the item reaches
  // outside the container that is its frame (files have such children; a box over the
  // container's place may lie on them).
  void insert(std::string_view frame, std::string_view id, const Rect& rect,
              bool sticks_out = false);
  void erase(std::string_view id);
  const Item* find(std::string_view id) const;
  // The items of `frame` that come closer than `gap` to `area` (Rect::overlaps), each once, in
  // no particular order. The pointers are valid until the grid changes.
  std::vector<const Item*> near(std::string_view frame, const Rect& area, double gap) const;
  std::size_t size() const { return slots_.size(); }
  // The items that reach outside their container, in no particular order; those of one
  // container (`frame`).
  std::vector<std::string> sticking_out() const;
  std::vector<std::string> sticking_out_of(std::string_view frame) const;
  // The container `frame` is now `width`×`height`: which of its items still reach outside it.
  void container_resized(std::string_view frame, double width, double height);

 private:
  static constexpr double kCellSize = 160;  // px: a shape and its gaps cover a few cells
  static constexpr std::int64_t kMaxSpan = 64;
  struct Span {
    std::int64_t x0, y0, x1, y1;
    std::int64_t cells() const { return (x1 - x0 + 1) * (y1 - y0 + 1); }
  };
  struct Frame {
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells;
    std::vector<std::uint32_t> big;
  };

  static Span span_of(const Rect& rect);
  static std::uint64_t key(std::int64_t gx, std::int64_t gy);
  void unlink(std::uint32_t slot);

  std::vector<Item> items_;  // by slot; freed slots are reused
  std::vector<std::uint32_t> free_;
  std::unordered_map<std::string, std::uint32_t> slots_;  // id -> slot
  std::unordered_map<std::string, Frame> frames_;
  std::unordered_map<std::string, std::unordered_set<std::string>> sticking_out_;  // by frame
};

}  // namespace fcp::drawio
