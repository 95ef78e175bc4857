// The checks a Streamable HTTP request passes before it reaches an MCP session (headers, path,
// method, DNS-rebinding protection) and the transport's own error responses.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <optional>
#include <string_view>

#include "mcp/connection.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

inline constexpr std::string_view kMcpPath = "/mcp";
inline constexpr std::string_view kSessionIdHeader = "Mcp-Session-Id";
inline constexpr std::string_view kProtocolVersionHeader = "MCP-Protocol-Version";
inline constexpr std::string_view kSessionNameHeader = "Fcp-Session";

// A response whose body is the JSON-RPC error mcp::jsonrpc::http_error writes for `status`,
// with the id of the request in `request`'s body (null when it carries none).
HttpResponse make_error_response(const HttpRequest& request, boost::beast::http::status status,
                                 std::string_view message);
// A response with no body (202, 204).
HttpResponse make_empty_response(const HttpRequest& request, boost::beast::http::status status);

// True when the Accept header value admits `media_type` ("type/subtype"), honouring "*/*",
// "type/*" and q=0.
bool accepts_media_type(std::string_view accept, std::string_view media_type);
// True for "application/json" with any parameters (e.g. charset).
bool is_json_content_type(std::string_view content_type);
// The host part of a Host header or URL authority, parsed strictly (RFC 3986 host[:port]):
// "[::1]:80" → "[::1]", "localhost:3000" → "localhost"; nullopt for anything else — userinfo
// ("127.0.0.1:80@evil.com"), a path, spaces, a port that is not 1–5 digits, an empty host.
std::optional<std::string_view> host_name(std::string_view authority);
// The Host header (well formed) names localhost, 127.0.0.1, [::1] or one of options.allowed_hosts.
bool host_allowed(std::string_view host_header, const HttpOptions& options);
// The Origin is a loopback origin (any scheme and port) or listed in options.allowed_origins.
bool origin_allowed(std::string_view origin, const HttpOptions& options);
// The target without its query string.
std::string_view request_path(std::string_view target);

// The token of an `Authorization: Bearer TOKEN` header (scheme case-insensitive), or nullopt
// when there is none (no header, another scheme, two Authorization headers).
std::optional<std::string> bearer_token(const HttpRequest& request);
// 401 with `WWW-Authenticate: Bearer realm="fcpd"` (and error="invalid_token" when a token was
// sent), whose body says how to send one.
HttpResponse make_unauthorized_response(const HttpRequest& request, bool token_given);

// Everything that can be refused without looking at sessions, in this order: Host and Origin
// (403), path (404), method (405), MCP-Protocol-Version of a GET or DELETE (400; a POST's is the
// MCP layer's to check), Accept (406), Content-Type (415).
std::optional<HttpResponse> check_request(const HttpRequest& request, const HttpOptions& options);

// The request's `Mcp-*` headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*), for the
// MCP layer to check against the body: names lowercased, values trimmed.
mcp::TransportHeaders mcp_headers(const HttpRequest& request);

}  // namespace fcp::transport
