// The MCP lifecycle as a swappable layer: which revision serves a request (a 2025-era session
// that `initialize` began, or the stateless 2026-07-28 revision whose requests carry their
// protocol version and client capabilities in `_meta`), and the request checks and result
// shapes of the stateless revision. It reads JSON and transport headers only: tools come to it
// as schemas, and the tool sets never learn which revision a call came from.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "mcp/connection.hpp"
#include "mcp/jsonrpc.hpp"

namespace fcp::mcp::lifecycle {

// The `_meta` keys of the 2026-07-28 revision.
namespace meta {
inline constexpr std::string_view protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view client_capabilities =
    "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view server_info = "io.modelcontextprotocol/serverInfo";
}  // namespace meta

enum class Era { session, stateless };

// The stateless revision serves a request whose `_meta` names a protocol version, a
// `server/discover` outside a 2025-era session (`in_session`: the connection was initialized),
// or (HTTP) one whose MCP-Protocol-Version header names no 2025-era version; every other request
// belongs to the 2025-era session of its connection, as before 2026-07-28.
Era era_of(const jsonrpc::Incoming& message, const TransportHeaders* headers, bool in_session);

// A stateless request refused before it reached a handler.
struct Refusal {
  int code;
  std::string message;
  boost::json::value data;
};

// What a stateless request declared.
struct StatelessRequest {
  boost::json::object client_capabilities;
  std::optional<std::string> log_level;  // none: the request gets no log messages
};

// Checks `_meta` (protocol version and client capabilities present; the version served), and on
// HTTP the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers against the body.
std::variant<StatelessRequest, Refusal> check_request(const jsonrpc::Incoming& message,
                                                      const TransportHeaders* headers);

// On HTTP: every argument whose schema property declares `x-mcp-header: NAME` is mirrored in an
// `Mcp-Param-NAME` header (plain, or `=?base64?…?=`) with the same value, and no such header
// comes without its argument.
std::optional<Refusal> check_param_headers(const boost::json::object& input_schema,
                                           const boost::json::object& arguments,
                                           const TransportHeaders* headers);

// The capabilities of `required` that `declared` (the request's client capabilities) lacks, as
// a -32021 refusal whose data.requiredCapabilities names them.
std::optional<Refusal> check_client_capabilities(const boost::json::object& required,
                                                 const boost::json::object& declared);

// How a client may cache a result: `ttl_ms` milliseconds, shared across authorization contexts
// ("public") or not ("private").
struct CacheHint {
  std::int64_t ttl_ms;
  std::string_view scope;
};
// The hint of `method`'s result (server/discover and the list and read methods); nullopt for
// results that are not cacheable (tools/call, prompts/get).
std::optional<CacheHint> cache_hint(std::string_view method);

// The code an error of `code` carries in the stateless revision: resource not found is -32602
// there (SEP-2164), -32002 in the 2025-era revisions; every other code is the same in both.
int stateless_error_code(int code);

// `result` as the stateless revision sends it: with resultType "complete" unless it has one,
// and `hint` as ttlMs and cacheScope.
boost::json::value shape_result(boost::json::value result, const std::optional<CacheHint>& hint);

// The capabilities this server declares (initialize and server/discover alike).
boost::json::object server_capabilities(bool has_prompts);

struct ServerIdentity {
  std::string_view name;
  std::string_view title;
  std::string_view version;
  std::string_view instructions;
};
// The server/discover result (without resultType and caching hint: shape_result adds them).
boost::json::object discover_result(const ServerIdentity& server, boost::json::object capabilities);

}  // namespace fcp::mcp::lifecycle
