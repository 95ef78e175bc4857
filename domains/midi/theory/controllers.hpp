// MIDI control-change numbers: names ⇄ CC numbers 0..127.
#pragma once

#include <span>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace fcp::midi::theory {

// A CC name (case-insensitive; ' ' and '_' read as '-', so "Soft Pedal" works), an alias
// (mod, modwheel, vol, sustain-pedal, damper, cutoff, …), or a raw number: "cc:N", "ccN" or "N",
// N in 0..127. The reference's 26 names are all here with the same numbers.
core::Result<int> parse_controller(std::string_view text);

// The canonical name of a CC number ("volume" for 7), "" when it has none.
std::string_view controller_name(int cc);

// The canonical names with their numbers, in CC order (for help).
std::span<const std::pair<std::string_view, int>> controller_names();

}  // namespace fcp::midi::theory
