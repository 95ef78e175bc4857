// fcpd: the FCP daemon hosting every domain's four MCP tools over stdio, TCP and HTTP.
// `fcpd simulate-max …` runs the Max stand-in of the lofi domain instead (see max/README.md);
// `fcpd graphviz-worker` and `fcpd raster-worker MAX_MEMORY` are the daemon's own worker
// processes (one layout or one PNG/PDF, stdin to stdout), never started by hand.
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "daemon/daemon.hpp"
#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/layout/graphviz_worker.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/registry.hpp"

namespace {

// config: "drawio": {"layout_workers": N} (validated by the config reader); 0: one per core.
std::size_t layout_workers(const boost::json::object& settings) {
  const auto* drawio = settings.if_contains("drawio");
  if (drawio == nullptr || !drawio->is_object()) return 0;
  const auto* workers = drawio->as_object().if_contains("layout_workers");
  if (workers == nullptr) return 0;
  if (workers->is_uint64()) return workers->as_uint64();
  if (workers->is_int64() && workers->as_int64() > 0) return workers->as_int64();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "simulate-max")
    return fcp::lofi::bridge::run_simulator_command(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "graphviz-worker")
    return fcp::drawio::layout::run_graphviz_worker(std::cin, std::cout);
  if (argc > 2 && std::string_view(argv[1]) == "raster-worker") {
    // One job, then _Exit: the answer is flushed, and fontconfig's caches, which it never frees,
    // must not turn into a failed job in a leak-checking build whose environment the daemon's
    // client did not pass on.
    const int status = fcp::drawio::render::run_raster_worker(std::strtoull(argv[2], nullptr, 10),
                                                              std::cin, std::cout);
    std::cout.flush();
    std::_Exit(status);
  }
  return fcp::daemon::run(argc, argv, [](const fcp::daemon::DomainEnvironment& environment) {
    // Graphviz's global state forbids threads: each layout runs in a worker process of this
    // executable, so layouts run in parallel and one that must stop is killed.
    fcp::drawio::layout::use_graphviz_workers({"/proc/self/exe", "graphviz-worker"},
                                              layout_workers(environment.settings));
    // librsvg and cairo cannot be interrupted either: PNG and PDF exports run in a worker
    // process too, killed when the call must stop, its memory bounded.
    fcp::drawio::render::use_raster_workers({"/proc/self/exe", "raster-worker"});
    return fcp::domains::make_all(environment);
  });
}
