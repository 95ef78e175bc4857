// What the slot search of `add` (placement.cpp) and the room a growing group makes
// (group_room.cpp) share: the gaps they keep, the axis they move along, frames and names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "domains/drawio/data/regions.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio::placement {

inline constexpr double kGap = 60;        // between a shape and the one it is placed beside
inline constexpr double kClearance = 30;  // a slot is free when nothing comes closer than this
inline constexpr int kMaxDepth = 64;      // containers nested deeper are not followed

// The axis a slot search or a push moves along: a diagonal direction goes down or up.
enum class Sweep : std::uint8_t { down, up, left, right };
Sweep sweep_of(data::Direction8 dir);

// The frame (frame_grid.hpp) the children of `parent` are in: the page ("") unless the parent
// is a group or a shape.
std::string frame_of_parent(const OpContext& ctx, std::string_view parent);
// The page coordinates of a frame's origin.
std::pair<double, double> frame_origin(const OpContext& ctx, const std::string& frame);

// A cell's name for one line of a reply: its label's lines joined, at most 40 characters.
std::string one_line_name(const OpContext& ctx, std::string_view id);

}  // namespace fcp::drawio::placement
