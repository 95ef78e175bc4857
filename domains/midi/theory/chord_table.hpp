// The chord-quality table: canonical qualities with their intervals, and the spellings users type.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace fcp::midi::theory::detail {

struct ChordQuality {
  std::string_view name;         // canonical, listed by chord_qualities(): "maj7", "m7b5", "7alt"
  std::string_view suffix;       // written after the root in symbols: "" for major, else `name`
  std::array<int, 6> intervals;  // semitones above the root, ascending; first `size` used
  std::size_t size;
};

struct ChordSpelling {
  std::string_view text;     // as typed after the root: "M7", "min7", "ø", "-", ""
  std::string_view quality;  // a ChordQuality name
};

std::span<const ChordQuality> chord_quality_table();
// Case-sensitive spellings ("M7" is major, "m7" minor). Spellings written in lower case here
// also match typed text in any case ("MAJ7", "Min").
std::span<const ChordSpelling> chord_spelling_table();

}  // namespace fcp::midi::theory::detail
