// fcpd: the FCP daemon hosting every domain's four MCP tools over stdio, TCP and HTTP.
// `fcpd simulate-max …` runs the Max stand-in of the lofi domain instead (see max/README.md);
// `fcpd graphviz-worker [MAX_MEMORY]` and `fcpd raster-worker MAX_MEMORY` are the daemon's own
// worker processes (one layout or one PNG/PDF, stdin to stdout, their address space limited to
// MAX_MEMORY bytes, 0: no limit), never started by hand.
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "core/worker_process.hpp"
#include "daemon/daemon.hpp"
#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/layout/graphviz_worker.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/registry.hpp"

namespace {

// config: "drawio": {KEY: N} (validated by the config reader), else `fallback`.
std::size_t drawio_setting(const boost::json::object& settings, std::string_view key,
                           std::size_t fallback) {
  const auto* drawio = settings.if_contains("drawio");
  if (drawio == nullptr || !drawio->is_object()) return fallback;
  const auto* value = drawio->as_object().if_contains(key);
  if (value == nullptr) return fallback;
  if (value->is_uint64()) return value->as_uint64();
  if (value->is_int64() && value->as_int64() >= 0) return value->as_int64();
  return fallback;
}

// config "drawio": {"spare_workers": "at_start"} (validated by the config reader): spares from
// start-up; by default the first export or layout starts them.
fcp::core::SpareStart spare_start(const boost::json::object& settings) {
  const auto* drawio = settings.if_contains("drawio");
  if (drawio == nullptr || !drawio->is_object()) return fcp::core::SpareStart::on_first_use;
  const auto* value = drawio->as_object().if_contains("spare_workers");
  if (value != nullptr && value->is_string() && value->as_string() == "at_start")
    return fcp::core::SpareStart::at_configure;
  return fcp::core::SpareStart::on_first_use;
}

// The worker's MAX_MEMORY argument; exits 2 when it is not a number.
std::size_t worker_memory(int argc, char** argv) {
  if (argc < 3) return 0;
  const auto bytes = fcp::core::worker_memory_argument(argv[2]);
  if (!bytes) {
    std::cerr << "fcpd " << argv[1] << ": MAX_MEMORY must be a number of bytes, not \"" << argv[2]
              << "\"\n";
    std::_Exit(2);
  }
  return *bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "simulate-max")
    return fcp::lofi::bridge::run_simulator_command(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "graphviz-worker") {
    if (!fcp::core::limit_worker_memory(worker_memory(argc, argv))) return 2;
    return fcp::drawio::layout::run_graphviz_worker(std::cin, std::cout);
  }
  if (argc > 2 && std::string_view(argv[1]) == "raster-worker") {
    // One job, then _Exit: the answer is flushed, and fontconfig's caches, which it never frees,
    // must not turn into a failed job in a leak-checking build whose environment the daemon's
    // client did not pass on.
    const int status =
        fcp::drawio::render::run_raster_worker(worker_memory(argc, argv), std::cin, std::cout);
    std::cout.flush();
    std::_Exit(status);
  }
  const int status =
      fcp::daemon::run(argc, argv, [](const fcp::daemon::DomainEnvironment& environment) {
        const std::size_t memory =
            drawio_setting(environment.settings, "worker_memory_bytes", fcp::core::kWorkerMemory);
        const fcp::core::SpareStart start = spare_start(environment.settings);
        // Graphviz's global state forbids threads: each layout runs in a worker process of this
        // executable, so layouts run in parallel and one that must stop is killed.
        fcp::drawio::layout::use_graphviz_workers(
            {"/proc/self/exe", "graphviz-worker"},
            drawio_setting(environment.settings, "layout_workers", 0),
            fcp::drawio::layout::kInProcessLayoutUpTo, memory, 1, start);
        // librsvg and cairo cannot be interrupted either: PNG and PDF exports run in a worker
        // process too, killed when the call must stop, its memory bounded. One spare of each
        // waits, so an export does not wait for a process to start: from the first export or
        // layout on (an idle daemon that never needs one has none: about 50 MB), or from
        // start-up with drawio.spare_workers "at_start" (the first export does not wait either).
        fcp::drawio::render::use_raster_workers({"/proc/self/exe", "raster-worker"}, memory, 1,
                                                start);
        return fcp::domains::make_all(environment);
      });
  // The idle spare workers are killed and reaped: no worker outlives the daemon.
  fcp::drawio::render::use_raster_workers({});
  fcp::drawio::layout::use_graphviz_workers({}, 0);
  return status;
}
