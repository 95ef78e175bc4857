// JSON-RPC 2.0 messages: parsing and validating incoming messages, building outgoing ones.
// Error codes are mapped to the wire here and nowhere else.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <variant>

namespace fcp::mcp::jsonrpc {

namespace code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
// Implementation-defined server error (JSON-RPC reserves -32000 to -32099): a request the HTTP
// transport refused before the MCP layer saw it (403, 404, 405, 406, 413, 415, 503).
inline constexpr int server_error = -32000;
// A client that must authenticate sent no valid token (the connection is closed after it).
inline constexpr int unauthorized = -32001;
// MCP: resources/read named a resource that does not exist (with data {"uri"}). The 2025-era
// code; in 2026-07-28 it goes out as invalid_params (lifecycle::stateless_error_code, SEP-2164).
inline constexpr int resource_not_found = -32002;
// MCP 2026-07-28: an Mcp-* HTTP header disagrees with the body (or is missing).
inline constexpr int header_mismatch = -32020;
// MCP 2026-07-28: the request needs a client capability its _meta did not declare.
inline constexpr int missing_client_capability = -32021;
// MCP 2026-07-28: the request names a protocol version this server does not serve.
inline constexpr int unsupported_protocol_version = -32022;
}  // namespace code

// The HTTP status of a stateless (2026-07-28) answer carrying error `code`: 404 for an unknown
// method, 400 for a request refused as malformed, 500 for an internal error.
unsigned http_status_of(int code);

struct Incoming {
  enum class Kind { request, notification, response };
  Kind kind = Kind::request;
  boost::json::value id;  // string or integer for requests; null otherwise
  std::string method;
  boost::json::object params;  // empty when absent
  // A response: its "result", or its "error" (the other one null).
  boost::json::value result;
  boost::json::value error;
};

// A message that could not be accepted, with the id to answer (null when unknown).
struct Rejection {
  int code;
  std::string message;
  boost::json::value id;
};

// Parses one message. Arrays (JSON-RPC batches) are rejected: MCP no longer has them.
// Returns the message or the rejection to send back.
std::variant<Incoming, Rejection> parse(std::string_view text);

std::string result(const boost::json::value& id, const boost::json::value& result);
std::string error(const boost::json::value& id, int code, std::string_view message,
                  boost::json::value data = nullptr);
// The body of an HTTP error response for a request refused before it became a message: a
// malformed request (400) is invalid_request, any other refusal a server_error. `id` is the
// refused request's id (see request_id), null when it has none.
std::string http_error(unsigned http_status, std::string_view message,
                       const boost::json::value& id = nullptr);
// The id of the single JSON-RPC request in `body` (a valid string or integer "id"), or null for
// anything else: no body, not JSON, a batch, a notification, a response.
boost::json::value request_id(std::string_view body);
std::string notification(std::string_view method, const boost::json::object& params);

}  // namespace fcp::mcp::jsonrpc
