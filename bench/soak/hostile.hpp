// The hostile clients of bench_soak, run beside the well-behaved ones on a thread of their own:
// pipeliners (thousands of requests written back to back, replies never read), slowloris
// clients (a message or an HTTP header one byte at a time) and clients that disconnect mid-call
// (after sending a request, or halfway through one).
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <optional>
#include <thread>

#include "bench/roundtrip/common.hpp"

namespace fcp::bench {

struct HostileSettings {
  asio::ip::tcp::endpoint tcp;
  std::optional<asio::ip::tcp::endpoint> http;
  // Where the hostile clients connect from (fcpd counts connections per address).
  asio::ip::address source = asio::ip::make_address("127.0.0.2");
  std::size_t pipeliners = 2;
  std::size_t slowloris = 4;      // half on TCP, half on HTTP when there is an HTTP endpoint
  std::size_t disconnectors = 4;  // half on TCP, half on HTTP when there is an HTTP endpoint
};

struct HostileCounts {
  std::atomic<std::size_t> connections{0};
  std::atomic<std::size_t> requests{0};       // requests written (whole or in part)
  std::atomic<std::size_t> server_closed{0};  // connections fcpd closed on them
  std::atomic<std::size_t> bytes_written{0};
};

// What the hostile coroutines share with their owner.
struct HostileRun {
  const HostileSettings& settings;
  HostileCounts& counts;
  const std::atomic<bool>& stopping;
};

class HostileClients {
 public:
  explicit HostileClients(HostileSettings settings);
  ~HostileClients();
  HostileClients(const HostileClients&) = delete;
  HostileClients& operator=(const HostileClients&) = delete;

  void start();
  void stop();  // closes every hostile connection and joins the thread
  const HostileCounts& counts() const { return counts_; }

 private:
  HostileSettings settings_;
  HostileCounts counts_;
  asio::io_context io_;
  std::atomic<bool> stopping_{false};
  HostileRun run_{settings_, counts_, stopping_};
  std::thread thread_;
};

}  // namespace fcp::bench
