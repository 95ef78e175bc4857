#include "domains/midi/theory/gm.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/resolve.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

constexpr std::array<std::string_view, 16> families{"piano",         "chromatic-percussion",
                                                    "organ",         "guitar",
                                                    "bass",          "strings",
                                                    "ensemble",      "brass",
                                                    "reed",          "pipe",
                                                    "synth-lead",    "synth-pad",
                                                    "synth-effects", "ethnic",
                                                    "percussive",    "sound-effects"};

constexpr std::array<std::string_view, 128> names{
    // piano
    "acoustic-grand-piano", "bright-acoustic-piano", "electric-grand-piano", "honky-tonk-piano",
    "electric-piano-1", "electric-piano-2", "harpsichord", "clavinet",
    // chromatic percussion
    "celesta", "glockenspiel", "music-box", "vibraphone", "marimba", "xylophone", "tubular-bells",
    "dulcimer",
    // organ
    "drawbar-organ", "percussive-organ", "rock-organ", "church-organ", "reed-organ", "accordion",
    "harmonica", "tango-accordion",
    // guitar
    "acoustic-guitar-nylon", "acoustic-guitar-steel", "electric-guitar-jazz",
    "electric-guitar-clean", "electric-guitar-muted", "overdriven-guitar", "distortion-guitar",
    "guitar-harmonics",
    // bass
    "acoustic-bass", "electric-bass-finger", "electric-bass-pick", "fretless-bass", "slap-bass-1",
    "slap-bass-2", "synth-bass-1", "synth-bass-2",
    // strings
    "violin", "viola", "cello", "contrabass", "tremolo-strings", "pizzicato-strings",
    "orchestral-harp", "timpani",
    // ensemble
    "string-ensemble-1", "string-ensemble-2", "synth-strings-1", "synth-strings-2", "choir-aahs",
    "voice-oohs", "synth-choir", "orchestra-hit",
    // brass
    "trumpet", "trombone", "tuba", "muted-trumpet", "french-horn", "brass-section", "synth-brass-1",
    "synth-brass-2",
    // reed
    "soprano-sax", "alto-sax", "tenor-sax", "baritone-sax", "oboe", "english-horn", "bassoon",
    "clarinet",
    // pipe
    "piccolo", "flute", "recorder", "pan-flute", "blown-bottle", "shakuhachi", "whistle", "ocarina",
    // synth lead
    "lead-1-square", "lead-2-sawtooth", "lead-3-calliope", "lead-4-chiff", "lead-5-charang",
    "lead-6-voice", "lead-7-fifths", "lead-8-bass-lead",
    // synth pad
    "pad-1-new-age", "pad-2-warm", "pad-3-polysynth", "pad-4-choir", "pad-5-bowed",
    "pad-6-metallic", "pad-7-halo", "pad-8-sweep",
    // synth effects
    "fx-1-rain", "fx-2-soundtrack", "fx-3-crystal", "fx-4-atmosphere", "fx-5-brightness",
    "fx-6-goblins", "fx-7-echoes", "fx-8-sci-fi",
    // ethnic
    "sitar", "banjo", "shamisen", "koto", "kalimba", "bagpipe", "fiddle", "shanai",
    // percussive
    "tinkle-bell", "agogo", "steel-drums", "woodblock", "taiko-drum", "melodic-tom", "synth-drum",
    "reverse-cymbal",
    // sound effects
    "guitar-fret-noise", "breath-noise", "seashore", "bird-tweet", "telephone-ring", "helicopter",
    "applause", "gunshot"};

constexpr std::array<Instrument, 128> make_table() {
  std::array<Instrument, 128> table{};
  for (std::size_t p = 0; p < table.size(); ++p)
    table[p] = Instrument{static_cast<int>(p), names[p], families[p / 8]};
  return table;
}

constexpr std::array<Instrument, 128> instruments = make_table();

// Words people use for an instrument family, mapped to its most typical program.
constexpr auto aliases = std::to_array<std::pair<std::string_view, int>>({
    {"piano", 0},
    {"grand-piano", 0},
    {"grand", 0},
    {"acoustic-piano", 0},
    {"bright-piano", 1},
    {"electric-piano", 4},
    {"epiano", 4},
    {"e-piano", 4},
    {"rhodes", 4},
    {"fender-rhodes", 4},
    {"rhodes-piano", 4},
    {"stage-piano", 4},
    {"wurli", 5},
    {"dx7", 5},
    {"celeste", 8},
    {"glock", 9},
    {"vibes", 11},
    {"vibe", 11},
    {"vibraharp", 11},
    {"wurlitzer", 5},
    {"clav", 7},
    {"bells", 14},
    {"chimes", 14},
    {"organ", 16},
    {"hammond", 16},
    {"hammond-organ", 16},
    {"b3", 16},
    {"hammond-b3", 16},
    {"guitar", 24},
    {"acoustic-guitar", 25},
    {"nylon-guitar", 24},
    {"classical-guitar", 24},
    {"steel-guitar", 25},
    {"electric-guitar", 27},
    {"clean-guitar", 27},
    {"jazz-guitar", 26},
    {"muted-guitar", 28},
    {"overdrive", 29},
    {"distortion", 30},
    {"bass", 33},
    {"electric-bass", 33},
    {"bass-guitar", 33},
    {"fretless", 35},
    {"finger-bass", 33},
    {"pick-bass", 34},
    {"upright-bass", 32},
    {"double-bass", 32},
    {"slap-bass", 36},
    {"synth-bass", 38},
    {"strings", 48},
    {"string-ensemble", 48},
    {"string-section", 48},
    {"synth-strings", 50},
    {"harp", 46},
    {"fiddle", 40},
    {"pizzicato", 45},
    {"choir", 52},
    {"voice", 53},
    {"vocals", 53},
    {"horn", 60},
    {"horns", 61},
    {"brass", 61},
    {"synth-brass", 62},
    {"sax", 65},
    {"saxophone", 65},
    {"lead", 80},
    {"synth-lead", 80},
    {"synth", 80},
    {"square", 80},
    {"saw", 81},
    {"sawtooth", 81},
    {"pad", 88},
    {"synth-pad", 89},
    {"warm-pad", 89},
    {"bagpipes", 109},
    {"tom", 117},
    {"cymbal", 119},
    {"fret-noise", 120},
});

// The GM name an exact name or alias means ("rhodes" → "electric-piano-1"), or "".
std::string_view canonical_name(std::string_view word) {
  const std::string key = detail::alnum_key(word);
  for (const auto& instrument : instruments) {
    if (detail::alnum_key(instrument.name) == key) return instrument.name;
  }
  for (const auto& [alias, program] : aliases) {
    if (detail::alnum_key(alias) == key) return names[static_cast<std::size_t>(program)];
  }
  return {};
}

// The instrument a word of the name stands for, last word first (the word that names the
// instrument: a bass clarinet is a clarinet): "vintage-rhodes" → electric-piano-1; "" when no
// word is one.
std::string_view instrument_in_words(std::string_view name) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    const bool separator = i == name.size() || name[i] == '-' || name[i] == '_' || name[i] == ' ';
    if (!separator) continue;
    if (i > start) words.push_back(name.substr(start, i - start));
    start = i + 1;
  }
  if (words.size() < 2) return {};
  for (auto word = words.rbegin(); word != words.rend(); ++word) {
    if (auto found = canonical_name(*word); !found.empty()) return found;
  }
  return {};
}

// Hints for a name that is none: the instrument a word of it names, then the closest names,
// aliases written as the GM names they stand for.
core::Error not_found(std::string_view name, std::string message) {
  std::vector<std::string> candidates(names.begin(), names.end());
  for (const auto& alias : aliases)
    candidates.emplace_back(alias.first);
  std::vector<std::string> hints;
  const auto add = [&](std::string_view hint) {
    if (!hint.empty() && std::find(hints.begin(), hints.end(), hint) == hints.end())
      hints.emplace_back(hint);
  };
  add(instrument_in_words(name));
  for (const auto& close : core::closest_matches(name, candidates))
    add(canonical_name(close));
  if (hints.empty()) hints = {"acoustic-grand-piano", "electric-bass-finger", "string-ensemble-1"};
  return core::make_error(std::move(message), std::move(hints));
}

core::Result<const Instrument*> by_program_param(std::string_view text, std::string_view digits) {
  const auto program = detail::parse_digits(digits);
  if (!program || *program > 127) {
    return core::make_error("program " + detail::quoted(text) +
                                " is out of range: programs are 0..127 (0 = acoustic-grand-piano)",
                            {"program:0", "program:127"});
  }
  return &instruments[*program];
}

core::Error bare_number(std::string_view text) {
  const auto number = detail::parse_digits(text);
  std::vector<std::string> hints;
  if (number && *number <= 127)
    hints.push_back("program:" + std::to_string(*number));  // 0-based, as sent
  if (number && *number >= 1 && *number <= 128)
    hints.push_back("program:" + std::to_string(*number - 1));  // a 1-based GM chart number
  std::string message = "instrument " + detail::quoted(text) + " is a bare number: write program:N";
  if (hints.size() == 2) {
    message += " (program:" + std::to_string(*number) + " is " +
               std::string(instruments[*number].name) + "; GM chart #" + std::string(text) +
               " is program:" + std::to_string(*number - 1) + ", " +
               std::string(instruments[*number - 1].name) + ")";
  }
  return core::make_error(std::move(message), std::move(hints));
}

core::Error ambiguous(std::string_view text, const std::vector<const Instrument*>& found) {
  constexpr std::size_t shown = 8;
  std::vector<std::string> hints;
  std::string list;
  for (std::size_t i = 0; i < found.size() && i < shown; ++i) {
    hints.emplace_back(found[i]->name);
    list += (list.empty() ? "" : ", ") + std::string(found[i]->name);
  }
  if (found.size() > shown) list += " (and " + std::to_string(found.size() - shown) + " more)";
  return core::make_error("instrument " + detail::quoted(text) + " is ambiguous: " + list,
                          std::move(hints));
}

// Unique prefix, else unique substring, of the letters-and-digits form of the names.
core::Result<const Instrument*> by_partial_name(std::string_view text, const std::string& key) {
  for (bool prefix_only : {true, false}) {
    std::vector<const Instrument*> found;
    for (const auto& instrument : instruments) {
      const std::string name = detail::alnum_key(instrument.name);
      const auto at = name.find(key);
      if (at != std::string::npos && (!prefix_only || at == 0)) found.push_back(&instrument);
    }
    if (found.size() == 1) return found.front();
    if (found.size() > 1) {
      return ambiguous(text, found);
    }
  }
  return not_found(text, "unknown instrument " + detail::quoted(text));
}

}  // namespace

std::span<const Instrument> gm_instruments() {
  return instruments;
}

std::span<const std::pair<std::string_view, int>> instrument_aliases() {
  return aliases;
}

std::span<const std::string_view> gm_families() {
  return families;
}

const Instrument* instrument_by_program(int program) {
  if (program < 0 || program > 127) return nullptr;
  return &instruments[static_cast<std::size_t>(program)];
}

core::Result<const Instrument*> find_instrument(std::string_view name) {
  std::string_view rest = name;
  if (detail::consume_prefix(rest, "program:")) return by_program_param(name, rest);
  if (detail::all_digits(name)) return bare_number(name);
  const std::string key = detail::alnum_key(name);
  if (key.empty()) return not_found(name, "empty instrument name");
  for (const auto& instrument : instruments) {
    if (detail::alnum_key(instrument.name) == key) return &instrument;
  }
  for (const auto& [alias, program] : aliases) {
    if (detail::alnum_key(alias) == key) return &instruments[static_cast<std::size_t>(program)];
  }
  if (drum_kit_program(name)) {
    return core::make_error(detail::quoted(name) +
                                " is a drum kit, not a melodic program: make it a drum track "
                                "(channel 10) and use drum names as pitches",
                            {"ch:10"});
  }
  return by_partial_name(name, key);
}

}  // namespace fcp::midi::theory
