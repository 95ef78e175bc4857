// Placement vocabulary: the 8 directions of near:/dir: and the 9 named regions of at:/to:.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>

namespace fcp::drawio::data {

enum class Direction8 {
  below,
  above,
  left,
  right,
  below_right,
  below_left,
  above_right,
  above_left
};

// A direction name ("below", "above-left", ...), ignoring ASCII case and accepting '_' for '-';
// aliases: down/bottom = below, up/top = above, and down-/bottom-/up-/top- compounds (e.g.
// "down-right"). nullopt if not a direction.
std::optional<Direction8> parse_direction(std::string_view text);

// The canonical name of a direction: "below", "above-left", ...
std::string_view direction_name(Direction8 direction);

// The canonical names of all 8 directions, in enum order.
std::span<const std::string_view> direction_names();

// The 9 regions: top-left top-center top-right middle-left center middle-right bottom-left
// bottom-center bottom-right.
std::span<const std::string_view> region_names();

// Row and column (0..2, top-left is {0,0}, center {1,1}) of a region name, ignoring ASCII case and
// accepting "middle-center"/"middle"; nullopt if not a region.
std::optional<std::pair<int, int>> parse_region(std::string_view name);

}  // namespace fcp::drawio::data
