#include "domains/midi/theory/chords.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "domains/midi/theory/chord_table.hpp"

namespace fcp::midi::theory {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

TEST(Chords, QualitiesCoverTheReferenceAndTheAdditions) {
  const auto qualities = chord_qualities();
  const std::vector<std::string_view> reference{"maj", "m",    "7",    "maj7", "m7",   "dim",
                                                "aug", "sus2", "sus4", "add9", "m7b5", "dim7",
                                                "9",   "m9",   "6",    "m6"};
  EXPECT_TRUE(std::equal(reference.begin(), reference.end(), qualities.begin()));
  EXPECT_THAT(std::vector<std::string_view>(qualities.begin(), qualities.end()),
              IsSupersetOf({"maj9", "11", "13", "7sus4", "add11", "7alt"}));
  const std::set<std::string_view> unique(qualities.begin(), qualities.end());
  EXPECT_EQ(unique.size(), qualities.size());
}

TEST(Chords, TheReferencesSixteenQualitiesHaveDistinctIntervals) {
  std::set<std::vector<int>> sets;
  for (std::size_t i = 0; i < 16; ++i)
    sets.insert(parse_chord("C" + std::string(chord_qualities()[i])).value().intervals);
  EXPECT_EQ(sets.size(), 16u);
}

TEST(Chords, EverySpellingNamesAKnownQualityAndEveryQualityParsesByName) {
  for (const auto& spelling : detail::chord_spelling_table()) {
    const auto chord = parse_chord("C" + std::string(spelling.text));
    ASSERT_TRUE(chord) << spelling.text << ": " << chord.error().message;
    EXPECT_EQ(chord->quality, spelling.quality) << spelling.text;
  }
  for (const auto& quality : detail::chord_quality_table()) {
    ASSERT_GT(quality.size, 0u);
    EXPECT_TRUE(std::is_sorted(quality.intervals.begin(),
                               quality.intervals.begin() + static_cast<long>(quality.size)))
        << quality.name;
    const auto chord = parse_chord("Eb" + std::string(quality.name)).value();
    EXPECT_EQ(chord.quality, quality.name);
    EXPECT_EQ(chord.intervals.front(), 0);
    EXPECT_EQ(parse_chord(chord.symbol).value().quality, quality.name) << chord.symbol;
  }
}

TEST(Chords, SymbolsAreCanonicalAndReparse) {
  for (const char* text : {"c", "am", "Bbmaj7", "f#m7b5/e", "EbΔ9", "G°7", "Dsus", "A-7/G"}) {
    const Chord chord = parse_chord(text).value();
    const Chord again = parse_chord(chord.symbol).value();
    EXPECT_EQ(again.symbol, chord.symbol) << text;
    EXPECT_EQ(again.intervals, chord.intervals) << text;
    EXPECT_EQ(again.bass, chord.bass) << text;
  }
  EXPECT_EQ(parse_chord("f#m7b5/e").value().symbol, "F#m7b5/E");
  EXPECT_EQ(parse_chord("EbΔ9").value().symbol, "Ebmaj9");
}

// Every quality in every inversion and voicing keeps its pitch classes, puts the requested chord
// tone lowest (close voicing) and sorts its pitches.
TEST(Chords, VoicingsKeepThePitchClasses) {
  for (const auto name : chord_qualities()) {
    const Chord chord = parse_chord("D" + std::string(name)).value();
    std::set<int> classes;
    for (int interval : chord.intervals)
      classes.insert((chord.root + interval) % 12);
    for (int inversion = 0; inversion < static_cast<int>(chord.intervals.size()); ++inversion) {
      for (const auto voicing_name : voicing_names()) {
        const Voicing voicing = parse_voicing(voicing_name).value();
        const auto pitches = voice_chord(chord, 3, inversion, voicing);
        if (!pitches) {
          EXPECT_THAT(pitches.error().message, HasSubstr("needs")) << chord.symbol;
          continue;
        }
        ASSERT_EQ(pitches->size(), chord.intervals.size()) << chord.symbol;
        EXPECT_TRUE(std::is_sorted(pitches->begin(), pitches->end())) << chord.symbol;
        std::set<int> got;
        for (int p : *pitches)
          got.insert(p % 12);
        EXPECT_EQ(got, classes) << chord.symbol << " inv " << inversion << " " << voicing_name;
        if (voicing == Voicing::close) {
          EXPECT_EQ(pitches->front() % 12, (chord.root + chord.intervals[inversion]) % 12);
        }
      }
    }
  }
}

TEST(Chords, SlashBassGoesBelowEveryVoicing) {
  const Chord chord = parse_chord("Cmaj7/D").value();
  for (const auto voicing_name : voicing_names()) {
    const auto pitches = voice_chord(chord, 4, 1, parse_voicing(voicing_name).value()).value();
    EXPECT_EQ(pitches.front() % 12, 2) << voicing_name;
    EXPECT_LT(pitches.front(), pitches[1]);
    EXPECT_GE(pitches.front(), pitches[1] - 12);
  }
  // The bass pitch class leaves the upper voices (the reference does the same).
  EXPECT_THAT(voice_chord(parse_chord("C/E").value(), 4).value(), ElementsAre(52, 60, 67));
}

TEST(Chords, ParseVoicing) {
  EXPECT_EQ(parse_voicing("close"), Voicing::close);
  EXPECT_EQ(parse_voicing("OPEN"), Voicing::open);
  EXPECT_EQ(parse_voicing("drop-2"), Voicing::drop2);
  EXPECT_EQ(parse_voicing("drop3"), Voicing::drop3);
  EXPECT_EQ(parse_voicing("spread"), Voicing::spread);
  EXPECT_EQ(parse_voicing("wide"), std::nullopt);
  EXPECT_EQ(voicing_name(Voicing::drop2), "drop2");
}

TEST(Chords, ErrorsSuggestWholeSymbols) {
  const auto quality = parse_chord("Am7b9x");
  ASSERT_FALSE(quality);
  EXPECT_THAT(quality.error().message, HasSubstr("unknown chord quality \"m7b9x\""));
  for (const auto& hint : quality.error().hints)
    EXPECT_TRUE(parse_chord(hint)) << hint;
  const auto bass = parse_chord("G7/X");
  ASSERT_FALSE(bass);
  EXPECT_THAT(bass.error().hints, ElementsAre("G7/B", "G7/D"));
  EXPECT_THAT(parse_chord("Xm").error().hints, Contains("Am7"));
  // German H is B: the suggestion is the chord meant, not an example.
  EXPECT_THAT(parse_chord("Hm7").error().hints, ElementsAre("Bm7"));
  EXPECT_THAT(parse_chord("C/H").error().hints, Contains("C/B"));
}

}  // namespace
}  // namespace fcp::midi::theory
