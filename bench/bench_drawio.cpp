// drawio benchmarks: N adds + N connects in one batch through the whole engine, open and save
// of a 10 000-shape file, Graphviz layout of 1 000 nodes, placement of N shapes without
// positions, a small PNG/PDF export in this process and in a raster worker. Figures in
// bench/README.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/parsed_op.hpp"
#include "core/session.hpp"
#include "core/worker_process.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/domain.hpp"
#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/io/writer.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp {
namespace {

// The benchmarks measure big batches themselves: no limit on what one call may add.
core::SessionLimits bench_limits() {
  core::SessionLimits limits;
  limits.max_created_per_call = limits.max_ops_per_call;
  return limits;
}

using testing::AllowAll;

std::vector<std::string> adds_and_connects(int count) {
  std::vector<std::string> ops;
  ops.reserve(static_cast<std::size_t>(count) * 2);
  for (int i = 0; i < count; ++i)
    ops.push_back("add svc Node" + std::to_string(i));
  for (int i = 1; i < count; ++i)
    ops.push_back("connect Node" + std::to_string(i - 1) + " -> Node" + std::to_string(i));
  ops.push_back("connect Node" + std::to_string(count - 1) + " -> Node0");
  return ops;
}

// N adds then N connects in ONE drawio call: parse, resolve, place, index, log, digest.
void BM_DrawioAddsAndConnects(benchmark::State& state) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  const auto ops = adds_and_connects(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    core::Session session(*domain, paths, bench_limits());
    session.run_session("new \"Bench\"", {});
    auto result = session.run_ops(ops, {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ops.size()));
}
BENCHMARK(BM_DrawioAddsAndConnects)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The serialized file of a diagram with `count` shapes and `count` edges.
std::string diagram_file(int count) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  core::Session session(*domain, paths, bench_limits());
  session.run_session("new \"Bench\"", {});
  session.run_ops(adds_and_connects(count), {});
  const auto file = std::filesystem::temp_directory_path() / "fcp-bench-drawio.drawio";
  session.run_session("save as:" + file.string(), {});
  std::string bytes = *core::read_file(file, std::size_t{1} << 30);
  std::filesystem::remove(file);
  return bytes;
}

void BM_DrawioOpen(benchmark::State& state) {
  const std::string bytes = diagram_file(static_cast<int>(state.range(0)));
  auto domain = drawio::make_drawio_domain();
  for (auto _ : state) {
    auto document = domain->load("bench.drawio", bytes, {});
    if (!document) state.SkipWithError(document.error().message.c_str());
    benchmark::DoNotOptimize(document);
  }
  state.counters["bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_DrawioOpen)->Arg(10000)->Unit(benchmark::kMillisecond);

// Save of an opened N-shape file. edit:0 — no edit: the bytes read are given back; edit:1 — a
// shape added (the cell counts differ: the file is written); edit:2 — a label changed (the
// counts match: the file read is parsed again to tell, then written).
void BM_DrawioSave(benchmark::State& state) {
  const std::string bytes = diagram_file(static_cast<int>(state.range(0)));
  auto domain = drawio::make_drawio_domain();
  auto document = domain->load("bench.drawio", bytes, {});
  const std::int64_t edit = state.range(1);
  if (edit > 0) {
    AllowAll paths;
    core::EventLog log;
    core::EffectSink effects;
    core::ProgressFn progress;
    core::CallContext ctx{log, paths, effects, progress};
    auto op = core::parse_op(edit == 1 ? "add svc Extra at:0,0" : "label #fcp-3 \"Renamed\"");
    auto done = (*document)->execute(*op, ctx);
    if (!done) state.SkipWithError(done.error().message.c_str());
  }
  for (auto _ : state) {
    auto out = (*document)->serialize("bench.drawio");
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_DrawioSave)
    ->ArgNames({"shapes", "edit"})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Args({10000, 2})
    ->Unit(benchmark::kMillisecond);

// Layered layout of N nodes in a tree-ish graph with cross links (about 1.5 edges per node).
void BM_DrawioLayout(benchmark::State& state) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  const int count = static_cast<int>(state.range(0));
  std::vector<std::string> ops;
  for (int i = 0; i < count; ++i)
    ops.push_back("add svc N" + std::to_string(i) + " at:0,0");
  for (int i = 1; i < count; ++i) {
    ops.push_back("connect N" + std::to_string((i - 1) / 3) + " -> N" + std::to_string(i));
    if (i % 2 == 0)
      ops.push_back("connect N" + std::to_string(i / 2) + " -> N" + std::to_string(i));
  }
  for (auto _ : state) {
    state.PauseTiming();
    core::Session session(*domain, paths, bench_limits());
    session.run_session("new \"Bench\"", {});
    session.run_ops(ops, {});
    state.ResumeTiming();
    std::vector<std::string> layout{state.range(1) == 0 ? "layout @all algo:layered"
                                                        : "layout @all algo:force"};
    auto result = session.run_ops(layout, {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
  }
}
BENCHMARK(BM_DrawioLayout)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->ArgNames({"nodes", "force"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The tiered diagram of BM_DrawioTieredLayout: `shapes` shapes in 10 groups (tiers), each shape
// calling one to three shapes of the next tier (now and then one two tiers on), a third of the
// edges labelled. Deterministic.
std::vector<std::string> tiered_ops(int shapes) {
  const int groups = 10, per_group = shapes / groups;
  std::vector<std::string> ops;
  auto name = [](int group, int i) {
    return "T" + std::to_string(group) + "_" + std::to_string(i);
  };
  for (int g = 0; g < groups; ++g) {
    std::string group = "group";
    for (int i = 0; i < per_group; ++i) {
      ops.push_back("add svc " + name(g, i) + " at:0,0");
      group += " " + name(g, i);
    }
    ops.push_back(group + " as:Tier" + std::to_string(g));
  }
  std::uint64_t seed = 12345;
  auto next = [&seed](int bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((seed >> 33) % static_cast<std::uint64_t>(bound));
  };
  for (int g = 0; g + 1 < groups; ++g) {
    for (int i = 0; i < per_group; ++i) {
      for (int k = 0, n = 1 + next(3); k < n; ++k) {
        const int to = g + 2 < groups && next(8) == 0 ? g + 2 : g + 1;
        std::string op = "connect " + name(g, i) + " -> " + name(to, next(per_group));
        if (next(3) == 0) op += " label:\"calls\"";
        ops.push_back(op);
      }
    }
  }
  return ops;
}

std::int64_t count_connects(const std::vector<std::string>& ops) {
  return std::count_if(ops.begin(), ops.end(),
                       [](const std::string& op) { return op.starts_with("connect"); });
}

// Tier-aware layout (issue 13): 1 000 shapes in 10 groups, each group a tier whose shapes call
// one to three shapes of the next tier (and now and then one two tiers on), a third of the edges
// labelled; `layout @all dir:LR` once, routing orthogonal. The diagram is built untimed.
void BM_DrawioTieredLayout(benchmark::State& state) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  const auto ops = tiered_ops(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    core::Session session(*domain, paths);
    session.run_session("new \"Bench\"", {});
    session.run_ops(ops, {});
    state.ResumeTiming();
    std::vector<std::string> layout{"layout @all dir:LR"};
    auto result = session.run_ops(layout, {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
    if (result.reply.text.find("passes through") != std::string::npos)
      state.SkipWithError("an edge runs through a shape after layout");
  }
  state.counters["edges"] = static_cast<double>(count_connects(ops));
}
BENCHMARK(BM_DrawioTieredLayout)
    ->Arg(1000)
    ->ArgNames({"shapes"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// The pinned layout's route mix: the tiered diagram with 540 shapes (984 edges: a pinned layout
// compares routes up to 1 000 edges) laid out once (`layout @all dir:LR`), then moved by hand:
// 1 shape in 4 of each tier swapped with another of its tier (deterministic), which re-routes
// their edges round the shapes in the way (the routes as they were: worse in places). Timed: one
// `layout @all dir:LR pin:@all` (pin:1: every shape stays, the layout's routes are compared with
// the edges' own and edges are given back theirs in rounds) or the same layout without pin
// (pin:0). Counters: edges, and given_back (edges whose own route was kept, from the reply).
void BM_DrawioPinnedLayout(benchmark::State& state) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  const int shapes = static_cast<int>(state.range(0));
  const bool pin = state.range(1) != 0;
  const auto ops = tiered_ops(shapes);
  std::vector<std::string> by_hand{"layout @all dir:LR"};
  const int per_group = shapes / 10;
  std::uint64_t seed = 777;
  auto next = [&seed](int bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((seed >> 33) % static_cast<std::uint64_t>(bound));
  };
  for (int g = 0; g < 10; ++g) {
    for (int i = 0; i < per_group; i += 4) {
      const int other = next(per_group);
      if (other == i) continue;
      by_hand.push_back("swap T" + std::to_string(g) + "_" + std::to_string(i) + " T" +
                        std::to_string(g) + "_" + std::to_string(other));
    }
  }
  if (count_connects(ops) > 1000) state.SkipWithError("over 1 000 edges: no routes compared");
  double given_back = 0;
  for (auto _ : state) {
    state.PauseTiming();
    core::Session session(*domain, paths, bench_limits());
    session.run_session("new \"Bench\"", {});
    session.run_ops(ops, {});
    if (auto moved = session.run_ops(by_hand, {}); moved.reply.is_error)
      state.SkipWithError(moved.reply.text.c_str());
    state.ResumeTiming();
    std::vector<std::string> layout{pin ? "layout @all dir:LR pin:@all" : "layout @all dir:LR"};
    auto result = session.run_ops(layout, {});
    state.PauseTiming();
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
    const std::string& text = result.reply.text;
    // "kept the routes of N edges as they were (…)"
    if (const auto at = text.find("kept the routes of "); at != std::string::npos)
      given_back = std::atof(text.c_str() + at + std::string("kept the routes of ").size());
    if (text.find("kept the edges' routes as they were") != std::string::npos)
      given_back = static_cast<double>(count_connects(ops));
    state.ResumeTiming();
  }
  state.counters["edges"] = static_cast<double>(count_connects(ops));
  state.counters["given_back"] = given_back;
}
BENCHMARK(BM_DrawioPinnedLayout)
    ->Args({540, 0})
    ->Args({540, 1})
    ->ArgNames({"shapes", "pin"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// `count` shapes added without positions (issue 13), in blocks of ten: a chain below the last
// block (near: … dir:below), two plain adds below it, a branch to its right (near: dir:right)
// with three numbered copies (count:3), and three members for ten groups in a row (in:, round
// robin), which grow downward. Every add looks for a free slot through the page's FrameGrid.
std::vector<std::string> placement_ops(int count) {
  std::vector<std::string> ops;
  for (int g = 0; g < 10; ++g) {
    const std::string seed = "Seed" + std::to_string(g);
    ops.push_back("add svc " + seed + " at:" + std::to_string(2000 + g * 400) + ",0");
    ops.push_back("group " + seed + " as:Group" + std::to_string(g));
  }
  ops.emplace_back("add svc Start at:200,0");
  std::string chain = "Start";
  for (int block = 0; block * 10 < count; ++block) {
    const std::string b = std::to_string(block);
    ops.push_back("add svc A" + b + " near:" + chain + " dir:below");
    ops.push_back("add svc P" + b + "a");
    ops.push_back("add svc P" + b + "b");
    ops.push_back("add db R" + b + " near:A" + b + " dir:right");
    ops.push_back("add box C" + b + "x count:3 near:R" + b + " dir:right");
    for (int m = 0; m < 3; ++m)
      ops.push_back("add svc S" + b + "m" + std::to_string(m) + " in:Group" +
                    std::to_string((block * 3 + m) % 10));
    chain = "P" + b + "b";
  }
  return ops;
}

// The adds of placement_ops in ONE drawio call (the 10 seeds and groups made first, untimed).
void BM_DrawioPlacement(benchmark::State& state) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  const auto ops = placement_ops(static_cast<int>(state.range(0)));
  const std::vector<std::string> setup(ops.begin(), ops.begin() + 21);
  const std::vector<std::string> adds(ops.begin() + 21, ops.end());
  for (auto _ : state) {
    state.PauseTiming();
    core::Session session(*domain, paths, bench_limits());
    session.run_session("new \"Bench\"", {});
    session.run_ops(setup, {});
    state.ResumeTiming();
    auto result = session.run_ops(adds, {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
    if (result.reply.text.find(" overlaps ") != std::string::npos)
      state.SkipWithError("a shape was placed on another");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DrawioPlacement)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->ArgNames({"shapes"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// `export fmt:png` (and fmt:pdf) of a small page (10 shapes, 9 edges) as one drawio call, once
// per repetition (20: the median is the p50 of 20 exports). worker:0 rasterizes in this process,
// worker:1 in `fcpd raster-worker` as fcpd does: spare:0 starts the worker at the call (as
// before issue 15), spare:1 takes the idle spare started ahead (fcpd's default), which had 300 ms
// to start, as between a user's exports.
void BM_DrawioExportRaster(benchmark::State& state) {
  const bool in_worker = state.range(0) != 0;
  const bool pdf = state.range(1) != 0;
  const std::size_t spares = state.range(2) != 0 ? 1 : 0;
  if (in_worker)
    drawio::render::use_raster_workers({FCPD_PATH, "raster-worker"}, core::kWorkerMemory, spares);
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  core::Session session(*domain, paths, bench_limits());
  session.run_session("new \"Bench\"", {});
  std::vector<std::string> ops;
  for (int i = 0; i < 10; ++i)
    ops.push_back("add svc Node" + std::to_string(i));
  for (int i = 1; i < 10; ++i)
    ops.push_back("connect Node" + std::to_string(i - 1) + " -> Node" + std::to_string(i));
  if (auto made = session.run_ops(ops, {}); made.reply.is_error)
    state.SkipWithError(made.reply.text.c_str());
  const std::vector<std::string> export_op{pdf ? "export fmt:pdf" : "export fmt:png"};
  for (auto _ : state) {
    if (spares > 0) {
      state.PauseTiming();
      if (!drawio::render::wait_for_raster_spare(std::chrono::seconds(10)))
        state.SkipWithError("no spare raster worker within 10 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      state.ResumeTiming();
    }
    auto result = session.run_ops(export_op, {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
    benchmark::DoNotOptimize(result);
  }
  if (in_worker && spares > 0 && drawio::render::raster_worker_stats().started_on_demand != 0)
    state.SkipWithError("an export started its own worker");
  drawio::render::use_raster_workers({});
}
BENCHMARK(BM_DrawioExportRaster)
    ->ArgNames({"worker", "pdf", "spare"})
    ->Args({0, 0, 0})
    ->Args({1, 0, 0})
    ->Args({1, 0, 1})
    ->Args({0, 1, 0})
    ->Args({1, 1, 0})
    ->Args({1, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(20)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();

}  // namespace
}  // namespace fcp

BENCHMARK_MAIN();
