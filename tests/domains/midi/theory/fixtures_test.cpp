// Runs the parse fixtures in fixtures/midi/parse/*.json: each entry is {"input", "expect"} or
// {"input", "error": substring, "hint"?: one expected hint}, with optional context fields.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/json/src.hpp>  // header-only Boost.JSON: this is the one TU that compiles it
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "domains/midi/theory/chords.hpp"
#include "domains/midi/theory/duration.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/position.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::midi::theory {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using ::testing::Contains;
using ::testing::HasSubstr;

using fcp::testing::source_dir;

json::array load(const std::string& name) {
  const fs::path path = source_dir() / "fixtures" / "midi" / "parse" / name;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).as_array();
}

std::string text_of(const json::value& value) {
  return std::string(value.as_string());
}

std::int64_t int_or(const json::object& entry, std::string_view key, std::int64_t fallback) {
  const auto* value = entry.if_contains(key);
  return value != nullptr ? value->to_number<std::int64_t>() : fallback;
}

// An entry that failed: the fixture must expect an error with this message (and hint).
void expect_error(const json::object& entry, const core::Error& error) {
  ASSERT_TRUE(entry.contains("error")) << "unexpected error: " << error.message;
  EXPECT_THAT(error.message, HasSubstr(text_of(entry.at("error"))));
  if (const auto* hint = entry.if_contains("hint")) {
    EXPECT_THAT(error.hints, Contains(text_of(*hint)));
  }
}

template <class T>
void expect_number(const json::object& entry, const core::Result<T>& result) {
  if (!result) return expect_error(entry, result.error());
  ASSERT_TRUE(entry.contains("expect")) << "expected an error, got " << *result;
  EXPECT_EQ(static_cast<std::int64_t>(*result), entry.at("expect").to_number<std::int64_t>());
}

// Runs `check` on every entry of a fixture file, which must hold at least `minimum` entries
// and both successes and errors.
template <class Check>
void run_fixture(const std::string& name, std::size_t minimum, Check check) {
  const json::array entries = load(name);
  EXPECT_GE(entries.size(), minimum) << name;
  std::size_t errors = 0;
  for (const json::value& value : entries) {
    const json::object& entry = value.as_object();
    SCOPED_TRACE(name + ": " + json::serialize(entry));
    if (entry.contains("error")) ++errors;
    check(entry, text_of(entry.at("input")));
  }
  EXPECT_GT(errors, 0u) << name;
  EXPECT_LT(errors, entries.size()) << name;
}

TEST(ParseFixtures, Pitch) {
  run_fixture("pitch.json", 30, [](const json::object& entry, const std::string& input) {
    expect_number(entry, parse_pitch(input));
  });
}

TEST(ParseFixtures, Duration) {
  run_fixture("duration.json", 60, [](const json::object& entry, const std::string& input) {
    expect_number(entry, parse_duration(input, static_cast<int>(int_or(entry, "ppqn", 480))));
  });
}

TEST(ParseFixtures, Position) {
  run_fixture("position.json", 40, [](const json::object& entry, const std::string& input) {
    MeterMap meter(static_cast<int>(int_or(entry, "ppqn", 480)));
    if (const auto* changes = entry.if_contains("meter")) {
      for (const json::value& change : changes->as_array()) {
        const json::array& c = change.as_array();
        ASSERT_TRUE(meter.set(static_cast<int>(c.at(0).to_number<int>()), c.at(1).to_number<int>(),
                              c.at(2).to_number<int>()));
      }
    }
    std::optional<std::uint64_t> anchor;
    if (const auto* value = entry.if_contains("anchor")) anchor = value->to_number<std::uint64_t>();
    const auto song_end = static_cast<std::uint64_t>(int_or(entry, "song_end", 0));
    const auto tick = parse_position(input, meter, song_end, anchor);
    expect_number(entry, tick);
    if (tick && !input.starts_with("tick") && input.find('.') != std::string::npos) {
      EXPECT_EQ(parse_position(format_position(*tick, meter), meter, 0).value(), *tick);
    }
  });
}

void expect_chord(const json::object& expect, const Chord& chord) {
  if (const auto* v = expect.if_contains("symbol")) {
    EXPECT_EQ(chord.symbol, text_of(*v));
  }
  if (const auto* v = expect.if_contains("root")) {
    EXPECT_EQ(chord.root, v->to_number<int>());
  }
  if (const auto* v = expect.if_contains("quality")) {
    EXPECT_EQ(chord.quality, text_of(*v));
  }
  if (const auto* v = expect.if_contains("intervals")) {
    EXPECT_EQ(chord.intervals, json::value_to<std::vector<int>>(*v));
  }
  if (const auto* v = expect.if_contains("bass")) {
    if (v->is_null()) {
      EXPECT_FALSE(chord.bass.has_value());
    } else {
      EXPECT_EQ(chord.bass, std::optional<int>(v->to_number<int>()));
    }
  }
}

TEST(ParseFixtures, Chord) {
  run_fixture("chord.json", 60, [](const json::object& entry, const std::string& input) {
    const auto chord = parse_chord(input);
    if (!chord) return expect_error(entry, chord.error());
    const auto* voicing_text = entry.if_contains("voicing");
    const auto voicing = voicing_text ? parse_voicing(text_of(*voicing_text)) : Voicing::close;
    ASSERT_TRUE(voicing.has_value());
    const auto pitches = voice_chord(*chord, static_cast<int>(int_or(entry, "octave", 4)),
                                     static_cast<int>(int_or(entry, "inversion", 0)), *voicing);
    if (!pitches) return expect_error(entry, pitches.error());
    ASSERT_TRUE(entry.contains("expect")) << "expected an error, got " << chord->symbol;
    const json::object& expect = entry.at("expect").as_object();
    expect_chord(expect, *chord);
    if (const auto* v = expect.if_contains("pitches")) {
      EXPECT_EQ(*pitches, json::value_to<std::vector<int>>(*v));
    }
  });
}

}  // namespace
}  // namespace fcp::midi::theory
