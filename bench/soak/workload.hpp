// The well-behaved clients of bench_soak: each owns a named session with a drawio, a midi and a
// lofi document and makes mixed calls (ops, queries and undo in all three domains), opening a new
// TCP connection for every call and closing it after the reply (see graceful_close).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/roundtrip/common.hpp"

namespace fcp::bench {

struct WorkloadSettings {
  asio::ip::tcp::endpoint endpoint;
  std::size_t clients = 32;
  std::size_t calls = 1000;  // per client
  std::chrono::milliseconds timeout{10'000};
  // Half-close and wait for fcpd's close before the next connection. Without it a client that
  // reconnects at once may find its named session still held by the connection it just left
  // (fcpd has not read that connection's end yet): "session … is in use".
  bool graceful_close = true;
  // Remove what the mix adds instead of undoing it (see mixed_call in workload.cpp).
  bool keep_history = false;
};

struct WorkloadResult {
  std::vector<std::int64_t> call_ns;   // each tools/call round trip
  std::vector<std::int64_t> cycle_ns;  // connect + initialize + call + close
  std::size_t errors = 0;
  std::vector<std::string> first_errors;  // the first few, for the report
  double seconds = 0;
};

// Creates every client's documents (session "soak-N"); throws on failure.
void prepare_sessions(const WorkloadSettings& settings);

// Runs settings.clients clients × settings.calls calls on the calling thread. `round` shifts
// the names the ops create so that rounds do not collide. Errors are counted, never thrown.
WorkloadResult run_workload(const WorkloadSettings& settings, std::size_t round);

}  // namespace fcp::bench
