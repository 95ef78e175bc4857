// Splits a byte stream into newline-delimited messages without ever buffering an oversized line.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace fcp::transport {

// One unit produced by LineFramer: either a complete message or the size of a discarded line.
struct Frame {
  std::string_view message;   // valid only during the callback
  std::size_t oversized = 0;  // > 0: a line of this many bytes was discarded
};

// Newline framing for stdio and TCP. A trailing '\r' is stripped and empty lines are skipped.
// A line longer than max_message_bytes is dropped as it streams in (memory stays bounded) and
// reported once as an oversized frame when its newline arrives.
// Thread: not thread-safe; owned and used by one strand (or one thread).
class LineFramer {
 public:
  using Sink = std::function<void(const Frame&)>;
  // Asked after each frame: true stops framing there (the caller keeps the rest for later).
  using Full = std::function<bool()>;

  explicit LineFramer(std::size_t max_message_bytes) : max_(max_message_bytes) {}

  // Feeds bytes; calls `sink` once per completed frame, in order. Stops after a frame when `full`
  // (if given) says so; returns the bytes consumed (all of `data` unless it stopped).
  std::size_t feed(std::string_view data, const Sink& sink, const Full& full = {});
  // End of input: an unterminated last line still counts as a frame.
  void finish(const Sink& sink);

  // Bytes of the current unterminated line (buffered or discarded).
  std::size_t pending_bytes() const { return discarding_ ? discarded_ : buffer_.size(); }

 private:
  void append(std::string_view piece);
  void end_line(std::string_view line, const Sink& sink);

  std::size_t max_;
  std::string buffer_;  // the current partial line
  bool discarding_ = false;
  std::size_t discarded_ = 0;
};

}  // namespace fcp::transport
