// lofi benchmarks: OSC round trips to the Max simulator over loopback UDP, 1 000 objects + 1 000
// wires in one call (offline, and mirrored into the simulator), a 200-layer UI batch, and a
// sync of 200 and 1 000 objects with 0 and 20 ms reply latency.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <future>
#include <thread>

#include "core/session.hpp"
#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp {
namespace {

using testing::NoFiles;

// An io thread, a simulator on an ephemeral port, and the lofi domain pointed at it.
struct Rig {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::thread thread{[this] { io.run(); }};
  std::unique_ptr<lofi::bridge::Simulator> simulator;
  std::unique_ptr<core::Domain> domain;
  NoFiles paths;

  explicit Rig(bool online, std::chrono::milliseconds latency = {}) {
    lofi::bridge::SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;
    options.delay = latency;  // every reply waits this long (simulate-max --latency-ms)
    simulator = lofi::bridge::Simulator::start(io, options).value();
    boost::json::object settings{{"port", simulator->port()},
                                 {"reply_port", 0},
                                 {"connect_on_new", online},
                                 {"probe_ms", 1000}};
    domain = lofi::make_lofi_domain(io, settings);
  }
  ~Rig() {
    domain.reset();
    simulator->stop();
    work.reset();
    io.stop();
    thread.join();
  }
  core::ToolReply run(core::Session& session, core::CallResult result) {
    if (!result.pending) return result.reply;
    auto* executor = session.effect_executor();
    std::promise<core::Result<void>> delivered;
    executor->deliver(result.pending->effects, {},
                      [&](core::Result<void> outcome) { delivered.set_value(std::move(outcome)); });
    auto outcome = delivered.get_future().get();
    return outcome ? session.confirm(std::move(*result.pending))
                   : session.fail(std::move(*result.pending), outcome.error());
  }
};

void BM_LofiRoundTrip(benchmark::State& state) {
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  std::thread thread([&] { io.run(); });
  lofi::bridge::SimulatorOptions options;
  options.port = 0;
  options.reply_port = 0;
  auto simulator = lofi::bridge::Simulator::start(io, options).value();
  lofi::bridge::BridgeOptions bridge_options;
  bridge_options.port = simulator->port();
  bridge_options.reply_port = 0;
  auto bridge = lofi::bridge::Bridge::open(io, bridge_options).value();
  std::vector<double> micros;
  for (auto _ : state) {
    std::promise<void> done;
    const auto start = std::chrono::steady_clock::now();
    bridge->request("ping", {},
                    [&](const core::Result<lofi::bridge::Reply>&) { done.set_value(); });
    done.get_future().wait();
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(micros.begin(), micros.end());
  state.counters["p50_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[std::min(micros.size() - 1, micros.size() * 99 / 100)];
  bridge->close();
  bridge.reset();
  simulator->stop();
  work.reset();
  io.stop();
  thread.join();
}
BENCHMARK(BM_LofiRoundTrip)->Iterations(2000)->Unit(benchmark::kMicrosecond);

std::vector<std::string> objects_and_wires(int count) {
  std::vector<std::string> ops;
  for (int i = 0; i < count; ++i)
    ops.push_back("add *~ g" + std::to_string(i) + " at:" + std::to_string(40 + (i % 40) * 60) +
                  "," + std::to_string(40 + (i / 40) * 40));
  for (int i = 1; i < count; ++i)
    ops.push_back("wire g" + std::to_string(i - 1) + " -> g" + std::to_string(i));
  ops.push_back("wire g" + std::to_string(count - 1) + " -> g0 in:1");
  return ops;
}

// 1 000 objects + 1 000 wires in ONE lofi call; state.range(1): mirrored into the simulator.
void BM_LofiObjectsAndWires(benchmark::State& state) {
  Rig rig(state.range(1) != 0);
  const auto ops = objects_and_wires(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    core::Session session(*rig.domain, rig.paths);
    rig.run(session, session.run_session("new \"Bench\"", {}));
    auto reply = rig.run(session, session.run_ops(ops, {}));
    if (reply.is_error) state.SkipWithError(reply.text.c_str());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ops.size()));
}
BENCHMARK(BM_LofiObjectsAndWires)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->ArgNames({"objects", "online"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// A 200-layer UI in one call, sent to the simulator as z-sorted /lofi/ui message(s).
void BM_LofiUiBatch(benchmark::State& state) {
  Rig rig(true);
  std::vector<std::string> ops;
  for (int i = 0; i < state.range(0); ++i)
    ops.push_back("ui " + std::to_string(10 + (i * 37) % 80) + "_layer" + std::to_string(i) +
                  " live.dial at:" + std::to_string((i % 20) * 30) + "," +
                  std::to_string((i / 20) * 17) + " size:28x16");
  for (auto _ : state) {
    core::Session session(*rig.domain, rig.paths);
    rig.run(session, session.run_session("new \"Bench\" width:600 height:170", {}));
    auto reply = rig.run(session, session.run_ops(ops, {}));
    if (reply.is_error) state.SkipWithError(reply.text.c_str());
  }
}
BENCHMARK(BM_LofiUiBatch)->Arg(200)->Unit(benchmark::kMillisecond)->Iterations(5);

// `lofi_session sync` of a device of state.range(0) objects (made offline) into the simulator,
// whose replies wait state.range(1) ms: the whole sync, from the call to the last confirmation.
void BM_LofiSync(benchmark::State& state) {
  Rig rig(false, std::chrono::milliseconds(state.range(1)));
  core::Session session(*rig.domain, rig.paths);
  rig.run(session, session.run_session("new \"Bench\"", {}));
  std::vector<std::string> ops;
  for (int i = 0; i < state.range(0); ++i)
    ops.push_back("add *~ g" + std::to_string(i) + " at:" + std::to_string(40 + (i % 40) * 60) +
                  "," + std::to_string(40 + (i / 40) * 40));
  rig.run(session, session.run_ops(ops, {}));
  const std::string connect = "connect port:" + std::to_string(rig.simulator->port()) + " reply:0";
  auto linked = rig.run(session, session.run_session(connect, {}));
  if (linked.text.find("~ connected") == std::string::npos)
    state.SkipWithError(linked.text.c_str());
  for (auto _ : state) {
    auto reply = rig.run(session, session.run_session("sync", {}));
    if (reply.is_error) state.SkipWithError(reply.text.c_str());
  }
  if (rig.simulator->model().objects().size() != static_cast<std::size_t>(state.range(0)))
    state.SkipWithError("the simulator does not hold every object after the sync");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_LofiSync)
    ->Args({200, 0})
    ->Args({1000, 0})
    ->Args({200, 20})
    ->Args({1000, 20})
    ->ArgNames({"objects", "latency_ms"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

}  // namespace
}  // namespace fcp

BENCHMARK_MAIN();
