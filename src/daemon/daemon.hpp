// fcpd's entry point as a library function, so the real daemon and test builds (with a test
// domain) share one implementation.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <functional>
#include <memory>
#include <vector>

#include "core/domain.hpp"

namespace fcp::daemon {

// Parses the command line, then serves until SIGINT/SIGTERM (or stdin EOF with --stdio), or runs
// `fcpd conformance FILE…`. Returns the process exit status (0 ok, 1 failure, 2 usage error).
int run(int argc, const char* const* argv, std::vector<std::unique_ptr<core::Domain>> domains);

// What a domain may need from the running daemon: its event loop (the lofi bridge's UDP socket
// and timers run on it) and its own section of the config file, by domain name.
struct DomainEnvironment {
  boost::asio::io_context& io;
  const boost::json::object& settings;
};
using DomainFactory =
    std::function<std::vector<std::unique_ptr<core::Domain>>(const DomainEnvironment&)>;
// As above, creating the domains once the daemon's event loop exists.
int run(int argc, const char* const* argv, const DomainFactory& factory);

}  // namespace fcp::daemon
