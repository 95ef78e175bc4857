// Note velocities: dynamic markings (ppp … fff) and numbers 1..127.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace fcp::midi::theory {

// The reference values: ppp 16, pp 33, p 49, mp 64, mf 80, f 96, ff 112, fff 127.
// Case-insensitive ("MF"); nullopt for anything else.
std::optional<int> velocity_by_name(std::string_view name);

// A dynamic name or a number 1..127. 0 is refused: it would make a silent note (a note-off).
core::Result<int> parse_velocity(std::string_view text);

// The dynamic names with their values, softest first (for help).
std::span<const std::pair<std::string_view, int>> velocity_names();

}  // namespace fcp::midi::theory
