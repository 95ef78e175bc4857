#include "core/call_scope.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace fcp::core {
namespace {

TEST(CallScope, NothingStopsOutsideACall) {
  EXPECT_EQ(CallScope::current(), nullptr);
  EXPECT_FALSE(call_stop());
}

TEST(CallScope, ACancelledCallStops) {
  std::atomic<bool> cancelled{false};
  const CallScope scope(&cancelled, std::chrono::milliseconds(0), "limits.x");
  EXPECT_EQ(CallScope::current(), &scope);
  EXPECT_FALSE(call_stop());
  cancelled = true;
  EXPECT_EQ(call_stop(), "the call was cancelled");
}

TEST(CallScope, ACallPastItsLimitStopsAndNamesTheSetting) {
  const CallScope scope(nullptr, std::chrono::milliseconds(30), "limits.max_query_seconds");
  EXPECT_FALSE(call_stop());
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(call_stop(), "the call ran past its time limit of 30 ms (limits.max_query_seconds)");
}

TEST(CallScope, AnOuterScopeStillStopsAndScopesAreThreadLocal) {
  std::atomic<bool> cancelled{false};
  const CallScope outer(&cancelled, std::chrono::milliseconds(0), "outer");
  {
    const CallScope inner(nullptr, std::chrono::milliseconds(0), "inner");
    cancelled = true;
    EXPECT_EQ(call_stop(), "the call was cancelled");
    bool other_thread_stops = true;
    std::thread([&] { other_thread_stops = call_stop().has_value(); }).join();
    EXPECT_FALSE(other_thread_stops);
  }
  EXPECT_EQ(CallScope::current(), &outer);
}

TEST(CallScope, DurationText) {
  EXPECT_EQ(duration_text(std::chrono::milliseconds(40)), "40 ms");
  EXPECT_EQ(duration_text(std::chrono::milliseconds(10'000)), "10 s");
  EXPECT_EQ(duration_text(std::chrono::milliseconds(2'450)), "2.4 s");
}

}  // namespace
}  // namespace fcp::core
