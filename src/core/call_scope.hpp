// What may stop the tool call running on this thread: its cancellation (notifications/cancelled,
// a client that left, the daemon shutting down) and its time limit. Work deep inside an op (a
// layout waiting for its Graphviz worker, a long loop) asks call_stop() instead of having the
// flag and the deadline passed through every signature. Without a scope (unit tests, other
// programs) nothing stops.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::core {

// Thread: installed on the thread that runs the call, for the call's duration; scopes nest (the
// innermost one counts, and an outer one's stop still applies).
class CallScope {
 public:
  using Clock = std::chrono::steady_clock;
  // `limit` zero: no time limit. `limit_setting`: the config key that sets it, named in errors.
  CallScope(const std::atomic<bool>* cancelled, std::chrono::milliseconds limit,
            std::string limit_setting);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  // The innermost scope on this thread (null: none).
  static const CallScope* current();

  Clock::time_point started() const { return started_; }
  std::chrono::milliseconds limit() const { return limit_; }
  const std::string& limit_setting() const { return limit_setting_; }
  bool cancelled() const;
  bool past_limit() const;

 private:
  const std::atomic<bool>* cancelled_;
  std::chrono::milliseconds limit_;
  std::string limit_setting_;
  Clock::time_point started_;
  const CallScope* outer_;

 public:
  const CallScope* outer() const { return outer_; }
};

// Every running call stops (the daemon shuts down and its grace for running calls is over): each
// one's call_stop() says so from now on, and batches roll back at their next op.
void stop_all_calls();
bool all_calls_stopping();

// Why the call on this thread must stop now, as the end of a sentence ("the call was cancelled",
// "the call ran past its time limit of 60 s (limits.max_call_seconds)"); nullopt: go on.
std::optional<std::string> call_stop();

// The error of long single work (an export, a render, an open, a save) the call on this thread
// must stop now: "WHAT stopped after 1.2 s: the call was cancelled; OUTCOME" (`outcome` says what
// was left as it was: "nothing was written"); nullopt: go on.
std::optional<Error> stop_error(std::string_view what, std::string_view outcome);

// stop_error() asked once every `every` steps of a loop over a million cells or events, so the
// check costs nothing measurable; with a few thousand steps a second it still stops within ~100 ms.
// Thread: one loop on one thread.
class StopPoll {
 public:
  explicit StopPoll(std::size_t every = 1024) : every_(every == 0 ? 1 : every) {}
  std::optional<Error> check(std::string_view what, std::string_view outcome) {
    if (++steps_ < every_) return std::nullopt;
    steps_ = 0;
    return stop_error(what, outcome);
  }

 private:
  std::size_t every_;
  std::size_t steps_ = 0;
};

// "2.5 s", "40 ms": a duration for messages.
std::string duration_text(std::chrono::milliseconds duration);

}  // namespace fcp::core
