#include "transport/http_checks.hpp"

#include <algorithm>
#include <boost/beast/core/string.hpp>
#include <cctype>
#include <string>

#include "mcp/connection.hpp"
#include "mcp/jsonrpc.hpp"

namespace fcp::transport {
namespace http = boost::beast::http;
using boost::beast::iequals;

namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// Calls `fn(item)` for every comma-separated item of a header value.
template <class Fn>
bool any_item(std::string_view value, Fn fn) {
  while (!value.empty()) {
    const auto comma = value.find(',');
    if (fn(trim(value.substr(0, comma)))) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

bool has_zero_quality(std::string_view params) {
  while (!params.empty()) {
    const auto semi = params.find(';');
    const auto param = trim(params.substr(0, semi));
    if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
      const auto q = param.substr(2);
      return q.find_first_not_of("0.") == std::string_view::npos;
    }
    if (semi == std::string_view::npos) break;
    params.remove_prefix(semi + 1);
  }
  return false;
}

bool is_loopback_name(std::string_view host) {
  return iequals(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

}  // namespace

HttpResponse make_error_response(const HttpRequest& request, http::status status,
                                 std::string_view message) {
  HttpResponse response{status, request.version()};
  response.set(http::field::server, "fcp");
  response.set(http::field::content_type, "application/json");
  response.keep_alive(request.keep_alive());
  // The refused request's id, so that the client can match the error to its request.
  response.body() = mcp::jsonrpc::http_error(static_cast<unsigned>(status), message,
                                             mcp::jsonrpc::request_id(request.body()));
  response.prepare_payload();
  return response;
}

std::optional<std::string> bearer_token(const HttpRequest& request) {
  if (request.count(http::field::authorization) != 1) return std::nullopt;
  const auto value = trim(request[http::field::authorization]);
  constexpr std::string_view kScheme = "bearer ";
  if (value.size() <= kScheme.size() || !iequals(value.substr(0, kScheme.size()), kScheme))
    return std::nullopt;
  const auto token = trim(value.substr(kScheme.size()));
  if (token.empty()) return std::nullopt;
  return std::string(token);
}

HttpResponse make_unauthorized_response(const HttpRequest& request, bool token_given) {
  auto response = make_error_response(
      request, http::status::unauthorized,
      token_given ? "Unauthorized: the bearer token is not valid"
                  : "Unauthorized: send \"Authorization: Bearer TOKEN\" (the daemon's FCPD_TOKEN "
                    "or a token of its token file)");
  response.set(http::field::www_authenticate, token_given
                                                  ? R"(Bearer realm="fcpd", error="invalid_token")"
                                                  : R"(Bearer realm="fcpd")");
  return response;
}

HttpResponse make_empty_response(const HttpRequest& request, http::status status) {
  HttpResponse response{status, request.version()};
  response.set(http::field::server, "fcp");
  response.keep_alive(request.keep_alive());
  response.prepare_payload();
  return response;
}

bool accepts_media_type(std::string_view accept, std::string_view media_type) {
  const auto slash = media_type.find('/');
  const auto type = media_type.substr(0, slash);
  return any_item(accept, [&](std::string_view item) {
    const auto semi = item.find(';');
    const auto range = trim(item.substr(0, semi));
    if (semi != std::string_view::npos && has_zero_quality(item.substr(semi + 1))) return false;
    if (range == "*/*" || iequals(range, media_type)) return true;
    return range.size() == type.size() + 2 && iequals(range.substr(0, type.size()), type) &&
           range.substr(type.size()) == "/*";
  });
}

bool is_json_content_type(std::string_view content_type) {
  return iequals(trim(content_type.substr(0, content_type.find(';'))), "application/json");
}

std::optional<std::string_view> host_name(std::string_view authority) {
  authority = trim(authority);
  std::string_view host;
  std::string_view rest;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    rest = authority.substr(close + 1);
    const auto inside = host.substr(1, host.size() - 2);
    if (inside.empty() || inside.find_first_not_of("0123456789abcdefABCDEF:.") != inside.npos)
      return std::nullopt;
  } else {
    const auto colon = authority.find(':');
    host = authority.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view{} : authority.substr(colon);
    const auto is_name_char = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '-' || c == '.' || c == '_' || c == '~';
    };
    if (host.empty() || !std::all_of(host.begin(), host.end(), is_name_char)) return std::nullopt;
  }
  if (rest.empty()) return host;
  const auto port = rest.substr(1);
  if (rest[0] != ':' || port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string_view::npos ||
      std::stoul(std::string(port)) > 65535)
    return std::nullopt;
  return host;
}

bool host_allowed(std::string_view host_header, const HttpOptions& options) {
  const auto host = host_name(host_header);
  if (!host) return false;
  if (is_loopback_name(*host)) return true;
  return std::any_of(options.allowed_hosts.begin(), options.allowed_hosts.end(),
                     [&](const std::string& allowed) {
                       const auto name = host_name(allowed);
                       return name && iequals(*name, *host);
                     });
}

bool origin_allowed(std::string_view origin, const HttpOptions& options) {
  origin = trim(origin);
  if (std::find(options.allowed_origins.begin(), options.allowed_origins.end(), origin) !=
      options.allowed_origins.end())
    return true;
  const auto scheme_end = origin.find("://");
  if (scheme_end == std::string_view::npos) return false;  // includes the opaque "null"
  auto authority = origin.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find('/'));
  const auto host = host_name(authority);
  return host && is_loopback_name(*host);
}

std::string_view request_path(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

std::optional<HttpResponse> check_request(const HttpRequest& request, const HttpOptions& options) {
  // Two Host or Origin headers: which one a proxy checked and which one we read may differ.
  if (request.count(http::field::host) > 1 || request.count(http::field::origin) > 1)
    return make_error_response(request, http::status::bad_request,
                               "Bad Request: more than one Host or Origin header");
  if (!host_allowed(request[http::field::host], options))
    return make_error_response(request, http::status::forbidden, "Forbidden: Host not allowed");
  if (request.count(http::field::origin) > 0 &&
      !origin_allowed(request[http::field::origin], options))
    return make_error_response(request, http::status::forbidden, "Forbidden: Origin not allowed");
  if (request_path(request.target()) != kMcpPath)
    return make_error_response(request, http::status::not_found, "Not Found");
  const auto method = request.method();
  if (method != http::verb::post && method != http::verb::get && method != http::verb::delete_) {
    auto response =
        make_error_response(request, http::status::method_not_allowed, "Method Not Allowed");
    response.set(http::field::allow, "GET, POST, DELETE");
    return response;
  }
  // A POST's version is checked by the MCP layer, which answers with the request's id (and knows
  // the stateless revision); GET and DELETE belong to 2025-era sessions only.
  if (method != http::verb::post && request.count(kProtocolVersionHeader) > 0 &&
      !mcp::is_supported_protocol_version(trim(request[kProtocolVersionHeader])))
    return make_error_response(request, http::status::bad_request,
                               "Bad Request: unsupported MCP-Protocol-Version");
  const auto accept = request[http::field::accept];
  if (method == http::verb::post) {
    if (!accepts_media_type(accept, "application/json") ||
        !accepts_media_type(accept, "text/event-stream"))
      return make_error_response(
          request, http::status::not_acceptable,
          "Not Acceptable: Accept must include application/json and text/event-stream");
    if (!is_json_content_type(request[http::field::content_type]))
      return make_error_response(request, http::status::unsupported_media_type,
                                 "Unsupported Media Type: Content-Type must be application/json");
  }
  if (method == http::verb::get && !accepts_media_type(accept, "text/event-stream"))
    return make_error_response(request, http::status::not_acceptable,
                               "Not Acceptable: Accept must include text/event-stream");
  return std::nullopt;
}

mcp::TransportHeaders mcp_headers(const HttpRequest& request) {
  mcp::TransportHeaders headers;
  for (const auto& field : request) {
    const auto name = field.name_string();
    if (name.size() < 4 || !iequals(name.substr(0, 4), "mcp-")) continue;
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    headers.fields.emplace_back(std::move(lower), std::string(trim(field.value())));
  }
  return headers;
}

}  // namespace fcp::transport
