#include "domains/midi/theory/controllers.hpp"

#include <array>
#include <string>
#include <vector>

#include "core/resolve.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

using NameTable = std::span<const std::pair<std::string_view, int>>;

// One canonical name per number. The reference's 26 keep their spelling (e.g. reset-all 121).
constexpr auto names = std::to_array<std::pair<std::string_view, int>>({
    {"bank-select", 0},
    {"modulation", 1},
    {"breath", 2},
    {"foot", 4},
    {"portamento-time", 5},
    {"data-entry", 6},
    {"volume", 7},
    {"balance", 8},
    {"pan", 10},
    {"expression", 11},
    {"effect-1", 12},
    {"effect-2", 13},
    {"general-1", 16},
    {"general-2", 17},
    {"general-3", 18},
    {"general-4", 19},
    {"bank-select-lsb", 32},
    {"sustain", 64},
    {"portamento", 65},
    {"sostenuto", 66},
    {"soft-pedal", 67},
    {"legato", 68},
    {"hold-2", 69},
    {"sound-variation", 70},
    {"resonance", 71},
    {"release-time", 72},
    {"attack-time", 73},
    {"brightness", 74},
    {"decay-time", 75},
    {"vibrato-rate", 76},
    {"vibrato-depth", 77},
    {"vibrato-delay", 78},
    {"portamento-control", 84},
    {"reverb", 91},
    {"tremolo", 92},
    {"chorus", 93},
    {"detune", 94},
    {"phaser", 95},
    {"data-increment", 96},
    {"data-decrement", 97},
    {"nrpn-lsb", 98},
    {"nrpn-msb", 99},
    {"rpn-lsb", 100},
    {"rpn-msb", 101},
    {"all-sound-off", 120},
    {"reset-all", 121},
    {"local-control", 122},
    {"all-notes-off", 123},
    {"omni-off", 124},
    {"omni-on", 125},
    {"mono-on", 126},
    {"poly-on", 127},
});

constexpr auto aliases = std::to_array<std::pair<std::string_view, int>>({
    {"bank", 0},
    {"bank-msb", 0},
    {"mod", 1},
    {"modwheel", 1},
    {"mod-wheel", 1},
    {"breath-controller", 2},
    {"foot-controller", 4},
    {"vol", 7},
    {"main-volume", 7},
    {"panning", 10},
    {"expr", 11},
    {"bank-lsb", 32},
    {"sustain-pedal", 64},
    {"damper", 64},
    {"damper-pedal", 64},
    {"hold", 64},
    {"pedal", 64},
    {"portamento-switch", 65},
    {"sostenuto-pedal", 66},
    {"legato-footswitch", 68},
    {"timbre", 71},
    {"filter-resonance", 71},
    {"release", 72},
    {"attack", 73},
    {"cutoff", 74},
    {"filter-cutoff", 74},
    {"filter", 74},
    {"decay", 75},
    {"reverb-send", 91},
    {"chorus-send", 93},
    {"celeste", 94},
    {"reset-all-controllers", 121},
    {"panic", 123},
});

std::string canonical_key(std::string_view text) {
  std::string key = detail::lower(text);
  for (char& c : key) {
    if (c == ' ' || c == '_') c = '-';
  }
  return key;
}

std::optional<int> by_name(std::string_view text) {
  const std::string key = canonical_key(text);
  for (const NameTable table : {NameTable(names), NameTable(aliases)}) {
    for (const auto& [name, cc] : table) {
      if (name == key) return cc;
    }
  }
  return std::nullopt;
}

core::Result<int> raw_number(std::string_view text, std::string_view digits) {
  const auto cc = detail::parse_digits(digits);
  if (cc && *cc <= 127) return static_cast<int>(*cc);
  return core::make_error(
      "controller " + detail::quoted(text) + " is out of range: CC numbers are 0..127",
      {"cc:7", "volume"});
}

}  // namespace

core::Result<int> parse_controller(std::string_view text) {
  if (const auto cc = by_name(text)) return *cc;
  const std::string lowered = detail::lower(text);
  std::string_view rest = lowered;
  if (!detail::consume_prefix(rest, "cc:")) detail::consume_prefix(rest, "cc");
  if (detail::all_digits(rest)) return raw_number(text, rest);
  std::vector<std::string> candidates;
  for (const NameTable table : {NameTable(names), NameTable(aliases)}) {
    for (const auto& entry : table)
      candidates.emplace_back(entry.first);
  }
  auto hints = core::closest_matches(canonical_key(text), candidates);
  if (hints.empty()) hints = {"volume", "pan", "modulation", "sustain", "cc:7"};
  return core::make_error(
      "unknown controller " + detail::quoted(text) + ": use a CC name or cc:0..127",
      std::move(hints));
}

std::string_view controller_name(int cc) {
  for (const auto& [name, number] : names) {
    if (number == cc) return name;
  }
  return {};
}

std::span<const std::pair<std::string_view, int>> controller_names() {
  return names;
}

}  // namespace fcp::midi::theory
