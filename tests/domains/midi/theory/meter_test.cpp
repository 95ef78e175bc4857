#include "domains/midi/theory/meter.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fcp::midi::theory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Signature = MeterMap::Signature;

TEST(Meter, StartsInFourFour) {
  const MeterMap meter(480);
  EXPECT_THAT(meter.changes(), ElementsAre(Signature{1, 0, 4, 4}));
  EXPECT_EQ(meter.ppqn(), 480);
  EXPECT_EQ(meter.bar_start(1), 0u);
  EXPECT_EQ(meter.bar_start(3), 3840u);
  EXPECT_EQ(meter.bar_ticks(7), 1920u);
  EXPECT_EQ(meter.beat_ticks(7), 480u);
  EXPECT_EQ(meter.bar_of(0), 1);
  EXPECT_EQ(meter.bar_of(1919), 1);
  EXPECT_EQ(meter.bar_of(1920), 2);
}

TEST(Meter, ChangesShiftTheBarsAfterThem) {
  MeterMap meter(480);
  ASSERT_TRUE(meter.set(3, 3, 4));  // bars 1-2: 4/4 (1920), from 3: 3/4 (1440)
  ASSERT_TRUE(meter.set(5, 6, 8));  // from 5: 6/8 (1440, beats of 240)
  EXPECT_THAT(meter.changes(), ElementsAre(Signature{1, 0, 4, 4}, Signature{3, 3840, 3, 4},
                                           Signature{5, 6720, 6, 8}));
  EXPECT_EQ(meter.bar_start(4), 5280u);
  EXPECT_EQ(meter.bar_start(6), 8160u);
  EXPECT_EQ(meter.beat_ticks(5), 240u);
  EXPECT_EQ(meter.bar_ticks(5), 1440u);
  EXPECT_EQ(meter.at_tick(3839).numerator, 4);
  EXPECT_EQ(meter.at_tick(3840).numerator, 3);
  EXPECT_EQ(meter.at_tick(1'000'000).denominator, 8);
  EXPECT_EQ(meter.bar_of(5279), 3);
  EXPECT_EQ(meter.bar_of(5280), 4);
  EXPECT_EQ(meter.bar_of(6720), 5);

  ASSERT_TRUE(meter.set(1, 2, 4));  // a shorter first bar moves every later change
  EXPECT_THAT(meter.changes(), ElementsAre(Signature{1, 0, 2, 4}, Signature{3, 1920, 3, 4},
                                           Signature{5, 4800, 6, 8}));
}

TEST(Meter, SetReplacesAndRemoveRestores) {
  MeterMap meter(480);
  ASSERT_TRUE(meter.set(2, 3, 4));
  ASSERT_TRUE(meter.set(2, 5, 4));
  EXPECT_THAT(meter.changes(), ElementsAre(Signature{1, 0, 4, 4}, Signature{2, 1920, 5, 4}));
  ASSERT_TRUE(meter.set(4, 7, 8));
  ASSERT_TRUE(meter.remove(2));
  EXPECT_THAT(meter.changes(), ElementsAre(Signature{1, 0, 4, 4}, Signature{4, 5760, 7, 8}));
  EXPECT_EQ(meter.bar_start(4), 5760u);
}

TEST(Meter, InvalidChangesAreRefusedWithHints) {
  MeterMap meter(480);
  EXPECT_THAT(meter.set(0, 4, 4).error().message, HasSubstr("bars start at 1"));
  EXPECT_THAT(meter.set(1, 0, 4).error().message, HasSubstr("numerator must be 1..255"));
  EXPECT_THAT(meter.set(1, 256, 4).error().message, HasSubstr("numerator"));
  const auto bad_den = meter.set(1, 3, 5);
  EXPECT_THAT(bad_den.error().message, HasSubstr("denominator must be 1, 2, 4, 8, 16, 32 or 64"));
  EXPECT_THAT(bad_den.error().hints, ElementsAre("3/4", "3/8"));
  EXPECT_FALSE(meter.set(1, 3, 128));
  EXPECT_THAT(meter.remove(1).error().message, HasSubstr("cannot be removed"));
  ASSERT_TRUE(meter.set(9, 3, 4));
  const auto missing = meter.remove(8);
  EXPECT_THAT(missing.error().message, HasSubstr("no time-signature change at bar 8"));
  EXPECT_THAT(missing.error().hints, ElementsAre("9"));
  EXPECT_THAT(meter.changes(), ElementsAre(Signature{1, 0, 4, 4}, Signature{9, 15360, 3, 4}));

  MeterMap coarse(100);  // 4*100 ticks do not split into 64ths
  EXPECT_THAT(coarse.set(1, 3, 64).error().message, HasSubstr("not a whole number of ticks"));
  EXPECT_TRUE(coarse.set(1, 3, 16));
}

TEST(Meter, ManyChangesStayConsistent) {
  MeterMap meter(96);
  std::uint64_t expected = 0;
  for (int bar = 1; bar <= 200; ++bar) {
    ASSERT_TRUE(meter.set(bar, bar % 7 + 1, 1 << (bar % 4 + 1)));
  }
  for (int bar = 1; bar <= 250; ++bar) {
    EXPECT_EQ(meter.bar_start(bar), expected) << bar;
    EXPECT_EQ(meter.bar_of(expected), bar);
    EXPECT_EQ(meter.bar_of(expected + meter.bar_ticks(bar) - 1), bar);
    EXPECT_EQ(meter.at_tick(expected).bar, std::min(bar, 200));
    expected += meter.bar_ticks(bar);
  }
}

TEST(Meter, PpqnIsClampedToTheSmfRange) {
  EXPECT_EQ(MeterMap(0).ppqn(), 1);
  EXPECT_EQ(MeterMap(100000).ppqn(), 32767);
}

}  // namespace
}  // namespace fcp::midi::theory
