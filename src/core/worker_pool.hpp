// Worker processes started ahead of need: a pool keeps `spares` idle workers (started, their
// memory limited, waiting for a job on stdin) so a call that needs one does not wait for a process
// to start (about 100 ms for fcpd). A worker still serves one job and exits; the call that takes
// it owns it (a WorkerProcess: killed when the call must stop), and the pool's keeper thread starts
// its replacement in the background. A spare that dies while idle is reaped and replaced (after a
// pause that doubles while they keep dying, from 100 ms to 30 s). Nothing of a client is held by
// an idle spare; the keeper thread, not a call, starts the spares. With SpareStart::on_first_use no
// spare is started before the first take(): a daemon that never needs a worker has none.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.hpp"
#include "core/worker_process.hpp"

namespace fcp::core {

// When the spares are first started: at configure(), or once a job took its first worker (that job
// starts its own, the keeper a spare for the next).
enum class SpareStart { at_configure, on_first_use };

// Thread: safe to call from any thread; configure is meant for start-up and shutdown.
class WorkerPool {
 public:
  // Since the last configure().
  struct Stats {
    std::size_t started = 0;            // workers started, spares included
    std::size_t started_on_demand = 0;  // of these, started by take() (no spare was ready)
    std::size_t spares_died = 0;        // spares that ended while idle
    std::vector<pid_t> spares;          // the idle spares now
  };

  WorkerPool();
  // Kills and reaps the spares; the keeper thread ends.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Workers started as `command` from now on, `spares` of them kept idle (0: each started when
  // taken), started as `start` says. The spares of an earlier configuration are killed and reaped
  // first. An empty command: no workers (take() fails) and no keeper thread.
  void configure(WorkerNames names, std::vector<std::string> command, std::size_t spares,
                 SpareStart start = SpareStart::at_configure);
  // A started worker ready for its job: an idle spare (its replacement is started in the
  // background), else one started now.
  Result<std::unique_ptr<WorkerProcess>> take();

  Stats stats() const;
  // Waits until `count` spares are idle or `timeout` passed (tests, benchmarks); whether they are.
  bool wait_for_spares(std::size_t count, std::chrono::milliseconds timeout) const;

 private:
  using Clock = std::chrono::steady_clock;

  void keep();  // the keeper thread
  void wake() const;
  void stop_keeper();
  void start_keeper();  // once, when spares are wanted and it is not running

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;  // a spare was added
  std::mutex configuring_;                   // one configure() at a time
  WorkerNames names_;
  std::vector<std::string> command_;
  std::size_t target_ = 0;
  std::size_t generation_ = 0;  // configurations so far: a spare of an older one is dropped
  std::deque<std::unique_ptr<WorkerProcess>> spares_;
  Stats counts_;                        // spares unused
  std::chrono::milliseconds pause_{0};  // before the next spare, after one died or did not start
  Clock::time_point next_start_{};
  bool stopping_ = false;
  bool deferred_ = false;  // SpareStart::on_first_use and no worker taken yet: no keeper
  const int wake_fd_;      // an eventfd: the keeper's poll returns when the pool changed
  std::thread keeper_;
};

}  // namespace fcp::core
