#include "domains/midi/theory/keys.hpp"

#include <array>
#include <cstdlib>
#include <optional>

#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

// Indexed by sharps + 7.
constexpr std::array<std::string_view, 15> major_tonics{
    "Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#"};
constexpr std::array<std::string_view, 15> minor_tonics{
    "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#", "G#", "D#", "A#"};

// Position on the circle of fifths of a natural letter's major key.
std::optional<int> letter_fifths(char letter) {
  constexpr std::string_view letters = "FCGDAEB";
  const char upper =
      (letter >= 'a' && letter <= 'z') ? static_cast<char>(letter - 'a' + 'A') : letter;
  const auto at = letters.find(upper);
  if (at == std::string_view::npos) return std::nullopt;
  return static_cast<int>(at) - 1;
}

// true = minor, false = major, nullopt = not a mode word.
std::optional<bool> parse_mode(std::string_view mode) {
  if (mode.empty() || mode == "M") return false;
  if (mode == "m") return true;
  const std::string word = detail::lower(mode);
  if (word == "maj" || word == "major") return false;
  if (word == "min" || word == "minor") return true;
  return std::nullopt;
}

core::Error unknown_key(std::string_view text) {
  if (auto english = english_note_spelling(text)) {
    return core::make_error("unknown key " + detail::quoted(text) + ": " + english->reason,
                            {english->text});
  }
  return core::make_error("unknown key " + detail::quoted(text) +
                              ": write a tonic A-G with # or b, then m or minor for minor keys",
                          {"C", "Am", "F#m", "Bb", "Eb major"});
}

}  // namespace

core::Result<Key> parse_key(std::string_view text) {
  const auto fifths_of_letter = text.empty() ? std::nullopt : letter_fifths(text.front());
  if (!fifths_of_letter) return unknown_key(text);
  std::string tonic(
      1, static_cast<char>(text.front() >= 'a' ? text.front() - 'a' + 'A' : text.front()));
  std::string_view rest = text.substr(1);
  int fifths = *fifths_of_letter;
  if (!rest.empty() && (rest.front() == '#' || rest.front() == 'b')) {
    fifths += rest.front() == '#' ? 7 : -7;
    tonic += rest.front();
    rest.remove_prefix(1);
  }
  if (!rest.empty() && (rest.front() == '-' || rest.front() == '_' || rest.front() == ' '))
    rest.remove_prefix(1);
  const auto minor = parse_mode(rest);
  if (!minor) {
    return core::make_error("unknown key mode " + detail::quoted(rest) + " in " +
                                detail::quoted(text) + ": use major or minor",
                            {tonic, tonic + "m"});
  }
  if (*minor) fifths -= 3;
  if (std::abs(fifths) > 7) {
    const std::string spelled = tonic + (*minor ? " minor" : " major");
    const int enharmonic = fifths > 0 ? fifths - 12 : fifths + 12;
    return core::make_error(spelled + " would need " + std::to_string(std::abs(fifths)) +
                                (fifths > 0 ? " sharps" : " flats") +
                                "; a key signature has at most 7, so use its enharmonic",
                            {key_name(enharmonic, *minor)});
  }
  return Key{fifths, *minor, key_name(fifths, *minor)};
}

std::string key_name(int sharps, bool minor) {
  if (sharps < -7 || sharps > 7) return {};
  const int from_cb = sharps + 7;  // 0 (Cb) to 14 (C#)
  const auto index = static_cast<std::size_t>(from_cb);
  return minor ? std::string(minor_tonics[index]) + "m" : std::string(major_tonics[index]);
}

Accidentals key_accidentals(int sharps) {
  return sharps < 0 ? Accidentals::flats : Accidentals::sharps;
}

}  // namespace fcp::midi::theory
