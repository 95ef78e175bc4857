#include "domains/drawio/layout/graphviz_engine.hpp"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <mutex>
#include <string>
#include <unordered_map>

#include "domains/drawio/layout/dot_budget.hpp"
#include "domains/drawio/layout/edge_routes.hpp"
#include "domains/drawio/layout/tier_ranks.hpp"

#ifdef FCP_GRAPHVIZ_BUILTIN_LAYOUTS
// The plugin libraries export these descriptors; registering them as builtins makes layout work
// without Graphviz's plugin configuration file (config6a), which may be missing or stale.
extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_neato_layout_LTX_library;
}
#endif

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kPointsPerInch = 72;

// Graphviz keeps process-global state (the error handler and its buffer, attribute dictionaries,
// the layout engines' statics) and is not thread-safe, so every use of it holds this mutex.
std::mutex graphviz_mutex;
std::string graphviz_messages;  // guarded by graphviz_mutex

// Graphviz would print warnings and errors to stderr; collect them instead.
int collect_message(char* text) {
  graphviz_messages += text;
  return 0;
}

// Graphviz 2.43 declares name and value parameters `char*` but only reads them.
char* text_arg(const char* text) {
  return const_cast<char*>(text);
}
char* text_arg(const std::string& text) {
  return const_cast<char*>(text.c_str());
}

std::string number(double value) {
  char buffer[32];
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 3);
  return std::string(buffer, end.ptr);
}

GVC_t* context() {
  static GVC_t* const gvc = [] {
#ifdef FCP_GRAPHVIZ_BUILTIN_LAYOUTS
    static const lt_symlist_t builtins[] = {
        {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
        {"gvplugin_neato_layout_LTX_library", &gvplugin_neato_layout_LTX_library},
        {nullptr, nullptr}};
    return gvContextPlugins(builtins, 0);  // 0: do not read the plugin configuration file
#else
    return gvContext();
#endif
  }();
  return gvc;
}

// Escapes what Graphviz would read as label escapes (\N, \G, \l …): labels only size the band.
std::string literal_label(const std::string& label) {
  std::string escaped;
  for (char c : label) {
    if (c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

// IDs of a graph's named objects in the order they are made. cgraph's default discipline makes
// a name's ID the address of its interned copy, and keeps subgraphs ordered by ID: the order dot
// met the clusters in then followed where the heap put their names, so the same graph came out
// differently after other layouts in the same process (a second layout moved what the first had
// placed). Named objects get even IDs, anonymous ones odd IDs, as in the default discipline.
class NameIds {
 public:
  static void* open(Agraph_t* /*graph*/, Agdisc_t* /*disc*/) { return new NameIds; }
  static long map(void* state, int /*type*/, char* name, IDTYPE* id, int create) {
    auto* self = static_cast<NameIds*>(state);
    if (name == nullptr) {
      *id = self->next_anonymous_;
      self->next_anonymous_ += 2;
      return 1;
    }
    if (const auto found = self->ids_.find(name); found != self->ids_.end()) {
      *id = found->second;
      return 1;
    }
    if (create == 0) return 0;
    *id = self->next_named_;
    self->next_named_ += 2;
    self->ids_.emplace(name, *id);
    self->names_.emplace(*id, name);
    return 1;
  }
  static long alloc(void* /*state*/, int /*type*/, IDTYPE /*id*/) { return 0; }
  static void free(void* /*state*/, int /*type*/, IDTYPE /*id*/) {}
  static char* print(void* state, int /*type*/, IDTYPE id) {
    auto* self = static_cast<NameIds*>(state);
    const auto found = self->names_.find(id);
    return found == self->names_.end() ? nullptr : found->second.data();
  }
  static void close(void* state) { delete static_cast<NameIds*>(state); }
  static void record(void* /*state*/, int /*type*/, void* /*object*/) {}

 private:
  std::unordered_map<std::string, IDTYPE> ids_;
  std::unordered_map<IDTYPE, std::string> names_;  // node-based: print's pointers stay valid
  IDTYPE next_named_ = 2, next_anonymous_ = 1;
};

Agiddisc_t name_id_discipline = {&NameIds::open,  &NameIds::map,   &NameIds::alloc, &NameIds::free,
                                 &NameIds::print, &NameIds::close, &NameIds::record};
Agdisc_t graph_discipline = {&AgMemDisc, &name_id_discipline, &AgIoDisc};

// A cgraph graph and what was created in it, closed (and its layout freed) on destruction.
class GraphvizGraph {
 public:
  GraphvizGraph() : graph_(agopen(text_arg("layout"), Agdirected, &graph_discipline)) {}
  ~GraphvizGraph() {
    if (!graph_) return;
    if (laid_out_) gvFreeLayout(context(), graph_);
    agclose(graph_);
  }
  GraphvizGraph(const GraphvizGraph&) = delete;
  GraphvizGraph& operator=(const GraphvizGraph&) = delete;

  Agraph_t* get() const { return graph_; }
  int layout(const char* engine) {
    laid_out_ = true;
    return gvLayout(context(), graph_, engine);
  }

  std::vector<Agnode_t*> nodes;
  std::vector<Agedge_t*> edges;  // nullptr for self-loops, which are not laid out
  std::vector<Agraph_t*> clusters;

 private:
  Agraph_t* graph_;
  bool laid_out_ = false;
};

// dot's splines also tell orthogonal routes where long edges cross rows; past the budget, long
// orthogonal edges run straight across the rows between their ends.
bool routes_splines(const LayoutRequest& request, const DotBudget& budget) {
  return request.routing != EdgeRouting::straight && budget.route_splines;
}

void set_graph_attributes(Agraph_t* g, const LayoutRequest& request, const EngineOptions& options,
                          const DotBudget& budget, double mean_size) {
  auto set = [g](const char* name, const std::string& value) {
    agattr(g, AGRAPH, text_arg(name), text_arg(value));
  };
  const double spacing = std::max(request.spacing, 1.0) / kPointsPerInch;
  if (options.engine == Engine::dot) {
    static constexpr const char* kRankdir[] = {"TB", "LR", "BT", "RL"};
    set("rankdir", kRankdir[static_cast<int>(request.direction)]);
    set("nodesep", number(spacing));
    set("ranksep", number(spacing));
    set("splines", routes_splines(request, budget) ? "spline" : "none");
    if (options.keep_child_order) set("ordering", "out");
    if (budget.nslimit) set("nslimit", number(*budget.nslimit));
    if (budget.mclimit) set("mclimit", number(*budget.mclimit));
  } else {
    // Edge length: centre to centre of two average boxes `spacing` apart. Edges are routed by us.
    const std::string length = number((mean_size + request.spacing) / kPointsPerInch);
    if (options.engine == Engine::neato) {
      set("mode", "major");
      set("epsilon", "0.01");  // stress converges early; the default takes ~6 s at 1 000 nodes
      agattr(g, AGEDGE, text_arg("len"), text_arg(length));
      set("overlap", "true");  // removed by us: Graphviz's removal would move pinned nodes
    } else {
      // fdp separates the clusters and the nodes in them, each `spacing` from the next.
      set("K", length);
      set("overlap", "false");
      set("sep", "+" + number(request.spacing / 2));
    }
    set("splines", "none");
    set("start", "1");  // fixed seed
    set("inputscale", number(kPointsPerInch));
  }
}

void add_clusters(GraphvizGraph& gv, const LayoutRequest& request, const IndexedGraph& graph) {
  gv.clusters.assign(request.clusters.size(), nullptr);
  const double font_size = std::max(1.0, (request.cluster_header - 8) / 1.2);
  for (int index : graph.clusters_parents_first) {
    const auto i = static_cast<size_t>(index);
    const int parent = graph.cluster_parent[i];
    Agraph_t* owner = parent < 0 ? gv.get() : gv.clusters[static_cast<size_t>(parent)];
    const std::string name = "cluster_" + std::to_string(index);
    Agraph_t* cluster = agsubg(owner, text_arg(name), 1);
    gv.clusters[i] = cluster;
    agsafeset(cluster, text_arg("margin"), text_arg(number(request.cluster_padding)), text_arg(""));
    if (!request.clusters[i].label.empty()) {
      // The label only reserves a band of cluster_header px: 1.2 × font size + 8 pt of margins.
      agsafeset(cluster, text_arg("label"), text_arg(literal_label(request.clusters[i].label)),
                text_arg(""));
      agsafeset(cluster, text_arg("fontsize"), text_arg(number(font_size)), text_arg("14"));
    }
  }
}

// Graphviz ignores empty clusters; a placeholder node inside gives each one a box.
void add_placeholders(GraphvizGraph& gv, const IndexedGraph& graph) {
  std::vector<int> contents(gv.clusters.size(), 0);
  for (int cluster : graph.node_cluster) {
    if (cluster >= 0) ++contents[static_cast<size_t>(cluster)];
  }
  for (auto it = graph.clusters_parents_first.rbegin(); it != graph.clusters_parents_first.rend();
       ++it) {
    const auto i = static_cast<size_t>(*it);
    if (contents[i] == 0) {
      const std::string name = "placeholder_" + std::to_string(i);
      agnode(gv.clusters[i], text_arg(name), 1);
      contents[i] = 1;
    }
    if (graph.cluster_parent[i] >= 0) contents[static_cast<size_t>(graph.cluster_parent[i])] += 1;
  }
}

void add_nodes(GraphvizGraph& gv, const LayoutRequest& request, const IndexedGraph& graph,
               const EngineOptions& options) {
  Agraph_t* g = gv.get();
  agattr(g, AGNODE, text_arg("shape"), text_arg("box"));
  agattr(g, AGNODE, text_arg("fixedsize"), text_arg("true"));
  agattr(g, AGNODE, text_arg("label"), text_arg(""));
  Agsym_t* width = agattr(g, AGNODE, text_arg("width"), text_arg("0.5"));
  Agsym_t* height = agattr(g, AGNODE, text_arg("height"), text_arg("0.5"));
  Agsym_t* pos = nullptr;
  Agsym_t* pin = nullptr;
  if (options.pin_nodes) {
    pos = agattr(g, AGNODE, text_arg("pos"), text_arg(""));
    pin = agattr(g, AGNODE, text_arg("pin"), text_arg("false"));
  }
  gv.nodes.reserve(request.nodes.size());
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    const LayoutNode& node = request.nodes[i];
    const int cluster = graph.node_cluster[i];
    Agraph_t* owner = cluster < 0 ? g : gv.clusters[static_cast<size_t>(cluster)];
    Agnode_t* n = agnode(owner, text_arg("n" + std::to_string(i)), 1);
    // Whole points, rounded up: Graphviz rounds sizes to points and must not shrink a box.
    agxset(n, width, text_arg(number(std::max(1.0, std::ceil(node.width)) / kPointsPerInch)));
    agxset(n, height, text_arg(number(std::max(1.0, std::ceil(node.height)) / kPointsPerInch)));
    if (options.pin_nodes && node.pinned) {
      const double cx = node.x + node.width / 2, cy = -(node.y + node.height / 2);
      agxset(n, pos, text_arg(number(cx) + "," + number(cy) + "!"));
      agxset(n, pin, text_arg("true"));
    }
    gv.nodes.push_back(n);
  }
}

void add_edges(GraphvizGraph& gv, const IndexedGraph& graph) {
  gv.edges.reserve(graph.edges.size());
  for (const IndexedGraph::Edge& edge : graph.edges) {
    if (edge.source == edge.target) {
      gv.edges.push_back(nullptr);
      continue;
    }
    gv.edges.push_back(agedge(gv.get(), gv.nodes[static_cast<size_t>(edge.source)],
                              gv.nodes[static_cast<size_t>(edge.target)], nullptr, 1));
  }
}

// Holds dot to the tier ranks: the nodes of one rank in a rank=same subgraph (newrank lets it
// reach into clusters), each edge that runs forward as long as its ranks are apart (minlen) and
// every other edge out of the ranking (constraint=false). Parts of the graph no forward edge ties
// together are tied to rank 0 by an invisible edge, so every rank is exactly where it was put.
void hold_tier_ranks(GraphvizGraph& gv, const IndexedGraph& graph, const std::vector<int>& rank) {
  Agraph_t* g = gv.get();
  agattr(g, AGRAPH, text_arg("newrank"), text_arg("true"));
  Agsym_t* minlen = agattr(g, AGEDGE, text_arg("minlen"), text_arg("1"));
  Agsym_t* constraint = agattr(g, AGEDGE, text_arg("constraint"), text_arg("true"));
  const int ranks = rank.empty() ? 0 : *std::max_element(rank.begin(), rank.end()) + 1;
  std::vector<Agraph_t*> same(static_cast<size_t>(ranks), nullptr);
  std::vector<int> component(static_cast<size_t>(ranks));  // union-find over ranks
  for (int r = 0; r < ranks; ++r)
    component[static_cast<size_t>(r)] = r;
  auto find = [&component](int r) {
    while (component[static_cast<size_t>(r)] != r)
      r = component[static_cast<size_t>(r)];
    return r;
  };
  std::vector<int> first_node(static_cast<size_t>(ranks), -1);
  for (size_t n = 0; n < rank.size(); ++n) {
    const auto r = static_cast<size_t>(rank[n]);
    if (!same[r]) {
      same[r] = agsubg(g, text_arg("tier_rank_" + std::to_string(r)), 1);
      agsafeset(same[r], text_arg("rank"), text_arg("same"), text_arg(""));
      first_node[r] = static_cast<int>(n);
    }
    agsubnode(same[r], gv.nodes[n], 1);
  }
  for (size_t i = 0; i < gv.edges.size(); ++i) {
    if (!gv.edges[i]) continue;
    const int from = rank[static_cast<size_t>(graph.edges[i].source)];
    const int to = rank[static_cast<size_t>(graph.edges[i].target)];
    if (to > from) {
      agxset(gv.edges[i], minlen, text_arg(std::to_string(to - from)));
      component[static_cast<size_t>(find(to))] = find(from);
    } else {
      agxset(gv.edges[i], constraint, text_arg("false"));
    }
  }
  Agsym_t* style = agattr(g, AGEDGE, text_arg("style"), text_arg(""));
  for (int r = 1; r < ranks; ++r) {
    if (find(r) == find(0) || first_node[static_cast<size_t>(r)] < 0) continue;
    Agedge_t* tie =
        agedge(g, gv.nodes[static_cast<size_t>(first_node[0])],
               gv.nodes[static_cast<size_t>(first_node[static_cast<size_t>(r)])], nullptr, 1);
    agxset(tie, minlen, text_arg(std::to_string(r)));
    agxset(tie, style, text_arg("invis"));
    component[static_cast<size_t>(find(r))] = find(0);
  }
}

Point2 page_point(pointf p) {
  return Point2{p.x, -p.y};
}

// The edge's Bézier control points in page coordinates, all pieces joined.
std::vector<Point2> edge_controls(Agedge_t* edge) {
  std::vector<Point2> controls;
  if (!edge || !ED_spl(edge)) return controls;
  const splines* spl = ED_spl(edge);
  for (int i = 0; i < spl->size; ++i) {
    const bezier& piece = spl->list[i];
    for (int j = controls.empty() ? 0 : 1; j < piece.size; ++j) {
      controls.push_back(page_point(piece.list[j]));
    }
  }
  return controls;
}

// Half-px positions on the rank axis: dot centres every node of a rank on one line.
int rank_key(const Drawing& drawing, Point2 centre) {
  return static_cast<int>(std::lround(2 * (drawing.vertical_ranks ? centre.y : centre.x)));
}

// Orthogonal routes take, from dot's spline, where each long edge crosses the rows between its
// ends (the gap dot kept for it); spline routes take a few points along it.
void read_routes(const GraphvizGraph& gv, const LayoutRequest& request, const IndexedGraph& graph,
                 Drawing& drawing) {
  drawing.curves_from_engine = request.routing == EdgeRouting::spline;
  for (size_t i = 0; i < gv.edges.size(); ++i) {
    const std::vector<Point2> controls = edge_controls(gv.edges[i]);
    if (controls.size() < 4) continue;
    const int source = graph.edges[i].source, target = graph.edges[i].target;
    drawing.crossings[i] = row_crossings(flatten_bezier(controls, 8), drawing, source, target);
    if (drawing.curves_from_engine) {
      drawing.curves[i] = spline_bends(controls, drawing.nodes[static_cast<size_t>(source)],
                                       drawing.nodes[static_cast<size_t>(target)]);
    }
  }
}

Drawing read_drawing(const GraphvizGraph& gv, const LayoutRequest& request,
                     const IndexedGraph& graph, const EngineOptions& options, bool splines_routed) {
  Drawing drawing;
  drawing.vertical_ranks = request.direction == Direction::TB || request.direction == Direction::BT;
  drawing.nodes.reserve(gv.nodes.size());
  std::vector<int> keys;
  for (size_t i = 0; i < gv.nodes.size(); ++i) {
    const Point2 centre = page_point(ND_coord(gv.nodes[i]));
    const LayoutNode& node = request.nodes[i];
    drawing.nodes.push_back(
        Box{centre.x - node.width / 2, centre.y - node.height / 2, node.width, node.height});
    keys.push_back(rank_key(drawing, centre));
  }
  drawing.moved.assign(drawing.nodes.size(), false);
  for (Agraph_t* cluster : gv.clusters) {
    if (!aggetrec(cluster, text_arg("Agraphinfo_t"), 0)) {
      drawing.clusters.emplace_back();
      continue;
    }
    const boxf bb = GD_bb(cluster);
    drawing.clusters.emplace_back(Box{bb.LL.x, -bb.UR.y, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y});
  }
  drawing.crossings.resize(gv.edges.size());
  drawing.curves.resize(gv.edges.size());
  if (options.engine != Engine::dot) return drawing;
  const int min_key = keys.empty() ? 0 : *std::min_element(keys.begin(), keys.end());
  for (int& key : keys)
    key -= min_key;  // build_rows takes non-negative keys
  build_rows(drawing, keys);
  if (splines_routed) read_routes(gv, request, graph, drawing);
  return drawing;
}

std::string graphviz_failure(const char* engine) {
  std::string detail;
  size_t start = 0;
  while (start < graphviz_messages.size()) {
    size_t end = graphviz_messages.find('\n', start);
    if (end == std::string::npos) end = graphviz_messages.size();
    std::string_view line(graphviz_messages.data() + start, end - start);
    if (line.starts_with("Error") && detail.empty()) detail = std::string(line);
    start = end + 1;
  }
  if (detail.empty()) detail = "no message";
  return std::string("Layout: Graphviz ") + engine + " failed (" + detail + ")";
}

}  // namespace

bool graphviz_plugins_builtin() {
#ifdef FCP_GRAPHVIZ_BUILTIN_LAYOUTS
  return true;
#else
  return false;
#endif
}

core::Result<Drawing> run_graphviz_in_process(const LayoutRequest& request,
                                              const IndexedGraph& graph,
                                              const EngineOptions& options) {
  std::lock_guard lock(graphviz_mutex);
  graphviz_messages.clear();
  agseterrf(&collect_message);
  agseterr(AGWARN);  // every message goes to collect_message, none to stderr
  GVC_t* gvc = context();
  if (!gvc) return core::make_error("Layout: could not start Graphviz");
  GraphvizGraph gv;
  if (!gv.get()) return core::make_error("Layout: Graphviz could not create a graph");
  double mean_size = 0;
  for (const LayoutNode& node : request.nodes)
    mean_size += std::max(node.width, node.height);
  if (!request.nodes.empty()) mean_size /= static_cast<double>(request.nodes.size());
  const DotBudget budget =
      options.engine == Engine::dot ? dot_budget(graph, request.nodes.size()) : DotBudget{};
  set_graph_attributes(gv.get(), request, options, budget, mean_size);
  add_clusters(gv, request, graph);
  add_nodes(gv, request, graph, options);
  add_placeholders(gv, graph);
  add_edges(gv, graph);
  if (options.engine == Engine::dot) {
    const std::vector<int> ranks = tier_ranks(graph, request.nodes.size());
    if (!ranks.empty()) hold_tier_ranks(gv, graph, ranks);
  }
  static constexpr const char* kEngineNames[] = {"dot", "neato", "fdp"};
  const char* engine = kEngineNames[static_cast<int>(options.engine)];
  if (gv.layout(engine) != 0) return core::make_error(graphviz_failure(engine));
  return read_drawing(gv, request, graph, options,
                      options.engine == Engine::dot && routes_splines(request, budget));
}

}  // namespace fcp::drawio::layout::detail

namespace fcp::drawio::layout {

core::Result<ReferenceDrawing> run_reference_dot(const LayoutRequest& request) {
  using namespace detail;  // NOLINT(google-build-using-namespace): this unit's own helpers
  auto graph = index_graph(request);
  if (!graph) return graph.error();
  std::lock_guard lock(graphviz_mutex);
  graphviz_messages.clear();
  agseterrf(&collect_message);
  agseterr(AGWARN);
  if (!context()) return core::make_error("Layout: could not start Graphviz");
  GraphvizGraph gv;
  if (!gv.get()) return core::make_error("Layout: Graphviz could not create a graph");
  static constexpr const char* kRankdir[] = {"TB", "LR", "BT", "RL"};
  agattr(gv.get(), AGRAPH, text_arg("rankdir"),
         text_arg(kRankdir[static_cast<int>(request.direction)]));
  add_clusters(gv, request, *graph);
  add_nodes(gv, request, *graph, {});
  add_placeholders(gv, *graph);
  add_edges(gv, *graph);
  if (gv.layout("dot") != 0) return core::make_error(graphviz_failure("dot"));
  ReferenceDrawing drawing;
  for (size_t i = 0; i < gv.nodes.size(); ++i) {
    const Point2 centre = page_point(ND_coord(gv.nodes[i]));
    const LayoutNode& node = request.nodes[i];
    drawing.nodes.push_back(
        {node.id, centre.x - node.width / 2, centre.y - node.height / 2, node.width, node.height});
  }
  for (size_t i = 0; i < gv.clusters.size(); ++i) {
    const boxf bb = GD_bb(gv.clusters[i]);
    drawing.clusters.push_back(
        {request.clusters[i].id, bb.LL.x, -bb.UR.y, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y});
  }
  for (Agedge_t* edge : gv.edges)
    drawing.edges.push_back(flatten_bezier(edge_controls(edge), 8));
  return drawing;
}

}  // namespace fcp::drawio::layout
