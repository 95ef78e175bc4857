// General MIDI Level 1 instruments: the 128 programs, their families, and name lookup.
#pragma once

#include <span>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace fcp::midi::theory {

struct Instrument {
  int program;              // 0..127, as sent in a MIDI program change
  std::string_view name;    // kebab-case GM name: "acoustic-grand-piano", "lead-1-square"
  std::string_view family;  // one of gm_families(): "piano", "synth-lead"
};

// All 128 in program order; gm_instruments()[p].program == p.
std::span<const Instrument> gm_instruments();
// The 16 families in program order, 8 programs each: piano chromatic-percussion organ guitar
// bass strings ensemble brass reed pipe synth-lead synth-pad synth-effects ethnic percussive
// sound-effects.
std::span<const std::string_view> gm_families();
const Instrument* instrument_by_program(int program);  // nullptr outside 0..127
// The aliases with their programs ("rhodes" → 4), for lookups and the instruments query.
std::span<const std::pair<std::string_view, int>> instrument_aliases();

// Program numbering: `program:N` is the 0-based number sent on the wire (0..127), as in the
// reference and in replies (violin = program:40). GM charts number from 1 (violin = 41); a bare
// number is therefore refused, with both readings as hints.
// Lookup order, all ignoring case and every character but letters and digits:
//   1. program:N
//   2. exact GM name ("Acoustic Grand Piano", "acoustic_grand_piano", "lead 8 (bass + lead)")
//   3. aliases, the words musicians use: piano, grand-piano, electric-piano, rhodes,
//      fender-rhodes, wurli, vibes, glock, organ, hammond, b3, guitar, acoustic-guitar,
//      electric-guitar, bass, bass-guitar, fretless, upright-bass, strings, fiddle, pad, synth,
//      lead, harp, sax, horn, choir, voice, brass, … (gm.cpp lists them)
//   4. a unique prefix of one name, else a unique substring ("vibra" → vibraphone)
// Drum-kit names (drums, drum-kit, kit, percussion, …) are not programs: the error says to use
// a drum track (see drum_kit_program). Never a silent fuzzy guess: an unknown or ambiguous name
// is an error whose hints are GM names: the instrument one word of it names ("fender-rhodes" →
// electric-piano-1), then the closest names (aliases given as the names they stand for).
core::Result<const Instrument*> find_instrument(std::string_view name);

}  // namespace fcp::midi::theory
