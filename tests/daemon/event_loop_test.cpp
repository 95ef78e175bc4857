// The daemon's event loop: it behaves like io_context::run() whatever the polling window and
// thread count, and a long or blocking task hands the I/O to another thread.
#include "daemon/event_loop.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <future>
#include <thread>

#include "core/thread_hooks.hpp"

namespace fcp::daemon {
namespace {
namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;
using std::chrono::microseconds;
using std::chrono::milliseconds;

struct Setup {
  microseconds busy_poll;
  std::size_t threads;
};

EventLoopOptions options_of(const Setup& setup) {
  EventLoopOptions options;
  options.busy_poll = setup.busy_poll;
  options.threads = setup.threads;
  return options;
}

class EventLoopBasics : public ::testing::TestWithParam<Setup> {};

TEST_P(EventLoopBasics, RunsEveryHandlerAndReturnsWhenOutOfWork) {
  asio::io_context io;
  int ran = 0;
  asio::steady_timer timer(io, milliseconds(5));
  timer.async_wait([&](const boost::system::error_code& ec) {
    EXPECT_FALSE(ec);
    ++ran;
    asio::post(io, [&] { ++ran; });  // work added by a handler runs too
  });
  asio::post(io, [&] { ++ran; });
  EventLoop(io, options_of(GetParam())).run();
  EXPECT_EQ(ran, 3);
  EXPECT_TRUE(io.stopped());
}

TEST_P(EventLoopBasics, ReturnsWhenStoppedWhileWorkRemains) {
  asio::io_context io;
  auto guard = asio::make_work_guard(io);  // would keep run() going forever
  asio::steady_timer timer(io, milliseconds(2));
  timer.async_wait([&](const boost::system::error_code&) { io.stop(); });
  EventLoop(io, options_of(GetParam())).run();
  EXPECT_TRUE(io.stopped());
}

TEST_P(EventLoopBasics, WakesForWorkPostedFromAnotherThreadAfterItFellAsleep) {
  asio::io_context io;
  auto guard = asio::make_work_guard(io);
  std::thread poster([&] {
    std::this_thread::sleep_for(milliseconds(20));  // well past any polling window used here
    asio::post(io, [&] { io.stop(); });
  });
  EventLoop(io, options_of(GetParam())).run();
  poster.join();
  EXPECT_TRUE(io.stopped());
}

INSTANTIATE_TEST_SUITE_P(Setups, EventLoopBasics,
                         ::testing::Values(Setup{microseconds(0), 1}, Setup{microseconds(200), 1},
                                           Setup{microseconds(5000), 1},
                                           Setup{microseconds(200), 3}),
                         [](const auto& setup) {
                           return std::to_string(setup.param.busy_poll.count()) + "us_" +
                                  std::to_string(setup.param.threads) + "threads";
                         });

// A task that runs `duration` inside a TaskScope, as a tool call does.
void long_task(milliseconds duration) {
  const core::TaskScope task;
  std::this_thread::sleep_for(duration);
}

TEST(EventLoop, ALongTaskHandsTheIoToAnotherThread) {
  asio::io_context io;
  EventLoopOptions options;
  options.threads = 2;
  options.hand_over_after = milliseconds(10);
  EventLoop loop(io, options);
  const auto start = Clock::now();
  std::atomic<bool> long_done = false;
  Clock::duration timer_fired_after{};
  asio::post(io, [&] {
    long_task(milliseconds(600));
    long_done = true;
  });
  asio::steady_timer timer(io, milliseconds(30));
  timer.async_wait([&](const boost::system::error_code&) {
    timer_fired_after = Clock::now() - start;
    EXPECT_FALSE(long_done.load()) << "the timer waited for the long task";
  });
  loop.run();
  EXPECT_TRUE(long_done.load());
  EXPECT_LT(timer_fired_after, milliseconds(400));
  EXPECT_GE(loop.hand_overs(), 1u);
}

TEST(EventLoop, WithOneThreadALongTaskHoldsEverythingUp) {
  asio::io_context io;
  EventLoopOptions options;
  options.threads = 1;
  EventLoop loop(io, options);
  std::atomic<bool> long_done = false;
  bool timer_after_task = false;
  asio::post(io, [&] {
    long_task(milliseconds(100));
    long_done = true;
  });
  asio::steady_timer timer(io, milliseconds(5));
  timer.async_wait([&](const boost::system::error_code&) { timer_after_task = long_done.load(); });
  loop.run();
  EXPECT_TRUE(timer_after_task);
  EXPECT_EQ(loop.hand_overs(), 0u);
}

TEST(EventLoop, ABlockingWaitHandsOverAtOnce) {
  asio::io_context io;
  EventLoopOptions options;
  options.threads = 2;
  options.hand_over_after = milliseconds(5000);  // only the BlockingScope can explain a quick end
  EventLoop loop(io, options);
  Clock::duration waited{};
  asio::post(io, [&] {
    const core::TaskScope task;
    std::promise<void> reply;
    auto arrived = reply.get_future();
    // The "reply" can only be delivered by a handler on this io_context.
    asio::post(io, [&] { reply.set_value(); });
    const auto start = Clock::now();
    {
      const core::BlockingScope blocking;
      arrived.wait();
    }
    waited = Clock::now() - start;
  });
  loop.run();
  EXPECT_LT(waited, milliseconds(1000));
  EXPECT_EQ(loop.hand_overs(), 1u);
}

TEST(EventLoop, StopWaitsForTasksInProgress) {
  asio::io_context io;
  auto guard = asio::make_work_guard(io);
  EventLoopOptions options;
  options.threads = 3;
  options.hand_over_after = milliseconds(5);
  EventLoop loop(io, options);
  std::atomic<int> finished = 0;
  for (int i = 0; i < 2; ++i) {
    asio::post(io, [&] {
      long_task(milliseconds(200));
      ++finished;
    });
  }
  asio::steady_timer timer(io, milliseconds(50));
  timer.async_wait([&](const boost::system::error_code&) { io.stop(); });
  loop.run();
  EXPECT_EQ(finished.load(), 2);
}

}  // namespace
}  // namespace fcp::daemon
