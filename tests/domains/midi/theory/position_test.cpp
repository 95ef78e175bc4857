#include "domains/midi/theory/position.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fcp::midi::theory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

MeterMap mixed_meter() {
  MeterMap meter(480);
  EXPECT_TRUE(meter.set(3, 3, 4));
  EXPECT_TRUE(meter.set(5, 7, 8));
  EXPECT_TRUE(meter.set(6, 2, 2));
  return meter;
}

TEST(Position, FormatsBeatsAndTicks) {
  const MeterMap meter = mixed_meter();
  EXPECT_EQ(format_position(0, meter), "1.1");
  EXPECT_EQ(format_position(480, meter), "1.2");
  EXPECT_EQ(format_position(600, meter), "1.2.120");
  EXPECT_EQ(format_position(3840, meter), "3.1");
  EXPECT_EQ(format_position(5280 + 1440 + 240, meter), "5.2");         // 7/8 beats are eighths
  EXPECT_EQ(format_position(5280 + 1440 + 1680 + 960, meter), "6.2");  // 2/2 beats are halves
}

TEST(Position, EveryTickRoundTripsAcrossMeterChanges) {
  const MeterMap meter = mixed_meter();
  for (std::uint64_t tick = 0; tick < 20000; tick += 7) {
    const std::string text = format_position(tick, meter);
    const auto parsed = parse_position(text, meter, 0);
    ASSERT_TRUE(parsed) << text << ": " << parsed.error().message;
    EXPECT_EQ(*parsed, tick) << text;
  }
}

TEST(Position, BeatsMustLieInsideTheirBar) {
  const MeterMap meter = mixed_meter();
  const auto result = parse_position("3.4", meter, 0);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "beat 4 is outside bar 3 (3/4 has 3 beats)");
  EXPECT_THAT(result.error().hints, ElementsAre("4.1", "3.3"));
  EXPECT_TRUE(parse_position("5.7", meter, 0));
  EXPECT_THAT(parse_position("5.8", meter, 0).error().message, HasSubstr("(7/8 has 7 beats)"));
  EXPECT_THAT(parse_position("6.2.959", meter, 0).value(), 5280u + 1440 + 1680 + 960 + 959);
  EXPECT_THAT(parse_position("6.2.960", meter, 0).error().message,
              HasSubstr("a beat of 2/2 is 960 ticks: 0..959"));
}

TEST(Position, RelativePositionsNeedAnAnchorAndStayAtOrAfterZero) {
  const MeterMap meter(480);
  EXPECT_EQ(parse_position("+quarter", meter, 0, 100).value(), 580u);
  EXPECT_EQ(parse_position("-ticks:100", meter, 0, 100).value(), 0u);
  EXPECT_THAT(parse_position("-ticks:101", meter, 0, 100).error().message,
              HasSubstr("falls before the start of the song"));
  const auto no_anchor = parse_position("+quarter", meter, 0);
  EXPECT_THAT(no_anchor.error().message, HasSubstr("nothing to count from"));
  EXPECT_THAT(no_anchor.error().hints, ElementsAre("1.1", "tick:0", "end"));
}

TEST(Position, EndIsTheSongEnd) {
  const MeterMap meter(480);
  EXPECT_EQ(parse_position("end", meter, 12345).value(), 12345u);
  EXPECT_EQ(parse_position("End", meter, 0).value(), 0u);
}

TEST(Position, ErrorHintsParse) {
  const MeterMap meter = mixed_meter();
  for (const char* bad :
       {"3.4", "1.1.480", "0.1", "1.0", "7", "abc", "", "tick:x", "-whole", "+quater", "5.8"}) {
    const auto result = parse_position(bad, meter, 960, 480);
    ASSERT_FALSE(result) << bad;
    ASSERT_FALSE(result.error().hints.empty()) << bad;
    for (const auto& hint : result.error().hints)
      EXPECT_TRUE(parse_position(hint, meter, 960, 480)) << bad << " → " << hint;
  }
}

}  // namespace
}  // namespace fcp::midi::theory
