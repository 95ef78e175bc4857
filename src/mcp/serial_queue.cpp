#include "mcp/serial_queue.hpp"

#include <atomic>
#include <boost/asio/post.hpp>

#include "core/thread_hooks.hpp"

namespace fcp::mcp {

SerialQueue::SerialQueue(const boost::asio::any_io_executor& executor)
    : strand_(boost::asio::make_strand(executor)) {}

void SerialQueue::submit(Task task) {
  boost::asio::post(strand_, [self = shared_from_this(), task = std::move(task)]() mutable {
    self->queue_.push_back(std::move(task));
    if (!self->busy_) self->run_next();
  });
}

void SerialQueue::post(std::function<void()> work) {
  boost::asio::post(strand_, std::move(work));
}

void SerialQueue::run_next() {
  if (queue_.empty()) {
    busy_ = false;
    return;
  }
  busy_ = true;
  Task task = std::move(queue_.front());
  queue_.pop_front();
  // `done` may be called from any thread, at most once; it resumes the queue on the strand.
  auto finished = std::make_shared<std::atomic<bool>>(false);
  const core::TaskScope scope;  // lets the daemon's event loop hand its I/O over if this runs long
  task([self = shared_from_this(), finished] {
    if (finished->exchange(true)) return;
    boost::asio::post(self->strand_, [self] { self->run_next(); });
  });
}

}  // namespace fcp::mcp
