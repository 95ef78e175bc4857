// Parses the --connect URL (tcp://HOST:PORT or http://HOST[:PORT][/PATH]) into its parts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fcp::cli {

struct Endpoint {
  enum class Scheme { tcp, http };
  Scheme scheme = Scheme::tcp;
  std::string host;  // without IPv6 brackets
  std::uint16_t port = 0;
  std::string target;  // HTTP request target ("/mcp"); empty for TCP

  // "HOST:PORT" as written in an HTTP Host header (IPv6 hosts bracketed).
  std::string authority() const;
};

// Throws UsageError naming what is wrong. TCP needs an explicit port and no path; HTTP defaults
// to port 80 and, when the URL has no path, to the daemon's endpoint "/mcp".
Endpoint parse_endpoint(std::string_view url);

}  // namespace fcp::cli
