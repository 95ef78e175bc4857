// The conformance runner: executes the JSON fixture suites of fcp-core.md §8 (tokenizer,
// parse-op, session, event-log) against the real engine functions.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace fcp::daemon {

// Runs every test of every file. Prints one `FAIL <file> :: <test>: …` line per failure (an
// unreadable or malformed file counts as one failure) and then `N passed, M failed` on its own
// line. Returns 0 only when at least one test ran and none failed, 1 otherwise.
int run_conformance(const std::vector<std::string>& files, std::ostream& out);

}  // namespace fcp::daemon
