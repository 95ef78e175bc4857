// Bars as durations: N bars from a position by the meter in force, and their names.
#include "domains/midi/theory/bars.hpp"

#include <gtest/gtest.h>

namespace fcp::midi::theory {
namespace {

constexpr std::uint64_t kBar44 = 1920, kBar34 = 1440;

// 4/4 for bars 1-4, 3/4 from bar 5 (tick 7680), at 480 PPQN.
MeterMap four_then_three() {
  MeterMap meter(480);
  EXPECT_TRUE(meter.set(5, 3, 4));
  return meter;
}

std::uint32_t bars(std::string_view text, std::uint64_t start) {
  const MeterMap meter = four_then_three();
  auto ticks = parse_bar_duration(text, meter, start);
  EXPECT_TRUE(ticks.has_value()) << text;
  if (!ticks) return 0;
  EXPECT_TRUE(ticks->has_value()) << text << ": " << ticks->error().message;
  return ticks->has_value() ? **ticks : 0;
}

TEST(BarDuration, FormsAndTheMeterWhereTheyStart) {
  EXPECT_EQ(bars("bar", 0), kBar44);
  EXPECT_EQ(bars("1bar", 0), kBar44);
  EXPECT_EQ(bars("2bars", 0), 2 * kBar44);
  EXPECT_EQ(bars("2-Bars", 0), 2 * kBar44);
  EXPECT_EQ(bars("2_bars", 0), 2 * kBar44);
  EXPECT_EQ(bars("3measures", 0), 3 * kBar44);
  EXPECT_EQ(bars("bar", 4 * kBar44), kBar34);             // bar 5 is in 3/4
  EXPECT_EQ(bars("2bars", 3 * kBar44), kBar44 + kBar34);  // bars 4 and 5
  EXPECT_EQ(bars("half-bar", 0), kBar44 / 2);
  EXPECT_EQ(bars("half-bar", 4 * kBar44 + 480), kBar34 / 2);
}

TEST(BarDuration, FromInsideABarToTheSameOffsetAtMostToThatBarsEnd) {
  // From 4.4 (tick 7200) one bar on: 5.4 does not exist in 3/4, so the end of bar 5.
  EXPECT_EQ(bars("bar", 3 * kBar44 + 3 * 480), 480 + kBar34);
  EXPECT_EQ(bars("bar", 3 * kBar44 + 480), kBar44);  // 4.2 → 5.2
}

TEST(BarDuration, OtherWordsAreNotBarsAndBadCountsAreErrors) {
  const MeterMap meter = four_then_three();
  EXPECT_FALSE(parse_bar_duration("quarter", meter, 0).has_value());
  EXPECT_FALSE(parse_bar_duration("crowbar", meter, 0).has_value());
  for (std::string_view bad : {"0bars", "bars", "10001bars"}) {
    auto ticks = parse_bar_duration(bad, meter, 0);
    ASSERT_TRUE(ticks.has_value()) << bad;
    ASSERT_FALSE(ticks->has_value()) << bad;
    EXPECT_EQ(ticks->error().hints, (std::vector<std::string>{"bar", "2bars"})) << bad;
  }
  MeterMap odd(1);  // 3/4 at 1 PPQN: a bar of 3 ticks has no half
  ASSERT_TRUE(odd.set(1, 3, 4));
  auto half = parse_bar_duration("half-bar", odd, 0);
  ASSERT_TRUE(half.has_value());
  EXPECT_FALSE(half->has_value());
}

TEST(BarDuration, NamesReadBack) {
  const MeterMap meter = four_then_three();
  EXPECT_EQ(bar_duration_name(2 * kBar44, meter, 0), "2bars");
  EXPECT_EQ(bar_duration_name(kBar44 + kBar34, meter, 3 * kBar44), "2bars");
  EXPECT_EQ(bar_duration_name(kBar34, meter, 4 * kBar44), "bar");
  EXPECT_EQ(bar_duration_name(kBar44 / 2, meter, 0), "half-bar");
  EXPECT_EQ(bar_duration_name(kBar44 + 1, meter, 0), std::nullopt);
  for (std::uint64_t start : {std::uint64_t{0}, 3 * kBar44, 3 * kBar44 + 480}) {
    for (std::string_view text : {"bar", "2bars", "7bars"}) {
      const auto name = bar_duration_name(bars(text, start), meter, start);
      ASSERT_TRUE(name.has_value()) << text;
      EXPECT_EQ(bars(*name, start), bars(text, start)) << text << " from " << start;
    }
  }
}

}  // namespace
}  // namespace fcp::midi::theory
