#include "transport/stdio.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <mutex>
#include <optional>
#include <utility>

#include "transport/fd_io.hpp"
#include "transport/line_channel.hpp"

namespace fcp::transport {

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

// The stdio connection. Writing: a blocking write() on FdWriter's thread rather than an Asio
// posix::stream_descriptor, because stdout may be a regular file (epoll rejects it) and because
// a stream_descriptor would set O_NONBLOCK on a file description shared with the parent (a
// terminal, say) and leave it so. Thread: the strand, except start()/stop().
class StdioChannel final : public LineChannel {
 public:
  StdioChannel(boost::asio::io_context& io, const Limits& limits, int in_fd, int out_fd)
      : LineChannel(boost::asio::make_strand(io), limits),
        io_(io),
        reader_(in_fd),
        writer_(out_fd, strand()),
        grace_timer_(strand()) {}

  void start(mcp::ConnectionFactory& factory, std::shared_ptr<ClosedCallback> on_closed) {
    work_.emplace(io_.get_executor());
    boost::asio::post(strand(), [self = self(), &factory, on_closed = std::move(on_closed)] {
      self->on_closed_ = on_closed;
      self->open(factory, mcp::ConnectionInfo{"stdio", "stdin", std::nullopt});
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
    reader_.join();
    writer_.join();
  }

 private:
  std::shared_ptr<StdioChannel> self() {
    return std::static_pointer_cast<StdioChannel>(shared_from_this());
  }

  void start_reader() {
    // The reader thread holds the channel weakly: it must never be the one to destroy it.
    std::weak_ptr<StdioChannel> weak = self();
    auto ex = strand();
    reader_.start(
        [weak, ex](std::string chunk) {
          if (auto channel = weak.lock())
            boost::asio::post(ex, [channel = std::move(channel), chunk = std::move(chunk)] {
              channel->on_chunk(chunk);
            });
        },
        [weak, ex](boost::system::error_code ec) {
          if (auto channel = weak.lock())
            boost::asio::post(ex, [channel = std::move(channel), ec] { channel->on_eof(ec); });
        });
  }

  void on_chunk(const std::string& chunk) {
    if (finished_) return;
    deliver(chunk);
    if (!reading_paused()) reader_.resume();
  }

  void on_eof(const boost::system::error_code& ec) {
    if (finished_) return;
    if (ec) spdlog::error("stdio: reading stdin failed: {}", ec.message());
    deliver_eof();
    eof_ = true;
    grace_timer_.expires_after(kEofGrace);
    grace_timer_.async_wait([self = self()](const boost::system::error_code& wait_ec) {
      if (wait_ec) return;
      spdlog::warn("stdio: closing with {} request(s) unanswered", self->requests_in_flight());
      self->begin_close();
    });
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
    reader_.stop();
    writer_.stop();
    if (on_closed_)
      boost::asio::post(io_, [on_closed = std::move(on_closed_)] { on_closed->fire(); });
    work_.reset();
  }

  void write_batch(const std::vector<std::string>& lines) override {
    writer_.async_write(lines,
                        [self = self()](boost::system::error_code ec) { self->on_write_done(ec); });
  }
  void resume_reading() override {
    if (!finished_) reader_.resume();
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
  FdReader reader_;
  FdWriter writer_;
  boost::asio::steady_timer grace_timer_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::shared_ptr<ClosedCallback> on_closed_;
  bool eof_ = false;
  bool closing_ = false;
  bool flushing_ = false;
  bool finished_ = false;
};

StdioTransport::StdioTransport(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
                               Limits limits, int in_fd, int out_fd)
    : io_(io), factory_(factory), limits_(limits), in_fd_(in_fd), out_fd_(out_fd) {}

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

void StdioTransport::stop() {
  if (on_closed_) on_closed_->cancel();
  if (channel_) channel_->stop();
}

}  // namespace fcp::transport
