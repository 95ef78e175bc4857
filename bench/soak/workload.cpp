#include "bench/soak/workload.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/json/serialize.hpp>
#include <exception>

#include "bench/roundtrip/channel.hpp"

namespace fcp::bench {
namespace {

constexpr std::size_t kErrorsShown = 5;

struct Call {
  std::string tool;
  std::string key;  // ops, q or action
  std::vector<std::string> values;
};

std::string session_name(std::size_t client) {
  return "soak-" + std::to_string(client);
}

// Step `step` of the mix; `n` numbers what the step creates. The clients run at their own pace,
// so at any moment the domains are mixed. Every nine calls leave the documents as they were:
// what is added is undone (or, with `keep_history`, removed, which leaves both ops in the undo
// history: memory then grows with every cycle, by design of the event log).
Call mixed_call(std::size_t step, std::size_t n, bool keep_history) {
  const std::string a = "A" + std::to_string(n);
  const std::string b = "B" + std::to_string(n);
  const std::string osc = "osc" + std::to_string(n);
  const std::string vol = "vol" + std::to_string(n);
  switch (step % 9) {
    case 0:
      return {"drawio", "ops", {"add svc " + a, "add db " + b, "connect " + a + " -> " + b}};
    case 1:
      return {"drawio_query", "q", {"describe " + a}};
    case 2:
      return {
          "midi", "ops", {"note Piano C4 at:1.1 dur:quarter", "chord Piano Am7 at:2.1 dur:whole"}};
    case 3:
      return {"midi_query", "q", {"tracks"}};
    case 4:
      return {"lofi",
              "ops",
              {"add cycle~ " + osc + " at:40,40 args:440", "add *~ " + vol + " at:40,100 args:0.5",
               "wire " + osc + " -> " + vol}};
    case 5:
      return {"lofi_query", "q", {"describe " + osc}};
    case 6:
      if (keep_history) return {"drawio", "ops", {"remove " + a + " " + b}};
      return {"drawio_session", "action", {"undo 3"}};
    case 7:
      if (keep_history) return {"midi", "ops", {"remove @track:Piano"}};
      return {"midi_session", "action", {"undo 2"}};
    default:
      if (keep_history) return {"lofi", "ops", {"remove " + osc + " " + vol}};
      return {"lofi_session", "action", {"undo 3"}};
  }
}

std::string call_body(const Call& call, std::int64_t id) {
  json::value arguments;
  if (call.key == "ops") {
    json::array ops;
    for (const auto& op : call.values)
      ops.emplace_back(op);
    arguments = json::object{{"ops", std::move(ops)}};
  } else {
    arguments = json::object{{call.key, call.values.front()}};
  }
  return json::serialize(json::object{
      {"jsonrpc", "2.0"},
      {"id", id},
      {"method", "tools/call"},
      {"params", json::object{{"name", call.tool}, {"arguments", std::move(arguments)}}}});
}

std::string initialize_body(const std::string& session) {
  return json::serialize(json::object{
      {"jsonrpc", "2.0"},
      {"id", 1},
      {"method", "initialize"},
      {"params",
       json::object{{"protocolVersion", "2025-11-25"},
                    {"capabilities", json::object{}},
                    {"clientInfo", json::object{{"name", "bench_soak"}, {"version", "1"}}},
                    {"fcp", json::object{{"session", session}}}}}});
}

// Empty when the reply is a successful tool result, else what was wrong.
std::string tool_failure(const json::value& reply) {
  const auto* result = reply.as_object().if_contains("result");
  if (result != nullptr && result->is_object()) {
    const auto* is_error = result->as_object().if_contains("isError");
    if (is_error == nullptr || !is_error->is_bool() || !is_error->get_bool()) return {};
  }
  return clip(json::serialize(reply));
}

std::int64_t since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// One connection: initialize into the client's session, one call, close. Returns the call's
// round trip; throws BenchError when anything fails.
asio::awaitable<std::int64_t> one_call(const WorkloadSettings& settings, std::size_t client,
                                       const Call& call) {
  TcpChannel channel(co_await asio::this_coro::executor, settings.timeout);
  co_await channel.connect(settings.endpoint);
  const json::value init = co_await channel.request(initialize_body(session_name(client)), 1);
  if (!init.as_object().contains("result"))
    throw BenchError("initialize failed: " + clip(json::serialize(init)));
  co_await channel.notify(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  const auto start = Clock::now();
  const json::value reply = co_await channel.request(call_body(call, 2), 2);
  const std::int64_t elapsed = since(start);
  if (auto failure = tool_failure(reply); !failure.empty())
    throw BenchError(call.tool + " " + call.values.front() + ": " + failure);
  if (settings.graceful_close) co_await channel.close_gracefully();
  co_return elapsed;
}

asio::awaitable<void> client_loop(const WorkloadSettings& settings, std::size_t client,
                                  std::size_t round, WorkloadResult& result) {
  for (std::size_t i = 0; i < settings.calls; ++i) {
    const Call call = mixed_call(i, round * settings.calls + i / 9, settings.keep_history);
    const auto start = Clock::now();
    try {
      result.call_ns.push_back(co_await one_call(settings, client, call));
      result.cycle_ns.push_back(since(start));
    } catch (const std::exception& e) {
      if (++result.errors <= kErrorsShown)
        result.first_errors.push_back(session_name(client) + ": " + e.what());
    }
  }
}

asio::awaitable<void> prepare(const WorkloadSettings& settings, std::size_t client) {
  const std::string title = "\"Soak " + std::to_string(client) + "\"";
  const Call setup[] = {{"drawio_session", "action", {"new " + title}},
                        {"midi_session", "action", {"new " + title + " tempo:120"}},
                        {"midi", "ops", {"track add Piano instrument:acoustic-grand-piano"}},
                        {"lofi_session", "action", {"new " + title}}};
  for (const auto& call : setup)
    co_await one_call(settings, client, call);
}

}  // namespace

void prepare_sessions(const WorkloadSettings& settings) {
  asio::io_context io;
  std::exception_ptr failure;
  for (std::size_t client = 0; client < settings.clients; ++client) {
    asio::co_spawn(io, prepare(settings, client), [&failure](const std::exception_ptr& error) {
      if (error && !failure) failure = error;
    });
  }
  io.run();
  if (failure) std::rethrow_exception(failure);
}

WorkloadResult run_workload(const WorkloadSettings& settings, std::size_t round) {
  asio::io_context io;
  WorkloadResult result;
  result.call_ns.reserve(settings.clients * settings.calls);
  result.cycle_ns.reserve(settings.clients * settings.calls);
  const auto start = Clock::now();
  for (std::size_t client = 0; client < settings.clients; ++client)
    asio::co_spawn(io, client_loop(settings, client, round, result), asio::detached);
  io.run();
  result.seconds = static_cast<double>(since(start)) / 1e9;
  return result;
}

}  // namespace fcp::bench
