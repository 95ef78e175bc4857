#include "core/call_scope.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <thread>

namespace fcp::core {
namespace {

// A stop message with its elapsed time as N: a loaded machine may take a millisecond or more
// between the stop and the message (the time is not what these tests check).
std::string elapsed_as_n(const std::string& message) {
  return std::regex_replace(message, std::regex("after [0-9]+ ms"), "after N ms");
}

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

TEST(CallScope, AStopErrorSaysWhatStoppedWhenWhyAndWhatWasLeft) {
  EXPECT_FALSE(stop_error("export", "no image was made"));  // outside a call: never
  std::atomic<bool> cancelled{false};
  const CallScope scope(&cancelled, std::chrono::milliseconds(0), "limits.x");
  EXPECT_FALSE(stop_error("export", "no image was made"));
  cancelled = true;
  auto error = stop_error("export", "no image was made");
  ASSERT_TRUE(error);
  EXPECT_EQ(elapsed_as_n(error->message),
            "export stopped after N ms: the call was cancelled; no image was made");
}

TEST(CallScope, AStopErrorNamesTheTimeLimitAndItsSetting) {
  const CallScope scope(nullptr, std::chrono::milliseconds(20), "limits.max_session_seconds");
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  auto error = stop_error("reading the song", "no document was opened");
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("reading the song stopped after "), std::string::npos)
      << error->message;
  EXPECT_NE(error->message.find(": the call ran past its time limit of 20 ms "
                                "(limits.max_session_seconds); no document was opened"),
            std::string::npos)
      << error->message;
}

TEST(CallScope, AStopPollAsksOnceEveryNSteps) {
  std::atomic<bool> cancelled{true};
  const CallScope scope(&cancelled, std::chrono::milliseconds(0), "limits.x");
  StopPoll poll(4);
  EXPECT_FALSE(poll.check("loop", ""));
  EXPECT_FALSE(poll.check("loop", ""));
  EXPECT_FALSE(poll.check("loop", ""));
  auto error = poll.check("loop", "");
  ASSERT_TRUE(error);
  EXPECT_EQ(elapsed_as_n(error->message), "loop stopped after N ms: the call was cancelled");
}

TEST(CallScope, DurationText) {
  EXPECT_EQ(duration_text(std::chrono::milliseconds(40)), "40 ms");
  EXPECT_EQ(duration_text(std::chrono::milliseconds(10'000)), "10 s");
  EXPECT_EQ(duration_text(std::chrono::milliseconds(2'450)), "2.4 s");
}

}  // namespace
}  // namespace fcp::core
