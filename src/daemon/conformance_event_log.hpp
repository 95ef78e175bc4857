// The event-log part of the conformance runner (fcp-core.md §8, event-log suites).
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>

namespace fcp::daemon {

// Runs one `{name, operations, assertions}` test on a fresh EventLog whose events are the
// fixture's JSON objects. Returns what differed, or nullopt when every assertion held.
std::optional<std::string> run_event_log_test(const boost::json::object& test);

}  // namespace fcp::daemon
