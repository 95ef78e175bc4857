#include "domains/midi/theory/duration.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace fcp::midi::theory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Duration, NamesOfCommonValues) {
  EXPECT_EQ(duration_name(1920, 480), "whole");
  EXPECT_EQ(duration_name(480, 480), "quarter");
  EXPECT_EQ(duration_name(30, 480), "64th");
  EXPECT_EQ(duration_name(360, 480), "dotted-eighth");
  EXPECT_EQ(duration_name(160, 480), "triplet-eighth");
  EXPECT_EQ(duration_name(840, 480), "double-dotted-quarter");
  EXPECT_EQ(duration_name(96, 96), "quarter");
  EXPECT_EQ(duration_name(192, 480), "ticks:192");
  EXPECT_EQ(duration_name(1, 480), "ticks:1");
  EXPECT_EQ(duration_name(3840, 480), "ticks:3840");
}

class DurationNameRoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(DurationNameRoundTrip, EveryTickCountParsesBackFromItsName) {
  const int ppqn = GetParam();
  for (std::uint32_t ticks = 1; ticks <= static_cast<std::uint32_t>(8 * ppqn); ++ticks) {
    const std::string name = duration_name(ticks, ppqn);
    const auto parsed = parse_duration(name, ppqn);
    ASSERT_TRUE(parsed) << name << ": " << parsed.error().message;
    EXPECT_EQ(*parsed, ticks) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Ppqn, DurationNameRoundTrip, ::testing::Values(24, 96, 120, 480, 960));

// The same value reached through every family of spellings.
TEST(Duration, SpellingsOfOneValueAgree) {
  for (const char* eighth : {"eighth", "8n", "e", "8th", "quaver", "1/8", "ticks:240", "EIGHTH"})
    EXPECT_EQ(parse_duration(eighth, 480).value(), 240u) << eighth;
  for (const char* dotted : {"dotted-quarter", "quarter.", "4n.", "q.", "dotted-4n", "3/8"})
    EXPECT_EQ(parse_duration(dotted, 480).value(), 720u) << dotted;
  for (const char* triplet :
       {"triplet-eighth", "eighth-triplet", "8t", "8nt", "8n/3", "8n/3:2", "triplet-8n", "1/12"})
    EXPECT_EQ(parse_duration(triplet, 480).value(), 160u) << triplet;
  for (const char* quintuplet : {"quintuplet-eighth", "eighth-quintuplet", "8n/5", "8n/5:4"})
    EXPECT_EQ(parse_duration(quintuplet, 480).value(), 192u) << quintuplet;
}

TEST(Duration, TupletDefaultRatioIsTheLargestPowerOfTwoBelow) {
  EXPECT_EQ(parse_duration("4n/3", 480).value(), 320u);  // 3 in 2
  EXPECT_EQ(parse_duration("4n/5", 480).value(), 384u);  // 5 in 4
  EXPECT_EQ(parse_duration("4n/6", 480).value(), 320u);  // 6 in 4
  EXPECT_EQ(parse_duration("4n/7", 448).value(), 256u);  // 7 in 4
  EXPECT_EQ(parse_duration("4n/9", 576).value(), 512u);  // 9 in 8
  EXPECT_EQ(parse_duration("4n/7:8", 448).value(), 512u);
}

TEST(Duration, NonIntegralResultsNameTheFractionAndTheNearestTicks) {
  const auto result = parse_duration("8n/7", 480);
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message, HasSubstr("960/7 ticks at 480 PPQN"));
  EXPECT_THAT(result.error().hints, ElementsAre("ticks:137"));
  EXPECT_EQ(parse_duration(result.error().hints.front(), 480).value(), 137u);
}

TEST(Duration, ErrorHintsAreThemselvesValidDurations) {
  for (const char* bad : {"quater", "dotted-quater", "4", "", "4n...", "8n/2", "ticks:0", "1/7",
                          "xyz", "triplet-8t", "0/4", "8n/1"}) {
    const auto result = parse_duration(bad, 480);
    ASSERT_FALSE(result) << bad;
    ASSERT_FALSE(result.error().hints.empty()) << bad;
    for (const auto& hint : result.error().hints)
      EXPECT_TRUE(parse_duration(hint, 480)) << bad << " → " << hint;
  }
}

TEST(Duration, LargeValuesAreCheckedNotWrapped) {
  EXPECT_EQ(parse_duration("ticks:4294967295", 480).value(), 4294967295u);
  EXPECT_FALSE(parse_duration("ticks:4294967296", 480));
  EXPECT_EQ(parse_duration("1000000/1", 480).value(), 1'920'000'000u);
  EXPECT_EQ(parse_duration("1000000/1", 960).value(), 3'840'000'000u);
  EXPECT_THAT(parse_duration("1000000/1", 2000).error().message, HasSubstr("too long"));
}

TEST(Duration, CanonicalNamesForHelp) {
  EXPECT_THAT(duration_names(),
              ElementsAre("whole", "half", "quarter", "eighth", "sixteenth", "32nd", "64th"));
}

}  // namespace
}  // namespace fcp::midi::theory
