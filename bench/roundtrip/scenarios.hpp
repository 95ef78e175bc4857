// What bench_roundtrip measures, as coroutines over Channels: sequential round trips over one
// connection, and many TCP clients calling back to back.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <string>
#include <vector>

#include "bench/roundtrip/channel.hpp"
#include "bench/roundtrip/report.hpp"

namespace fcp::bench {

inline constexpr const char* kProtocolVersion = "2025-11-25";
inline constexpr const char* kCallDescription = R"(tools/call deck_query {"q":"status"})";

struct Settings {
  std::string fcpd;
  std::size_t calls = 20000;
  std::size_t warmup = 500;
  std::size_t clients = 32;
  double seconds = 5;
  std::chrono::milliseconds timeout{5000};
  std::string json_path;
  std::vector<std::string> only;  // of stdio, tcp, http, load, floor; empty: all
  std::vector<std::string> daemon_args;
  bool help = false;
};

// initialize + notifications/initialized. Returns the next free request id.
asio::awaitable<std::int64_t> handshake(Channel& channel);

// One deck_query status call; throws unless it succeeded.
asio::awaitable<void> call_status(Channel& channel, std::int64_t id);

// Handshake, warm-up, then settings.calls timed calls one after another.
asio::awaitable<RoundTrip> measure_sequential(std::string transport, Channel& channel,
                                              const Settings& settings);

asio::awaitable<RoundTrip> measure_stdio(int to_daemon, int from_daemon, const Settings& settings);
asio::awaitable<RoundTrip> measure_tcp(asio::ip::tcp::endpoint endpoint, const Settings& settings);
asio::awaitable<RoundTrip> measure_http(asio::ip::tcp::endpoint endpoint, std::string target,
                                        const Settings& settings);

// settings.clients TCP connections calling back to back for settings.seconds, all driven by one
// client thread (this one).
Throughput measure_load(const asio::ip::tcp::endpoint& endpoint, const Settings& settings);

}  // namespace fcp::bench
