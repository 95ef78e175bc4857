// The General MIDI percussion key map (channel 10): drum names ⇄ note numbers, and drum kits.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace fcp::midi::theory {

// The note of a drum name, ignoring case and every character but letters and digits:
// the 47 GM names for notes 35..81 ("acoustic-bass-drum", "closed-hi-hat", "open-triangle"),
// then aliases (kick bass-drum snare clap rim closed-hat hihat hh open-hat pedal-hat crash ride
// ride-bell splash china tom tom-low tom-high floor-tom shaker triangle …, see drums.cpp),
// then a unique prefix of one of those ("tamb" → tambourine). nullopt otherwise.
std::optional<int> drum_pitch(std::string_view name);
// The same with an error naming the closest drum names as hints.
core::Result<int> find_drum(std::string_view name);
// The GM name of a note, "" if none (outside 35..81).
std::string_view drum_name(int pitch);
// The 47 GM names with their notes, in note order (for help and describe).
std::span<const std::pair<std::string_view, int>> drum_names();
// The aliases with their notes.
std::span<const std::pair<std::string_view, int>> drum_aliases();

// Drum-kit names for a drum track's program (GS kit numbers): drums, drum-kit, drumkit, kit,
// percussion, standard-kit → 0; room-kit 8, power-kit 16, electronic-kit 24, tr-808 (808,
// analog-kit) 25, jazz-kit 32, brush-kit 40, orchestra-kit 48, sfx-kit 56. nullopt otherwise.
std::optional<int> drum_kit_program(std::string_view name);

}  // namespace fcp::midi::theory
