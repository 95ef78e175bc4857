// Pitch names ⇄ MIDI note numbers in scientific pitch notation: C4 = 60, C-1 = 0 … G9 = 127.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::midi::theory {

inline constexpr int lowest_pitch = 0;     // C-1
inline constexpr int highest_pitch = 127;  // G9

// Accepted spellings:
//   LETTER [ACCIDENTAL] OCTAVE  letter A-G in either case; accidental '#', '##', 'b' or 'bb';
//                               octave -1..9 ("C4", "f#3", "Bb2", "C##4", "Dbb5", "E#4", "Cb4",
//                               "C-1")
//   midi:N                      a MIDI note number 0..127
//   N                           a bare number is a MIDI note number too ("61" = C#4): pitch
//                               names always start with a letter, so this cannot be misread.
// Errors: unknown spelling, missing octave (hint adds octave 4), out of range (hint moves an
// octave).
core::Result<int> parse_pitch(std::string_view text);

// How a name spells the five black keys: C# or Db.
enum class Accidentals : std::uint8_t { sharps, flats };

// 61 → "C#4" (or "Db4" with flats), 0 → "C-1". Outside 0..127 → "midi:N".
std::string pitch_name(int midi, Accidentals accidentals = Accidentals::sharps);

// The accidental a note name or a chord symbol is written with: "Eb2", "Bbm7", "Db" → flats;
// "F#3", "C#m" → sharps; nullopt for a natural ("C4", "Am") or what is no note name ("midi:60").
std::optional<Accidentals> written_accidentals(std::string_view text);

// Pitch class 0..11 of a note name without octave: "C" → 0, "F#" → 6, "Bb" → 10, "Cb" → 11,
// "B#" → 0 (letter in either case, at most one of '#'/'b' or a doubled one); nullopt otherwise.
std::optional<int> parse_pitch_class(std::string_view text);

// A note name written in another convention, spelled the English way: German H is B ("H4" →
// "B4", "Hm7" → "Bm7", "h" → "b"); nullopt when `text` does not start with such a letter.
struct EnglishSpelling {
  std::string text;    // "Bm7"
  std::string reason;  // "H is the German name of B"
};
std::optional<EnglishSpelling> english_note_spelling(std::string_view text);

// A pitch class: 1 → "C#" (or "Db" with flats). pc is taken modulo 12.
std::string_view pitch_class_name(int pc, Accidentals accidentals = Accidentals::sharps);

}  // namespace fcp::midi::theory
