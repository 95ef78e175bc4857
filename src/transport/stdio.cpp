#include "transport/stdio.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <mutex>
#include <optional>
#include <utility>

#include "transport/descriptor_io.hpp"
#include "transport/fd_io.hpp"
#include "transport/line_channel.hpp"

namespace fcp::transport {
namespace {
// The process that started the daemon over stdio needs no token: it is the principal an
// unauthenticated loopback client is ("local", mcp::kLocalPrincipal).
constexpr const char* kStdioPrincipal = "local";
}  // namespace

// How long end of input waits for replies to requests already received.
inline constexpr std::chrono::seconds kEofGrace{10};

// on_closed, cancellable: once cancel() returns the callback is neither running nor will run
// (the recursive mutex lets the callback itself stop or destroy the transport).
// Thread: any. Ownership: shared by the transport and the handler that fires it.
class ClosedCallback {
 public:
  explicit ClosedCallback(std::function<void()> callback) : callback_(std::move(callback)) {}
  void fire() {
    std::lock_guard lock(mutex_);
    if (auto callback = std::exchange(callback_, nullptr)) callback();
  }
  void cancel() {
    std::lock_guard lock(mutex_);
    callback_ = nullptr;
  }

 private:
  std::recursive_mutex mutex_;
  std::function<void()> callback_;
};

namespace {

// Pipes and sockets are read on the event loop; anything else (a terminal, a regular file) on a
// helper thread: see open_for_event_loop().
std::unique_ptr<InputStream> open_input(const boost::asio::any_io_executor& strand, int fd) {
  if (auto own = open_for_event_loop(fd, false)) {
    return std::make_unique<DescriptorReader>(strand, *own);
  }
  spdlog::debug("stdio: reading fd {} on a helper thread (not a pipe or socket)", fd);
  return std::make_unique<FdReader>(fd);
}

std::unique_ptr<OutputStream> open_output(const boost::asio::any_io_executor& strand, int fd) {
  if (auto own = open_for_event_loop(fd, true)) {
    return std::make_unique<DescriptorWriter>(strand, *own);
  }
  spdlog::debug("stdio: writing fd {} on a helper thread (not a pipe or socket)", fd);
  return std::make_unique<FdWriter>(fd, strand);
}

}  // namespace

// The stdio connection. Thread: the strand, except start()/stop()/join_threads().
class StdioChannel final : public LineChannel {
 public:
  StdioChannel(boost::asio::io_context& io, const Limits& limits, int in_fd, int out_fd)
      : LineChannel(boost::asio::make_strand(io), io.get_executor(), limits),
        io_(io),
        reader_(open_input(strand(), in_fd)),
        writer_(open_output(strand(), out_fd)),
        grace_timer_(strand()) {}

  bool input_on_event_loop() const { return reader_->on_event_loop(); }
  bool output_on_event_loop() const { return writer_->on_event_loop(); }

  void start(mcp::ConnectionFactory& factory, std::shared_ptr<ClosedCallback> on_closed) {
    work_.emplace(io_.get_executor());
    boost::asio::post(strand(), [self = self(), &factory, on_closed = std::move(on_closed)] {
      self->on_closed_ = on_closed;
      self->open(factory, mcp::ConnectionInfo{"stdio", "stdin", std::nullopt, kStdioPrincipal});
      self->start_reader();
    });
  }

  void stop() {
    boost::asio::post(strand(), [self = self()] {
      self->close_connection();
      self->finish();
    });
  }

  // Owner's thread, after stop(): ends and joins both threads, so that neither outlives the
  // transport (a thread that posted into a dying io_context could otherwise end up destroying
  // the channel, and so joining itself).
  void join_threads() {
    reader_->join();
    writer_->join();
  }

 private:
  std::shared_ptr<StdioChannel> self() {
    return std::static_pointer_cast<StdioChannel>(shared_from_this());
  }

  void start_reader() {
    // A reader thread holds the channel weakly: it must never be the one to destroy it.
    // dispatch: a reader on the event loop already runs on the strand, a thread posts to it.
    std::weak_ptr<StdioChannel> weak = self();
    auto ex = strand();
    reader_->start(
        [weak, ex](std::string chunk) {
          if (auto channel = weak.lock())
            boost::asio::dispatch(ex, [channel = std::move(channel), chunk = std::move(chunk)] {
              channel->on_chunk(chunk);
            });
        },
        [weak, ex](boost::system::error_code ec) {
          if (auto channel = weak.lock())
            boost::asio::dispatch(ex, [channel = std::move(channel), ec] { channel->on_eof(ec); });
        });
  }

  void on_chunk(const std::string& chunk) {
    if (finished_) return;
    reader_waits_ = true;  // a reader hands over one chunk, then waits for resume()
    deliver(chunk);
    read_on_after_calls();
  }

  void on_eof(const boost::system::error_code& ec) {
    if (finished_) return;
    if (ec) spdlog::error("stdio: reading stdin failed: {}", ec.message());
    deliver_eof();
  }

  // The last request of stdin has been handed on (input that waited for calls included).
  void on_input_done() override {
    if (finished_) return;
    eof_ = true;
    grace_timer_.expires_after(kEofGrace);
    grace_timer_.async_wait([self = self()](const boost::system::error_code& wait_ec) {
      if (wait_ec) return;
      spdlog::warn("stdio: closing with {} request(s) unanswered", self->requests_in_flight());
      self->begin_close();
    });
    // Streams only the client could end (subscriptions/listen) end now: nothing more comes.
    end_input();
    maybe_close();
  }

  void maybe_close() {
    if (eof_ && requests_in_flight() == 0) begin_close();
  }

  void begin_close() {
    if (closing_) return;
    closing_ = true;
    grace_timer_.cancel();
    close_connection();
    // Messages that close() itself posts land before this check.
    boost::asio::post(strand(), [self = self()] {
      self->flushing_ = true;
      if (self->write_idle()) self->finish();
    });
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    grace_timer_.cancel();
    stop_writing();
    reader_->stop();
    writer_->stop();
    if (on_closed_)
      boost::asio::post(io_, [on_closed = std::move(on_closed_)] { on_closed->fire(); });
    work_.reset();
  }

  void write_batch(const std::vector<std::string>& lines) override {
    writer_->async_write(
        lines, [self = self()](boost::system::error_code ec) { self->on_write_done(ec); });
  }
  // Once per chunk: a second resume while the reader already reads would let one more chunk in
  // past the back-pressure of a full output queue.
  void resume_reading() override {
    if (finished_ || !reader_waits_) return;
    reader_waits_ = false;
    reader_->resume();
  }
  void on_write_error(const boost::system::error_code& ec) override {
    if (!finished_) spdlog::error("stdio: writing stdout failed: {}", ec.message());
    close_connection();
    finish();
  }
  void on_write_idle() override {
    if (flushing_) finish();
  }
  void on_request_finished() override { maybe_close(); }

  boost::asio::io_context& io_;
  std::unique_ptr<InputStream> reader_;
  std::unique_ptr<OutputStream> writer_;
  boost::asio::steady_timer grace_timer_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::shared_ptr<ClosedCallback> on_closed_;
  bool reader_waits_ = false;  // the reader handed over a chunk and waits for resume()
  bool eof_ = false;
  bool closing_ = false;
  bool flushing_ = false;
  bool finished_ = false;
};

StdioTransport::StdioTransport(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
                               Limits limits, int in_fd, int out_fd)
    : io_(io), factory_(factory), limits_(std::move(limits)), in_fd_(in_fd), out_fd_(out_fd) {}

StdioTransport::~StdioTransport() {
  stop();
  if (channel_) channel_->join_threads();
}

void StdioTransport::start(std::function<void()> on_closed) {
  if (channel_) return;
  on_closed_ = std::make_shared<ClosedCallback>(std::move(on_closed));
  channel_ = std::make_shared<StdioChannel>(io_, limits_, in_fd_, out_fd_);
  channel_->start(factory_, on_closed_);
}

bool StdioTransport::input_on_event_loop() const {
  return channel_ && channel_->input_on_event_loop();
}

bool StdioTransport::output_on_event_loop() const {
  return channel_ && channel_->output_on_event_loop();
}

void StdioTransport::stop() {
  if (on_closed_) on_closed_->cancel();
  if (channel_) channel_->stop();
}

}  // namespace fcp::transport
