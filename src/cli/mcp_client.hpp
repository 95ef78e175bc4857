// The MCP client side of fcp: the initialize handshake, numbered requests, tools/list and
// tools/call, over any MessageChannel.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "cli/message_channel.hpp"

namespace fcp::cli {

struct ClientSettings {
  std::optional<std::string> session;          // named daemon session, sent in initialize params
  std::chrono::milliseconds timeout{120'000};  // per request
  bool verbose = false;                        // show log and progress notifications on `log`
  std::optional<std::string> token;            // sent in initialize params as fcp.token
};

// Thread: one thread. Owns nothing but the request counter; the channel outlives it.
// Errors: ChannelError (transport, TimeoutError), ProtocolError (JSON-RPC error response or a
// message that is not JSON-RPC).
class McpClient {
 public:
  McpClient(MessageChannel& channel, ClientSettings settings, std::ostream& log);

  // initialize, then notifications/initialized. Returns the initialize result.
  boost::json::object initialize();
  // All tools, following nextCursor pages: {"tools": […]}.
  boost::json::object list_tools();
  // The tools/call result ({content, isError}).
  boost::json::object call_tool(std::string_view name, boost::json::object arguments);

  // Sends a request and waits for its response; returns its `result`.
  boost::json::value request(std::string_view method, boost::json::object params);
  void notify(std::string_view method, boost::json::object params);

 private:
  boost::json::value await_response(std::int64_t id, std::string_view method);
  // Notifications are logged (verbose) or dropped; server requests get a reply.
  void handle_incoming(const boost::json::object& message);
  void log_notification(std::string_view method, const boost::json::object& params);

  MessageChannel& channel_;
  ClientSettings settings_;
  std::ostream& log_;
  std::int64_t next_id_ = 1;
};

}  // namespace fcp::cli
