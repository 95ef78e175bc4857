// General MIDI Level 1 instruments: the 128 programs, their families, and name lookup.
#pragma once

#include <span>
#include <string_view>

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

// Program numbering: `program:N` is the 0-based number sent on the wire (0..127), as in the
// reference and in replies (violin = program:40). GM charts number from 1 (violin = 41); a bare
// number is therefore refused, with both readings as hints.
// Lookup order, all ignoring case and every character but letters and digits:
//   1. program:N
//   2. exact GM name ("Acoustic Grand Piano", "acoustic_grand_piano", "lead 8 (bass + lead)")
//   3. aliases: piano, grand-piano, electric-piano, rhodes, organ, guitar, acoustic-guitar,
//      electric-guitar, bass, electric-bass, upright-bass, strings, string-ensemble, pad, synth,
//      lead, synth-pad, harp, sax, saxophone, horn, choir, voice, brass, … (gm.cpp lists them)
//   4. a unique prefix of one name, else a unique substring ("vibra" → vibraphone)
// Drum-kit names (drums, drum-kit, kit, percussion, …) are not programs: the error says to use
// a drum track (see drum_kit_program). Never a silent fuzzy guess: an unknown or ambiguous name
// is an error whose hints are GM names: the instrument one word of it names ("fender-rhodes" →
// electric-piano-1), then the closest names (aliases given as the names they stand for).
core::Result<const Instrument*> find_instrument(std::string_view name);

}  // namespace fcp::midi::theory
