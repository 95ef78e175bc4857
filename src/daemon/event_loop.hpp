// The daemon's event loop: one thread does all I/O and runs tool calls to completion, polling
// briefly before it sleeps; a call that runs long, or blocks, hands the I/O to another thread.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/thread_hooks.hpp"

namespace fcp::daemon {

struct EventLoopOptions {
  // After every batch of handlers the I/O thread keeps polling, without blocking, this long
  // before it sleeps in epoll. Waking a sleeping thread costs tens of microseconds on virtual
  // machines; a client's next request usually arrives within the window. Zero: never polls.
  std::chrono::microseconds busy_poll{200};
  // Threads that may run the loop: at most threads - 1 long calls at once keep I/O flowing.
  std::size_t threads = 5;
  // A call still running after this long on the I/O thread hands the I/O to another thread.
  std::chrono::milliseconds hand_over_after{10};
};

// Runs an io_context the way a latency-sensitive server wants it run.
//
// One thread at a time holds the I/O role: it runs the io_context (epoll and every handler,
// tool calls included, so a call's request, work and reply stay on one thread with no hand-off).
// A monitor checks the holder: once it has been inside one task (core::TaskScope, i.e. a tool
// call) for `hand_over_after`, or announces that it blocks (core::BlockingScope), the role passes
// to an idle thread, which carries on serving everyone else; the old holder finishes its call and
// goes idle. The monitor looks every `hand_over_after` while calls come in and ten times less
// often when none has for a second, so the hot path never signals another thread.
//
// Thread: construct, run() and destroy on one thread; run() makes it the first I/O thread.
class EventLoop {
 public:
  EventLoop(boost::asio::io_context& io, EventLoopOptions options);
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Runs until the io_context is stopped or runs out of work; returns after every thread the
  // loop started has finished (calls in progress run to their end).
  void run();

  // How often the I/O role changed hands (for tests and logs).
  std::size_t hand_overs() const { return hand_overs_.load(); }

 private:
  class Worker;
  void worker_main(std::size_t index);
  void monitor_main();
  void hand_over_locked(std::size_t from);
  void stop_locked();

  boost::asio::io_context& io_;
  EventLoopOptions options_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<std::size_t> holder_{0};  // the worker holding the I/O role
  std::atomic<std::uint64_t> tasks_started_{0};
  std::atomic<std::size_t> hand_overs_{0};
  std::mutex mutex_;
  std::condition_variable wake_;  // idle workers and the monitor wait on it
  bool stopping_ = false;
  bool all_busy_logged_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace fcp::daemon
