#include "domains/drawio/layout/graphviz_worker.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <iterator>
#include <mutex>
#include <thread>

#include "core/call_scope.hpp"
#include "core/worker_process.hpp"

namespace fcp::drawio::layout {
namespace {

using Clock = std::chrono::steady_clock;

// What use_graphviz_workers set, and the workers running. Guarded by mutex.
struct Workers {
  std::mutex mutex;
  std::condition_variable freed;
  std::vector<std::string> command;
  std::size_t max = 1;
  std::size_t in_process_up_to = kInProcessLayoutUpTo;
  std::size_t running = 0;
  core::WorkerPool pool;  // not guarded by mutex (it has its own)
};

Workers& workers() {
  static Workers instance;
  return instance;
}

// A worker slot, held for the life of one worker process.
class Slot {
 public:
  Slot() = default;
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  ~Slot() {
    if (!held_) return;
    Workers& w = workers();
    {
      const std::lock_guard lock(w.mutex);
      --w.running;
    }
    w.freed.notify_one();
  }
  // Waits for a free worker; gives up when the call must stop (its reason).
  std::optional<std::string> acquire() {
    Workers& w = workers();
    std::unique_lock lock(w.mutex);
    while (w.running >= w.max) {
      if (auto stop = core::call_stop()) return stop;
      w.freed.wait_for(lock, std::chrono::milliseconds(50));
    }
    ++w.running;
    held_ = true;
    return std::nullopt;
  }

 private:
  bool held_ = false;
};

}  // namespace

void use_graphviz_workers(std::vector<std::string> command, std::size_t max_workers,
                          std::size_t in_process_up_to, std::size_t max_memory, std::size_t spares,
                          core::SpareStart start) {
  Workers& w = workers();
  core::WorkerNames names{"Layout: ", "the Graphviz worker",
                          "(a crash in Graphviz, or more memory than its limit of " +
                              std::to_string(max_memory) +
                              " bytes, config drawio.worker_memory_bytes); the document was not "
                              "changed"};
  if (max_memory == 0) names.crashed = "(a crash in Graphviz); the document was not changed";
  std::vector<std::string> pool_command = command;
  if (!pool_command.empty()) pool_command.push_back(std::to_string(max_memory));
  {
    const std::lock_guard lock(w.mutex);
    w.command = std::move(command);
    w.in_process_up_to = in_process_up_to;
    if (max_workers == 0) max_workers = std::max(1U, std::thread::hardware_concurrency());
    w.max = max_workers;
  }
  w.pool.configure(std::move(names), std::move(pool_command), spares, start);
}

core::WorkerPool::Stats graphviz_worker_stats() {
  return workers().pool.stats();
}

std::size_t graphviz_workers_running() {
  Workers& w = workers();
  const std::lock_guard lock(w.mutex);
  return w.running;
}

}  // namespace fcp::drawio::layout

namespace fcp::drawio::layout::detail {
namespace {

// Tokens separated by one space; a string is LENGTH:BYTES, so any bytes pass.
class Writer {
 public:
  Writer& number(double value) {
    char buffer[40];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest exact
    text_.append(buffer, end.ptr);
    text_ += ' ';
    return *this;
  }
  Writer& integer(long long value) {
    text_ += std::to_string(value);
    text_ += ' ';
    return *this;
  }
  Writer& string(std::string_view value) {
    text_ += std::to_string(value.size());
    text_ += ':';
    text_ += value;
    text_ += ' ';
    return *this;
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

class Reader {
 public:
  explicit Reader(std::string_view text) : rest_(text) {}
  bool ok() const { return ok_; }

  double number() {
    const std::string_view token = next();
    double value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size()) ok_ = false;
    return value;
  }
  long long integer() {
    const std::string_view token = next();
    long long value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size()) ok_ = false;
    return value;
  }
  // A count of items that follow (bounded by the bytes left, so bad input cannot allocate much).
  std::size_t count() {
    const long long value = integer();
    if (value < 0 || static_cast<std::size_t>(value) > rest_.size()) {
      ok_ = false;
      return 0;
    }
    return static_cast<std::size_t>(value);
  }
  std::string string() {
    const auto colon = rest_.find(':');
    std::size_t size = 0;
    const auto [end, ec] = std::from_chars(rest_.data(), rest_.data() + colon, size);
    if (colon == std::string_view::npos || ec != std::errc() || end != rest_.data() + colon ||
        rest_.size() - colon - 1 < size + 1) {
      ok_ = false;
      rest_ = {};
      return {};
    }
    std::string value(rest_.substr(colon + 1, size));
    rest_.remove_prefix(colon + 1 + size + 1);  // and the space
    return value;
  }

 private:
  std::string_view next() {
    const auto space = rest_.find(' ');
    if (space == std::string_view::npos) {
      ok_ = false;
      rest_ = {};
      return {};
    }
    const std::string_view token = rest_.substr(0, space);
    rest_.remove_prefix(space + 1);
    return token;
  }

  std::string_view rest_;
  bool ok_ = true;
};

template <class Enum>
Enum enum_value(Reader& in, int count) {
  const long long value = in.integer();
  return static_cast<Enum>(std::clamp<long long>(value, 0, count - 1));
}

void write_box(Writer& out, const Box& box) {
  out.number(box.x).number(box.y).number(box.w).number(box.h);
}

Box read_box(Reader& in) {
  Box box;
  box.x = in.number();
  box.y = in.number();
  box.w = in.number();
  box.h = in.number();
  return box;
}

}  // namespace

std::string encode_job(const LayoutRequest& request, const EngineOptions& options) {
  Writer out;
  out.string("fcp-layout-1");
  out.integer(static_cast<int>(options.engine))
      .integer(options.keep_child_order ? 1 : 0)
      .integer(options.pin_nodes ? 1 : 0);
  out.integer(static_cast<int>(request.algorithm))
      .integer(static_cast<int>(request.direction))
      .integer(static_cast<int>(request.routing));
  out.number(request.spacing)
      .number(request.origin_x)
      .number(request.origin_y)
      .number(request.cluster_padding)
      .number(request.cluster_header);
  out.integer(static_cast<long long>(request.nodes.size()));
  for (const LayoutNode& node : request.nodes) {
    out.string(node.id).number(node.width).number(node.height).number(node.x).number(node.y);
    out.integer(node.pinned ? 1 : 0).string(node.cluster);
  }
  out.integer(static_cast<long long>(request.clusters.size()));
  for (const LayoutCluster& cluster : request.clusters)
    out.string(cluster.id).string(cluster.parent).string(cluster.label);
  out.integer(static_cast<long long>(request.edges.size()));
  for (const LayoutEdge& edge : request.edges) {
    out.string(edge.id).string(edge.source).string(edge.target);
    out.number(edge.label_width).number(edge.label_height);
  }
  return out.take();
}

core::Result<std::pair<LayoutRequest, EngineOptions>> decode_job(std::string_view text) {
  Reader in(text);
  if (in.string() != "fcp-layout-1") return core::make_error("not a layout job");
  EngineOptions options;
  options.engine = enum_value<Engine>(in, 3);
  options.keep_child_order = in.integer() != 0;
  options.pin_nodes = in.integer() != 0;
  LayoutRequest request;
  request.algorithm = enum_value<Algorithm>(in, 3);
  request.direction = enum_value<Direction>(in, 4);
  request.routing = enum_value<EdgeRouting>(in, 3);
  request.spacing = in.number();
  request.origin_x = in.number();
  request.origin_y = in.number();
  request.cluster_padding = in.number();
  request.cluster_header = in.number();
  request.nodes.resize(in.count());
  for (LayoutNode& node : request.nodes) {
    node.id = in.string();
    node.width = in.number();
    node.height = in.number();
    node.x = in.number();
    node.y = in.number();
    node.pinned = in.integer() != 0;
    node.cluster = in.string();
  }
  request.clusters.resize(in.count());
  for (LayoutCluster& cluster : request.clusters) {
    cluster.id = in.string();
    cluster.parent = in.string();
    cluster.label = in.string();
  }
  request.edges.resize(in.count());
  for (LayoutEdge& edge : request.edges) {
    edge.id = in.string();
    edge.source = in.string();
    edge.target = in.string();
    edge.label_width = in.number();
    edge.label_height = in.number();
  }
  if (!in.ok()) return core::make_error("truncated or malformed layout job");
  return std::pair{std::move(request), options};
}

std::string encode_drawing(const core::Result<Drawing>& result) {
  Writer out;
  if (!result) {
    out.string("error").string(result.error().message);
    return out.take();
  }
  const Drawing& drawing = *result;
  out.string("drawing");
  out.integer(static_cast<long long>(drawing.nodes.size()));
  for (const Box& box : drawing.nodes)
    write_box(out, box);
  out.integer(static_cast<long long>(drawing.clusters.size()));
  for (const auto& box : drawing.clusters) {
    out.integer(box ? 1 : 0);
    if (box) write_box(out, *box);
  }
  out.integer(static_cast<long long>(drawing.crossings.size()));
  for (const auto& crossings : drawing.crossings) {
    out.integer(static_cast<long long>(crossings.size()));
    for (const RowCrossing& crossing : crossings)
      out.integer(crossing.row).number(crossing.cross);
  }
  out.integer(static_cast<long long>(drawing.curves.size()));
  for (const auto& curve : drawing.curves) {
    out.integer(static_cast<long long>(curve.size()));
    for (const Point2& point : curve)
      out.number(point.x).number(point.y);
  }
  out.integer(drawing.curves_from_engine ? 1 : 0).integer(drawing.vertical_ranks ? 1 : 0);
  out.integer(static_cast<long long>(drawing.rows.size()));
  for (const Row& row : drawing.rows) {
    out.number(row.lo).number(row.hi).integer(static_cast<long long>(row.nodes.size()));
    for (int node : row.nodes)
      out.integer(node);
  }
  out.integer(static_cast<long long>(drawing.node_row.size()));
  for (int row : drawing.node_row)
    out.integer(row);
  out.integer(static_cast<long long>(drawing.moved.size()));
  for (bool moved : drawing.moved)
    out.integer(moved ? 1 : 0);
  return out.take();
}

core::Result<Drawing> decode_drawing(std::string_view text) {
  Reader in(text);
  const std::string kind = in.string();
  if (kind == "error") {
    std::string message = in.string();
    if (in.ok()) return core::make_error(std::move(message));
  }
  if (kind != "drawing") return core::make_error("Layout: the Graphviz worker's answer is garbled");
  Drawing drawing;
  drawing.nodes.resize(in.count());
  for (Box& box : drawing.nodes)
    box = read_box(in);
  drawing.clusters.resize(in.count());
  for (auto& box : drawing.clusters) {
    if (in.integer() != 0) box = read_box(in);
  }
  drawing.crossings.resize(in.count());
  for (auto& crossings : drawing.crossings) {
    crossings.resize(in.count());
    for (RowCrossing& crossing : crossings) {
      crossing.row = static_cast<int>(in.integer());
      crossing.cross = in.number();
    }
  }
  drawing.curves.resize(in.count());
  for (auto& curve : drawing.curves) {
    curve.resize(in.count());
    for (Point2& point : curve) {
      point.x = in.number();
      point.y = in.number();
    }
  }
  drawing.curves_from_engine = in.integer() != 0;
  drawing.vertical_ranks = in.integer() != 0;
  drawing.rows.resize(in.count());
  for (Row& row : drawing.rows) {
    row.lo = in.number();
    row.hi = in.number();
    row.nodes.resize(in.count());
    for (int& node : row.nodes)
      node = static_cast<int>(in.integer());
  }
  drawing.node_row.resize(in.count());
  for (int& row : drawing.node_row)
    row = static_cast<int>(in.integer());
  drawing.moved.resize(in.count());
  for (std::size_t i = 0; i < drawing.moved.size(); ++i)
    drawing.moved[i] = in.integer() != 0;
  if (!in.ok()) return core::make_error("Layout: the Graphviz worker's answer is garbled");
  return drawing;
}

namespace {

// Whether a layout of `size` nodes and edges runs in a worker (else here).
bool in_worker(std::size_t size) {
  Workers& w = workers();
  const std::lock_guard lock(w.mutex);
  return !w.command.empty() && size > w.in_process_up_to;
}

core::Result<Drawing> run_in_worker(const LayoutRequest& request, const EngineOptions& options) {
  const auto started = Clock::now();
  const auto stopped = [&started](const std::string& why) {
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    return core::make_error("layout stopped after " + core::duration_text(took) + ": " + why);
  };
  Slot slot;
  if (auto stop = slot.acquire()) return stopped(*stop + " while it waited for a Graphviz worker");
  auto worker = workers().pool.take();
  if (!worker) return worker.error();
  auto answer = (*worker)->exchange(encode_job(request, options));
  if (!answer) {
    if (core::call_stop()) return stopped(answer.error().message);
    return answer.error();
  }
  return decode_drawing(*answer);
}

}  // namespace

core::Result<Drawing> run_graphviz(const LayoutRequest& request, const IndexedGraph& graph,
                                   const EngineOptions& options) {
  if (!in_worker(request.nodes.size() + request.edges.size()))
    return run_graphviz_in_process(request, graph, options);
  return run_in_worker(request, options);
}

}  // namespace fcp::drawio::layout::detail

namespace fcp::drawio::layout {

int run_graphviz_worker(std::istream& in, std::ostream& out) {
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto job = detail::decode_job(text);
  if (!job) {
    out << detail::encode_drawing(job.error());
    return 0;
  }
  const auto& [request, options] = *job;
  auto graph = detail::index_graph(request);
  if (!graph) {
    out << detail::encode_drawing(graph.error());
    return 0;
  }
  out << detail::encode_drawing(detail::run_graphviz_in_process(request, *graph, options));
  out.flush();
  return out ? 0 : 1;
}

}  // namespace fcp::drawio::layout
