// The daemon's event loop: it behaves like io_context::run() whatever the polling window.
#include "daemon/event_loop.hpp"

#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <thread>

namespace fcp::daemon {
namespace {
namespace asio = boost::asio;
using std::chrono::microseconds;
using std::chrono::milliseconds;

class EventLoop : public ::testing::TestWithParam<microseconds> {};

TEST_P(EventLoop, RunsEveryHandlerAndReturnsWhenOutOfWork) {
  asio::io_context io;
  int ran = 0;
  asio::steady_timer timer(io, milliseconds(5));
  timer.async_wait([&](const boost::system::error_code& ec) {
    EXPECT_FALSE(ec);
    ++ran;
    asio::post(io, [&] { ++ran; });  // work added by a handler runs too
  });
  asio::post(io, [&] { ++ran; });
  run_event_loop(io, GetParam());
  EXPECT_EQ(ran, 3);
  EXPECT_TRUE(io.stopped());
}

TEST_P(EventLoop, ReturnsWhenStoppedWhileWorkRemains) {
  asio::io_context io;
  auto guard = asio::make_work_guard(io);  // would keep run() going forever
  asio::steady_timer timer(io, milliseconds(2));
  timer.async_wait([&](const boost::system::error_code&) { io.stop(); });
  run_event_loop(io, GetParam());
  EXPECT_TRUE(io.stopped());
}

TEST_P(EventLoop, WakesForWorkPostedFromAnotherThreadAfterItFellAsleep) {
  asio::io_context io;
  auto guard = asio::make_work_guard(io);
  std::thread poster([&] {
    std::this_thread::sleep_for(milliseconds(20));  // well past any polling window used here
    asio::post(io, [&] { io.stop(); });
  });
  run_event_loop(io, GetParam());
  poster.join();
  EXPECT_TRUE(io.stopped());
}

INSTANTIATE_TEST_SUITE_P(Windows, EventLoop,
                         ::testing::Values(microseconds(0), microseconds(200), microseconds(5000)),
                         [](const auto& window) {
                           return std::to_string(window.param.count()) + "us";
                         });

}  // namespace
}  // namespace fcp::daemon
