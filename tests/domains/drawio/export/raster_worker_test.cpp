// PNG and PDF in a worker process (fcpd raster-worker): the same bytes as in this process, errors
// that say what went wrong, and a job that must stop (cancelled, past its time limit) is killed
// within a bound and reaped. A spare worker waits for the next job: an export after the warm-up
// starts no process, and none is left once workers are turned off (as fcpd does at exit).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/call_scope.hpp"
#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/export/svg_renderer.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kSvg =
    R"(<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">)"
    R"(<rect width="200" height="100" fill="red"/><text x="10" y="50">fcp</text></svg>)";

// librsvg needs many seconds for this (a wide dilation on a large surface): a job that runs on.
constexpr std::string_view kSlowSvg =
    R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><defs>)svg"
    R"svg(<filter id="f" x="-50%" y="-50%" width="200%" height="200%">)svg"
    R"svg(<feGaussianBlur stdDeviation="60"/><feMorphology radius="30" operator="dilate"/>)svg"
    R"svg(</filter></defs><rect width="1500" height="1500" fill="blue" filter="url(#f)"/>)svg"
    R"svg(<rect x="30" y="30" width="1500" height="1500" fill="red" filter="url(#f)"/></svg>)svg";

// Every raster job of the test in a worker of the fcpd just built; in process again afterwards.
struct InWorkers {
  explicit InWorkers(std::size_t max_memory = core::kWorkerMemory,
                     std::vector<std::string> command = {FCPD_PATH, "raster-worker"},
                     std::size_t spares = 1) {
    use_raster_workers(std::move(command), max_memory, spares);
  }
  ~InWorkers() { use_raster_workers({}); }
  InWorkers(const InWorkers&) = delete;
  InWorkers& operator=(const InWorkers&) = delete;
};

// cairo dates a PDF: the rest must match.
std::string undated(std::string pdf) {
  for (const char* key : {"/CreationDate", "/ModDate"}) {
    for (auto at = pdf.find(key); at != std::string::npos; at = pdf.find(key, at + 1))
      pdf.erase(at, pdf.find('\n', at) - at);
  }
  return pdf;
}

// No child process of this test is left, running or a zombie.
bool no_child_left() {
  int status = 0;
  return ::waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD;
}

// The processes whose parent is this one (from /proc).
std::set<pid_t> children() {
  std::set<pid_t> found;
  const std::string self = std::to_string(::getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    // pid (comm) state ppid …: comm may hold spaces, so read from the last ')'.
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    std::string state, ppid;
    rest >> state >> ppid;
    if (ppid == self) found.insert(static_cast<pid_t>(std::stoi(entry.path().filename())));
  }
  return found;
}

// Once a spare is idle again: the only child left is that spare (no worker of a job running or a
// zombie).
bool only_the_spare_left() {
  if (!wait_for_raster_spare(std::chrono::seconds(10))) return false;
  const auto spares = raster_worker_stats().spares;
  return children() == std::set<pid_t>(spares.begin(), spares.end());
}

bool alive(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

TEST(RasterWorker, GivesTheBytesOfThisProcess) {
  const Diagram diagram = testing::diagram_from(testing::mxfile_with(
      R"(<mxCell id="a" value="Hello" vertex="1" parent="1"><mxGeometry x="0" y="0" width="120" height="60" as="geometry"/></mxCell>)"));
  auto page = render_svg(diagram.pages().front());
  ASSERT_TRUE(page.has_value());
  const std::vector<RasterJob> jobs = {
      {RasterJob::Kind::png, kSvg},       {RasterJob::Kind::png, kSvg, 400},
      {RasterJob::Kind::png, *page, 280}, {RasterJob::Kind::png_within, *page, 0, 0, 0.5, 100},
      {RasterJob::Kind::pdf, kSvg, 400},  {RasterJob::Kind::pdf, *page},
  };
  std::vector<std::string> here;
  for (const RasterJob& job : jobs) {
    auto bytes = rasterize(job);
    ASSERT_TRUE(bytes) << bytes.error().message;
    here.push_back(job.kind == RasterJob::Kind::pdf ? undated(*bytes) : *bytes);
  }
  {
    const InWorkers workers;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      auto bytes = rasterize(jobs[i]);
      ASSERT_TRUE(bytes) << i << ": " << bytes.error().message;
      EXPECT_EQ(jobs[i].kind == RasterJob::Kind::pdf ? undated(*bytes) : *bytes, here[i]) << i;
    }
    EXPECT_TRUE(only_the_spare_left());
  }
  EXPECT_TRUE(no_child_left());
}

// After the warm-up an export takes the idle spare (the process that renders it was started
// before the call), and a new spare is started for the next one.
TEST(RasterWorker, AnExportAfterTheWarmUpStartsNoProcess) {
  {
    const InWorkers workers;
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(wait_for_raster_spare(std::chrono::seconds(10)));
      const auto before = raster_worker_stats();
      ASSERT_EQ(before.spares.size(), 1u);
      auto png = svg_to_png(kSvg);
      ASSERT_TRUE(png) << png.error().message;
      EXPECT_TRUE(png->starts_with("\x89PNG"));
      const auto after = raster_worker_stats();
      EXPECT_EQ(after.started_on_demand, 0u);
      EXPECT_FALSE(alive(before.spares.front()));  // it served this job and was reaped
      EXPECT_TRUE(only_the_spare_left());
      EXPECT_EQ(raster_worker_stats().started, before.started + 1);
    }
  }
  EXPECT_TRUE(no_child_left());
}

// Without spares each export starts its worker, as before.
TEST(RasterWorker, WithoutASpareEachExportStartsItsWorker) {
  {
    const InWorkers workers(core::kWorkerMemory, {FCPD_PATH, "raster-worker"}, 0);
    ASSERT_TRUE(svg_to_png(kSvg));
    ASSERT_TRUE(svg_to_pdf(kSvg));
    EXPECT_EQ(raster_worker_stats().started_on_demand, 2u);
    EXPECT_TRUE(raster_worker_stats().spares.empty());
  }
  EXPECT_TRUE(no_child_left());
}

// Turning workers off (fcpd does at exit) kills and reaps the idle spare.
TEST(RasterWorker, TurningWorkersOffLeavesNoChild) {
  use_raster_workers({FCPD_PATH, "raster-worker"});
  ASSERT_TRUE(wait_for_raster_spare(std::chrono::seconds(10)));
  const pid_t spare = raster_worker_stats().spares.front();
  EXPECT_TRUE(alive(spare));
  use_raster_workers({});
  EXPECT_FALSE(alive(spare));
  EXPECT_TRUE(no_child_left());
  auto png = svg_to_png(kSvg);  // in this process again
  EXPECT_TRUE(png) << png.error().message;
}

TEST(RasterWorker, ItsErrorsAreThoseOfThisProcess) {
  auto huge_here = svg_to_png(kSvg, 10000);
  auto broken_here = svg_to_png("<svg><unclosed></svg>");
  ASSERT_FALSE(huge_here);
  ASSERT_FALSE(broken_here);
  const InWorkers workers;
  auto huge = svg_to_png(kSvg, 10000);
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().message, huge_here.error().message);
  EXPECT_EQ(huge.error().hints, huge_here.error().hints);
  auto broken = svg_to_png("<svg><unclosed></svg>");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().message, broken_here.error().message);
}

TEST(RasterWorker, ACancelledJobStopsWithinABoundAndLeavesNoProcess) {
  const InWorkers workers;
  ASSERT_TRUE(wait_for_raster_spare(std::chrono::seconds(10)));
  const pid_t spare = raster_worker_stats().spares.front();
  std::atomic<bool> cancelled{false};
  std::thread canceller([&cancelled] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancelled = true;
  });
  const core::CallScope scope(&cancelled, std::chrono::milliseconds(0), "limits.max_call_seconds");
  const auto started = Clock::now();
  auto png = svg_to_png(kSlowSvg);
  const auto took = Clock::now() - started;
  canceller.join();
  ASSERT_FALSE(png);
  EXPECT_EQ(png.error().message, "the call was cancelled");
  EXPECT_LT(took, std::chrono::milliseconds(1500));
  EXPECT_FALSE(alive(spare));  // the worker the job took: killed and reaped
  EXPECT_TRUE(only_the_spare_left());
  EXPECT_NE(raster_worker_stats().spares.front(), spare);  // replaced
  EXPECT_EQ(raster_worker_stats().started_on_demand, 0u);
}

TEST(RasterWorker, AJobPastTheCallsTimeLimitIsStopped) {
  const InWorkers workers;
  const core::CallScope scope(nullptr, std::chrono::milliseconds(300), "limits.max_call_seconds");
  const auto started = Clock::now();
  auto pdf = svg_to_pdf(kSlowSvg);
  const auto took = Clock::now() - started;
  ASSERT_FALSE(pdf);
  EXPECT_EQ(pdf.error().message,
            "the call ran past its time limit of 300 ms (limits.max_call_seconds)");
  EXPECT_LT(took, std::chrono::milliseconds(1500));
  EXPECT_TRUE(only_the_spare_left());
}

// 8192 × 8192 px needs a 256 MiB image: a worker limited to 200 MiB fails, and says so; this
// process is untouched.
TEST(RasterWorker, AJobPastItsMemoryLimitIsAnError) {
  if (!core::kWorkerMemoryLimitApplies) GTEST_SKIP() << "a sanitizer build sets no RLIMIT_AS";
  {
    const InWorkers workers(std::size_t{200} << 20);
    auto png = svg_to_png(kSvg, 8192, 8192);
    ASSERT_FALSE(png);
    EXPECT_TRUE(png.error().message.starts_with("cannot create the image: out of memory") ||
                png.error().message.find("the rasterizing worker ended with") != std::string::npos)
        << png.error().message;
  }
  EXPECT_TRUE(no_child_left());
}

// The limit (config drawio.worker_memory_bytes) is the one a crashed worker's error names.
TEST(RasterWorker, AWorkerPastATinyLimitNamesItAndTheSetting) {
  if (!core::kWorkerMemoryLimitApplies) GTEST_SKIP() << "a sanitizer build sets no RLIMIT_AS";
  const auto previous = ::signal(SIGPIPE, SIG_IGN);  // as in fcpd: the worker may die first
  {
    const InWorkers workers(std::size_t{1} << 20);  // 1 MiB: not even the worker's start fits
    auto png = svg_to_png(kSvg);
    ASSERT_FALSE(png);
    EXPECT_EQ(png.error().message.rfind("cannot render SVG: the rasterizing worker ended with ", 0),
              0u)
        << png.error().message;
    EXPECT_TRUE(png.error().message.ends_with(
        "(a crash in librsvg or cairo, or more memory than its limit of 1048576 bytes, config "
        "drawio.worker_memory_bytes)"))
        << png.error().message;
  }
  ::signal(SIGPIPE, previous);
  EXPECT_TRUE(no_child_left());
}

TEST(RasterWorker, AWorkerThatFailsIsAClearError) {
  {
    const InWorkers workers(0, {"/nonexistent/fcpd", "raster-worker"});
    auto png = svg_to_png(kSvg);
    ASSERT_FALSE(png);
    EXPECT_EQ(png.error().message,
              "cannot render SVG: cannot start the rasterizing worker /nonexistent/fcpd: No such "
              "file or directory");
  }
  // As in fcpd, which ignores SIGPIPE: the job written to a worker that is gone is an error.
  const auto previous = ::signal(SIGPIPE, SIG_IGN);
  {
    const InWorkers workers(0, {"/bin/false"});
    auto png = svg_to_png(kSvg);
    ASSERT_FALSE(png);
    EXPECT_EQ(png.error().message,
              "cannot render SVG: the rasterizing worker ended with exit status 1 (a crash in "
              "librsvg or cairo)");
  }
  ::signal(SIGPIPE, previous);
  EXPECT_TRUE(no_child_left());
}

TEST(RasterWorker, TheWireFormatRoundTrips) {
  const std::string svg("<svg/>\n\0x", 9);  // any bytes pass
  RasterJob job{RasterJob::Kind::png_within, svg, 3, 4, 0.1 + 0.2, 77};
  const std::string text = detail::encode_raster_job(job);
  auto back = detail::decode_raster_job(text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->kind, job.kind);
  EXPECT_EQ(back->svg, job.svg);
  EXPECT_EQ(back->width, 3);
  EXPECT_EQ(back->height, 4);
  EXPECT_EQ(back->scale, 0.1 + 0.2);
  EXPECT_EQ(back->max_side, 77);
  EXPECT_FALSE(detail::decode_raster_job("fcp-raster-1 9 0 0 1 5\n<svg/>"));
  EXPECT_FALSE(detail::decode_raster_job("fcp-raster-1 0 0\n"));
  auto error = detail::decode_raster_answer(
      detail::encode_raster_answer(core::make_error("bad:\nthing", {"width:2000", ""})));
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().message, "bad:\nthing");
  EXPECT_EQ(error.error().hints, (std::vector<std::string>{"width:2000", ""}));
  EXPECT_EQ(*detail::decode_raster_answer(detail::encode_raster_answer(std::string("\x89PNG"))),
            "\x89PNG");
  auto garbled = detail::decode_raster_answer("error\n99:x");
  ASSERT_FALSE(garbled);
  EXPECT_EQ(garbled.error().message,
            "cannot render SVG: the rasterizing worker's answer is garbled");
}

}  // namespace
}  // namespace fcp::drawio::render
