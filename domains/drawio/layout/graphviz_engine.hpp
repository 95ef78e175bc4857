// The one place that talks to Graphviz: builds a cgraph graph, runs dot or fdp, reads it back.
#pragma once

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

enum class Engine { dot, neato, fdp };

struct EngineOptions {
  Engine engine = Engine::dot;
  bool keep_child_order = false;  // dot ordering=out (the tree fallback)
  bool pin_nodes = false;         // neato/fdp: hold pinned nodes in place (pos="x,y!")
};

// Lays the graph out with Graphviz and returns the drawing in page orientation (y down), not yet
// moved to the request's origin. dot fills rows, and per edge the row crossings (orthogonal
// routing) or the sampled spline (spline routing). Never writes to stdout or stderr; Graphviz
// errors come back as the Result's error.
// With worker processes configured (use_graphviz_workers, graphviz_worker.hpp) the layout runs in
// one of them: layouts run in parallel, and one whose call is cancelled or runs past its time
// limit (core::call_stop) is killed. Otherwise it runs here, serialised across threads.
core::Result<Drawing> run_graphviz(const LayoutRequest& request, const IndexedGraph& graph,
                                   const EngineOptions& options);
// The layout in this process, under the process-wide Graphviz mutex (what a worker runs).
core::Result<Drawing> run_graphviz_in_process(const LayoutRequest& request,
                                              const IndexedGraph& graph,
                                              const EngineOptions& options);

// Whether the dot and neato layout plugins are linked in (registered as builtins) rather than
// loaded through Graphviz's plugin configuration file.
bool graphviz_plugins_builtin();

}  // namespace fcp::drawio::layout::detail
