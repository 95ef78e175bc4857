// fcpd's entry point as a library function, so the real daemon and test builds (with a test
// domain) share one implementation.
#pragma once

#include <memory>
#include <vector>

#include "core/domain.hpp"

namespace fcp::daemon {

// Parses the command line, then serves until SIGINT/SIGTERM (or stdin EOF with --stdio), or runs
// `fcpd conformance FILE…`. Returns the process exit status (0 ok, 1 failure, 2 usage error).
int run(int argc, const char* const* argv, std::vector<std::unique_ptr<core::Domain>> domains);

}  // namespace fcp::daemon
