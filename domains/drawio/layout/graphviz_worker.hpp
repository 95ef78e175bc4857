// Graphviz in worker processes: its global state forbids threads, so a daemon that lays out for
// several clients at once runs each layout in a child process (the daemon's own executable with a
// subcommand), where layouts run in parallel and one that must stop is killed.
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/worker_pool.hpp"
#include "domains/drawio/layout/graphviz_engine.hpp"

namespace fcp::drawio::layout {

// Runs every later layout of more than `in_process_up_to` nodes and edges together in a worker
// process started as `command` (program path first, e.g. {"/proc/self/exe", "graphviz-worker"}),
// at most `max_workers` at once (0: one per core); a call waiting for a free worker waits in
// line. Smaller layouts take a few ms in this process, less than starting a worker (60–130 ms
// measured), and hold the process-wide Graphviz lock only that long. `max_memory`: each worker's
// address-space limit in bytes (0: none; added to the command as its last argument). `spares`
// workers are started ahead and wait idle (core::WorkerPool; not counted in max_workers), so a
// layout does not wait for a process to start. An empty command: every layout runs in this
// process again, and the spares are killed and reaped (the daemon does at shutdown).
// Thread: call before layouts start and after they ended (the daemon does at start-up and exit).
inline constexpr std::size_t kInProcessLayoutUpTo = 400;
void use_graphviz_workers(std::vector<std::string> command, std::size_t max_workers,
                          std::size_t in_process_up_to = kInProcessLayoutUpTo,
                          std::size_t max_memory = 0, std::size_t spares = 1,
                          core::SpareStart start = core::SpareStart::at_configure);

// The worker's side: reads one request from `in`, lays it out in this process and writes the
// drawing (or the error) to `out`. Returns the process exit status (0 also when Graphviz failed:
// the error is in the output).
int run_graphviz_worker(std::istream& in, std::ostream& out);

// Workers running now (for tests and logs).
std::size_t graphviz_workers_running();
// The Graphviz workers started so far and the idle spares (tests).
core::WorkerPool::Stats graphviz_worker_stats();

}  // namespace fcp::drawio::layout

namespace fcp::drawio::layout::detail {

// The wire format between the daemon and a worker (text; numbers round-trip exactly).
std::string encode_job(const LayoutRequest& request, const EngineOptions& options);
core::Result<std::pair<LayoutRequest, EngineOptions>> decode_job(std::string_view text);
std::string encode_drawing(const core::Result<Drawing>& drawing);
core::Result<Drawing> decode_drawing(std::string_view text);

}  // namespace fcp::drawio::layout::detail
