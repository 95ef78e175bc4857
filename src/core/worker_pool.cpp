#include "core/worker_pool.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace fcp::core {
namespace {

constexpr std::chrono::milliseconds kFirstPause{100};
constexpr std::chrono::milliseconds kLongestPause{30000};

}  // namespace

WorkerPool::WorkerPool() : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

WorkerPool::~WorkerPool() {
  configure({}, {}, 0);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void WorkerPool::wake() const {
  if (wake_fd_ < 0) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

void WorkerPool::stop_keeper() {
  if (!keeper_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake();
  keeper_.join();
  const std::lock_guard lock(mutex_);
  stopping_ = false;
}

void WorkerPool::configure(WorkerNames names, std::vector<std::string> command, std::size_t spares,
                           SpareStart start) {
  const std::lock_guard configuring(configuring_);
  if (command.empty()) spares = 0;
  const bool deferred = spares != 0 && start == SpareStart::on_first_use;
  if (spares == 0 || deferred) stop_keeper();
  std::deque<std::unique_ptr<WorkerProcess>> old;
  {
    const std::lock_guard lock(mutex_);
    old.swap(spares_);
    names_ = std::move(names);
    command_ = std::move(command);
    target_ = spares;
    ++generation_;
    pause_ = std::chrono::milliseconds(0);
    next_start_ = {};
    counts_ = {};
    deferred_ = deferred;
  }
  old.clear();  // killed and reaped, outside the lock
  if (spares == 0 || deferred) return;
  if (keeper_.joinable()) {
    wake();
    return;
  }
  keeper_ = std::thread([this] { keep(); });
}

Result<std::unique_ptr<WorkerProcess>> WorkerPool::take() {
  std::unique_ptr<WorkerProcess> worker;
  std::deque<std::unique_ptr<WorkerProcess>> dead;
  WorkerNames names;
  std::vector<std::string> command;
  {
    const std::lock_guard lock(mutex_);
    while (!spares_.empty() && !worker) {
      auto spare = std::move(spares_.front());
      spares_.pop_front();
      if (spare->ended()) {
        ++counts_.spares_died;
        dead.push_back(std::move(spare));
      } else {
        worker = std::move(spare);
        pause_ = std::chrono::milliseconds(0);  // spares live: the next starts at once
        next_start_ = {};
      }
    }
    names = names_;
    command = command_;
  }
  wake();  // the keeper starts the replacement
  dead.clear();
  if (worker) return worker;
  if (command.empty()) return make_error(names.prefix + names.worker + " is not configured");
  worker = std::make_unique<WorkerProcess>(names);
  if (auto ok = worker->start(command); !ok) return ok.error();
  {
    const std::lock_guard lock(mutex_);
    ++counts_.started;
    ++counts_.started_on_demand;
  }
  start_keeper();  // after this job's worker started: the spare does not delay it
  return worker;
}

void WorkerPool::start_keeper() {
  const std::lock_guard configuring(configuring_);
  {
    const std::lock_guard lock(mutex_);
    if (!deferred_) return;
    deferred_ = false;
  }
  if (!keeper_.joinable()) keeper_ = std::thread([this] { keep(); });
}

WorkerPool::Stats WorkerPool::stats() const {
  const std::lock_guard lock(mutex_);
  Stats stats = counts_;
  for (const auto& spare : spares_)
    stats.spares.push_back(spare->pid());
  return stats;
}

bool WorkerPool::wait_for_spares(std::size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return spares_.size() >= count; });
}

void WorkerPool::keep() {
  std::vector<pollfd> fds;
  for (;;) {
    WorkerNames names;
    std::vector<std::string> command;
    std::size_t generation = 0;
    bool start = false;
    int timeout = -1;
    fds.assign(1, {wake_fd_, POLLIN, 0});
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) break;
      if (spares_.size() < target_) {
        const auto now = Clock::now();
        if (now >= next_start_) {
          start = true;
          names = names_;
          command = command_;
          generation = generation_;
        } else {
          timeout = static_cast<int>(
              std::chrono::ceil<std::chrono::milliseconds>(next_start_ - now).count());
        }
      }
      for (const auto& spare : spares_)
        fds.push_back({spare->output_fd(), POLLIN, 0});
    }
    if (start) {
      auto worker = std::make_unique<WorkerProcess>(std::move(names));
      const bool started = static_cast<bool>(worker->start(command));
      const std::lock_guard lock(mutex_);
      if (!started) {
        pause_ = std::clamp(pause_ * 2, kFirstPause, kLongestPause);
        next_start_ = Clock::now() + pause_;
      } else if (generation == generation_ && !stopping_) {
        ++counts_.started;
        spares_.push_back(std::move(worker));
        changed_.notify_all();
      }
      continue;  // a worker of an older configuration is killed here, on the way round
    }
    if (::poll(fds.data(), fds.size(), timeout) <= 0) continue;
    if ((fds[0].revents & POLLIN) != 0) {
      std::uint64_t count = 0;
      [[maybe_unused]] const ssize_t n = ::read(wake_fd_, &count, sizeof count);
    }
    std::deque<std::unique_ptr<WorkerProcess>> dead;
    {
      const std::lock_guard lock(mutex_);
      for (auto it = spares_.begin(); it != spares_.end();) {
        if ((*it)->ended()) {
          dead.push_back(std::move(*it));
          it = spares_.erase(it);
          ++counts_.spares_died;
        } else {
          ++it;
        }
      }
      if (!dead.empty()) {
        pause_ = std::clamp(pause_ * 2, kFirstPause, kLongestPause);
        next_start_ = Clock::now() + pause_;
      }
    }
  }
}

}  // namespace fcp::core
