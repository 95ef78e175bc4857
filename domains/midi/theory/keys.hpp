// Key signatures: key names ⇄ sharps/flats count and mode, as stored in the SMF key-signature
// event.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/midi/theory/pitch.hpp"

namespace fcp::midi::theory {

struct Key {
  int sharps = 0;  // -7..7, negative = flats
  bool minor = false;
  std::string name;  // key_name(sharps, minor): "C", "Am", "F#m", "Bb"
};

// TONIC [MODE]: tonic A-G (either case) with optional '#' or 'b'; mode absent or one of
// maj major M → major, m min minor → minor, directly attached or after '-', '_' or ' '
// ("C", "Am", "F#m", "Bb", "Ebm", "C major", "A minor", "C-major", "e-minor", "Dmin").
// A key that needs more than 7 sharps or flats (G# major, Fbm …) is refused with its
// enharmonic spelling as the hint ("Ab").
core::Result<Key> parse_key(std::string_view text);

// "C", "Am", "F#m", "Bb", "Ebm"; "" when sharps is outside -7..7.
std::string key_name(int sharps, bool minor);

// How a key spells the black keys: a key signature with flats with flats (F minor: Ab, Eb), the
// others (sharp keys, C major, A minor) with sharps.
Accidentals key_accidentals(int sharps);

}  // namespace fcp::midi::theory
