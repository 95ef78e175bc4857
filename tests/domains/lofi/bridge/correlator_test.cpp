#include "domains/lofi/bridge/correlator.hpp"

#include <gtest/gtest.h>

namespace fcp::lofi::bridge {
namespace {

using Match = Correlator::Match;

TEST(Correlator, MatchesAnEchoedIdExactlyInAnyOrder) {
  Correlator correlator;
  correlator.add("a");
  correlator.add("b");
  correlator.add("c");
  auto b = correlator.match("b");
  EXPECT_EQ(b.match, Match::matched);
  EXPECT_EQ(b.request_id, "b");
  EXPECT_EQ(correlator.match("c").request_id, "c");
  EXPECT_EQ(correlator.match("a").request_id, "a");
  EXPECT_EQ(correlator.pending(), 0u);
}

TEST(Correlator, MatchesAReplyWithoutIdOnlyWhenExactlyOneIsPending) {
  Correlator correlator;
  EXPECT_EQ(correlator.match("").match, Match::unmatched);
  correlator.add("a");
  auto only = correlator.match("");
  EXPECT_EQ(only.match, Match::matched);
  EXPECT_EQ(only.request_id, "a");
  correlator.add("b");
  correlator.add("c");
  EXPECT_EQ(correlator.match("").match, Match::ambiguous);
  EXPECT_EQ(correlator.pending(), 2u);  // nothing was consumed
}

TEST(Correlator, TellsLateDuplicateAndUnknownApart) {
  Correlator correlator;
  correlator.add("slow");
  correlator.add("fast");
  EXPECT_TRUE(correlator.time_out("slow"));
  EXPECT_FALSE(correlator.time_out("slow"));
  EXPECT_EQ(correlator.match("fast").match, Match::matched);
  EXPECT_EQ(correlator.match("fast").match, Match::duplicate);
  EXPECT_EQ(correlator.match("slow").match, Match::late);
  EXPECT_EQ(correlator.match("never-sent").match, Match::unmatched);
}

TEST(Correlator, AbandonedRequestsAreNoLongerPending) {
  Correlator correlator;
  correlator.add("a");
  correlator.abandon("a");
  EXPECT_EQ(correlator.pending(), 0u);
  EXPECT_EQ(correlator.match("a").match, Match::unmatched);
}

TEST(RecentIds, ForgetsTheOldestBeyondItsCapacity) {
  RecentIds recent(2);
  recent.remember("a");
  recent.remember("b");
  recent.remember("b");
  EXPECT_TRUE(recent.contains("a"));
  recent.remember("c");
  EXPECT_FALSE(recent.contains("a"));
  EXPECT_TRUE(recent.contains("b"));
  EXPECT_TRUE(recent.contains("c"));
}

}  // namespace
}  // namespace fcp::lofi::bridge
