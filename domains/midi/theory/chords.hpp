// Chord symbols ("Cmaj7", "F#m7b5", "Am7/G") → chord tones, and voicing them into MIDI pitches.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::midi::theory {

enum class Voicing { close, open, drop2, drop3, spread };

struct Chord {
  int root = 0;                // pitch class 0..11
  std::string quality;         // canonical quality name, one of chord_qualities(): "maj7"
  std::vector<int> intervals;  // semitones from the root, ascending, starting with 0
  std::optional<int> bass;     // pitch class of a slash chord's bass
  std::string symbol;          // canonical symbol: "Cmaj7", "Bbm7/F", "C" (major has no suffix)
};

// ROOT [QUALITY] [/BASS]. ROOT and BASS: letter A-G in either case plus optional '#' or 'b'.
// QUALITY is case-sensitive only where case carries meaning (M7 = maj7, m7 = minor 7; "MAJ7" and
// "Min" are fine). Spellings: "" maj M major | m min minor mi - | 7 dom7 | maj7 M7 Δ7 Δ ^7 |
// m7 min7 -7 | dim ° o | aug + +5 | sus2 | sus4 sus | add9 | m7b5 min7b5 ø ø7 half-dim |
// dim7 °7 o7 | 9 | m9 min9 | 6 maj6 | m6 min6 | maj9 M9 Δ9 | 11 | 13 | 7sus4 7sus | add11 |
// 7alt alt | 5 | mmaj7 mM7 m(maj7) | 7b9 | 7#9 | 7#5 aug7 +7 | 7b5 | 7#11 | m11 | m13 |
// maj13 M13 | maj7#11 | maj7#5 augmaj7 | 6/9 69 | madd9 m(add9) | 9sus4 9sus.
// Errors name the part that failed, with whole symbols as hints ("Cmaj9" for "Cmaj99").
core::Result<Chord> parse_chord(std::string_view symbol);

// MIDI pitches of a chord, ascending. The root sits in `octave` (C4 = 60, octave -1..9).
// A slash chord's bass pitch class is taken out of the upper voices (unless that would leave
// none) and placed as the highest such pitch below the voiced chord.
// `inversion` k (0..n-1, n = upper voices) puts chord tone k lowest by raising the tones below it
// by octaves: for triads and sevenths this is "rotate the lowest up an octave", k times.
// Voicings, applied after the inversion (indices count from the lowest note):
//   close   as stacked
//   open    every second voice (indices 1, 3, …) up an octave: C E G → C4 G4 E5
//   drop2   the second-highest voice down an octave (3+ voices): C E G B → G3 C4 E4 B4
//   drop3   the third-highest voice down an octave (4+ voices): C E G B → E3 C4 G4 B4
//   spread  the lowest voice down an octave, the others open: C E G → C3 E4 G5
// Errors: octave or inversion out of range, too few voices for a drop, pitches outside 0..127
// (hint: the nearest octave that fits).
core::Result<std::vector<int>> voice_chord(const Chord& chord, int octave, int inversion = 0,
                                           Voicing voicing = Voicing::close);

// close | open | drop2 (drop-2) | drop3 (drop-3) | spread, case-insensitive.
std::optional<Voicing> parse_voicing(std::string_view text);
std::string_view voicing_name(Voicing voicing);
std::span<const std::string_view> voicing_names();

// The canonical quality names, the reference's 16 first (for help).
std::span<const std::string_view> chord_qualities();

}  // namespace fcp::midi::theory
