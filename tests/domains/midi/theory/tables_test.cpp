// Drums, controllers and velocities: the small lookup tables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "domains/midi/theory/controllers.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/velocity.hpp"

namespace fcp::midi::theory {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

TEST(Drums, TheGmKeyMapCoversNotes35To81) {
  const auto notes = drum_notes();
  ASSERT_EQ(notes.size(), 47u);
  std::set<std::string_view> shown;
  for (std::size_t i = 0; i < notes.size(); ++i) {
    EXPECT_EQ(notes[i].pitch, 35 + static_cast<int>(i));
    EXPECT_EQ(drum_name(notes[i].pitch), notes[i].name);
    EXPECT_EQ(drum_pitch(notes[i].name), notes[i].pitch) << notes[i].name;
    EXPECT_EQ(drum_pitch(notes[i].gm_name), notes[i].pitch) << notes[i].gm_name;
    EXPECT_TRUE(shown.insert(notes[i].name).second) << "one name per note: " << notes[i].name;
  }
  EXPECT_EQ(drum_name(34), "");
  EXPECT_EQ(drum_name(82), "");
}

// One name per note in every reply and view: the drummer's word where there is one.
TEST(Drums, TheShownNameIsTheDrummersWord) {
  EXPECT_EQ(drum_name(36), "kick");
  EXPECT_EQ(drum_name(38), "snare");
  EXPECT_EQ(drum_name(42), "closed-hat");
  EXPECT_EQ(drum_name(46), "open-hat");
  EXPECT_EQ(drum_name(49), "crash");
  EXPECT_EQ(drum_name(51), "ride");
  EXPECT_EQ(drum_name(45), "low-tom");
  EXPECT_EQ(drum_pitch("bass-drum-1"), 36);
  EXPECT_EQ(drum_pitch("closed-hi-hat"), 42);
}

TEST(Drums, AliasesAndSpellings) {
  EXPECT_EQ(drum_pitch("kick"), 36);
  EXPECT_EQ(drum_pitch("Bass Drum"), 36);
  EXPECT_EQ(drum_pitch("snare"), 38);
  EXPECT_EQ(drum_pitch("clap"), 39);
  EXPECT_EQ(drum_pitch("closed-hat"), 42);
  EXPECT_EQ(drum_pitch("hihat"), 42);
  EXPECT_EQ(drum_pitch("hi-hat"), 42);
  EXPECT_EQ(drum_pitch("open-hat"), 46);
  EXPECT_EQ(drum_pitch("crash"), 49);
  EXPECT_EQ(drum_pitch("ride"), 51);
  EXPECT_EQ(drum_pitch("tom-low"), 45);
  EXPECT_EQ(drum_pitch("tom"), 50);
  EXPECT_EQ(drum_pitch("tamb"), 54);          // unique prefix
  EXPECT_EQ(drum_pitch("hi"), std::nullopt);  // hi-bongo, hi-hat, hi-mid-tom …
  EXPECT_EQ(drum_pitch("C4"), std::nullopt);
  for (const auto& [alias, pitch] : drum_aliases())
    EXPECT_EQ(drum_pitch(alias), pitch) << alias;
  const auto typo = find_drum("kik");
  ASSERT_FALSE(typo);
  EXPECT_THAT(typo.error().message, HasSubstr("unknown drum \"kik\""));
  EXPECT_THAT(typo.error().hints, Contains("kick"));
  EXPECT_THAT(typo.error().message, HasSubstr("midi_query drums"));
}

TEST(Drums, KitNames) {
  EXPECT_EQ(drum_kit_program("drums"), 0);
  EXPECT_EQ(drum_kit_program("Drum Kit"), 0);
  EXPECT_EQ(drum_kit_program("drum set"), 0);
  EXPECT_EQ(drum_kit_program("percussion"), 0);
  EXPECT_EQ(drum_kit_program("standard-kit"), 0);
  EXPECT_EQ(drum_kit_program("brush-kit"), 40);
  EXPECT_EQ(drum_kit_program("808"), 25);
  EXPECT_EQ(drum_kit_program("piano"), std::nullopt);
}

TEST(Controllers, TheReferenceNamesKeepTheirNumbers) {
  const std::vector<std::pair<std::string_view, int>> reference{
      {"modulation", 1},   {"breath", 2},         {"foot", 4},       {"portamento-time", 5},
      {"volume", 7},       {"balance", 8},        {"pan", 10},       {"expression", 11},
      {"sustain", 64},     {"portamento", 65},    {"sostenuto", 66}, {"soft-pedal", 67},
      {"legato", 68},      {"hold-2", 69},        {"resonance", 71}, {"release-time", 72},
      {"attack-time", 73}, {"brightness", 74},    {"reverb", 91},    {"tremolo", 92},
      {"chorus", 93},      {"detune", 94},        {"phaser", 95},    {"all-sound-off", 120},
      {"reset-all", 121},  {"all-notes-off", 123}};
  ASSERT_EQ(reference.size(), 26u);
  for (const auto& [name, cc] : reference) {
    EXPECT_EQ(parse_controller(name).value(), cc) << name;
    EXPECT_EQ(controller_name(cc), name);
  }
  EXPECT_GE(controller_names().size(), 26u);
  std::set<int> numbers;
  for (const auto& [name, cc] : controller_names()) {
    EXPECT_TRUE(numbers.insert(cc).second) << name;
    EXPECT_EQ(parse_controller(name).value(), cc) << name;
  }
}

TEST(Controllers, AliasesRawNumbersAndErrors) {
  EXPECT_EQ(parse_controller("Soft Pedal").value(), 67);
  EXPECT_EQ(parse_controller("VOLUME").value(), 7);
  EXPECT_EQ(parse_controller("mod").value(), 1);
  EXPECT_EQ(parse_controller("modwheel").value(), 1);
  EXPECT_EQ(parse_controller("damper").value(), 64);
  EXPECT_EQ(parse_controller("cutoff").value(), 74);
  EXPECT_EQ(parse_controller("cc:7").value(), 7);
  EXPECT_EQ(parse_controller("CC74").value(), 74);
  EXPECT_EQ(parse_controller("0").value(), 0);
  EXPECT_EQ(parse_controller("127").value(), 127);
  EXPECT_EQ(controller_name(3), "");
  const auto range = parse_controller("cc:128");
  EXPECT_THAT(range.error().message, HasSubstr("CC numbers are 0..127"));
  const auto typo = parse_controller("volme");
  EXPECT_THAT(typo.error().message, HasSubstr("unknown controller \"volme\""));
  EXPECT_THAT(typo.error().hints, Contains("volume"));
  for (const auto& hint : typo.error().hints)
    EXPECT_TRUE(parse_controller(hint)) << hint;
}

TEST(Velocity, NamesAndNumbers) {
  const std::vector<std::pair<std::string_view, int>> reference{{"ppp", 16}, {"pp", 33},  {"p", 49},
                                                                {"mp", 64},  {"mf", 80},  {"f", 96},
                                                                {"ff", 112}, {"fff", 127}};
  ASSERT_EQ(velocity_names().size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    EXPECT_EQ(velocity_names()[i], reference[i]);
    EXPECT_EQ(velocity_by_name(reference[i].first), reference[i].second);
    EXPECT_EQ(parse_velocity(reference[i].first).value(), reference[i].second);
  }
  EXPECT_EQ(velocity_by_name("MF"), 80);
  EXPECT_EQ(velocity_by_name("loud"), std::nullopt);
  EXPECT_EQ(parse_velocity("1").value(), 1);
  EXPECT_EQ(parse_velocity("127").value(), 127);
}

TEST(Velocity, ZeroAndOutOfRangeAreRefused) {
  EXPECT_THAT(parse_velocity("0").error().message, HasSubstr("silent note"));
  const auto high = parse_velocity("200");
  EXPECT_THAT(high.error().message, HasSubstr("velocity 200 is out of range (1..127)"));
  for (const auto& hint : high.error().hints)
    EXPECT_TRUE(parse_velocity(hint)) << hint;
  EXPECT_FALSE(parse_velocity("-5"));
  EXPECT_FALSE(parse_velocity("+5"));  // a change, not a velocity
  EXPECT_FALSE(parse_velocity("99999999999999999999"));
  const auto typo = parse_velocity("mff");
  EXPECT_THAT(typo.error().message, HasSubstr("unknown velocity \"mff\""));
  EXPECT_THAT(typo.error().hints, Contains("mf"));
}

}  // namespace
}  // namespace fcp::midi::theory
