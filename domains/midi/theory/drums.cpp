#include "domains/midi/theory/drums.hpp"

#include <array>
#include <string>
#include <vector>

#include "core/resolve.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

using NameTable = std::span<const std::pair<std::string_view, int>>;

constexpr int first_drum = 35;

constexpr auto gm_drums = std::to_array<std::pair<std::string_view, int>>({
    {"acoustic-bass-drum", 35},
    {"bass-drum-1", 36},
    {"side-stick", 37},
    {"acoustic-snare", 38},
    {"hand-clap", 39},
    {"electric-snare", 40},
    {"low-floor-tom", 41},
    {"closed-hi-hat", 42},
    {"high-floor-tom", 43},
    {"pedal-hi-hat", 44},
    {"low-tom", 45},
    {"open-hi-hat", 46},
    {"low-mid-tom", 47},
    {"hi-mid-tom", 48},
    {"crash-cymbal-1", 49},
    {"high-tom", 50},
    {"ride-cymbal-1", 51},
    {"chinese-cymbal", 52},
    {"ride-bell", 53},
    {"tambourine", 54},
    {"splash-cymbal", 55},
    {"cowbell", 56},
    {"crash-cymbal-2", 57},
    {"vibraslap", 58},
    {"ride-cymbal-2", 59},
    {"hi-bongo", 60},
    {"low-bongo", 61},
    {"mute-hi-conga", 62},
    {"open-hi-conga", 63},
    {"low-conga", 64},
    {"high-timbale", 65},
    {"low-timbale", 66},
    {"high-agogo", 67},
    {"low-agogo", 68},
    {"cabasa", 69},
    {"maracas", 70},
    {"short-whistle", 71},
    {"long-whistle", 72},
    {"short-guiro", 73},
    {"long-guiro", 74},
    {"claves", 75},
    {"hi-wood-block", 76},
    {"low-wood-block", 77},
    {"mute-cuica", 78},
    {"open-cuica", 79},
    {"mute-triangle", 80},
    {"open-triangle", 81},
});

constexpr auto aliases = std::to_array<std::pair<std::string_view, int>>({
    {"kick", 36},
    {"bass-drum", 36},
    {"bd", 36},
    {"kick-2", 35},
    {"acoustic-kick", 35},
    {"snare", 38},
    {"sd", 38},
    {"snare-2", 40},
    {"clap", 39},
    {"rim", 37},
    {"rimshot", 37},
    {"sidestick", 37},
    {"closed-hat", 42},
    {"closed-hihat", 42},
    {"hihat", 42},
    {"hat", 42},
    {"hh", 42},
    {"chh", 42},
    {"pedal-hat", 44},
    {"pedal-hihat", 44},
    {"open-hat", 46},
    {"open-hihat", 46},
    {"ohh", 46},
    {"crash", 49},
    {"crash-2", 57},
    {"ride", 51},
    {"ride-2", 59},
    {"splash", 55},
    {"china", 52},
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

// The one note whose name or alias starts with `key`; several names of one note count as one.
std::optional<int> unique_prefix(const std::string& key) {
  std::optional<int> found;
  for (const NameTable table : {NameTable(gm_drums), NameTable(aliases)}) {
    for (const auto& [name, pitch] : table) {
      if (detail::alnum_key(name).starts_with(key)) {
        if (found && *found != pitch) return std::nullopt;
        found = pitch;
      }
    }
  }
  return found;
}

}  // namespace

std::optional<int> drum_pitch(std::string_view name) {
  const std::string key = detail::alnum_key(name);
  if (key.empty()) return std::nullopt;
  if (const auto pitch = exact(gm_drums, key)) return pitch;
  if (const auto pitch = exact(aliases, key)) return pitch;
  return unique_prefix(key);
}

core::Result<int> find_drum(std::string_view name) {
  if (const auto pitch = drum_pitch(name)) return *pitch;
  std::vector<std::string> candidates;
  for (const NameTable table : {NameTable(gm_drums), NameTable(aliases)}) {
    for (const auto& entry : table)
      candidates.emplace_back(entry.first);
  }
  auto hints = core::closest_matches(name, candidates);
  if (hints.empty()) hints = {"kick", "snare", "closed-hat", "open-hat", "crash", "ride"};
  return core::make_error("unknown drum " + detail::quoted(name), std::move(hints));
}

std::string_view drum_name(int pitch) {
  if (pitch < first_drum || pitch >= first_drum + static_cast<int>(gm_drums.size())) return {};
  return gm_drums[static_cast<std::size_t>(pitch - first_drum)].first;
}

std::span<const std::pair<std::string_view, int>> drum_names() {
  return gm_drums;
}

std::span<const std::pair<std::string_view, int>> drum_aliases() {
  return aliases;
}

std::optional<int> drum_kit_program(std::string_view name) {
  const std::string key = detail::alnum_key(name);
  if (key.empty()) return std::nullopt;
  return exact(kits, key);
}

}  // namespace fcp::midi::theory
