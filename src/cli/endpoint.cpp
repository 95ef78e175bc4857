#include "cli/endpoint.hpp"

#include <charconv>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

[[noreturn]] void bad_url(std::string_view url, std::string_view why) {
  throw UsageError("bad --connect URL '" + std::string(url) + "': " + std::string(why));
}

std::uint16_t parse_port(std::string_view url, std::string_view text) {
  unsigned value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value == 0 || value > 65535) {
    bad_url(url, "port must be a number from 1 to 65535");
  }
  return static_cast<std::uint16_t>(value);
}

// Splits "HOST[:PORT]" (HOST may be a bracketed IPv6 literal) into endpoint.host/port.
void parse_authority(std::string_view url, std::string_view authority, Endpoint& endpoint,
                     bool port_required) {
  std::string_view port_text;
  if (authority.starts_with('[')) {
    auto close = authority.find(']');
    if (close == std::string_view::npos) bad_url(url, "unterminated '[' in host");
    endpoint.host = std::string(authority.substr(1, close - 1));
    auto rest = authority.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) bad_url(url, "unexpected text after ']'");
    if (!rest.empty()) port_text = rest.substr(1);
    if (rest.empty() && port_required) bad_url(url, "missing :PORT");
  } else {
    auto colon = authority.rfind(':');
    if (colon == std::string_view::npos) {
      if (port_required) bad_url(url, "missing :PORT");
      endpoint.host = std::string(authority);
    } else {
      endpoint.host = std::string(authority.substr(0, colon));
      port_text = authority.substr(colon + 1);
      if (endpoint.host.find(':') != std::string::npos) {
        bad_url(url, "IPv6 hosts must be written in brackets, e.g. [::1]:PORT");
      }
    }
  }
  if (endpoint.host.empty()) bad_url(url, "missing host");
  endpoint.port = port_text.empty() && !port_required ? 80 : parse_port(url, port_text);
}

}  // namespace

std::string Endpoint::authority() const {
  bool ipv6 = host.find(':') != std::string::npos;
  std::string result = ipv6 ? "[" + host + "]" : host;
  return result + ":" + std::to_string(port);
}

Endpoint parse_endpoint(std::string_view url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) bad_url(url, "expected tcp://HOST:PORT or http://…");
  auto scheme = url.substr(0, scheme_end);
  auto rest = url.substr(scheme_end + 3);
  Endpoint endpoint;
  if (scheme == "tcp") {
    endpoint.scheme = Endpoint::Scheme::tcp;
    if (auto slash = rest.find('/'); slash != std::string_view::npos) {
      if (slash + 1 != rest.size()) bad_url(url, "a tcp:// URL has no path");
      rest = rest.substr(0, slash);
    }
    parse_authority(url, rest, endpoint, true);
    return endpoint;
  }
  if (scheme == "http") {
    endpoint.scheme = Endpoint::Scheme::http;
    auto slash = rest.find('/');
    parse_authority(url, rest.substr(0, slash), endpoint, false);
    endpoint.target = slash == std::string_view::npos ? "/mcp" : std::string(rest.substr(slash));
    if (endpoint.target.find_first_of(" \r\n#") != std::string::npos) {
      bad_url(url, "the path contains a space, line break or '#'");
    }
    return endpoint;
  }
  if (scheme == "https") bad_url(url, "https is not supported (the daemon serves plain HTTP)");
  bad_url(url, "unknown scheme '" + std::string(scheme) + "' (use tcp:// or http://)");
}

}  // namespace fcp::cli
