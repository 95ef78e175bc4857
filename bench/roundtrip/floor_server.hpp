// The machine's floor for a round trip: a stand-in server that answers every request with a
// canned reply of the daemon's size, doing no other work. Measured with the same client code as
// fcpd, the difference between the two is what fcpd itself costs.
#pragma once

#include <string>

namespace fcp::bench {

// The argument that makes bench_roundtrip act as the floor server instead of measuring.
inline constexpr const char* kFloorServerFlag = "--serve-floor";

// Serves "stdio" (stdin/stdout) or "tcp" (127.0.0.1, an ephemeral port it logs to stderr the way
// fcpd does) until end of input or SIGTERM. Like fcpd with --busy-poll-us, it polls without
// blocking while requests keep coming, so it pays no wake-up either. Returns the exit status.
int serve_floor(const std::string& transport);

}  // namespace fcp::bench
