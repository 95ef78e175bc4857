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
  void reply_and_close(std::string message) override {
    if (done_.exchange(true)) return spdlog::warn("transport: second reply was dropped");
    if (auto channel = channel_.lock()) channel->send_final_and_close(std::move(message));
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

LineChannel::~LineChannel() {
  count_queued(0);
  limits_.total_partial->bytes -= held_input_bytes_;
}

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

void LineChannel::send_final_and_close(std::string reply) {
  boost::asio::dispatch(strand_, [self = shared_from_this(), reply = std::move(reply)]() mutable {
    self->close_connection();
    self->finish_request(std::move(reply));
    self->close_requested_ = true;
    if (self->write_idle()) self->on_close_requested();
  });
}

void LineChannel::open(mcp::ConnectionFactory& factory, mcp::ConnectionInfo info) {
  connection_ = factory.connect(std::move(info), std::make_shared<LineOutbound>(weak_from_this()));
}

void LineChannel::deliver(std::string_view bytes) {
  if (!unread_.empty()) {
    unread_.append(bytes);  // keeps the order; only reachable if a subclass read while paused
    return;
  }
  const auto used = framer_.feed(
      bytes, [this](const Frame& frame) { dispatch(frame); }, [this] { return calls_full(); });
  if (used < bytes.size()) unread_.assign(bytes.substr(used));
  count_held_input();
  // No read is pending while the calls are full, and responders hold the channel weakly: it
  // keeps itself alive until a call finishes and reading goes on.
  if (calls_full() && !connection_closed_) held_while_full_ = shared_from_this();
}

void LineChannel::count_held_input() {
  const std::size_t bytes = pending_input_bytes();
  auto& total = limits_.total_partial->bytes;
  if (bytes >= held_input_bytes_) {
    total += bytes - held_input_bytes_;
  } else {
    total -= held_input_bytes_ - bytes;
  }
  held_input_bytes_ = bytes;
}

bool LineChannel::input_over_budget() const {
  return held_input_bytes_ > 0 &&
         limits_.total_partial->bytes.load() > limits_.max_total_partial_bytes;
}

std::size_t LineChannel::pending_input_bytes() const {
  return framer_.pending_bytes() + unread_.size();
}

void LineChannel::deliver_unread() {
  if (unread_.empty() || calls_full()) return;
  const std::string waiting = std::move(unread_);
  unread_.clear();
  deliver(waiting);
  if (unread_.empty() && eof_pending_) {
    eof_pending_ = false;
    deliver_eof();
  }
}

void LineChannel::read_on_after_calls() {
  // Posted to the loop, not to the strand: a strand with work queued is busy, and the replies
  // (dispatched to it) would wait behind this read instead of being written at once.
  boost::asio::post(loop_, [self = shared_from_this()] {
    boost::asio::dispatch(self->strand_, [self] { self->read_on_if_ready(); });
  });
}

void LineChannel::read_on_if_ready() {
  if (!input_ended_ && !reading_paused()) resume_reading();
}

void LineChannel::deliver_eof() {
  input_ended_ = true;
  if (!unread_.empty()) {
    eof_pending_ = true;
    return;
  }
  framer_.finish([this](const Frame& frame) { dispatch(frame); });
  count_held_input();
  on_input_done();
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
  held_while_full_.reset();
}

void LineChannel::end_input() {
  if (!connection_closed_ && connection_) connection_->input_ended();
}

void LineChannel::stop_writing() {
  writing_stopped_ = true;
  queue_.clear();
  std::size_t still_writing = 0;
  for (const auto& line : in_flight_)
    still_writing += line.size();
  count_queued(still_writing);
}

void LineChannel::count_queued(std::size_t bytes) {
  auto& total = limits_.total_queued->bytes;
  if (bytes >= queued_bytes_) {
    total += bytes - queued_bytes_;
  } else {
    total -= queued_bytes_ - bytes;
  }
  queued_bytes_ = bytes;
}

bool LineChannel::output_backed_up() const {
  return queued_bytes_ > limits_.max_queued_bytes ||
         limits_.total_queued->bytes.load() > limits_.max_total_queued_bytes;
}

void LineChannel::enqueue(std::string message) {
  if (writing_stopped_) return;
  message.push_back('\n');
  count_queued(queued_bytes_ + message.size());
  queue_.push_back(std::move(message));
  if (output_backed_up()) paused_ = true;
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
  std::size_t written = 0;
  for (const auto& line : in_flight_)
    written += line.size();
  count_queued(queued_bytes_ - written);
  in_flight_.clear();
  if (ec) {
    stop_writing();
    return on_write_error(ec);
  }
  if (!queue_.empty()) start_write();
  // A channel paused by the daemon-wide total goes on once its own share has been written.
  if (paused_ && queued_bytes_ <= limits_.max_queued_bytes / 2 &&
      (queued_bytes_ == 0 || !output_backed_up())) {
    paused_ = false;
    read_on_if_ready();
  }
  if (write_idle() && close_requested_) return on_close_requested();
  if (write_idle()) on_write_idle();
}

void LineChannel::finish_request(std::optional<std::string> reply) {
  if (reply) enqueue(std::move(*reply));
  const bool was_full = calls_full();
  if (requests_in_flight_ > 0) --requests_in_flight_;
  if (was_full && !connection_closed_) {
    deliver_unread();
    read_on_if_ready();
  }
  if (!calls_full()) held_while_full_.reset();  // this handler's caller still holds the channel
  on_request_finished();
}

}  // namespace fcp::transport
