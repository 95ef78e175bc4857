#include "daemon/event_loop.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace fcp::daemon {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

}  // namespace

// One thread of the loop, and what the monitor knows about it.
class EventLoop::Worker final : public core::ThreadHooks {
 public:
  Worker(EventLoop& loop, std::size_t index) : loop_(loop), index_(index) {}

  void task_started() override {
    if (depth_++ == 0) task_since_.store(now_ns());
    loop_.tasks_started_.fetch_add(1, std::memory_order_relaxed);
  }
  void task_finished() override {
    if (--depth_ == 0) task_since_.store(0);
  }
  void blocking_started() override {
    blocking_.store(true);
    std::lock_guard lock(loop_.mutex_);
    if (loop_.holder_.load() == index_) loop_.hand_over_locked(index_);
  }
  void blocking_finished() override { blocking_.store(false); }

  // Monitor: should the I/O role leave this worker?
  bool held_up(std::chrono::milliseconds limit) const {
    if (blocking_.load()) return true;
    const std::int64_t since = task_since_.load();
    return since != 0 && now_ns() - since >= std::chrono::nanoseconds(limit).count();
  }
  // Between tasks and not running the loop: free to take the I/O role. Guarded by the mutex.
  bool idle = true;

 private:
  EventLoop& loop_;
  std::size_t index_;
  int depth_ = 0;  // this thread only
  std::atomic<std::int64_t> task_since_{0};
  std::atomic<bool> blocking_{false};
};

EventLoop::EventLoop(boost::asio::io_context& io, EventLoopOptions options)
    : io_(io), options_(options) {
  options_.threads = std::max<std::size_t>(options_.threads, 1);
  for (std::size_t i = 0; i < options_.threads; ++i)
    workers_.push_back(std::make_unique<Worker>(*this, i));
}

EventLoop::~EventLoop() {
  {
    std::lock_guard lock(mutex_);
    stop_locked();
  }
  for (auto& thread : threads_)
    if (thread.joinable()) thread.join();
}

void EventLoop::run() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
    holder_.store(0);
    workers_[0]->idle = false;
  }
  if (options_.threads > 1) {
    for (std::size_t i = 1; i < options_.threads; ++i)
      threads_.emplace_back([this, i] { worker_main(i); });
    threads_.emplace_back([this] { monitor_main(); });
  }
  worker_main(0);
  for (auto& thread : threads_)
    thread.join();
  threads_.clear();
}

void EventLoop::worker_main(std::size_t index) {
  Worker& self = *workers_[index];
  core::install_thread_hooks(&self);
  const auto holds_role = [&] { return holder_.load() == index; };
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || holds_role(); });
      if (stopping_) break;
      self.idle = false;
    }
    auto last_event = Clock::now();
    while (!io_.stopped() && holds_role()) {
      if (options_.busy_poll.count() > 0 && io_.poll() > 0) {
        last_event = Clock::now();
      } else if (Clock::now() - last_event >= options_.busy_poll) {
        if (io_.run_one() == 0) break;  // sleeps until the next event
        last_event = Clock::now();
      }
    }
    std::lock_guard lock(mutex_);
    self.idle = true;
    if (io_.stopped()) {
      stop_locked();
      break;
    }
  }
  core::install_thread_hooks(nullptr);
}

void EventLoop::monitor_main() {
  std::unique_lock lock(mutex_);
  std::uint64_t seen_tasks = tasks_started_.load();
  auto last_task = Clock::now();
  while (!stopping_) {
    const std::size_t holder = holder_.load();
    if (workers_[holder]->held_up(options_.hand_over_after)) hand_over_locked(holder);
    if (const auto tasks = tasks_started_.load(); tasks != seen_tasks) {
      seen_tasks = tasks;
      last_task = Clock::now();
    }
    const bool recent = Clock::now() - last_task < std::chrono::seconds(1);
    wake_.wait_for(lock, recent ? options_.hand_over_after : options_.hand_over_after * 10);
  }
}

void EventLoop::hand_over_locked(std::size_t from) {
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    if (i == from || !workers_[i]->idle) continue;
    workers_[i]->idle = false;
    holder_.store(i);
    hand_overs_.fetch_add(1);
    all_busy_logged_ = false;
    wake_.notify_all();
    return;
  }
  if (!all_busy_logged_) {
    spdlog::warn("all {} event-loop threads are busy with long calls; I/O waits for one to finish",
                 workers_.size());
    all_busy_logged_ = true;
  }
}

void EventLoop::stop_locked() {
  stopping_ = true;
  wake_.notify_all();
}

}  // namespace fcp::daemon
