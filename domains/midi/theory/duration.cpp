#include "domains/midi/theory/duration.hpp"

#include <array>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

#include "core/resolve.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

// A length as a fraction of a whole note.
struct Ratio {
  std::uint64_t num = 1;
  std::uint64_t den = 1;
};

struct NoteValue {
  std::string_view name;
  std::uint64_t den;  // the note is 1/den of a whole note
};

constexpr std::array<NoteValue, 30> note_values{{
    {"whole", 1},
    {"half", 2},
    {"quarter", 4},
    {"eighth", 8},
    {"sixteenth", 16},
    {"32nd", 32},
    {"64th", 64},
    {"w", 1},
    {"h", 2},
    {"q", 4},
    {"e", 8},
    {"s", 16},
    {"1n", 1},
    {"2n", 2},
    {"4n", 4},
    {"8n", 8},
    {"16n", 16},
    {"32n", 32},
    {"64n", 64},
    {"8th", 8},
    {"16th", 16},
    {"thirty-second", 32},
    {"sixty-fourth", 64},
    {"semibreve", 1},
    {"minim", 2},
    {"crotchet", 4},
    {"quaver", 8},
    {"semiquaver", 16},
    {"demisemiquaver", 32},
    {"hemidemisemiquaver", 64},
}};

constexpr std::array<std::string_view, 7> canonical_names{"whole",     "half", "quarter", "eighth",
                                                          "sixteenth", "32nd", "64th"};

struct Tuplet {
  std::uint64_t notes;       // N notes …
  std::uint64_t in_time_of;  // … in the time of M
};

struct TupletWord {
  std::string_view word;
  Tuplet tuplet;
};

constexpr std::array<TupletWord, 5> tuplet_words{{{"triplet", {3, 2}},
                                                  {"duplet", {2, 3}},
                                                  {"quintuplet", {5, 4}},
                                                  {"sextuplet", {6, 4}},
                                                  {"septuplet", {7, 4}}}};

constexpr std::uint64_t max_tuplet = 128;

struct Modifiers {
  int dots = 0;
  std::optional<Tuplet> tuplet;
};

core::Error error_for(std::string_view text, const std::string& what,
                      std::vector<std::string> hints) {
  return core::make_error("duration " + detail::quoted(text) + " " + what, std::move(hints));
}

core::Result<void> add_dots(Modifiers& mods, int dots, std::string_view text) {
  if (mods.dots != 0 || dots > 2)
    return error_for(text, "has too many dots: use one dot form, at most two dots", {"4n..", "q."});
  mods.dots = dots;
  return {};
}

core::Result<void> add_tuplet(Modifiers& mods, Tuplet tuplet, std::string_view text) {
  if (mods.tuplet) return error_for(text, "names two tuplets: use one", {"triplet-eighth", "8n/5"});
  mods.tuplet = tuplet;
  return {};
}

// dotted-, double-dotted-, triplet-, quintuplet-, … in any order, each kind once.
core::Result<void> take_prefixes(std::string_view& rest, Modifiers& mods, std::string_view text) {
  for (;;) {
    if (detail::consume_prefix(rest, "double-dotted-")) {
      if (auto done = add_dots(mods, 2, text); !done) return done.error();
      continue;
    }
    if (detail::consume_prefix(rest, "dotted-")) {
      if (auto done = add_dots(mods, 1, text); !done) return done.error();
      continue;
    }
    bool found = false;
    for (const auto& [word, tuplet] : tuplet_words) {
      if (rest.size() > word.size() + 1 && rest.substr(0, word.size()) == word &&
          rest[word.size()] == '-') {
        rest.remove_prefix(word.size() + 1);
        if (auto done = add_tuplet(mods, tuplet, text); !done) return done.error();
        found = true;
        break;
      }
    }
    if (!found) return {};
  }
}

std::uint64_t largest_power_of_two_below(std::uint64_t n) {
  std::uint64_t m = 1;
  while (m * 2 < n)
    m *= 2;
  return m;
}

// "N" or "N:M" after the '/' of X/N.
core::Result<Tuplet> parse_tuplet_ratio(std::string_view spec, std::string_view text) {
  const auto colon = spec.find(':');
  const auto notes = detail::parse_digits(spec.substr(0, colon));
  const auto in_time_of = colon == std::string_view::npos
                              ? std::optional<std::uint64_t>()
                              : detail::parse_digits(spec.substr(colon + 1));
  const bool bad_ratio = colon != std::string_view::npos &&
                         (!in_time_of || *in_time_of == 0 || *in_time_of > max_tuplet);
  if (!notes || *notes < 2 || *notes > max_tuplet || bad_ratio) {
    return error_for(text,
                     "has a bad tuplet: write X/N (N = 3.." + std::to_string(max_tuplet) +
                         ") or X/N:M (N notes in the time of M)",
                     {"8n/3", "8n/5", "4n/2:3"});
  }
  if (in_time_of) return Tuplet{*notes, *in_time_of};
  if (*notes == 2)
    return error_for(text, "needs its ratio: a duplet is 2 notes in the time of how many?",
                     {std::string(text) + ":3"});
  return Tuplet{*notes, largest_power_of_two_below(*notes)};
}

core::Result<void> strip_dots(std::string_view& core, Modifiers& mods, std::string_view text) {
  int dots = 0;
  while (!core.empty() && core.back() == '.') {
    core.remove_suffix(1);
    ++dots;
  }
  if (dots == 0) return {};
  return add_dots(mods, dots, text);
}

// One tuplet suffix: X/N[:M] or X-triplet, X-quintuplet, ….
core::Result<void> strip_tuplet(std::string_view& core, Modifiers& mods, std::string_view text) {
  if (const auto slash = core.rfind('/'); slash != std::string_view::npos) {
    const auto tuplet = parse_tuplet_ratio(core.substr(slash + 1), text);
    if (!tuplet) return tuplet.error();
    core = core.substr(0, slash);
    return add_tuplet(mods, *tuplet, text);
  }
  for (const auto& [word, tuplet] : tuplet_words) {
    if (core.size() > word.size() + 1 && core.substr(core.size() - word.size()) == word &&
        core[core.size() - word.size() - 1] == '-') {
      core.remove_suffix(word.size() + 1);
      return add_tuplet(mods, tuplet, text);
    }
  }
  return {};
}

// Strips the suffix modifiers off `core` and returns the note-value name left: dots, a tuplet
// suffix, dots again ("8n/3." and "8n./3" both work), and the triplet shorthand Nt / Nnt.
core::Result<std::string> take_suffixes(std::string_view& core, Modifiers& mods,
                                        std::string_view text) {
  if (auto done = strip_dots(core, mods, text); !done) return done.error();
  if (auto done = strip_tuplet(core, mods, text); !done) return done.error();
  if (auto done = strip_dots(core, mods, text); !done) return done.error();
  std::string_view digits = core;
  if (digits.size() >= 2 && digits.back() == 't') {
    digits.remove_suffix(1);
    detail::consume_suffix(digits, "n");
    if (detail::all_digits(digits)) {
      if (auto done = add_tuplet(mods, Tuplet{3, 2}, text); !done) return done.error();
      return std::string(digits) + "n";
    }
  }
  return std::string(core);
}

std::optional<std::uint64_t> note_value_den(std::string_view name) {
  for (const auto& value : note_values) {
    if (value.name == name) return value.den;
  }
  return std::nullopt;
}

core::Error unknown_duration(std::string_view text, std::string_view prefix, std::string_view base,
                             std::string_view suffix) {
  std::vector<std::string> names;
  for (const auto& value : note_values)
    names.emplace_back(value.name);
  std::vector<std::string> hints;
  for (const auto& match : core::closest_matches(base, names))
    hints.push_back(std::string(prefix) + match + std::string(suffix));
  if (hints.empty()) hints = {"quarter", "8n", "dotted-quarter", "triplet-eighth", "ticks:240"};
  return core::make_error("unknown duration " + detail::quoted(text), std::move(hints));
}

Ratio apply(Ratio ratio, const Modifiers& mods) {
  if (mods.dots == 1) ratio = {ratio.num * 3, ratio.den * 2};
  if (mods.dots == 2) ratio = {ratio.num * 7, ratio.den * 4};
  if (mods.tuplet) ratio = {ratio.num * mods.tuplet->in_time_of, ratio.den * mods.tuplet->notes};
  return ratio;
}

core::Result<Ratio> parse_note_value(std::string_view text, std::string_view lowered) {
  Modifiers mods;
  std::string_view rest = lowered;
  if (auto done = take_prefixes(rest, mods, text); !done) return done.error();
  const std::string_view prefix = lowered.substr(0, lowered.size() - rest.size());
  std::string_view core = rest;
  const auto base = take_suffixes(core, mods, text);
  if (!base) return base.error();
  const auto den = note_value_den(*base);
  if (!den) return unknown_duration(text, prefix, core, rest.substr(core.size()));
  return apply(Ratio{1, *den}, mods);
}

// "A/B" with plain numbers on both sides: a fraction of a whole note.
std::optional<core::Result<Ratio>> parse_fraction(std::string_view text, std::string_view s) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos || !detail::all_digits(s.substr(0, slash))) return {};
  const auto num = detail::parse_digits(s.substr(0, slash));
  const auto den = detail::parse_digits(s.substr(slash + 1));
  constexpr std::uint64_t limit = 1'000'000;
  if (!num || !den || *num == 0 || *den == 0 || *num > limit || *den > limit) {
    return error_for(text, "is not a fraction of a whole note: write A/B with A, B in 1..1000000",
                     {"1/4", "3/8"});
  }
  return Ratio{*num, *den};
}

core::Result<std::uint32_t> ticks_of(std::string_view text, Ratio ratio, int ppqn) {
  const std::uint64_t whole = 4 * static_cast<std::uint64_t>(ppqn);
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(whole, ratio.num, &total) ||
      total / ratio.den > std::numeric_limits<std::uint32_t>::max()) {
    return error_for(text, "is too long: at most 4294967295 ticks",
                     {"whole", "ticks:" + std::to_string(whole)});
  }
  if (total % ratio.den != 0) {
    const std::uint64_t g = std::gcd(total, ratio.den);
    const std::uint64_t nearest = std::max<std::uint64_t>(1, (total + ratio.den / 2) / ratio.den);
    return error_for(text,
                     "is " + std::to_string(total / g) + "/" + std::to_string(ratio.den / g) +
                         " ticks at " + std::to_string(ppqn) + " PPQN, not a whole number",
                     {"ticks:" + std::to_string(nearest)});
  }
  return static_cast<std::uint32_t>(total / ratio.den);
}

core::Result<std::uint32_t> parse_raw_ticks(std::string_view text, std::string_view digits) {
  const auto ticks = detail::parse_digits(digits);
  if (!ticks || *ticks == 0 || *ticks > std::numeric_limits<std::uint32_t>::max())
    return error_for(text, "needs a tick count from 1 to 4294967295", {"ticks:240", "ticks:480"});
  return static_cast<std::uint32_t>(*ticks);
}

core::Error plain_number(std::string_view text) {
  std::vector<std::string> hints;
  if (note_value_den(std::string(text) + "n")) hints.push_back(std::string(text) + "n");
  hints.push_back("ticks:" + std::string(text));
  return error_for(text, "is a plain number: say 4n for a quarter note or ticks:N for ticks",
                   std::move(hints));
}

}  // namespace

core::Result<std::uint32_t> parse_duration(std::string_view text, int ppqn) {
  if (ppqn < 1) return core::make_error("PPQN must be at least 1, got " + std::to_string(ppqn));
  if (text.empty())
    return core::make_error("empty duration", {"quarter", "8n", "dotted-quarter", "ticks:240"});
  std::string lowered = detail::lower(text);
  for (char& c : lowered) {
    if (c == '_') c = '-';
  }
  std::string_view s = lowered;
  if (detail::consume_prefix(s, "ticks:") || detail::consume_prefix(s, "tick:"))
    return parse_raw_ticks(text, s);
  if (detail::all_digits(s)) return plain_number(text);
  if (auto fraction = parse_fraction(text, s)) {
    if (!*fraction) return fraction->error();
    return ticks_of(text, **fraction, ppqn);
  }
  const auto ratio = parse_note_value(text, s);
  if (!ratio) return ratio.error();
  return ticks_of(text, *ratio, ppqn);
}

std::string duration_name(std::uint32_t ticks, int ppqn) {
  struct Family {
    std::string_view prefix;
    std::uint64_t num;
    std::uint64_t den;
  };
  constexpr std::array<Family, 4> families{
      {{"", 1, 1}, {"dotted-", 3, 2}, {"triplet-", 2, 3}, {"double-dotted-", 7, 4}}};
  const std::uint64_t whole = 4 * static_cast<std::uint64_t>(ppqn > 0 ? ppqn : 1);
  for (const auto& family : families) {
    for (std::size_t i = 0; i < canonical_names.size(); ++i) {
      const std::uint64_t den = (std::uint64_t{1} << i) * family.den;
      const std::uint64_t total = whole * family.num;
      if (total % den == 0 && total / den == ticks)
        return std::string(family.prefix) + std::string(canonical_names[i]);
    }
  }
  return "ticks:" + std::to_string(ticks);
}

std::span<const std::string_view> duration_names() {
  return canonical_names;
}

}  // namespace fcp::midi::theory
