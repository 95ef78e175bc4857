// A deadline for the current operation of one connection. arm() only stores a time, so it is cheap
// enough to call around every request; a timer wakes at most once per timeout period to check it.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>

#include "bench/roundtrip/common.hpp"

namespace fcp::bench {

class Watchdog {
 public:
  // Calls `on_expiry` (once, on the executor) when an armed deadline passes.
  Watchdog(const asio::any_io_executor& executor, std::chrono::milliseconds timeout,
           std::function<void()> on_expiry);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm() { state_->deadline = Clock::now() + state_->timeout; }
  void disarm() { state_->deadline = Clock::time_point::max(); }
  bool fired() const { return state_->fired; }
  std::chrono::milliseconds timeout() const { return state_->timeout; }

 private:
  struct State {
    asio::steady_timer timer;
    std::chrono::milliseconds timeout;
    std::function<void()> on_expiry;
    Clock::time_point deadline = Clock::time_point::max();
    bool fired = false;
    bool stopped = false;
  };
  static asio::awaitable<void> watch(std::shared_ptr<State> state);

  std::shared_ptr<State> state_;
};

}  // namespace fcp::bench
