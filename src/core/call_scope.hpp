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

// "2.5 s", "40 ms": a duration for messages.
std::string duration_text(std::chrono::milliseconds duration);

}  // namespace fcp::core
