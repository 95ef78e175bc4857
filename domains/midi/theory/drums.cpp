#include "domains/midi/theory/drums.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/resolve.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

using NameTable = std::span<const std::pair<std::string_view, int>>;

constexpr int first_drum = 35;

// The 47 notes of the GM key map: the name replies and views show, then the GM name (both
// accepted). Where drummers have a short word for the piece, it is the name shown.
constexpr auto drums = std::to_array<DrumName>({
    {35, "acoustic-bass-drum", "acoustic-bass-drum"},
    {36, "kick", "bass-drum-1"},
    {37, "side-stick", "side-stick"},
    {38, "snare", "acoustic-snare"},
    {39, "clap", "hand-clap"},
    {40, "electric-snare", "electric-snare"},
    {41, "low-floor-tom", "low-floor-tom"},
    {42, "closed-hat", "closed-hi-hat"},
    {43, "high-floor-tom", "high-floor-tom"},
    {44, "pedal-hat", "pedal-hi-hat"},
    {45, "low-tom", "low-tom"},
    {46, "open-hat", "open-hi-hat"},
    {47, "low-mid-tom", "low-mid-tom"},
    {48, "hi-mid-tom", "hi-mid-tom"},
    {49, "crash", "crash-cymbal-1"},
    {50, "high-tom", "high-tom"},
    {51, "ride", "ride-cymbal-1"},
    {52, "china", "chinese-cymbal"},
    {53, "ride-bell", "ride-bell"},
    {54, "tambourine", "tambourine"},
    {55, "splash", "splash-cymbal"},
    {56, "cowbell", "cowbell"},
    {57, "crash-2", "crash-cymbal-2"},
    {58, "vibraslap", "vibraslap"},
    {59, "ride-2", "ride-cymbal-2"},
    {60, "hi-bongo", "hi-bongo"},
    {61, "low-bongo", "low-bongo"},
    {62, "mute-hi-conga", "mute-hi-conga"},
    {63, "open-hi-conga", "open-hi-conga"},
    {64, "low-conga", "low-conga"},
    {65, "high-timbale", "high-timbale"},
    {66, "low-timbale", "low-timbale"},
    {67, "high-agogo", "high-agogo"},
    {68, "low-agogo", "low-agogo"},
    {69, "cabasa", "cabasa"},
    {70, "maracas", "maracas"},
    {71, "short-whistle", "short-whistle"},
    {72, "long-whistle", "long-whistle"},
    {73, "short-guiro", "short-guiro"},
    {74, "long-guiro", "long-guiro"},
    {75, "claves", "claves"},
    {76, "hi-wood-block", "hi-wood-block"},
    {77, "low-wood-block", "low-wood-block"},
    {78, "mute-cuica", "mute-cuica"},
    {79, "open-cuica", "open-cuica"},
    {80, "mute-triangle", "mute-triangle"},
    {81, "open-triangle", "open-triangle"},
});

constexpr auto aliases = std::to_array<std::pair<std::string_view, int>>({
    {"bass-drum", 36},
    {"bd", 36},
    {"kick-2", 35},
    {"acoustic-kick", 35},
    {"sd", 38},
    {"snare-2", 40},
    {"rim", 37},
    {"rimshot", 37},
    {"sidestick", 37},
    {"closed-hihat", 42},
    {"hihat", 42},
    {"hat", 42},
    {"hh", 42},
    {"chh", 42},
    {"pedal-hihat", 44},
    {"open-hihat", 46},
    {"ohh", 46},
    {"tom", 50},
    {"tom-high", 50},
    {"tom-hi", 50},
    {"tom-high-mid", 48},
    {"tom-hi-mid", 48},
    {"tom-mid", 47},
    {"tom-low-mid", 47},
    {"tom-low", 45},
    {"tom-floor-high", 43},
    {"floor-tom", 41},
    {"tom-floor", 41},
    {"tom-floor-low", 41},
    {"shaker", 70},
    {"triangle", 81},
    {"bongo", 60},
    {"conga", 63},
    {"timbale", 65},
    {"agogo", 67},
    {"guiro", 74},
    {"woodblock", 76},
    {"wood-block", 76},
    {"whistle", 71},
    {"cuica", 79},
});

constexpr auto kits = std::to_array<std::pair<std::string_view, int>>({
    {"drums", 0},
    {"drum-kit", 0},
    {"drumkit", 0},
    {"drum-set", 0},
    {"kit", 0},
    {"percussion", 0},
    {"standard-kit", 0},
    {"standard", 0},
    {"room-kit", 8},
    {"power-kit", 16},
    {"electronic-kit", 24},
    {"tr-808", 25},
    {"808", 25},
    {"analog-kit", 25},
    {"jazz-kit", 32},
    {"brush-kit", 40},
    {"orchestra-kit", 48},
    {"sfx-kit", 56},
});

std::optional<int> exact(NameTable table, const std::string& key) {
  for (const auto& [name, pitch] : table) {
    if (detail::alnum_key(name) == key) return pitch;
  }
  return std::nullopt;
}

std::optional<int> exact_note(const std::string& key) {
  for (const auto& drum : drums) {
    if (detail::alnum_key(drum.name) == key || detail::alnum_key(drum.gm_name) == key)
      return drum.pitch;
  }
  return std::nullopt;
}

// Every accepted spelling with its note: shown names, GM names, aliases.
std::vector<std::pair<std::string_view, int>> all_names() {
  std::vector<std::pair<std::string_view, int>> names;
  for (const auto& drum : drums) {
    names.emplace_back(drum.name, drum.pitch);
    if (drum.gm_name != drum.name) names.emplace_back(drum.gm_name, drum.pitch);
  }
  names.insert(names.end(), aliases.begin(), aliases.end());
  return names;
}

// The one note whose name or alias starts with `key`; several names of one note count as one.
std::optional<int> unique_prefix(const std::string& key) {
  std::optional<int> found;
  for (const auto& [name, pitch] : all_names()) {
    if (detail::alnum_key(name).starts_with(key)) {
      if (found && *found != pitch) return std::nullopt;
      found = pitch;
    }
  }
  return found;
}

}  // namespace

std::optional<int> drum_pitch(std::string_view name) {
  const std::string key = detail::alnum_key(name);
  if (key.empty()) return std::nullopt;
  if (const auto pitch = exact_note(key)) return pitch;
  if (const auto pitch = exact(aliases, key)) return pitch;
  return unique_prefix(key);
}

core::Result<int> find_drum(std::string_view name) {
  if (const auto pitch = drum_pitch(name)) return *pitch;
  std::vector<std::string> candidates;
  for (const auto& entry : all_names())
    candidates.emplace_back(entry.first);
  std::vector<std::string> hints;
  for (const auto& close : core::closest_matches(name, candidates)) {
    const std::string shown(drum_name(*drum_pitch(close)));
    if (std::find(hints.begin(), hints.end(), shown) == hints.end()) hints.push_back(shown);
  }
  if (hints.empty()) hints = {"kick", "snare", "closed-hat", "open-hat", "crash", "ride"};
  return core::make_error("unknown drum " + detail::quoted(name) + " (midi_query drums lists them)",
                          std::move(hints));
}

std::string_view drum_name(int pitch) {
  if (pitch < first_drum || pitch >= first_drum + static_cast<int>(drums.size())) return {};
  return drums[static_cast<std::size_t>(pitch - first_drum)].name;
}

std::span<const DrumName> drum_notes() {
  return drums;
}

std::span<const std::pair<std::string_view, int>> drum_aliases() {
  return aliases;
}

std::span<const std::pair<std::string_view, int>> drum_kits() {
  return kits;
}

std::optional<int> drum_kit_program(std::string_view name) {
  const std::string key = detail::alnum_key(name);
  if (key.empty()) return std::nullopt;
  return exact(kits, key);
}

}  // namespace fcp::midi::theory
