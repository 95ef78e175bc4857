// Song positions ⇄ ticks: bar.beat[.tick], tick:N, relative +DUR/-DUR and end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/midi/theory/meter.hpp"

namespace fcp::midi::theory {

// The tick a position names. Accepted forms:
//   M.B      bar M, beat B (both 1-based); the beat must exist in that bar's signature
//   M.B.T    plus T ticks into the beat, 0 ≤ T < beat length
//   tick:N   an absolute tick, N ≥ 0 (ticks:N is accepted too)
//   +DUR     DUR (any parse_duration form) after `anchor`; -DUR before it, not before tick 0;
//            +0 (+ticks:0) is the anchor itself. Without an anchor this is an error.
//   end      `song_end`
// A bare bar number ("3") is refused with the hints 3.1 and tick:3: a plain number is as likely
// a tick count as a bar, and guessing wrong moves notes far away silently.
core::Result<std::uint64_t> parse_position(std::string_view text, const MeterMap& meter,
                                           std::uint64_t song_end,
                                           std::optional<std::uint64_t> anchor = std::nullopt);

// "3.2" on a beat, "3.2.120" between beats; parse_position(format_position(t)) == t.
std::string format_position(std::uint64_t tick, const MeterMap& meter);

}  // namespace fcp::midi::theory
