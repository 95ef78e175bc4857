// The figures bench_roundtrip measures, printed as a table and written as JSON.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "bench/roundtrip/common.hpp"

namespace fcp::bench {

struct Latency {
  double p50_us = 0;
  double p90_us = 0;
  double p99_us = 0;
  double max_us = 0;
};

// Sorts `nanoseconds` and takes nearest-rank percentiles.
Latency summarize(std::vector<std::int64_t>& nanoseconds);

// Sequential calls over one transport.
struct RoundTrip {
  std::string transport;
  std::size_t calls = 0;
  double seconds = 0;
  Latency latency;
  double calls_per_second = 0;
  std::size_t reconnects = 0;  // connections the server closed and the client reopened
};

// Concurrent clients calling back to back.
struct Throughput {
  std::string transport;
  std::size_t clients = 0;
  double seconds = 0;
  std::size_t calls = 0;
  Latency latency;
  double calls_per_second = 0;
  std::size_t fewest_client_calls = 0;  // fairness: the least and most any one client completed
  std::size_t most_client_calls = 0;
};

struct Report {
  std::string daemon;
  std::string call;
  std::size_t warmup = 0;
  unsigned cpus = 0;
  std::string load_average;  // 1, 5 and 15 minutes, at the start
  std::vector<RoundTrip> round_trips;
  std::optional<Throughput> throughput;
  std::vector<std::string> problems;  // daemon warnings, unclean exits, reconnects
  std::vector<std::string> failures;  // measurements that could not be completed
};

void print_table(const Report& report, std::ostream& out);
json::object to_json(const Report& report);
// to_json as indented text with plain decimal numbers, ending in a newline.
std::string to_json_text(const Report& report);

}  // namespace fcp::bench
