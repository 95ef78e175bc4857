// The General MIDI percussion key map (channel 10): drum names ⇄ note numbers, and drum kits.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace fcp::midi::theory {

// One note of the GM percussion key map: the name replies and views show (the drummer's word
// where there is one: kick, snare, closed-hat, crash; else the GM name) and its GM name.
struct DrumName {
  int pitch;
  std::string_view name;
  std::string_view gm_name;
};

// The note of a drum name, ignoring case and every character but letters and digits: the shown
// names and the 47 GM names for notes 35..81 ("kick", "bass-drum-1", "closed-hi-hat"), then aliases
// (bass-drum bd sd rim hihat hh tom tom-low floor-tom shaker …, see drums.cpp), then a unique
// prefix of one of those ("tamb" → tambourine). nullopt otherwise.
std::optional<int> drum_pitch(std::string_view name);
// The same with an error naming the closest drum names as hints.
core::Result<int> find_drum(std::string_view name);
// The name every reply and view shows for a note ("kick" for 36), "" if none (outside 35..81).
std::string_view drum_name(int pitch);
// The 47 notes in note order (for the drums query and help).
std::span<const DrumName> drum_notes();
// The other accepted spellings with their notes.
std::span<const std::pair<std::string_view, int>> drum_aliases();

// Drum-kit names for a drum track's program (GS kit numbers): drums, drum-kit, drumkit, kit,
// percussion, standard-kit → 0; room-kit 8, power-kit 16, electronic-kit 24, tr-808 (808,
// analog-kit) 25, jazz-kit 32, brush-kit 40, orchestra-kit 48, sfx-kit 56. nullopt otherwise.
std::optional<int> drum_kit_program(std::string_view name);
// The kit names with their programs, in program order.
std::span<const std::pair<std::string_view, int>> drum_kits();

}  // namespace fcp::midi::theory
