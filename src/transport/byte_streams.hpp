// The two halves of a stdio connection as interfaces, so that the channel does not care whether
// bytes move on the event loop (pipes, sockets) or on helper threads (terminals, regular files).
#pragma once

#include <boost/system/error_code.hpp>
#include <functional>
#include <string>
#include <vector>

namespace fcp::transport {

// Reads chunks of bytes. Flow control: after handing over a chunk it waits for resume().
// Callbacks may run on any thread (the implementation says which) and must only post elsewhere
// or run on the channel's strand.
class InputStream {
 public:
  using DataHandler = std::function<void(std::string chunk)>;
  using EndHandler = std::function<void(boost::system::error_code ec)>;  // empty ec: EOF

  virtual ~InputStream() = default;
  virtual void start(DataHandler on_data, EndHandler on_end) = 0;
  virtual void resume() = 0;
  // No callback runs after the reading has been stopped and joined.
  virtual void stop() = 0;
  // stop(), then waits for any thread of the stream to end. Never from a callback.
  virtual void join() = 0;
  // True when the stream runs on the event loop, false when it has a thread of its own.
  virtual bool on_event_loop() const = 0;
};

// Writes batches of lines, one batch at a time.
class OutputStream {
 public:
  using Handler = std::function<void(boost::system::error_code ec)>;

  virtual ~OutputStream() = default;
  // `lines` must stay alive and unchanged until `done` runs (on the channel's strand).
  virtual void async_write(const std::vector<std::string>& lines, Handler done) = 0;
  // A pending write completes with an error (operation aborted) or not at all.
  virtual void stop() = 0;
  // stop(), then waits for any thread of the stream to end. Never from a callback.
  virtual void join() = 0;
  virtual bool on_event_loop() const = 0;
};

}  // namespace fcp::transport
