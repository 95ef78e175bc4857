// The client side of a transport: sends one JSON-RPC message and receives the daemon's messages.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace fcp::cli {

struct Options;

// Removes and returns the next non-empty line (without "\n" or a trailing "\r") from `buffer`,
// or nullopt when it holds no complete line. Used by the newline-framed channels (stdio, TCP).
std::optional<std::string> take_line(std::string& buffer);

// One connection to the daemon, moving whole JSON-RPC messages (no framing visible above).
// Thread: one thread at a time. Errors: throws ChannelError (closed, I/O error, timeout, the
// spawned daemon died); the channel is unusable afterwards except for close().
class MessageChannel {
 public:
  virtual ~MessageChannel() = default;
  // Sends one serialised message (no embedded newline). May block up to the channel's timeout.
  virtual void send(const std::string& message) = 0;
  // The next message from the daemon, waiting at most `timeout`.
  virtual std::string receive(std::chrono::milliseconds timeout) = 0;
  // Ends the conversation politely (EOF to a child, DELETE of an HTTP session). Never throws;
  // idempotent.
  virtual void close() noexcept {}
  // The protocol version initialize negotiated; HTTP repeats it in a header on later requests.
  virtual void set_protocol_version(const std::string& /*version*/) {}
};

// Opens the channel the options ask for: --connect tcp:// or http://, else a spawned fcpd.
// Throws ChannelError.
std::unique_ptr<MessageChannel> open_channel(const Options& options);
// The token to present: --token-file's (its first line; a PRINCIPAL:TOKEN line gives TOKEN),
// else $FCPD_TOKEN, else none. Throws UsageError for an unreadable or empty file.
std::optional<std::string> client_token(const Options& options);

}  // namespace fcp::cli
