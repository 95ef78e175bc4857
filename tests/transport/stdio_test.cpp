#include "transport/stdio.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>

#include "transport_test_support.hpp"

namespace fcp::transport {
namespace {
using testing::await;
using testing::FakeFactory;
using testing::IoThreads;

// One direction of stdio: a pipe, or a socket pair as Node.js gives its children. Bytes written
// to write_fd() come out of read_fd().
class Pipe {
 public:
  explicit Pipe(bool socket = false) {
    const int made = socket ? ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds_)
                            : ::pipe2(fds_, O_CLOEXEC);
    if (made != 0) throw std::runtime_error("pipe");
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  void close_write() { close_fd(fds_[1]); }
  void write(const std::string& data) {
    ASSERT_EQ(::write(fds_[1], data.data(), data.size()), static_cast<ssize_t>(data.size()));
  }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

// How the transport's descriptors are served: pipes and sockets on the event loop when SIGPIPE
// is ignored (as fcpd does), on helper threads otherwise.
struct IoMode {
  const char* name;
  bool sockets;
  bool ignore_sigpipe;
  bool on_event_loop;
};

class StdioTest : public ::testing::TestWithParam<IoMode> {
 protected:
  StdioTest() : in_(GetParam().sockets), out_(GetParam().sockets) {
    struct sigaction action {};
    action.sa_handler = GetParam().ignore_sigpipe ? SIG_IGN : SIG_DFL;
    ::sigaction(SIGPIPE, &action, &saved_sigpipe_);
  }
  ~StdioTest() override {
    transport_.reset();
    ::sigaction(SIGPIPE, &saved_sigpipe_, nullptr);
  }

  // Runs the transport on `in_fd` with stdout going to the out_ pipe.
  void start(int in_fd, const Limits& limits = {}) {
    transport_ = std::make_unique<StdioTransport>(io_.io, factory_, limits, in_fd, out_.write_fd());
    transport_->start([this] { closed_.set_value(); });
  }
  // The next line the transport wrote (with a timeout).
  std::string read_line() {
    for (;;) {
      if (auto newline = output_.find('\n'); newline != std::string::npos) {
        auto line = output_.substr(0, newline);
        output_.erase(0, newline + 1);
        return line;
      }
      pollfd fd{out_.read_fd(), POLLIN, 0};
      if (::poll(&fd, 1, 5000) != 1) throw std::runtime_error("no output");
      char chunk[65536];
      const auto n = ::read(out_.read_fd(), chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("output closed");
      output_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  void wait_closed() { await(closed_future_); }

  IoThreads io_;
  FakeFactory factory_;
  Pipe in_;
  Pipe out_;
  std::string output_;
  std::promise<void> closed_;
  std::future<void> closed_future_ = closed_.get_future();
  std::unique_ptr<StdioTransport> transport_;
  struct sigaction saved_sigpipe_ {};
};

bool non_blocking(int fd) {
  return (::fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
}

TEST_P(StdioTest, ServesPipesAndSocketsOnTheEventLoopOnlyWhenSigpipeIsIgnored) {
  start(in_.read_fd());
  EXPECT_EQ(transport_->input_on_event_loop(), GetParam().on_event_loop);
  EXPECT_EQ(transport_->output_on_event_loop(), GetParam().on_event_loop);
  in_.write("ping\n");
  EXPECT_EQ(read_line(), "ping");
  // A pipe is reopened privately: the descriptors shared with the client never change mode.
  if (!GetParam().sockets) {
    EXPECT_FALSE(non_blocking(in_.read_fd()));
    EXPECT_FALSE(non_blocking(out_.write_fd()));
  }
  // A socket's description is shared: its flags are put back once the transport has stopped
  // (on the event loop, so shortly after stop() returns).
  transport_->stop();
  const auto deadline = std::chrono::steady_clock::now() + testing::kTimeout;
  while ((non_blocking(in_.read_fd()) || non_blocking(out_.write_fd())) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_FALSE(non_blocking(in_.read_fd()));
  EXPECT_FALSE(non_blocking(out_.write_fd()));
}

TEST_P(StdioTest, AnswersManyRequestsInOrderWithLargeReplies) {
  start(in_.read_fd());
  std::string batch;
  for (int i = 0; i < 200; ++i)
    batch += (i % 10 == 0 ? "big " : "") + std::to_string(i) + "\n";
  in_.write(batch);
  for (int i = 0; i < 200; ++i) {
    const auto line = read_line();
    if (i % 10 == 0) {
      EXPECT_EQ(line, std::string(100000, 'b'));
    } else {
      EXPECT_EQ(line, std::to_string(i));
    }
  }
}

TEST_P(StdioTest, AnswersLinesFromAPipeAndExitsOnEof) {
  start(in_.read_fd());
  in_.write("{\"id\":1}\r\n{\"id\":");
  EXPECT_EQ(read_line(), "{\"id\":1}");
  in_.write("2}\n\n");
  EXPECT_EQ(read_line(), "{\"id\":2}");
  auto connection = factory_.connection();
  EXPECT_EQ(connection->info.transport, "stdio");
  EXPECT_EQ(connection->info.peer, "stdin");
  in_.close_write();
  wait_closed();
  EXPECT_EQ(connection->closes(), 1);
}

TEST_P(StdioTest, ReadsARegularFileIncludingAnUnterminatedLastLine) {
  char path[] = "/tmp/fcp_stdio_test_XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::unlink(path);
  const std::string input = "first\nsecond\r\nthird";
  ASSERT_EQ(::write(fd, input.data(), input.size()), static_cast<ssize_t>(input.size()));
  ::lseek(fd, 0, SEEK_SET);
  start(fd);
  EXPECT_EQ(read_line(), "first");
  EXPECT_EQ(read_line(), "second");
  EXPECT_EQ(read_line(), "third");
  wait_closed();
  EXPECT_EQ(factory_.connection()->closes(), 1);
  transport_.reset();
  ::close(fd);
}

TEST_P(StdioTest, WaitsForRequestsInFlightBeforeClosingAtEof) {
  start(in_.read_fd());
  in_.write("hold\n");
  auto connection = factory_.connection();
  auto responder = connection->wait_held();
  in_.close_write();
  // EOF is seen, but the held request keeps the connection open until it is answered.
  responder->notify("progress");
  EXPECT_EQ(read_line(), "progress");
  EXPECT_EQ(connection->closes(), 0);
  responder->reply("done");
  EXPECT_EQ(read_line(), "done");
  wait_closed();
  EXPECT_EQ(connection->closes(), 1);
}

TEST_P(StdioTest, RefusesAnOversizedLineAndStaysUsable) {
  Limits limits;
  limits.max_message_bytes = 100;
  start(in_.read_fd(), limits);
  in_.write(std::string(250, 'z') + "\nsmall\n");
  EXPECT_EQ(read_line(), "oversized:250");
  EXPECT_EQ(read_line(), "small");
}

TEST_P(StdioTest, OutboundMessagesGoToStdout) {
  start(in_.read_fd());
  in_.write("outbound\n");
  EXPECT_EQ(read_line(), testing::kOutboundNote);
  EXPECT_EQ(read_line(), "outbound");
}

TEST_P(StdioTest, EndsWhenStdoutIsClosedWithoutDyingOfSigpipe) {
  start(in_.read_fd());
  out_.close_read();
  in_.write("anyone there?\n");
  wait_closed();
  EXPECT_EQ(factory_.connection()->closes(), 1);
}

TEST_P(StdioTest, StopEndsATransportWhoseInputStaysOpen) {
  start(in_.read_fd());
  in_.write("ping\n");
  EXPECT_EQ(read_line(), "ping");
  transport_->stop();
  EXPECT_TRUE(factory_.connection()->wait_closed());
  transport_.reset();  // joins the reader, which is blocked on an open pipe
  EXPECT_EQ(factory_.connection()->closes(), 1);
  EXPECT_EQ(closed_future_.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
}

INSTANTIATE_TEST_SUITE_P(Modes, StdioTest,
                         ::testing::Values(IoMode{"PipesOnThreads", false, false, false},
                                           IoMode{"PipesOnTheEventLoop", false, true, true},
                                           IoMode{"SocketsOnTheEventLoop", true, true, true}),
                         [](const auto& mode) { return std::string(mode.param.name); });

}  // namespace
}  // namespace fcp::transport
