// Rasterizes SVG documents to PNG or PDF with librsvg and cairo, in a worker process once the
// daemon called use_raster_workers (librsvg cannot be interrupted: a worker can be killed).
#pragma once

#include <chrono>
#include <cstddef>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/worker_pool.hpp"

namespace fcp::drawio::render {

// Largest raster edge, in px.
inline constexpr int kMaxRasterSide = 8192;

// Rasterize an SVG document with librsvg + cairo. width/height in px: 0 = from the SVG's size
// (keeping aspect when one is 0; both given: the drawing is fitted inside, centred). The SVG
// may not load external files (librsvg refuses without a base URL). Errors: unreadable SVG, a
// size over kMaxRasterSide per side, negative sizes.
// Thread: every call owns its librsvg handle and cairo surface (or its worker); safe to call
// concurrently.
core::Result<std::string> svg_to_png(std::string_view svg, int width = 0, int height = 0);
// The SVG at `scale` times its own size, scaled down further (keeping aspect) when a side
// would be over `max_side` px, so a large drawing still gives a picture instead of the "image
// too large" error. A scale that is not finite and positive counts as 1.
core::Result<std::string> svg_to_png_within(std::string_view svg, double scale = 1,
                                            int max_side = kMaxRasterSide);
// The same as a one-page PDF; the page is the size in px at 96 dpi (1 px = 0.75 pt).
core::Result<std::string> svg_to_pdf(std::string_view svg, int width = 0, int height = 0);

// One of the calls above.
struct RasterJob {
  enum class Kind { png, png_within, pdf };
  Kind kind = Kind::png;
  std::string_view svg;
  int width = 0;
  int height = 0;
  double scale = 1;               // png_within
  int max_side = kMaxRasterSide;  // png_within
};

// Every later raster job runs in a worker process started as `command` (program path first, e.g.
// {"/proc/self/exe", "raster-worker"}; the memory limit is added as its last argument), which is
// killed when the call must stop (cancelled, past its time limit, the daemon shutting down).
// `max_memory`: the worker's address-space limit in bytes (setrlimit RLIMIT_AS; 0: none; config
// drawio.worker_memory_bytes). `spares` workers are started ahead and wait idle, so a job does not
// wait for a process to start (core::WorkerPool), from now or from the first job as `start` says;
// 0: each job starts its own. An empty command:
// every job runs in this process again, and the spares are killed and reaped (the daemon does at
// shutdown).
// Thread: call before exports start and after they ended (the daemon does at start-up and exit).
void use_raster_workers(std::vector<std::string> command,
                        std::size_t max_memory = core::kWorkerMemory, std::size_t spares = 1,
                        core::SpareStart start = core::SpareStart::at_configure);

// The raster workers started so far and the idle spares (tests, benchmarks).
core::WorkerPool::Stats raster_worker_stats();
// Waits until a spare raster worker is idle or `timeout` passed; whether one is.
bool wait_for_raster_spare(std::chrono::milliseconds timeout);

// The worker's side (`fcpd raster-worker MAX_MEMORY`): limits its memory to `max_memory` bytes
// (0: no limit), loads librsvg's fonts while it waits, reads one job from `in`, rasterizes it here
// and writes the bytes (or the error) to `out`. Returns the process exit status (0 also when
// librsvg failed: the error is in the output).
int run_raster_worker(std::size_t max_memory, std::istream& in, std::ostream& out);

// The job in this process or in a worker, as use_raster_workers chose.
core::Result<std::string> rasterize(const RasterJob& job);
core::Result<std::string> rasterize_in_process(const RasterJob& job);

}  // namespace fcp::drawio::render

namespace fcp::drawio::render::detail {

// The wire format between the daemon and a raster worker.
std::string encode_raster_job(const RasterJob& job);
core::Result<RasterJob> decode_raster_job(std::string_view text);
std::string encode_raster_answer(const core::Result<std::string>& result);
core::Result<std::string> decode_raster_answer(std::string answer);

}  // namespace fcp::drawio::render::detail
