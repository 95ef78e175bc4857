#include "transport/line_channel.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <utility>

namespace fcp::transport {
namespace {

// Carries the answers to one incoming line back to its channel.
// Thread: any; it only posts to the channel's strand. Holds the channel weakly so that a reply
// arriving after the peer disconnected is dropped silently.
class LineResponder final : public mcp::Responder {
 public:
  explicit LineResponder(std::weak_ptr<LineChannel> channel) : channel_(std::move(channel)) {}
  ~LineResponder() override {
    if (!done_.exchange(true)) finish(std::nullopt);  // dropped unanswered: count it as done
  }

  void notify(std::string message) override {
    if (done_.load()) return spdlog::warn("transport: notify() after the reply was dropped");
    if (auto channel = channel_.lock()) channel->send_line(std::move(message));
  }
  void reply(std::string message) override {
    if (done_.exchange(true)) return spdlog::warn("transport: second reply was dropped");
    finish(std::move(message));
  }
  void no_reply() override {
    if (!done_.exchange(true)) finish(std::nullopt);
  }

 private:
  void finish(std::optional<std::string> reply) {
    if (auto channel = channel_.lock()) channel->send_final(std::move(reply));
  }

  std::weak_ptr<LineChannel> channel_;
  std::atomic<bool> done_{false};
};

// Unsolicited messages of the connection. Thread: any. Weak for the same reason as above
// (and because the Connection owns it while the channel owns the Connection).
class LineOutbound final : public mcp::Outbound {
 public:
  explicit LineOutbound(std::weak_ptr<LineChannel> channel) : channel_(std::move(channel)) {}
  void send(std::string message) override {
    if (auto channel = channel_.lock()) channel->send_line(std::move(message));
  }

 private:
  std::weak_ptr<LineChannel> channel_;
};

}  // namespace

LineChannel::LineChannel(boost::asio::any_io_executor strand,
                         boost::asio::io_context::executor_type loop, const Limits& limits)
    : strand_(std::move(strand)),
      loop_(std::move(loop)),
      limits_(limits),
      framer_(limits.max_message_bytes) {}

LineChannel::~LineChannel() = default;

// dispatch, not post: on the event loop's thread with the strand free, the message is written at
// once (no trip through the scheduler's queue, which costs a reactor poll per hop); otherwise it
// queues on the strand, in order.
void LineChannel::send_line(std::string message) {
  boost::asio::dispatch(strand_,
                        [self = shared_from_this(), message = std::move(message)]() mutable {
                          self->enqueue(std::move(message));
                        });
}

void LineChannel::send_final(std::optional<std::string> reply) {
  boost::asio::dispatch(strand_, [self = shared_from_this(), reply = std::move(reply)]() mutable {
    self->finish_request(std::move(reply));
  });
}

void LineChannel::open(mcp::ConnectionFactory& factory, mcp::ConnectionInfo info) {
  connection_ = factory.connect(std::move(info), std::make_shared<LineOutbound>(weak_from_this()));
}

void LineChannel::deliver(std::string_view bytes) {
  framer_.feed(bytes, [this](const Frame& frame) { dispatch(frame); });
}

void LineChannel::read_on_after_calls() {
  // Posted to the loop, not to the strand: a strand with work queued is busy, and the replies
  // (dispatched to it) would wait behind this read instead of being written at once.
  boost::asio::post(loop_, [self = shared_from_this()] {
    boost::asio::dispatch(self->strand_, [self] {
      if (!self->paused_) self->resume_reading();
    });
  });
}

void LineChannel::deliver_eof() {
  framer_.finish([this](const Frame& frame) { dispatch(frame); });
}

void LineChannel::dispatch(const Frame& frame) {
  if (connection_closed_ || !connection_) return;
  ++requests_in_flight_;
  auto responder = std::make_shared<LineResponder>(weak_from_this());
  if (frame.oversized > 0) {
    spdlog::warn("transport: discarded a {}-byte message (limit {})", frame.oversized,
                 limits_.max_message_bytes);
    connection_->handle_oversized(frame.oversized, std::move(responder));
  } else {
    connection_->handle(frame.message, std::move(responder));
  }
}

void LineChannel::close_connection() {
  if (connection_closed_ || !connection_) return;
  connection_closed_ = true;
  connection_->close();
}

void LineChannel::stop_writing() {
  writing_stopped_ = true;
  queue_.clear();
  queued_bytes_ = 0;
  for (const auto& line : in_flight_)
    queued_bytes_ += line.size();
}

void LineChannel::enqueue(std::string message) {
  if (writing_stopped_) return;
  message.push_back('\n');
  queued_bytes_ += message.size();
  queue_.push_back(std::move(message));
  if (queued_bytes_ > limits_.max_queued_bytes) paused_ = true;
  if (!writing_) start_write();
}

void LineChannel::start_write() {
  in_flight_.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
  queue_.clear();
  writing_ = true;
  write_batch(in_flight_);
}

void LineChannel::on_write_done(const boost::system::error_code& ec) {
  writing_ = false;
  for (const auto& line : in_flight_)
    queued_bytes_ -= line.size();
  in_flight_.clear();
  if (ec) {
    stop_writing();
    return on_write_error(ec);
  }
  if (!queue_.empty()) start_write();
  if (paused_ && queued_bytes_ <= limits_.max_queued_bytes / 2) {
    paused_ = false;
    resume_reading();
  }
  if (write_idle()) on_write_idle();
}

void LineChannel::finish_request(std::optional<std::string> reply) {
  if (reply) enqueue(std::move(*reply));
  if (requests_in_flight_ > 0) --requests_in_flight_;
  on_request_finished();
}

}  // namespace fcp::transport
