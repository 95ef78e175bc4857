#include "bench/roundtrip/scenarios.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <exception>

namespace fcp::bench {
namespace {

constexpr std::size_t kLoadWarmupPerClient = 20;

std::int64_t nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

void check_tool_result(const json::value& reply) {
  if (const auto* result = reply.as_object().if_contains("result"); result && result->is_object()) {
    const auto* is_error = result->as_object().if_contains("isError");
    const auto* content = result->as_object().if_contains("content");
    const bool failed = is_error != nullptr && is_error->is_bool() && is_error->get_bool();
    if (!failed && content != nullptr && content->is_array() && !content->get_array().empty()) {
      return;
    }
  }
  throw BenchError(std::string(kCallDescription) + " failed: " + clip(json::serialize(reply)));
}

// Everything the concurrent clients share; they all run on one thread.
struct LoadState {
  LoadState(const asio::any_io_executor& executor, const Settings& s)
      : settings(s), gate(executor, Clock::time_point::max()) {}

  const Settings& settings;
  asio::steady_timer gate;  // cancelled when every client is ready: the start signal
  std::size_t ready = 0;
  Clock::time_point end;
  bool stop = false;
  std::vector<std::int64_t> latencies;
  std::vector<std::size_t> calls_per_client;
  std::exception_ptr error;
};

// The last client to get ready starts the clock and opens the gate for the others.
asio::awaitable<void> wait_for_start(LoadState& state) {
  if (++state.ready < state.settings.clients) {
    co_await state.gate.async_wait(asio::as_tuple(asio::use_awaitable));
    co_return;
  }
  const auto window = std::chrono::duration<double>(state.settings.seconds);
  state.end = Clock::now() + std::chrono::duration_cast<Clock::duration>(window);
  state.gate.cancel();
}

asio::awaitable<void> load_client(LoadState& state, std::size_t client,
                                  asio::ip::tcp::endpoint endpoint) {
  TcpChannel channel(co_await asio::this_coro::executor, state.settings.timeout);
  co_await channel.connect(endpoint);
  std::int64_t id = co_await handshake(channel);
  for (std::size_t i = 0; i < kLoadWarmupPerClient && !state.stop; ++i) {
    co_await call_status(channel, id++);
  }
  co_await wait_for_start(state);
  while (!state.stop) {
    const auto start = Clock::now();
    if (start >= state.end) break;
    co_await call_status(channel, id++);
    if (Clock::now() > state.end) break;
    state.latencies.push_back(nanoseconds_since(start));
    ++state.calls_per_client[client];
  }
}

}  // namespace

asio::awaitable<std::int64_t> handshake(Channel& channel) {
  const std::string initialize =
      std::string(
          R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")") +
      kProtocolVersion +
      R"(","capabilities":{},"clientInfo":{"name":"bench_roundtrip","version":"0.1.0"}}})";
  const json::value reply = co_await channel.request(initialize, 1);
  const auto* result = reply.as_object().if_contains("result");
  const json::value* version = nullptr;
  if (result != nullptr && result->is_object()) {
    version = result->as_object().if_contains("protocolVersion");
  }
  if (version == nullptr || !version->is_string()) {
    throw BenchError("initialize failed: " + clip(json::serialize(reply)));
  }
  channel.set_protocol_version(std::string(version->get_string()));
  co_await channel.notify(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  co_return 2;
}

asio::awaitable<void> call_status(Channel& channel, std::int64_t id) {
  const std::string body = R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                           R"(,"method":"tools/call","params":{"name":"deck_query",)"
                           R"("arguments":{"q":"status"}}})";
  check_tool_result(co_await channel.request(body, id));
}

asio::awaitable<RoundTrip> measure_sequential(std::string transport, Channel& channel,
                                              const Settings& settings) {
  const std::int64_t first_warmup = co_await handshake(channel);
  const std::int64_t first_timed = first_warmup + static_cast<std::int64_t>(settings.warmup);
  std::int64_t id = first_warmup;
  std::vector<std::int64_t> latencies;
  latencies.reserve(settings.calls);
  Clock::time_point start;
  try {
    for (std::size_t i = 0; i < settings.warmup; ++i)
      co_await call_status(channel, id++);
    start = Clock::now();
    for (std::size_t i = 0; i < settings.calls; ++i) {
      const auto sent = Clock::now();
      co_await call_status(channel, id++);
      latencies.push_back(nanoseconds_since(sent));
    }
  } catch (const BenchError& e) {
    const std::int64_t failed = id - 1;  // id++ ran before the call
    const bool warming = failed < first_timed;
    throw BenchError((warming ? "warm-up call " : "timed call ") +
                     std::to_string(failed - (warming ? first_warmup : first_timed)) + ": " +
                     e.what());
  }
  RoundTrip figures;
  figures.transport = std::move(transport);
  figures.calls = settings.calls;
  figures.seconds = static_cast<double>(nanoseconds_since(start)) / 1e9;
  figures.latency = summarize(latencies);
  figures.calls_per_second = static_cast<double>(settings.calls) / figures.seconds;
  figures.reconnects = channel.reconnects();
  co_return figures;
}

asio::awaitable<RoundTrip> measure_stdio(int to_daemon, int from_daemon, const Settings& settings) {
  StdioChannel channel(co_await asio::this_coro::executor, to_daemon, from_daemon,
                       settings.timeout);
  co_return co_await measure_sequential("stdio", channel, settings);
}

asio::awaitable<RoundTrip> measure_tcp(asio::ip::tcp::endpoint endpoint, const Settings& settings) {
  TcpChannel channel(co_await asio::this_coro::executor, settings.timeout);
  co_await channel.connect(endpoint);
  co_return co_await measure_sequential("tcp", channel, settings);
}

asio::awaitable<RoundTrip> measure_http(asio::ip::tcp::endpoint endpoint, std::string target,
                                        const Settings& settings) {
  HttpChannel channel(co_await asio::this_coro::executor, settings.timeout);
  co_await channel.connect(endpoint, std::move(target));
  co_return co_await measure_sequential("http", channel, settings);
}

Throughput measure_load(const asio::ip::tcp::endpoint& endpoint, const Settings& settings) {
  asio::io_context io;
  LoadState state(io.get_executor(), settings);
  state.latencies.reserve(1 << 20);
  state.calls_per_client.assign(settings.clients, 0);
  for (std::size_t i = 0; i < settings.clients; ++i) {
    asio::co_spawn(io, load_client(state, i, endpoint), [&state](const std::exception_ptr& error) {
      if (!error) return;
      if (!state.error) state.error = error;
      state.stop = true;
      state.gate.cancel();
    });
  }
  io.run();
  if (state.error) std::rethrow_exception(state.error);
  Throughput figures;
  figures.transport = "tcp";
  figures.clients = settings.clients;
  figures.seconds = settings.seconds;
  figures.calls = state.latencies.size();
  figures.calls_per_second = static_cast<double>(figures.calls) / settings.seconds;
  figures.latency = summarize(state.latencies);
  const auto [fewest, most] =
      std::minmax_element(state.calls_per_client.begin(), state.calls_per_client.end());
  figures.fewest_client_calls = *fewest;
  figures.most_client_calls = *most;
  return figures;
}

}  // namespace fcp::bench
