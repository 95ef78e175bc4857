#include "core/call_scope.hpp"

namespace fcp::core {
namespace {

thread_local const CallScope* innermost = nullptr;
std::atomic<bool> stopping_all{false};

}  // namespace

CallScope::CallScope(const std::atomic<bool>* cancelled, std::chrono::milliseconds limit,
                     std::string limit_setting)
    : cancelled_(cancelled),
      limit_(limit),
      limit_setting_(std::move(limit_setting)),
      started_(Clock::now()),
      outer_(innermost) {
  innermost = this;
}

CallScope::~CallScope() {
  innermost = outer_;
}

const CallScope* CallScope::current() {
  return innermost;
}

bool CallScope::cancelled() const {
  return cancelled_ != nullptr && cancelled_->load(std::memory_order_relaxed);
}

bool CallScope::past_limit() const {
  return limit_.count() > 0 && Clock::now() - started_ >= limit_;
}

void stop_all_calls() {
  stopping_all = true;
}

bool all_calls_stopping() {
  return stopping_all.load(std::memory_order_relaxed);
}

std::optional<std::string> call_stop() {
  if (innermost != nullptr && all_calls_stopping())
    return std::string("the daemon is shutting down");
  for (const CallScope* scope = innermost; scope != nullptr; scope = scope->outer()) {
    if (scope->cancelled()) return std::string("the call was cancelled");
    if (scope->past_limit()) {
      return "the call ran past its time limit of " + duration_text(scope->limit()) + " (" +
             scope->limit_setting() + ")";
    }
  }
  return std::nullopt;
}

std::optional<Error> stop_error(std::string_view what, std::string_view outcome) {
  auto reason = call_stop();
  if (!reason) return std::nullopt;
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      CallScope::Clock::now() - CallScope::current()->started());
  std::string message =
      std::string(what) + " stopped after " + duration_text(elapsed) + ": " + *reason;
  if (!outcome.empty()) message += "; " + std::string(outcome);
  return make_error(std::move(message));
}

std::string duration_text(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms < 1000) return std::to_string(ms) + " ms";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms / 1000) + "." + std::to_string((ms % 1000) / 100) + " s";
}

}  // namespace fcp::core
