// Graphviz in worker processes: the wire format round-trips a drawing exactly (so a layout in a
// worker equals one in process), the worker's side answers errors, and a worker whose call must
// stop is killed.
#include "domains/drawio/layout/graphviz_worker.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "core/call_scope.hpp"
#include "domains/drawio/layout/graph_layout.hpp"
#include "layout_test_support.hpp"

namespace fcp::drawio::layout {
namespace {

using namespace test_support;  // NOLINT(google-build-using-namespace): test builders

LayoutRequest clustered_request() {
  LayoutRequest request;
  request.nodes = {node("a", 120, 40, "g"), node("b", 80.5, 33.25, "g"), node("c"),
                   node("d \"odd\" id:\n2")};
  request.nodes[2].pinned = true;
  request.nodes[2].x = 17.125;
  request.clusters = {LayoutCluster{"g", "", "Group: with a\nnewline"}};
  request.edges = {edge("a", "b"), edge("b", "c"), edge("a", "c"), edge("c", "d \"odd\" id:\n2")};
  request.edges[1].label_width = 42;
  request.routing = EdgeRouting::spline;
  request.direction = Direction::LR;
  request.spacing = 45.5;
  return request;
}

void expect_same(const detail::Drawing& a, const detail::Drawing& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].x, b.nodes[i].x);
    EXPECT_EQ(a.nodes[i].y, b.nodes[i].y);
    EXPECT_EQ(a.nodes[i].w, b.nodes[i].w);
    EXPECT_EQ(a.nodes[i].h, b.nodes[i].h);
  }
  ASSERT_EQ(a.clusters.size(), b.clusters.size());
  for (std::size_t i = 0; i < a.clusters.size(); ++i) {
    ASSERT_EQ(a.clusters[i].has_value(), b.clusters[i].has_value());
    if (a.clusters[i]) {
      EXPECT_EQ(a.clusters[i]->w, b.clusters[i]->w);
    }
  }
  ASSERT_EQ(a.crossings.size(), b.crossings.size());
  for (std::size_t i = 0; i < a.crossings.size(); ++i) {
    ASSERT_EQ(a.crossings[i].size(), b.crossings[i].size());
    for (std::size_t j = 0; j < a.crossings[i].size(); ++j) {
      EXPECT_EQ(a.crossings[i][j].row, b.crossings[i][j].row);
      EXPECT_EQ(a.crossings[i][j].cross, b.crossings[i][j].cross);
    }
  }
  ASSERT_EQ(a.curves.size(), b.curves.size());
  for (std::size_t i = 0; i < a.curves.size(); ++i) {
    ASSERT_EQ(a.curves[i].size(), b.curves[i].size());
    for (std::size_t j = 0; j < a.curves[i].size(); ++j) {
      EXPECT_EQ(a.curves[i][j].x, b.curves[i][j].x);
      EXPECT_EQ(a.curves[i][j].y, b.curves[i][j].y);
    }
  }
  EXPECT_EQ(a.curves_from_engine, b.curves_from_engine);
  EXPECT_EQ(a.vertical_ranks, b.vertical_ranks);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].lo, b.rows[i].lo);
    EXPECT_EQ(a.rows[i].hi, b.rows[i].hi);
    EXPECT_EQ(a.rows[i].nodes, b.rows[i].nodes);
  }
  EXPECT_EQ(a.node_row, b.node_row);
  EXPECT_EQ(a.moved, b.moved);
}

TEST(GraphvizWorker, TheWorkersAnswerIsTheDrawingOfTheLayoutInProcess) {
  const LayoutRequest request = clustered_request();
  const auto graph = detail::index_graph(request);
  ASSERT_TRUE(graph) << graph.error().message;
  const detail::EngineOptions options{};
  auto here = detail::run_graphviz_in_process(request, *graph, options);
  ASSERT_TRUE(here) << here.error().message;
  ASSERT_FALSE(here->rows.empty());
  ASSERT_TRUE(here->curves_from_engine);

  std::istringstream in(detail::encode_job(request, options));
  std::ostringstream out;
  ASSERT_EQ(run_graphviz_worker(in, out), 0);
  auto there = detail::decode_drawing(out.str());
  ASSERT_TRUE(there) << there.error().message;
  expect_same(*here, *there);
}

TEST(GraphvizWorker, AJobRoundTripsEveryField) {
  const LayoutRequest request = clustered_request();
  const detail::EngineOptions options{detail::Engine::neato, true, true};
  auto job = detail::decode_job(detail::encode_job(request, options));
  ASSERT_TRUE(job) << job.error().message;
  const auto& [decoded, decoded_options] = *job;
  EXPECT_EQ(decoded_options.engine, detail::Engine::neato);
  EXPECT_TRUE(decoded_options.keep_child_order);
  EXPECT_TRUE(decoded_options.pin_nodes);
  ASSERT_EQ(decoded.nodes.size(), request.nodes.size());
  EXPECT_EQ(decoded.nodes[3].id, "d \"odd\" id:\n2");
  EXPECT_EQ(decoded.nodes[1].width, 80.5);
  EXPECT_EQ(decoded.nodes[2].x, 17.125);
  EXPECT_TRUE(decoded.nodes[2].pinned);
  EXPECT_EQ(decoded.clusters[0].label, "Group: with a\nnewline");
  EXPECT_EQ(decoded.edges[3].target, "d \"odd\" id:\n2");
  EXPECT_EQ(decoded.edges[1].label_width, 42);
  EXPECT_EQ(decoded.routing, EdgeRouting::spline);
  EXPECT_EQ(decoded.direction, Direction::LR);
  EXPECT_EQ(decoded.spacing, 45.5);
}

TEST(GraphvizWorker, BadInputIsAnErrorNotACrash) {
  std::istringstream in("12:fcp-layout-1 0 0 0 9");
  std::ostringstream out;
  EXPECT_EQ(run_graphviz_worker(in, out), 0);
  auto answer = detail::decode_drawing(out.str());
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.error().message, "truncated or malformed layout job");
  auto garbled = detail::decode_drawing("7:drawing 99999 1 ");
  ASSERT_FALSE(garbled);
  EXPECT_EQ(garbled.error().message, "Layout: the Graphviz worker's answer is garbled");
}

// Restores in-process layout after a test that configured a worker command.
struct WorkerCommand {
  WorkerCommand(std::vector<std::string> command, std::size_t max) {
    use_graphviz_workers(std::move(command), max, 0);  // every layout in a worker
  }
  ~WorkerCommand() { use_graphviz_workers({}, 0); }
  WorkerCommand(const WorkerCommand&) = delete;
  WorkerCommand& operator=(const WorkerCommand&) = delete;
};

LayoutRequest chain() {
  LayoutRequest request;
  request.nodes = {node("a"), node("b")};
  request.edges = {edge("a", "b")};
  return request;
}

// A worker that never answers (sleep 30) stands for a layout that runs on: past the call's time
// limit it is killed, and the error says after how long and which setting.
TEST(GraphvizWorker, AWorkerPastTheCallsTimeLimitIsKilled) {
  const WorkerCommand workers({"/bin/sleep", "30"}, 2);
  const core::CallScope scope(nullptr, std::chrono::milliseconds(200), "limits.max_call_seconds");
  const auto started = std::chrono::steady_clock::now();
  auto result = run_layout(chain());
  const auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result);
  EXPECT_THAT(result.error().message,
              testing::MatchesRegex("layout stopped after [0-9]+ ms: the call ran past its "
                                    "time limit of 200 ms \\(limits\\.max_call_seconds\\)"));
  EXPECT_LT(took, std::chrono::seconds(2));
  EXPECT_EQ(graphviz_workers_running(), 0u);
}

TEST(GraphvizWorker, ACancelledCallKillsItsWorker) {
  const WorkerCommand workers({"/bin/sleep", "30"}, 2);
  std::atomic<bool> cancelled{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancelled = true;
  });
  const core::CallScope scope(&cancelled, std::chrono::milliseconds(0), "limits.max_call_seconds");
  auto result = run_layout(chain());
  canceller.join();
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("layout stopped after"), std::string::npos);
  EXPECT_NE(result.error().message.find("the call was cancelled"), std::string::npos);
}

TEST(GraphvizWorker, AWorkerThatFailsIsAClearError) {
  // As in fcpd, which ignores SIGPIPE: the job written to a worker that is gone is an error.
  const auto previous = ::signal(SIGPIPE, SIG_IGN);
  const WorkerCommand workers({"/bin/false"}, 1);
  auto result = run_layout(chain());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            "Layout: the Graphviz worker ended with exit status 1 (a crash in Graphviz); the "
            "document was not changed");
  const WorkerCommand missing({"/nonexistent/fcpd", "graphviz-worker"}, 1);
  auto not_started = run_layout(chain());
  ASSERT_FALSE(not_started);
  EXPECT_NE(not_started.error().message.find("cannot start the Graphviz worker"),
            std::string::npos);
  ::signal(SIGPIPE, previous);
}

// fcpd graphviz-worker limits its address space as told (config drawio.worker_memory_bytes): past
// it the worker ends, and the error names the limit and the setting. Within it, fcpd's worker
// lays out as this process does; its spare took the job.
TEST(GraphvizWorker, TheWorkersMemoryLimitApplies) {
  if (!core::kWorkerMemoryLimitApplies) GTEST_SKIP() << "a sanitizer build sets no RLIMIT_AS";
  auto here = run_layout(chain());  // no workers configured: in this process
  ASSERT_TRUE(here) << here.error().message;
  const auto previous = ::signal(SIGPIPE, SIG_IGN);  // as in fcpd: the worker may die first
  use_graphviz_workers({FCPD_PATH, "graphviz-worker"}, 1, 0, std::size_t{1} << 20);
  // 1 MiB: what the worker has mapped at start may hold a tiny layout, not a job of 3 000 nodes.
  LayoutRequest big;
  for (int i = 0; i < 3000; ++i) {
    big.nodes.push_back(node("n" + std::to_string(i)));
    if (i > 0) big.edges.push_back(edge("n" + std::to_string(i - 1), "n" + std::to_string(i)));
  }
  auto starved = run_layout(big);
  use_graphviz_workers({FCPD_PATH, "graphviz-worker"}, 1, 0, core::kWorkerMemory);
  for (int i = 0; i < 200 && graphviz_worker_stats().spares.empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto fits = run_layout(chain());
  const auto stats = graphviz_worker_stats();
  use_graphviz_workers({}, 0);
  ::signal(SIGPIPE, previous);
  ASSERT_FALSE(starved);
  EXPECT_EQ(starved.error().message.rfind("Layout: the Graphviz worker ended with ", 0), 0u)
      << starved.error().message;
  EXPECT_TRUE(starved.error().message.ends_with(
      "(a crash in Graphviz, or more memory than its limit of 1048576 bytes, config "
      "drawio.worker_memory_bytes); the document was not changed"))
      << starved.error().message;
  ASSERT_TRUE(fits) << fits.error().message;
  ASSERT_EQ(fits->nodes.size(), here->nodes.size());
  for (std::size_t i = 0; i < here->nodes.size(); ++i) {
    EXPECT_EQ(fits->nodes[i].x, here->nodes[i].x) << i;
    EXPECT_EQ(fits->nodes[i].y, here->nodes[i].y) << i;
  }
  EXPECT_EQ(stats.started_on_demand, 0u);  // the spare, started before the layout, took it
}

// At most max_workers at once: a second layout waits for the first's worker, and a call that
// must stop while it waits gives up without starting one.
// Small layouts stay in process: a few ms, less than starting a worker.
TEST(GraphvizWorker, SmallLayoutsRunInProcess) {
  const auto previous = ::signal(SIGPIPE, SIG_IGN);  // as in fcpd (see below)
  use_graphviz_workers({"/bin/false"}, 1, 3);
  auto small = run_layout(chain());  // 2 nodes + 1 edge
  LayoutRequest larger = chain();
  larger.nodes.push_back(node("c"));
  auto in_worker = run_layout(larger);
  use_graphviz_workers({}, 0);
  ::signal(SIGPIPE, previous);
  EXPECT_TRUE(small) << small.error().message;
  ASSERT_FALSE(in_worker);
  EXPECT_NE(in_worker.error().message.find("Graphviz worker ended"), std::string::npos);
}

TEST(GraphvizWorker, WorkersAreBounded) {
  const WorkerCommand workers({"/bin/sleep", "30"}, 1);
  std::atomic<bool> stop_first{false};
  std::thread first([&] {
    const core::CallScope scope(&stop_first, std::chrono::milliseconds(0), "first");
    (void)run_layout(chain());
  });
  while (graphviz_workers_running() == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  {
    const core::CallScope scope(nullptr, std::chrono::milliseconds(150), "limits.max_call_seconds");
    auto waited = run_layout(chain());
    ASSERT_FALSE(waited);
    EXPECT_NE(waited.error().message.find("while it waited for a Graphviz worker"),
              std::string::npos)
        << waited.error().message;
  }
  EXPECT_EQ(graphviz_workers_running(), 1u);
  stop_first = true;
  first.join();
  EXPECT_EQ(graphviz_workers_running(), 0u);
}

}  // namespace
}  // namespace fcp::drawio::layout
