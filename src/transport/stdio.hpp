// The stdio transport: one MCP connection over stdin/stdout, one JSON message per line.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>

#include "mcp/connection.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

class StdioChannel;
class ClosedCallback;

// Serves one Connection (ConnectionInfo{"stdio", "stdin"}) on a pair of file descriptors.
// A pipe or socket (what MCP clients give us) is read and written on `io` itself, provided the
// process ignores SIGPIPE (fcpd does); a terminal or regular file on a helper thread each (see
// open_for_event_loop, FdReader, FdWriter). Either way everything meets on one strand on `io`.
// Only messages are ever written to out_fd.
// End of input: the last unterminated line is still handled, the transport waits (at most
// kEofGrace) for the replies to requests already received, then calls Connection::close(),
// flushes the output and calls on_closed. A failed write to out_fd (the reader went away) ends it
// at once (then on_closed too); stop() ends it at once without on_closed. Unwritten output is
// dropped in both cases.
// Thread: construct, start, stop and destroy from one thread (the owner's); on_closed runs on an
// io thread. While started the transport keeps `io` from running out of work; after the end
// (or stop()) it releases it, so io.run() returns once nothing else is pending.
// Ownership: `io` and the factory must outlive the transport; the destructor stops and joins
// both threads (call it before destroying `io`).
class StdioTransport {
 public:
  StdioTransport(boost::asio::io_context& io, mcp::ConnectionFactory& factory, Limits limits,
                 int in_fd = 0, int out_fd = 1);
  ~StdioTransport();
  StdioTransport(const StdioTransport&) = delete;
  StdioTransport& operator=(const StdioTransport&) = delete;

  // Starts reading. on_closed is called once when the connection ends by itself (end of input
  // or an output error), never after stop() has returned.
  void start(std::function<void()> on_closed);
  // Stops reading, closes the connection, releases the io_context and cancels on_closed: once
  // stop() returns, on_closed is neither running nor will run. Idempotent; also the destructor.
  void stop();

  // After start(): whether reading (writing) runs on the event loop rather than a helper thread.
  bool input_on_event_loop() const;
  bool output_on_event_loop() const;

 private:
  boost::asio::io_context& io_;
  mcp::ConnectionFactory& factory_;
  Limits limits_;
  int in_fd_;
  int out_fd_;
  std::shared_ptr<ClosedCallback> on_closed_;
  std::shared_ptr<StdioChannel> channel_;
};

}  // namespace fcp::transport
