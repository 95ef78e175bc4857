// Blocking file-descriptor I/O on dedicated threads, for stdin/stdout (which may be regular files,
// terminals or pipes; epoll, and so Asio, rejects regular files).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/system/error_code.hpp>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "transport/byte_streams.hpp"

namespace fcp::transport {

// A self-pipe that wakes a thread blocked in poll(). Thread: wake() from any thread.
class WakePipe {
 public:
  WakePipe();
  ~WakePipe();
  WakePipe(const WakePipe&) = delete;
  WakePipe& operator=(const WakePipe&) = delete;
  int read_fd() const { return fds_[0]; }
  void wake();

 private:
  int fds_[2] = {-1, -1};
};

// Reads `fd` in chunks on its own thread with poll()+read(). Flow control: after handing over a
// chunk the thread waits for resume(), so at most one chunk is outstanding.
// Thread: start/resume/stop from any thread; callbacks run on the reader thread and must only
// post elsewhere. Ownership: the owner keeps the reader alive and must join() it before the
// executor the callbacks post to is destroyed; the destructor joins as well.
class FdReader final : public InputStream {
 public:
  explicit FdReader(int fd, std::size_t chunk_size = 64 * 1024);
  ~FdReader() override;
  FdReader(const FdReader&) = delete;
  FdReader& operator=(const FdReader&) = delete;

  void start(DataHandler on_data, EndHandler on_end) override;
  void resume() override;
  // Wakes and ends the thread; on_end is not called afterwards.
  void stop() override;
  // stop(), then waits for the thread. Never from a callback (the thread would join itself).
  void join() override;
  bool on_event_loop() const override { return false; }

 private:
  void run();
  bool wait_for_permission();
  bool wait_readable(boost::system::error_code& ec);

  int fd_;
  std::size_t chunk_size_;
  WakePipe wake_;
  DataHandler on_data_;
  EndHandler on_end_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool may_read_ = true;
  bool stopping_ = false;
  std::thread thread_;
};

// Writes batches to `fd` with blocking write() on its own thread, one batch at a time, and posts
// each completion to `executor`. Non-regular files are written in PIPE_BUF pieces after poll()
// reports them writable, so stop() can wake the thread even when the reader stalls.
// SIGPIPE is blocked on the writer thread: a closed pipe is reported as an error instead.
// Thread: async_write/stop from any thread. Ownership as for FdReader: join() before `executor`
// goes away (a completion posted to a shut-down executor is destroyed on the writer thread).
class FdWriter final : public OutputStream {
 public:
  FdWriter(int fd, boost::asio::any_io_executor executor);
  ~FdWriter() override;
  FdWriter(const FdWriter&) = delete;
  FdWriter& operator=(const FdWriter&) = delete;

  // `lines` must stay alive and unchanged until `done` runs. At most one write at a time.
  void async_write(const std::vector<std::string>& lines, Handler done) override;
  // Ends the thread; a pending write completes with operation_aborted.
  void stop() override;
  // stop(), then waits for the thread. Never from the writer thread.
  void join() override;
  bool on_event_loop() const override { return false; }

 private:
  struct Job {
    const std::vector<std::string>* lines;
    Handler done;
  };
  void run();
  boost::system::error_code write_all(const std::vector<std::string>& lines);
  boost::system::error_code write_piece(const char* data, std::size_t size);

  int fd_;
  bool regular_file_ = false;
  boost::asio::any_io_executor executor_;
  WakePipe wake_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<Job> job_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace fcp::transport
