// Bars as durations: how long N bars are from a position, by the meter in force there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/midi/theory/meter.hpp"

namespace fcp::midi::theory {

// The ticks of a bar duration starting at `start`, or nullopt when `text` is not one. Forms
// (case-insensitive; '_' reads as '-'): bar, 1bar, Nbars, N-bars, half-bar (also measure,
// Nmeasures). N bars from a bar line last to the bar line N bars on, whatever signatures those
// bars have; from inside a bar they end at the same offset N bars on (at most at the end of that
// bar). A half bar is half the bar `start` is in. Errors: N outside 1..10000, a half bar that is
// not a whole number of ticks, more than 2^32-1 ticks.
std::optional<core::Result<std::uint32_t>> parse_bar_duration(std::string_view text,
                                                              const MeterMap& meter,
                                                              std::uint64_t start);

// "bar", "2bars", "half-bar" when `ticks` from `start` is such a duration; nullopt otherwise.
std::optional<std::string> bar_duration_name(std::uint32_t ticks, const MeterMap& meter,
                                             std::uint64_t start);

}  // namespace fcp::midi::theory
