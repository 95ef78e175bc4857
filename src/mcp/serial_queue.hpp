// Runs tasks one at a time, in order, on a strand of an executor; a task may finish
// asynchronously (after awaiting external effects) and the next starts only once it says so.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>
#include <deque>
#include <functional>
#include <memory>

namespace fcp::mcp {

// Thread: submit() and post() from any thread; tasks run on the strand. Owned by shared_ptr:
// queued tasks keep it alive.
class SerialQueue : public std::enable_shared_from_this<SerialQueue> {
 public:
  using Done = std::function<void()>;
  using Task = std::function<void(Done)>;

  explicit SerialQueue(const boost::asio::any_io_executor& executor);

  // Runs `task` after every task submitted before it has called its `done` (at most once, from
  // any thread).
  void submit(Task task);
  // Posts plain work to the strand (no queueing behind a pending task); for completions.
  void post(std::function<void()> work);

 private:
  void run_next();

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  std::deque<Task> queue_;  // strand only
  bool busy_ = false;       // strand only
};

}  // namespace fcp::mcp
