#include "domains/midi/theory/pitch.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fcp::midi::theory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Pitch, NamesUseSharpsAndScientificOctaves) {
  EXPECT_EQ(pitch_name(60), "C4");
  EXPECT_EQ(pitch_name(61), "C#4");
  EXPECT_EQ(pitch_name(0), "C-1");
  EXPECT_EQ(pitch_name(11), "B-1");
  EXPECT_EQ(pitch_name(12), "C0");
  EXPECT_EQ(pitch_name(70), "A#4");
  EXPECT_EQ(pitch_name(127), "G9");
  EXPECT_EQ(pitch_name(128), "midi:128");
  EXPECT_EQ(pitch_name(-1), "midi:-1");
}

TEST(Pitch, FlatSpellingsAndWhatANameIsWrittenWith) {
  EXPECT_EQ(pitch_name(63, Accidentals::flats), "Eb4");
  EXPECT_EQ(pitch_name(70, Accidentals::flats), "Bb4");
  EXPECT_EQ(pitch_name(60, Accidentals::flats), "C4");
  EXPECT_EQ(pitch_class_name(8, Accidentals::flats), "Ab");
  for (int midi = lowest_pitch; midi <= highest_pitch; ++midi)
    EXPECT_EQ(parse_pitch(pitch_name(midi, Accidentals::flats)).value(), midi) << midi;
  EXPECT_EQ(written_accidentals("Eb2"), Accidentals::flats);
  EXPECT_EQ(written_accidentals("bbm7"), Accidentals::flats);  // B flat minor 7
  EXPECT_EQ(written_accidentals("F#3"), Accidentals::sharps);
  EXPECT_EQ(written_accidentals("C4"), std::nullopt);
  EXPECT_EQ(written_accidentals("Bm"), std::nullopt);
  EXPECT_EQ(written_accidentals("midi:63"), std::nullopt);
}

TEST(Pitch, EveryNoteNumberRoundTripsThroughItsName) {
  for (int midi = lowest_pitch; midi <= highest_pitch; ++midi) {
    const auto parsed = parse_pitch(pitch_name(midi));
    ASSERT_TRUE(parsed) << pitch_name(midi) << ": " << parsed.error().message;
    EXPECT_EQ(*parsed, midi);
    EXPECT_EQ(parse_pitch("midi:" + std::to_string(midi)).value(), midi);
    EXPECT_EQ(parse_pitch(std::to_string(midi)).value(), midi);
  }
}

TEST(Pitch, EnharmonicSpellingsAgree) {
  EXPECT_EQ(parse_pitch("C#4").value(), parse_pitch("Db4").value());
  EXPECT_EQ(parse_pitch("E#4").value(), parse_pitch("F4").value());
  EXPECT_EQ(parse_pitch("Fb4").value(), parse_pitch("E4").value());
  EXPECT_EQ(parse_pitch("B#3").value(), parse_pitch("C4").value());
  EXPECT_EQ(parse_pitch("Cb4").value(), parse_pitch("B3").value());
  EXPECT_EQ(parse_pitch("C##4").value(), parse_pitch("D4").value());
  EXPECT_EQ(parse_pitch("Dbb4").value(), parse_pitch("C4").value());
  EXPECT_EQ(parse_pitch("g#2").value(), parse_pitch("Ab2").value());
}

TEST(Pitch, OutOfRangeSuggestsTheSameNoteAnOctaveInside) {
  const auto high = parse_pitch("Ab9");
  ASSERT_FALSE(high);
  EXPECT_THAT(high.error().message, HasSubstr("MIDI 128"));
  EXPECT_THAT(high.error().hints, ElementsAre("Ab8"));
  EXPECT_EQ(parse_pitch(high.error().hints.front()).value(), 116);
  const auto low = parse_pitch("Cb-1");
  ASSERT_FALSE(low);
  EXPECT_THAT(low.error().hints, ElementsAre("Cb0"));
  EXPECT_THAT(parse_pitch("C99").error().message, HasSubstr("out of range"));
}

TEST(Pitch, ErrorsHavePasteableHints) {
  for (const char* bad : {"H4", "C", "midi:200", "", "x#4", "C4b"}) {
    const auto result = parse_pitch(bad);
    ASSERT_FALSE(result) << bad;
    ASSERT_FALSE(result.error().hints.empty()) << bad;
    for (const auto& hint : result.error().hints)
      EXPECT_TRUE(parse_pitch(hint)) << bad << " → " << hint;
  }
}

TEST(Pitch, PitchClasses) {
  EXPECT_EQ(parse_pitch_class("C"), 0);
  EXPECT_EQ(parse_pitch_class("f#"), 6);
  EXPECT_EQ(parse_pitch_class("Bb"), 10);
  EXPECT_EQ(parse_pitch_class("Cb"), 11);
  EXPECT_EQ(parse_pitch_class("B#"), 0);
  EXPECT_EQ(parse_pitch_class("Ebb"), 2);
  EXPECT_EQ(parse_pitch_class("C4"), std::nullopt);
  EXPECT_EQ(parse_pitch_class("H"), std::nullopt);
  EXPECT_EQ(parse_pitch_class(""), std::nullopt);
  EXPECT_EQ(pitch_class_name(1), "C#");
  EXPECT_EQ(pitch_class_name(13), "C#");
  EXPECT_EQ(pitch_class_name(-1), "B");
}

}  // namespace
}  // namespace fcp::midi::theory
