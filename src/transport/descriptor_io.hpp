// Pipe and socket I/O on the event loop (no threads), for stdin/stdout when they allow it.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "transport/byte_streams.hpp"

namespace fcp::transport {

// A descriptor the event loop may put in non-blocking mode without changing what anyone else
// sees, and how to undo what it cannot keep private.
struct ReactorFd {
  int fd = -1;           // ours; closed by the stream that takes it
  int shared_fd = -1;    // when >= 0: the original descriptor, whose file status flags
  int shared_flags = 0;  //   (O_NONBLOCK) are restored to these once the stream stops
};

// `fd` prepared for event-loop I/O, or nullopt when it must stay on blocking helper threads:
// - a pipe is reopened through /proc/self/fd, which gives a private open file description, so
//   O_NONBLOCK never leaks to the process at the other end;
// - a socket is duplicated (its description stays shared), and its flags are restored on stop;
// - terminals, regular files and everything else: nullopt (epoll rejects regular files, and a
//   terminal is shared with the shell that started us).
// Both need SIGPIPE ignored in the process (write() to a closed pipe or socket raises it);
// otherwise nullopt as well. `writing` says which end of a pipe to open.
std::optional<ReactorFd> open_for_event_loop(int fd, bool writing);

// Reads a ReactorFd with async_read_some on `strand`; callbacks run on the strand.
// Thread: start/resume/stop on the strand (stop may also be called before start).
// Ownership: pending reads keep the descriptor alive, so the object may go first.
class DescriptorReader final : public InputStream {
 public:
  DescriptorReader(const boost::asio::any_io_executor& strand, ReactorFd fd,
                   std::size_t chunk_size = 64 * 1024);
  ~DescriptorReader() override;

  void start(DataHandler on_data, EndHandler on_end) override;
  void resume() override;
  void stop() override;
  void join() override {}  // no thread
  bool on_event_loop() const override { return true; }

 private:
  struct State;
  void read_next();
  std::shared_ptr<State> state_;
};

// Writes batches to a ReactorFd with async_write on `strand`; completions run on the strand.
// Thread: the strand. Ownership as for DescriptorReader.
class DescriptorWriter final : public OutputStream {
 public:
  DescriptorWriter(const boost::asio::any_io_executor& strand, ReactorFd fd);
  ~DescriptorWriter() override;

  void async_write(const std::vector<std::string>& lines, Handler done) override;
  void stop() override;
  void join() override {}  // no thread
  bool on_event_loop() const override { return true; }

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace fcp::transport
