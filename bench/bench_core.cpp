// Engine micro-benchmarks: tokenize+parse throughput, event-log append and undo, whole batches
// through core::Session with the test domain, and one MCP tool call through mcp::Server (JSON in,
// JSON out, no transport).
#include <benchmark/benchmark.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <filesystem>

#include "core/event_log.hpp"
#include "core/op_contract.hpp"
#include "core/parsed_op.hpp"
#include "core/session.hpp"
#include "core/tokenizer.hpp"
#include "mcp/server.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/test_domain.hpp"

namespace {

using namespace fcp;

// The benchmarks measure big batches themselves: no limit on what one call may add.
core::SessionLimits bench_limits() {
  core::SessionLimits limits;
  limits.max_created_per_call = limits.max_ops_per_call;
  return limits;
}

const std::vector<std::string>& short_ops() {
  static const std::vector<std::string> ops = {
      "note Piano C4 at:1.1 dur:quarter", "add svc AuthService theme:blue",
      "connect A -> B label:queries",     "remove @type:db @not:group:Backend",
      "style Auth fill:#ff0000 bold",     "add db \"User DB\" near:Auth dir:right",
      "wire osc1 -> gain out:0 in:1",     "tempo 140 at:5.1",
  };
  return ops;
}

void BM_Tokenize(benchmark::State& state) {
  const auto& ops = short_ops();
  std::size_t i = 0;
  for (auto _ : state) {
    auto tokens = core::tokenize(ops[i++ % ops.size()]);
    benchmark::DoNotOptimize(tokens);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Tokenize);

void BM_ParseOp(benchmark::State& state) {
  const auto& ops = short_ops();
  std::size_t i = 0;
  for (auto _ : state) {
    auto op = core::parse_op(ops[i++ % ops.size()]);
    benchmark::DoNotOptimize(op);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseOp);

// parse_op plus the op contract (declared keys, a choice, an integer) for a verb with 8 keys.
void BM_ParseAndCheckOp(benchmark::State& state) {
  core::VerbRegistry registry;
  registry.add(core::VerbSpec{"add", "[TYPE] LABEL", "shapes", "create"}
                   .with(core::key("theme", "T"))
                   .with(core::key("near", "REF"))
                   .with(core::choice_key("dir", {"below", "above", "left", "right"}))
                   .with(core::key("at", "X,Y"))
                   .with(core::key("size", "WxH"))
                   .with(core::key("label", "TEXT"))
                   .with(core::key("in", "GROUP"))
                   .with(core::integer_key("count")));
  const core::VerbSpec& spec = *registry.find("add");
  const std::vector<std::string> ops = {"add db \"User DB\" near:Auth dir:right theme:blue",
                                        "add svc AuthService theme:blue count:3",
                                        "add box Note at:100,200 size:120x60 in:Backend"};
  std::size_t i = 0;
  for (auto _ : state) {
    auto op = core::parse_op(ops[i++ % ops.size()]);
    auto checked = core::check_op_keys(spec, *op, registry.key_synonyms());
    benchmark::DoNotOptimize(checked);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseAndCheckOp);

struct NoteEvent final : core::Event {
  int n = 0;
  std::string summary() const override { return "note"; }
};

void BM_EventLogAppend(benchmark::State& state) {
  for (auto _ : state) {
    core::EventLog log;
    for (int i = 0; i < state.range(0); ++i)
      log.append(std::make_shared<NoteEvent>());
    benchmark::DoNotOptimize(log.length());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_EventLogAppend)->Arg(1000)->Arg(100000);

// Undo of one entry in a log of N entries: must not depend on N.
void BM_EventLogUndoRedo(benchmark::State& state) {
  core::EventLog log;
  for (int i = 0; i < state.range(0); ++i)
    log.append(std::make_shared<NoteEvent>());
  for (auto _ : state) {
    auto undone = log.undo(1);
    auto redone = log.redo(1);
    benchmark::DoNotOptimize(redone);
  }
}
BENCHMARK(BM_EventLogUndoRedo)->Arg(1000)->Arg(100000);

using testing::AllowAll;

// A batch of N "add" ops through the whole engine (parse, dispatch, log, digest).
void BM_SessionBatch(benchmark::State& state) {
  auto domain = testing::make_deck_domain();
  AllowAll paths;
  std::vector<std::string> ops;
  for (int i = 0; i < state.range(0); ++i)
    ops.push_back("add card" + std::to_string(i) + " color:red");
  for (auto _ : state) {
    core::Session session(*domain, paths, bench_limits());
    session.run_session("new \"Bench\"", {});
    auto result = session.run_ops(ops, {});
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SessionBatch)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// What fcpd does for one trivial call besides the transport: parse the JSON-RPC request, queue the
// call on the client session's strand, run the query, build and serialize the reply.
class CountingResponder final : public mcp::Responder {
 public:
  void notify(std::string) override {}
  void reply(std::string message) override { bytes += message.size(), ++replies; }
  void no_reply() override { ++replies; }
  std::size_t replies = 0;
  std::size_t bytes = 0;
};

void BM_McpToolCall(benchmark::State& state) {
  boost::asio::io_context io;
  const auto work = boost::asio::make_work_guard(io);  // poll() must not stop it when idle
  auto domain = testing::make_deck_domain();
  testing::NoFiles paths;
  mcp::Server server(io.get_executor(), {domain.get()}, paths, mcp::ServerOptions{});
  auto connection =
      server.connect(mcp::ConnectionInfo{"bench", "bench", std::nullopt, std::nullopt}, nullptr);
  auto responder = std::make_shared<CountingResponder>();
  connection->handle(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})",
      responder);
  connection->handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", responder);
  io.poll();
  std::int64_t id = 2;
  for (auto _ : state) {
    const std::size_t before = responder->replies;
    connection->handle(R"({"jsonrpc":"2.0","id":)" + std::to_string(id++) +
                           R"(,"method":"tools/call","params":{"name":"deck_query",)"
                           R"("arguments":{"q":"status"}}})",
                       responder);
    while (responder->replies == before) {
      if (io.poll_one() == 0 && io.stopped()) return state.SkipWithError("the call never finished");
    }
  }
  connection->close();
  io.poll();
  state.counters["reply_bytes"] = static_cast<double>(responder->bytes) / responder->replies;
}
BENCHMARK(BM_McpToolCall);

}  // namespace

BENCHMARK_MAIN();
