#include "domains/midi/theory/pitch.hpp"

#include <array>

#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

constexpr std::array<std::string_view, 12> sharp_names{"C",  "C#", "D",  "D#", "E",  "F",
                                                       "F#", "G",  "G#", "A",  "A#", "B"};
constexpr std::array<std::string_view, 12> flat_names{"C",  "Db", "D",  "Eb", "E",  "F",
                                                      "Gb", "G",  "Ab", "A",  "Bb", "B"};

std::string_view class_name(int pc, Accidentals accidentals) {
  const auto index = static_cast<std::size_t>((pc % 12 + 12) % 12);
  return accidentals == Accidentals::flats ? flat_names[index] : sharp_names[index];
}

std::optional<int> letter_semitone(char letter) {
  constexpr std::string_view letters = "CDEFGAB";
  constexpr std::array<int, 7> semitones{0, 2, 4, 5, 7, 9, 11};
  const char upper =
      (letter >= 'a' && letter <= 'z') ? static_cast<char>(letter - 'a' + 'A') : letter;
  const auto at = letters.find(upper);
  if (at == std::string_view::npos) return std::nullopt;
  return semitones[at];
}

// A note name split into its parts: letter semitone + accidental offset, and the unparsed rest.
struct NoteName {
  int semitone = 0;    // letter only
  int accidental = 0;  // -2..2
  std::string_view rest;
};

// Letter plus up to two identical accidentals ("#", "##", "b", "bb").
std::optional<NoteName> split_note_name(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const auto semitone = letter_semitone(text.front());
  if (!semitone) return std::nullopt;
  NoteName name{*semitone, 0, text.substr(1)};
  const char first = name.rest.empty() ? '\0' : name.rest.front();
  if (first != '#' && first != 'b') return name;
  const int step = first == '#' ? 1 : -1;
  while (!name.rest.empty() && name.rest.front() == first && name.accidental * step < 2) {
    name.accidental += step;
    name.rest.remove_prefix(1);
  }
  return name;
}

// Letters other conventions use for a note, and the English letter meant (German H = B).
struct LetterSynonym {
  char letter;
  char english;
  std::string_view convention;
};
constexpr std::array<LetterSynonym, 2> letter_synonyms{
    {{'H', 'B', "German"}, {'h', 'b', "German"}}};

const LetterSynonym* letter_synonym(std::string_view text) {
  for (const auto& synonym : letter_synonyms) {
    if (!text.empty() && text.front() == synonym.letter) return &synonym;
  }
  return nullptr;
}

core::Error unknown_pitch(std::string_view text) {
  if (auto english = english_note_spelling(text)) {
    return core::make_error("unknown pitch " + detail::quoted(text) + ": " + english->reason,
                            {english->text});
  }
  return core::make_error("unknown pitch " + detail::quoted(text) +
                              ": write a note name with octave (C4 = middle C) or midi:0..127",
                          {"C4", "F#3", "Bb2", "midi:60"});
}

core::Error out_of_range(std::string_view text, int midi, std::string hint) {
  const std::string side = midi > highest_pitch ? "above G9 (127)" : "below C-1 (0)";
  std::vector<std::string> hints;
  if (!hint.empty()) hints.push_back(std::move(hint));
  return core::make_error("pitch " + detail::quoted(text) + " is out of range: it would be MIDI " +
                              std::to_string(midi) + ", " + side,
                          std::move(hints));
}

core::Result<int> parse_midi_number(std::string_view text, std::string_view digits) {
  const auto value = detail::parse_int(digits);
  if (!value) return unknown_pitch(text);
  if (*value < lowest_pitch || *value > highest_pitch) {
    const int clamped = *value < lowest_pitch ? lowest_pitch : highest_pitch;
    const std::string prefix = text.size() > digits.size() ? "midi:" : "";
    return out_of_range(text, *value, prefix + std::to_string(clamped));
  }
  return *value;
}

// The same spelling moved by whole octaves into range, or "" when none fits.
std::string octave_fix(std::string_view spelling, int midi, int octave) {
  while (midi > highest_pitch) {
    midi -= 12;
    --octave;
  }
  while (midi < lowest_pitch) {
    midi += 12;
    ++octave;
  }
  return std::string(spelling) + std::to_string(octave);
}

}  // namespace

core::Result<int> parse_pitch(std::string_view text) {
  std::string_view rest = text;
  if (detail::consume_prefix(rest, "midi:") || detail::consume_prefix(rest, "MIDI:"))
    return parse_midi_number(text, rest);
  if (!text.empty() && (detail::all_digits(text) || text.front() == '-'))
    return parse_midi_number(text, text);
  const auto name = split_note_name(text);
  if (!name) return unknown_pitch(text);
  const std::string_view spelling = text.substr(0, text.size() - name->rest.size());
  if (name->rest.empty()) {
    return core::make_error("pitch " + detail::quoted(text) + " needs an octave (C4 = middle C)",
                            {std::string(spelling) + "4"});
  }
  const auto octave = detail::parse_int(name->rest);
  if (!octave || name->rest.front() == '+') return unknown_pitch(text);
  const long long midi =
      (static_cast<long long>(*octave) + 1) * 12 + name->semitone + name->accidental;
  if (midi < lowest_pitch || midi > highest_pitch) {
    if (*octave < -2 || *octave > 10) return out_of_range(text, static_cast<int>(midi), "");
    return out_of_range(text, static_cast<int>(midi),
                        octave_fix(spelling, static_cast<int>(midi), *octave));
  }
  return static_cast<int>(midi);
}

std::string pitch_name(int midi, Accidentals accidentals) {
  if (midi < lowest_pitch || midi > highest_pitch) return "midi:" + std::to_string(midi);
  return std::string(class_name(midi, accidentals)) + std::to_string(midi / 12 - 1);
}

std::optional<Accidentals> written_accidentals(std::string_view text) {
  const auto name = split_note_name(text);
  if (!name || name->accidental == 0) return std::nullopt;
  return name->accidental < 0 ? Accidentals::flats : Accidentals::sharps;
}

std::optional<int> parse_pitch_class(std::string_view text) {
  const auto name = split_note_name(text);
  if (!name || !name->rest.empty()) return std::nullopt;
  return ((name->semitone + name->accidental) % 12 + 12) % 12;
}

std::optional<EnglishSpelling> english_note_spelling(std::string_view text) {
  const LetterSynonym* synonym = letter_synonym(text);
  if (synonym == nullptr) return std::nullopt;
  return EnglishSpelling{std::string(1, synonym->english) + std::string(text.substr(1)),
                         std::string(1, synonym->letter) + " is the " +
                             std::string(synonym->convention) + " name of " +
                             std::string(1, synonym->english)};
}

std::string_view pitch_class_name(int pc, Accidentals accidentals) {
  return class_name(pc, accidentals);
}

}  // namespace fcp::midi::theory
