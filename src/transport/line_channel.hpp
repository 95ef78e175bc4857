// The transport-independent half of a newline-framed connection (stdio, TCP): framing, the
// Connection, a write queue with one write in flight, and back-pressure.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/connection.hpp"
#include "transport/line_framer.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

// Base of StdioChannel and TcpPeer. A subclass supplies the byte source and sink: it calls
// deliver() with bytes it read and implements write_batch() (one write in flight at a time).
// Reading should stop while reading_paused() is true; resume_reading() says when to continue.
// Back-pressure is by work as well as by bytes: once Limits::max_calls_in_flight requests of this
// connection are running or queued, the rest of what was read waits unframed (at most one read's
// worth) and reading stops until a call finishes; and reading stops while more than
// Limits::max_queued_bytes of replies wait to be written, or more than max_total_queued_bytes wait
// on every connection together (then each connection with replies waiting pauses until its own
// have been written).
// Ownership: held by shared_ptr (the subclass's pending I/O keeps it alive); Responders and the
// Outbound hold only weak_ptrs, so they may outlive it and then drop their messages silently.
// Thread: everything except send_line()/send_final() runs on strand(); those two may be
// called from any thread, and on a thread of the event loop with the strand free they do their
// work before returning (a reply computed on the loop is written without another trip through
// its queue), so a caller must not hold a lock the channel's work could need.
class LineChannel : public std::enable_shared_from_this<LineChannel> {
 public:
  // `strand` serializes this channel; `loop` is the plain executor of the io_context under it.
  LineChannel(boost::asio::any_io_executor strand, boost::asio::io_context::executor_type loop,
              const Limits& limits);
  virtual ~LineChannel();
  LineChannel(const LineChannel&) = delete;
  LineChannel& operator=(const LineChannel&) = delete;

  const boost::asio::any_io_executor& strand() const { return strand_; }

  // Any thread: write one outgoing message (a newline is appended), or queue it in order.
  void send_line(std::string message);
  // Any thread: the same for a request's final reply (if any); counts the request as answered.
  void send_final(std::optional<std::string> reply);
  // Any thread: the same, then the Connection is closed at once (later input is dropped) and
  // on_close_requested() is called once everything queued has been written.
  void send_final_and_close(std::string reply);

 protected:
  // Creates the Connection. Strand.
  void open(mcp::ConnectionFactory& factory, mcp::ConnectionInfo info);
  // Frames `bytes` and hands each message to the Connection. Strand.
  void deliver(std::string_view bytes);
  // End of input: an unterminated last line is still delivered, after any input still waiting for
  // calls to finish; then on_input_done() is called. Strand.
  void deliver_eof();
  // After deliver(): calls resume_reading() once the calls that input started have had their
  // turn on the event loop (unless reading is paused by then). Reading on at once would put a
  // read that finds nothing yet (a syscall) ahead of their replies. Strand.
  void read_on_after_calls();
  // Calls Connection::close() once. Strand.
  void close_connection();
  // Tells the Connection that no more input comes (Connection::input_ended), unless it is
  // closed. Strand.
  void end_input();
  // Drops queued output and every later message (the sink is gone). Strand.
  void stop_writing();
  // Completion of write_batch(). Strand.
  void on_write_done(const boost::system::error_code& ec);

  bool reading_paused() const { return paused_ || calls_full() || !unread_.empty(); }
  bool write_idle() const { return !writing_ && queue_.empty(); }
  std::size_t requests_in_flight() const { return requests_in_flight_; }
  std::size_t queued_bytes() const { return queued_bytes_; }
  // Input held for messages not yet framed: a partial line, and what waits for calls to finish.
  std::size_t pending_input_bytes() const;
  // This connection holds partial input while every connection together holds more than
  // Limits::max_total_partial_bytes: the subclass should close it.
  bool input_over_budget() const;

  // Start writing `lines` (each ends in '\n'); they stay alive and unchanged until the subclass
  // calls on_write_done(). Never called while a write is in flight.
  virtual void write_batch(const std::vector<std::string>& lines) = 0;
  // The queue fell below the resume threshold after reading_paused() was true.
  virtual void resume_reading() = 0;
  // A write failed: the peer is gone.
  virtual void on_write_error(const boost::system::error_code& ec) = 0;
  // Everything queued has been written.
  virtual void on_write_idle() {}
  // A request's Responder finished (replied, declined or was dropped).
  virtual void on_request_finished() {}
  // deliver_eof() has delivered the last of the input.
  virtual void on_input_done() {}
  // send_final_and_close(): its reply has been written; the subclass should close its link.
  virtual void on_close_requested() {}

 private:
  void dispatch(const Frame& frame);
  bool calls_full() const { return requests_in_flight_ >= limits_.max_calls_in_flight; }
  // Frames what waited for calls to finish, as far as the call limit lets it. Strand.
  void deliver_unread();
  // Sets queued_bytes_ and moves the daemon-wide total (Limits::total_queued) with it.
  void count_queued(std::size_t bytes);
  // More replies wait than this connection or the daemon as a whole may hold.
  bool output_backed_up() const;
  // Moves the daemon-wide total of held input (Limits::total_partial) to pending_input_bytes().
  void count_held_input();
  // resume_reading() unless reading is paused or the input has ended. Strand.
  void read_on_if_ready();
  void enqueue(std::string message);
  void start_write();
  void finish_request(std::optional<std::string> reply);

  boost::asio::any_io_executor strand_;
  boost::asio::io_context::executor_type loop_;
  Limits limits_;
  LineFramer framer_;
  std::shared_ptr<mcp::Connection> connection_;
  bool connection_closed_ = false;
  bool writing_stopped_ = false;
  std::deque<std::string> queue_;
  std::vector<std::string> in_flight_;  // the batch being written
  bool writing_ = false;
  std::size_t queued_bytes_ = 0;  // queue_ plus in_flight_
  bool paused_ = false;
  std::size_t requests_in_flight_ = 0;
  std::size_t held_input_bytes_ = 0;              // this channel's part of Limits::total_partial
  std::string unread_;                            // input read but not framed while calls_full()
  bool eof_pending_ = false;                      // deliver_eof() came while unread_ still waited
  bool input_ended_ = false;                      // deliver_eof() was called
  bool close_requested_ = false;                  // send_final_and_close() was called
  std::shared_ptr<LineChannel> held_while_full_;  // see deliver()
};

}  // namespace fcp::transport
