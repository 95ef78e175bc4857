// Note durations ⇄ ticks: note-value names, dots, tuplets, fractions of a whole note and raw ticks.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::midi::theory {

// Ticks for a duration at `ppqn` ticks per quarter note (a whole note is 4*ppqn ticks).
// Case-insensitive; '_' reads as '-'. The accepted forms:
//   note values  whole half quarter eighth sixteenth 32nd 64th (also 8th 16th thirty-second
//                sixty-fourth, and semibreve minim crotchet quaver semiquaver demisemiquaver
//                hemidemisemiquaver), letters w h q e s, and 1n 2n 4n 8n 16n 32n 64n
//   dots         dotted-X or X. (×3/2); double-dotted-X or X.. (×7/4)   "dotted-quarter" "4n.."
//   triplets     triplet-X, X-triplet, or Nt for Nn (×2/3)     "triplet-eighth" "eighth-triplet"
//   "8t" tuplets      X/N plays N notes in the time of M, M the largest power of two below N:
//                "8n/5" is a quintuplet eighth (5 in the time of 4), "q/7" 7 in the time of 4;
//                X/N:M gives the ratio explicitly ("8n/7:8", "4n/2:3" a duplet).
//                Named: quintuplet-X sextuplet-X septuplet-X (and X-quintuplet …), duplet-X (2:3).
//                A note value takes at most one dot form and one tuplet form ("dotted-8t").
//   fractions    A/B of a whole note, both plain numbers: "3/8" (= dotted quarter), "1/4"
//   raw          ticks:N, N ≥ 1
// A plain number ("4") is refused: it could mean 4n or 4 ticks; the hints say both.
// Errors when the result is not a whole number of ticks at this PPQN (hint: nearest ticks:N),
// is zero, or exceeds 2^32-1 ticks.
core::Result<std::uint32_t> parse_duration(std::string_view text, int ppqn);

// The name the replies use: "quarter", "dotted-eighth", "triplet-eighth", "double-dotted-half",
// else "ticks:N". parse_duration(duration_name(t, p), p) == t for every t ≥ 1.
std::string duration_name(std::uint32_t ticks, int ppqn);

// The canonical note-value names, longest first: whole … 64th (for help).
std::span<const std::string_view> duration_names();

}  // namespace fcp::midi::theory
