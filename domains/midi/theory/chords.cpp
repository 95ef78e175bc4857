#include "domains/midi/theory/chords.hpp"

#include <algorithm>
#include <array>

#include "core/resolve.hpp"
#include "domains/midi/theory/chord_table.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

using detail::ChordQuality;

constexpr std::array<std::string_view, 5> voicing_table{"close", "open", "drop2", "drop3",
                                                        "spread"};

// A note name at the front of a symbol: "Bb" of "Bbm7", spelled with an upper-case letter.
struct NoteSpelling {
  int pc = 0;
  std::string spelling;
  std::string_view rest;
};

std::optional<NoteSpelling> split_note(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const char letter = text.front();
  const bool upper = letter >= 'A' && letter <= 'G';
  const bool lower = letter >= 'a' && letter <= 'g';
  if (!upper && !lower) return std::nullopt;
  NoteSpelling out;
  out.spelling = static_cast<char>(upper ? letter : letter - 'a' + 'A');
  std::size_t used = 1;
  if (text.size() > 1 && (text[1] == '#' || text[1] == 'b')) {
    out.spelling += text[1];
    used = 2;
  }
  out.pc = parse_pitch_class(out.spelling).value_or(0);
  out.rest = text.substr(used);
  return out;
}

const ChordQuality* quality_named(std::string_view name) {
  for (const auto& quality : detail::chord_quality_table()) {
    if (quality.name == name) return &quality;
  }
  return nullptr;
}

// Case-sensitive first; then in lower case unless a leading capital M means "major" ("M7b5").
const ChordQuality* find_quality(std::string_view text) {
  for (const auto& spelling : detail::chord_spelling_table()) {
    if (spelling.text == text) return quality_named(spelling.quality);
  }
  const bool major_m =
      !text.empty() && text.front() == 'M' &&
      (text.size() == 1 || (text[1] != 'a' && text[1] != 'A' && text[1] != 'i' && text[1] != 'I'));
  if (major_m) return nullptr;
  const std::string lowered = detail::lower(text);
  for (const auto& spelling : detail::chord_spelling_table()) {
    if (spelling.text == lowered) return quality_named(spelling.quality);
  }
  return nullptr;
}

core::Error unknown_quality(std::string_view symbol, const NoteSpelling& root,
                            std::string_view quality_text, std::string_view slash_part) {
  std::vector<std::string> candidates;
  for (const auto& spelling : detail::chord_spelling_table()) {
    const bool ascii = std::all_of(spelling.text.begin(), spelling.text.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (!spelling.text.empty() && ascii) candidates.emplace_back(spelling.text);
  }
  std::vector<std::string> hints;
  for (const auto& match : core::closest_matches(quality_text, candidates))
    hints.push_back(root.spelling + match + std::string(slash_part));
  if (hints.empty()) hints = {root.spelling, root.spelling + "m7", root.spelling + "maj7"};
  return core::make_error(
      "unknown chord quality " + detail::quoted(quality_text) + " in " + detail::quoted(symbol),
      std::move(hints));
}

core::Error bad_bass(std::string_view symbol, std::string_view bass_text, const NoteSpelling& root,
                     const ChordQuality& quality) {
  std::vector<std::string> hints;
  std::string reason = "is not a note name (A-G, # or b)";
  if (auto english = english_note_spelling(bass_text); english && split_note(english->text)) {
    hints.push_back(root.spelling + std::string(quality.suffix) + "/" + english->text);
    reason = "is not a note name: " + english->reason;
  }
  for (std::size_t i = 1; i < quality.size && hints.size() < 2; ++i) {
    hints.push_back(root.spelling + std::string(quality.suffix) + "/" +
                    std::string(pitch_class_name(root.pc + quality.intervals[i])));
  }
  return core::make_error("slash chord " + detail::quoted(symbol) + ": the bass " +
                              detail::quoted(bass_text) + " " + reason,
                          std::move(hints));
}

Chord make_chord(const NoteSpelling& root, const ChordQuality& quality,
                 const std::optional<NoteSpelling>& bass) {
  Chord chord;
  chord.root = root.pc;
  chord.quality = std::string(quality.name);
  chord.intervals.assign(quality.intervals.begin(),
                         quality.intervals.begin() + static_cast<std::ptrdiff_t>(quality.size));
  chord.symbol = root.spelling + std::string(quality.suffix);
  if (bass) {
    chord.bass = bass->pc;
    chord.symbol += "/" + bass->spelling;
  }
  return chord;
}

}  // namespace

core::Result<Chord> parse_chord(std::string_view symbol) {
  if (symbol.empty()) return core::make_error("empty chord symbol", {"C", "Am7", "Cmaj7/E"});
  const auto root = split_note(symbol);
  if (!root) {
    if (auto english = english_note_spelling(symbol)) {
      return core::make_error("chord " + detail::quoted(symbol) + ": " + english->reason,
                              {english->text});
    }
    return core::make_error("chord " + detail::quoted(symbol) + " must start with a root A-G",
                            {"C", "Am7", "Cmaj7/E"});
  }
  if (const ChordQuality* quality = find_quality(root->rest))
    return make_chord(*root, *quality, std::nullopt);
  const auto slash = root->rest.rfind('/');
  const std::string_view quality_text = root->rest.substr(0, slash);
  const ChordQuality* quality = find_quality(quality_text);
  const std::string_view slash_part =
      slash == std::string_view::npos ? std::string_view() : root->rest.substr(slash);
  if (!quality) return unknown_quality(symbol, *root, quality_text, slash_part);
  const std::string_view bass_text = slash_part.substr(1);
  const auto bass = split_note(bass_text);
  if (!bass || !bass->rest.empty()) return bad_bass(symbol, bass_text, *root, *quality);
  return make_chord(*root, *quality, bass);
}

std::optional<Voicing> parse_voicing(std::string_view text) {
  const std::string key = detail::alnum_key(text);
  for (std::size_t i = 0; i < voicing_table.size(); ++i) {
    if (voicing_table[i] == key) return static_cast<Voicing>(i);
  }
  return std::nullopt;
}

std::string_view voicing_name(Voicing voicing) {
  return voicing_table[static_cast<std::size_t>(voicing)];
}

std::span<const std::string_view> voicing_names() {
  return voicing_table;
}

std::span<const std::string_view> chord_qualities() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const auto& quality : detail::chord_quality_table())
      out.push_back(quality.name);
    return out;
  }();
  return names;
}

}  // namespace fcp::midi::theory
