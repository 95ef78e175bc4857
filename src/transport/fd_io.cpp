#include "transport/fd_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <climits>
#include <ctime>
#include <utility>

namespace fcp::transport {
namespace {

boost::system::error_code errno_code(int error) {
  return {error, boost::system::system_category()};
}

// Blocks until `fd` is ready for `events` or `wake_fd` becomes readable (returns false then).
bool poll_or_wake(int fd, short events, int wake_fd, boost::system::error_code& ec) {
  for (;;) {
    pollfd fds[2] = {{fd, events, 0}, {wake_fd, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      ec = errno_code(errno);
      return false;
    }
    if (fds[1].revents != 0) return false;
    if ((fds[0].revents & POLLNVAL) != 0) {
      ec = errno_code(EBADF);
      return false;
    }
    if (fds[0].revents != 0) return true;  // ready, hung up or failed: the next call tells
  }
}

// A write() to a closed pipe raises SIGPIPE in the writing thread; with the signal blocked there
// the write fails with EPIPE instead and the pending signal is consumed here.
void block_sigpipe() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void consume_sigpipe() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  const timespec zero{0, 0};
  while (sigtimedwait(&set, nullptr, &zero) == SIGPIPE) {
  }
}

}  // namespace

WakePipe::WakePipe() {
  if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0) fds_[0] = fds_[1] = -1;
}

WakePipe::~WakePipe() {
  for (int fd : fds_)
    if (fd >= 0) ::close(fd);
}

void WakePipe::wake() {
  const char byte = 1;
  // The byte is never drained: once woken, every later poll() returns at once, as intended.
  [[maybe_unused]] auto n = ::write(fds_[1], &byte, 1);
}

FdReader::FdReader(int fd, std::size_t chunk_size) : fd_(fd), chunk_size_(chunk_size) {}

FdReader::~FdReader() {
  join();
}

void FdReader::join() {
  stop();
  if (thread_.joinable()) thread_.join();
}

void FdReader::start(DataHandler on_data, EndHandler on_end) {
  on_data_ = std::move(on_data);
  on_end_ = std::move(on_end);
  thread_ = std::thread([this] { run(); });
}

void FdReader::resume() {
  {
    std::lock_guard lock(mutex_);
    may_read_ = true;
  }
  cv_.notify_one();
}

void FdReader::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_one();
  wake_.wake();
}

bool FdReader::wait_for_permission() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return may_read_ || stopping_; });
  return !stopping_;
}

void FdReader::run() {
  while (wait_for_permission()) {
    boost::system::error_code ec;
    if (!poll_or_wake(fd_, POLLIN, wake_.read_fd(), ec)) {
      if (ec) on_end_(ec);  // otherwise stop() woke us
      return;
    }
    std::string chunk(chunk_size_, '\0');
    const auto n = ::read(fd_, chunk.data(), chunk.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return on_end_(n == 0 ? boost::system::error_code{} : errno_code(errno));
    chunk.resize(static_cast<std::size_t>(n));
    {
      std::lock_guard lock(mutex_);
      may_read_ = false;
    }
    on_data_(std::move(chunk));
  }
}

FdWriter::FdWriter(int fd, boost::asio::any_io_executor executor)
    : fd_(fd), executor_(std::move(executor)) {
  struct stat info {};
  regular_file_ = ::fstat(fd_, &info) == 0 && S_ISREG(info.st_mode);
  thread_ = std::thread([this] { run(); });
}

FdWriter::~FdWriter() {
  join();
}

void FdWriter::join() {
  stop();
  if (thread_.joinable()) thread_.join();
}

void FdWriter::async_write(const std::vector<std::string>& lines, Handler done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      job_ = Job{&lines, std::move(done)};
      done = nullptr;
    }
  }
  cv_.notify_one();
  if (done) boost::asio::post(executor_, std::bind_front(std::move(done), errno_code(ECANCELED)));
}

void FdWriter::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_one();
  wake_.wake();
}

void FdWriter::run() {
  block_sigpipe();
  for (;;) {
    std::optional<Job> job;
    bool stopping = false;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return job_ || stopping_; });
      std::swap(job, job_);
      stopping = stopping_;
    }
    if (!job) return;
    auto ec = stopping ? errno_code(ECANCELED) : write_all(*job->lines);
    boost::asio::post(executor_, std::bind_front(std::move(job->done), ec));
    if (stopping) return;
  }
}

boost::system::error_code FdWriter::write_all(const std::vector<std::string>& lines) {
  for (const auto& line : lines) {
    if (auto ec = write_piece(line.data(), line.size())) return ec;
  }
  return {};
}

boost::system::error_code FdWriter::write_piece(const char* data, std::size_t size) {
  while (size > 0) {
    boost::system::error_code ec;
    if (!regular_file_ && !poll_or_wake(fd_, POLLOUT, wake_.read_fd(), ec))
      return ec ? ec : errno_code(ECANCELED);
    const auto piece = regular_file_ ? size : std::min<std::size_t>(size, PIPE_BUF);
    const auto n = ::write(fd_, data, piece);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      const int error = errno;
      if (error == EPIPE) consume_sigpipe();
      return errno_code(error);
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return {};
}

}  // namespace fcp::transport
