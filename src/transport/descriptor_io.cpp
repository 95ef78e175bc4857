#include "transport/descriptor_io.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <utility>

namespace fcp::transport {
namespace {

bool sigpipe_ignored() {
  struct sigaction current {};
  return ::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
}

// Undoes what putting a shared descriptor in non-blocking mode changed. Idempotent.
void restore_flags(ReactorFd& fd) {
  if (fd.shared_fd < 0) return;
  ::fcntl(fd.shared_fd, F_SETFL, fd.shared_flags);
  fd.shared_fd = -1;
}

// What a reader and a writer on the event loop share: the stream over the private descriptor,
// and the shared descriptor's flags to put back when done.
struct DescriptorStream {
  DescriptorStream(const boost::asio::any_io_executor& strand, ReactorFd fd)
      : stream(strand, fd.fd), restore(fd) {}
  ~DescriptorStream() { restore_flags(restore); }

  // Cancels pending I/O and restores the flags at once (the peer may use the descriptor next).
  void stop() {
    if (stopped) return;
    stopped = true;
    boost::system::error_code ignored;
    stream.cancel(ignored);
    restore_flags(restore);
  }

  boost::asio::posix::stream_descriptor stream;
  ReactorFd restore;
  bool stopped = false;
};

}  // namespace

std::optional<ReactorFd> open_for_event_loop(int fd, bool writing) {
  if (!sigpipe_ignored()) return std::nullopt;
  struct stat original {};
  if (::fstat(fd, &original) != 0) return std::nullopt;
  if (S_ISFIFO(original.st_mode)) {
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    const int own = ::open(path.c_str(), (writing ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
    if (own < 0) return std::nullopt;  // no /proc, or a pipe nobody reads any more
    struct stat reopened {};
    if (::fstat(own, &reopened) != 0 || reopened.st_dev != original.st_dev ||
        reopened.st_ino != original.st_ino) {
      ::close(own);
      return std::nullopt;
    }
    return ReactorFd{own};
  }
  if (S_ISSOCK(original.st_mode)) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0) return std::nullopt;
    const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (own < 0) return std::nullopt;
    return ReactorFd{own, fd, flags};
  }
  return std::nullopt;
}

// ---- DescriptorReader ----

struct DescriptorReader::State : DescriptorStream {
  State(const boost::asio::any_io_executor& strand, ReactorFd fd, std::size_t chunk_size)
      : DescriptorStream(strand, fd), buffer(chunk_size, '\0') {}

  std::string buffer;
  DataHandler on_data;
  EndHandler on_end;
  bool reading = false;
};

DescriptorReader::DescriptorReader(const boost::asio::any_io_executor& strand, ReactorFd fd,
                                   std::size_t chunk_size)
    : state_(std::make_shared<State>(strand, fd, chunk_size)) {}

DescriptorReader::~DescriptorReader() {
  stop();
}

void DescriptorReader::start(DataHandler on_data, EndHandler on_end) {
  state_->on_data = std::move(on_data);
  state_->on_end = std::move(on_end);
  read_next();
}

void DescriptorReader::resume() {
  if (!state_->reading) read_next();
}

void DescriptorReader::stop() {
  state_->stop();
}

void DescriptorReader::read_next() {
  auto& state = *state_;
  if (state.stopped) return;
  state.reading = true;
  state.stream.async_read_some(
      boost::asio::buffer(state.buffer),
      [state = state_](const boost::system::error_code& ec, std::size_t n) {
        state->reading = false;
        if (state->stopped) return;
        if (ec) {
          state->stopped = true;  // nothing more will come
          return state->on_end(ec == boost::asio::error::eof ? boost::system::error_code{} : ec);
        }
        state->on_data(state->buffer.substr(0, n));
      });
}

// ---- DescriptorWriter ----

struct DescriptorWriter::State : DescriptorStream {
  using DescriptorStream::DescriptorStream;

  std::vector<boost::asio::const_buffer> buffers;
};

DescriptorWriter::DescriptorWriter(const boost::asio::any_io_executor& strand, ReactorFd fd)
    : state_(std::make_shared<State>(strand, fd)) {}

DescriptorWriter::~DescriptorWriter() {
  stop();
}

void DescriptorWriter::async_write(const std::vector<std::string>& lines, Handler done) {
  auto& state = *state_;
  if (state.stopped) {
    boost::asio::post(state.stream.get_executor(),
                      std::bind_front(std::move(done), boost::asio::error::operation_aborted));
    return;
  }
  state.buffers.clear();
  for (const auto& line : lines)
    state.buffers.emplace_back(boost::asio::buffer(line));
  boost::asio::async_write(state.stream, state.buffers,
                           [state = state_, done = std::move(done)](
                               const boost::system::error_code& ec, std::size_t) { done(ec); });
}

void DescriptorWriter::stop() {
  state_->stop();
}

}  // namespace fcp::transport
