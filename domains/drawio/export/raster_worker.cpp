// Raster jobs in worker processes (see raster.hpp): the wire format, the daemon's side and the
// worker's side.
#include <charconv>
#include <iterator>
#include <mutex>

#include "core/worker_process.hpp"
#include "domains/drawio/export/raster.hpp"

namespace fcp::drawio::render {
namespace {

constexpr std::string_view kJobMagic = "fcp-raster-1";

// What use_raster_workers set: whether jobs run in workers (guarded by mutex), and the workers.
struct Workers {
  std::mutex mutex;
  bool in_workers = false;
  core::WorkerPool pool;
};

Workers& workers() {
  static Workers instance;
  return instance;
}

bool in_workers() {
  Workers& w = workers();
  const std::lock_guard lock(w.mutex);
  return w.in_workers;
}

// A small text rendered before the job: fontconfig and pango load their fonts and caches while
// a spare worker waits, not while its job does.
constexpr std::string_view kWarmUpSvg =
    R"(<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">)"
    R"(<text x="0" y="6" font-family="Helvetica" font-size="6">fcp</text></svg>)";

// LENGTH:BYTES, so any bytes pass.
void put_string(std::string& out, std::string_view value) {
  out += std::to_string(value.size());
  out += ':';
  out += value;
}

bool take_string(std::string_view& in, std::string& value) {
  const auto colon = in.find(':');
  if (colon == std::string_view::npos) return false;
  std::size_t size = 0;
  const auto [end, ec] = std::from_chars(in.data(), in.data() + colon, size);
  if (ec != std::errc() || end != in.data() + colon || in.size() - colon - 1 < size) return false;
  value.assign(in.substr(colon + 1, size));
  in.remove_prefix(colon + 1 + size);
  return true;
}

}  // namespace

namespace detail {

// "fcp-raster-1 KIND WIDTH HEIGHT SCALE MAX_SIDE\n" and the SVG to the end.
std::string encode_raster_job(const RasterJob& job) {
  char scale[40];
  const auto end = std::to_chars(scale, scale + sizeof scale, job.scale);  // shortest exact
  std::string text(kJobMagic);
  text += ' ' + std::to_string(static_cast<int>(job.kind)) + ' ' + std::to_string(job.width) + ' ' +
          std::to_string(job.height) + ' ' + std::string(scale, end.ptr) + ' ' +
          std::to_string(job.max_side) + '\n';
  text += job.svg;
  return text;
}

// The job (its svg a view into `text`).
core::Result<RasterJob> decode_raster_job(std::string_view text) {
  const auto newline = text.find('\n');
  if (newline == std::string_view::npos || !text.starts_with(kJobMagic))
    return core::make_error("not a raster job");
  std::string_view header = text.substr(kJobMagic.size(), newline - kJobMagic.size());
  RasterJob job;
  job.svg = text.substr(newline + 1);
  int kind = -1;
  bool ok = true;
  const auto field = [&header, &ok](auto& value) {
    if (!header.starts_with(' ')) ok = false;
    if (!ok) return;
    header.remove_prefix(1);
    const auto [end, ec] = std::from_chars(header.data(), header.data() + header.size(), value);
    if (ec != std::errc()) ok = false;
    header.remove_prefix(static_cast<std::size_t>(end - header.data()));
  };
  field(kind);
  field(job.width);
  field(job.height);
  field(job.scale);
  field(job.max_side);
  if (!ok || !header.empty() || kind < 0 || kind > static_cast<int>(RasterJob::Kind::pdf))
    return core::make_error("truncated or malformed raster job");
  job.kind = static_cast<RasterJob::Kind>(kind);
  return job;
}

// "ok\n" and the bytes, or "error\n" and LENGTH:BYTES for the message and each hint.
std::string encode_raster_answer(const core::Result<std::string>& result) {
  if (result) return "ok\n" + *result;
  std::string text = "error\n";
  put_string(text, result.error().message);
  for (const std::string& hint : result.error().hints)
    put_string(text, hint);
  return text;
}

core::Result<std::string> decode_raster_answer(std::string answer) {
  if (answer.starts_with("ok\n")) return answer.erase(0, 3);
  std::string_view rest(answer);
  core::Error error;
  if (rest.starts_with("error\n")) {
    rest.remove_prefix(6);
    bool ok = take_string(rest, error.message);
    while (ok && !rest.empty()) {
      ok = take_string(rest, error.hints.emplace_back());
    }
    if (ok) return error;
  }
  return core::make_error("cannot render SVG: the rasterizing worker's answer is garbled");
}

}  // namespace detail

void use_raster_workers(std::vector<std::string> command, std::size_t max_memory,
                        std::size_t spares, core::SpareStart start) {
  Workers& w = workers();
  core::WorkerNames names{"cannot render SVG: ", "the rasterizing worker",
                          "(a crash in librsvg or cairo, or more memory than its limit of " +
                              std::to_string(max_memory) +
                              " bytes, config drawio.worker_memory_bytes)"};
  if (max_memory == 0) names.crashed = "(a crash in librsvg or cairo)";
  {
    const std::lock_guard lock(w.mutex);
    w.in_workers = !command.empty();
  }
  if (!command.empty()) command.push_back(std::to_string(max_memory));
  w.pool.configure(std::move(names), std::move(command), spares, start);
}

core::WorkerPool::Stats raster_worker_stats() {
  return workers().pool.stats();
}

bool wait_for_raster_spare(std::chrono::milliseconds timeout) {
  return workers().pool.wait_for_spares(1, timeout);
}

core::Result<std::string> rasterize(const RasterJob& job) {
  if (!in_workers()) return rasterize_in_process(job);
  auto worker = workers().pool.take();
  if (!worker) return worker.error();
  auto answer = (*worker)->exchange(detail::encode_raster_job(job));
  if (!answer) return answer.error();
  return detail::decode_raster_answer(std::move(*answer));
}

int run_raster_worker(std::size_t max_memory, std::istream& in, std::ostream& out) {
  if (!core::limit_worker_memory(max_memory)) return 2;
  [[maybe_unused]] const auto warm = rasterize_in_process({RasterJob::Kind::png, kWarmUpSvg});
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto job = detail::decode_raster_job(text);
  const core::Result<std::string> result =
      job ? rasterize_in_process(*job) : core::Result<std::string>(job.error());
  out << detail::encode_raster_answer(result);
  out.flush();
  return out ? 0 : 1;
}

}  // namespace fcp::drawio::render
