// Big documents and whole-document ops, each case in a child process so that its peak memory
// (ru_maxrss) is its own: open and save of a 1 M-cell draw.io file, a 10 M-event MIDI file and a
// 300 k-box .maxpat; `copy @all` repeated, `remove @all`, `group @all` over a deep parent chain.
// The files are generated here. Figures in bench/README.md.
//   bench_big                  every case
//   bench_big CASE [SIZE]      one case: drawio midi maxpat copy-all remove-all group-chain
//                              maxpat-remove midi-remove
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/file_access.hpp"
#include "core/parsed_op.hpp"
#include "core/session.hpp"
#include "domains/drawio/domain.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/midi/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CPU time of this process in ms: the figure to read on a shared machine, where wall time
// includes waiting for a core.
double cpu_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// Wall and CPU time since construction, as "812 ms (CPU 790 ms)".
class Timer {
 public:
  std::string text() const {
    char out[64];
    std::snprintf(out, sizeof out, "%.0f ms (CPU %.0f ms)", ms_since(wall_), cpu_ms() - cpu_);
    return out;
  }

 private:
  Clock::time_point wall_ = Clock::now();
  double cpu_ = cpu_ms();
};

void fail(const std::string& message) {
  std::fprintf(stderr, "bench_big: %s\n", message.c_str());
  std::exit(1);
}

// ---- generated files ---------------------------------------------------------------------

// `cells` mxCells on one page: half shapes in a grid, half edges chaining them, short labels
// and no styles (1 M cells: 131 MB; the reader admits up to 512 MiB).
std::string drawio_file(std::size_t cells) {
  const std::size_t shapes = cells / 2, edges = cells - shapes;
  std::string out = R"(<mxfile host="bench"><diagram id="d" name="Page-1"><mxGraphModel dx="800" )"
                    R"(dy="600" grid="1" gridSize="10"><root><mxCell id="0"/>)"
                    R"(<mxCell id="1" parent="0"/>)";
  out.reserve(cells * 200);
  for (std::size_t i = 0; i < shapes; ++i) {
    out += R"(<mxCell id="v)" + std::to_string(i) + R"(" value="N)" + std::to_string(i) +
           R"(" vertex="1" parent="1">)" + R"(<mxGeometry x=")" + std::to_string((i % 1000) * 160) +
           R"(" y=")" + std::to_string((i / 1000) * 100) +
           R"(" width="120" height="60" as="geometry"/>)" + "</mxCell>";
  }
  for (std::size_t i = 0; i < edges; ++i) {
    out += R"(<mxCell id="e)" + std::to_string(i) + R"(" edge="1" parent="1" source="v)" +
           std::to_string(i % shapes) + R"(" target="v)" + std::to_string((i + 1) % shapes) +
           R"("><mxGeometry relative="1" as="geometry"/></mxCell>)";
  }
  out += "</root></mxGraphModel></diagram></mxfile>\n";
  return out;
}

// `depth` shapes, each the child of the one before (a file can nest containers this deep).
std::string drawio_chain_file(std::size_t depth) {
  std::string out = R"(<mxfile host="bench"><diagram id="d" name="Page-1"><mxGraphModel>)"
                    R"(<root><mxCell id="0"/><mxCell id="1" parent="0"/>)";
  for (std::size_t i = 0; i < depth; ++i) {
    out += R"(<mxCell id="c)" + std::to_string(i) + R"(" value="C)" + std::to_string(i) +
           R"(" style="rounded=0;" vertex="1" parent=")" +
           (i == 0 ? std::string("1") : "c" + std::to_string(i - 1)) +
           R"("><mxGeometry x="1" y="1" width="100" height="60" as="geometry"/></mxCell>)";
  }
  out += "</root></mxGraphModel></diagram></mxfile>\n";
  return out;
}

void put_u32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out += static_cast<char>((value >> shift) & 0xff);
}

// A format-1 SMF with 16 tracks holding `events` note-on/note-off events between them.
std::string midi_file(std::size_t events) {
  constexpr int kTracks = 16;
  std::string out = "MThd";
  put_u32(out, 6);
  out += std::string("\x00\x01\x00", 3) + static_cast<char>(kTracks) + std::string("\x01\xe0", 2);
  const std::size_t notes_per_track = events / 2 / kTracks;
  for (int t = 0; t < kTracks; ++t) {
    std::string track;
    const std::string name = "T" + std::to_string(t + 1);
    track += std::string("\x00\xff\x03", 3) + static_cast<char>(name.size()) + name;
    const char channel = static_cast<char>(t == 9 ? 0 : t);
    for (std::size_t n = 0; n < notes_per_track; ++n) {
      const char pitch = static_cast<char>(36 + (n * 7 + static_cast<std::size_t>(t)) % 48);
      track += '\x00';  // on at once, off 120 ticks later (an eighth)
      track += static_cast<char>(0x90 | channel);
      track += pitch;
      track += '\x64';
      track += std::string("\x78", 1);
      track += static_cast<char>(0x80 | channel);
      track += pitch;
      track += '\x40';
    }
    track += std::string("\x00\xff\x2f\x00", 4);
    out += "MTrk";
    put_u32(out, static_cast<std::uint32_t>(track.size()));
    out += track;
  }
  return out;
}

// A patcher of `boxes` objects, each wired to the next.
std::string maxpat_file(std::size_t boxes) {
  std::string out = R"({"patcher":{"fileversion":1,"appversion":{"major":8,"minor":5,)"
                    R"("revision":5,"architecture":"x64","modernui":1},"classnamespace":"box",)"
                    R"("rect":[100.0,100.0,800.0,600.0],"boxes":[)";
  out.reserve(boxes * 320);
  for (std::size_t i = 0; i < boxes; ++i) {
    if (i > 0) out += ',';
    out += R"({"box":{"id":"obj-)" + std::to_string(i + 1) +
           R"(","maxclass":"newobj","numinlets":2,"numoutlets":1,"outlettype":["int"],)" +
           R"("patching_rect":[)" + std::to_string((i % 500) * 60) + ".0," +
           std::to_string((i / 500) * 30) + R"(.0,40.0,22.0],"text":"+ 1"}})";
  }
  out += R"(],"lines":[)";
  for (std::size_t i = 1; i < boxes; ++i) {
    if (i > 1) out += ',';
    out += R"({"patchline":{"destination":["obj-)" + std::to_string(i + 1) +
           R"(",0],"source":["obj-)" + std::to_string(i) + R"(",0]}})";
  }
  out += "]}}\n";
  return out;
}

// ---- cases ---------------------------------------------------------------------------------

using testing::AllowAll;

// Open, save unchanged, one edit, save again.
// The file's bytes are shared with the document as the daemon's open shares them.
void open_and_save(const core::Domain& domain, const std::string& name,
                   const core::FileBytes& bytes, const std::string& edit) {
  std::printf("  file: %.1f MB\n", static_cast<double>(bytes.size()) / 1e6);
  const Timer opening;
  auto document = domain.load(name, bytes, {});
  if (!document) fail(document.error().message);
  std::printf("  open: %s, %s\n", opening.text().c_str(), (*document)->summary().c_str());
  // Saved as the daemon's save does: into a temporary file, renamed over the target (serialize
  // would make a copy of the whole text, which the daemon's save does not).
  const auto file = std::filesystem::temp_directory_path() /
                    ("fcp-bench-big-save-" + std::to_string(::getpid()) + "-" + name);
  auto produce = [&](const core::ByteWriter& write) {
    return (*document)->write_file(name, write);
  };
  {
    // Each piece written is compared with the bytes read at its place (no copy of either).
    std::size_t offset = 0;
    bool same = true;
    auto compare = [&](const core::ByteWriter& write) {
      return (*document)->write_file(name, [&](std::string_view piece) {
        same = same && bytes.view().substr(offset, piece.size()) == piece;
        offset += piece.size();
        return write(piece);
      });
    };
    const Timer saving;
    auto written = core::write_file_atomically(file, compare);
    const std::string took = saving.text();
    if (!written) fail(written.error().message);
    std::printf("  save unchanged: %s (%s)\n", took.c_str(),
                same && offset == bytes.size() ? "the bytes read" : "rewritten");
  }
  AllowAll paths;
  core::EventLog log;
  core::EffectSink effects;
  core::ProgressFn progress;
  core::CallContext ctx{log, paths, effects, progress};
  auto op = core::parse_op(edit);
  if (!op) fail(op.error().message);
  auto done = (*document)->execute(*op, ctx);
  if (!done) fail(done.error().message);
  const Timer resaving;
  auto written = core::write_file_atomically(file, produce);
  const std::string took = resaving.text();
  if (!written) fail(written.error().message);
  std::error_code ignored;
  const auto size = std::filesystem::file_size(file, ignored);
  std::filesystem::remove(file, ignored);
  std::printf("  save after `%s`: %s (%.1f MB)\n", edit.c_str(), took.c_str(),
              static_cast<double>(size) / 1e6);
}

core::SessionLimits big_limits() {
  core::SessionLimits limits;
  limits.max_created_per_call = std::size_t{1} << 30;
  limits.max_file_bytes = std::size_t{1} << 31;
  return limits;
}

// Runs one call and prints its time and reply's first line.
void timed_call(core::Session& session, const std::string& op) {
  const Timer timer;
  auto result = session.run_ops(std::vector<std::string>{op}, {});
  const std::string took = timer.text();
  if (result.pending) result.reply = session.confirm(std::move(*result.pending));  // offline
  const std::string& text = result.reply.text;
  const std::string first = text.substr(0, text.find('\n'));
  const std::string last = text.substr(text.rfind('\n') + 1);
  std::printf("  %s: %s  %s … %s\n", op.c_str(), took.c_str(), first.substr(0, 50).c_str(),
              last.c_str());
}

void open_in_session(core::Session& session, const std::string& bytes,
                     const std::string& extension = ".drawio") {
  const auto file = std::filesystem::temp_directory_path() /
                    ("fcp-bench-big-" + std::to_string(::getpid()) + extension);
  if (!core::write_file_atomically(file, bytes)) fail("cannot write " + file.string());
  auto opened = session.run_session("open " + file.string() + " discard:true", {});
  std::filesystem::remove(file);
  if (opened.reply.is_error) fail(opened.reply.text);
}

void case_drawio(std::size_t cells) {
  auto domain = drawio::make_drawio_domain();
  open_and_save(*domain, "big.drawio", drawio_file(cells), "label #v7 \"Renamed\"");
}

void case_midi(std::size_t events) {
  auto domain = midi::make_midi_domain();
  open_and_save(*domain, "big.mid", midi_file(events), "note T1 C4 at:1.1 dur:quarter");
}

void case_maxpat(std::size_t boxes) {
  boost::asio::io_context io;
  boost::json::object settings{{"connect_on_new", false}, {"port", 9}, {"reply_port", 0}};
  auto domain = lofi::make_lofi_domain(io, settings);
  open_and_save(*domain, "big.maxpat", maxpat_file(boxes), "add toggle benchtoggle at:0,0");
}

// `remove @all` over an opened patcher of `boxes` boxes wired in a chain.
void case_patcher_remove(std::size_t boxes) {
  boost::asio::io_context io;
  boost::json::object settings{{"connect_on_new", false}, {"port", 9}, {"reply_port", 0}};
  auto domain = lofi::make_lofi_domain(io, settings);
  AllowAll paths;
  core::Session session(*domain, paths, big_limits());
  const Timer opening;
  open_in_session(session, maxpat_file(boxes), ".maxpat");
  std::printf("  open: %s\n", opening.text().c_str());
  timed_call(session, "remove @all");
}

// `remove @all` over an opened MIDI file of `events` events (half as many notes).
void case_midi_remove(std::size_t events) {
  auto domain = midi::make_midi_domain();
  AllowAll paths;
  core::Session session(*domain, paths, big_limits());
  const Timer opening;
  open_in_session(session, midi_file(events), ".mid");
  std::printf("  open: %s\n", opening.text().c_str());
  timed_call(session, "remove @all");
}

// `copy @all` from one shape until the page holds `shapes`, one call each, with the default
// limits (the call that would pass max_created_per_call is refused).
void case_copy_all(std::size_t shapes) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  core::Session session(*domain, paths);
  session.run_session("new \"Bench\"", {});
  session.run_ops(std::vector<std::string>{"add box A at:0,0"}, {});
  for (std::size_t n = 1; n < shapes; n *= 2)
    timed_call(session, "copy @all");
}

void case_remove_all(std::size_t shapes) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  core::Session session(*domain, paths, big_limits());
  session.run_session("new \"Bench\"", {});
  const std::string file = drawio_file(shapes * 2);
  open_in_session(session, file);
  timed_call(session, "remove @all");
  open_in_session(session, file);
  timed_call(session, "group @all as:\"All\"");
}

void case_group_chain(std::size_t depth) {
  auto domain = drawio::make_drawio_domain();
  AllowAll paths;
  core::Session session(*domain, paths, big_limits());
  const Timer opening;
  open_in_session(session, drawio_chain_file(depth));
  std::printf("  open: %s\n", opening.text().c_str());
  timed_call(session, "group @all as:\"Chain\"");
  timed_call(session, "remove @all");
}

struct Case {
  const char* name;
  std::size_t size;
  void (*run)(std::size_t);
};

constexpr Case kCases[] = {
    {"drawio", 1'000'000, case_drawio},
    {"midi", 10'000'000, case_midi},
    {"maxpat", 300'000, case_maxpat},
    {"copy-all", 131'072, case_copy_all},
    {"remove-all", 80'000, case_remove_all},
    {"group-chain", 100'000, case_group_chain},
    {"maxpat-remove", 40'000, case_patcher_remove},
    {"midi-remove", 1'000'000, case_midi_remove},
};

// Runs a case in a child process and reports its wall time and peak resident memory.
void run_in_child(const Case& c, std::size_t size) {
  std::printf("%s %zu\n", c.name, size);
  std::fflush(stdout);
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) fail("fork failed");
  if (pid == 0) {
    c.run(size);
    std::fflush(stdout);
    std::_Exit(0);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  std::printf("  total %.0f ms, peak RSS %.0f MB%s\n\n", ms_since(start),
              static_cast<double>(usage.ru_maxrss) / 1024.0,
              WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : " (FAILED)");
  std::fflush(stdout);
}

}  // namespace
}  // namespace fcp

int main(int argc, char** argv) {
  using fcp::kCases;
  if (argc >= 2) {
    for (const auto& c : kCases) {
      if (std::string(argv[1]) != c.name) continue;
      fcp::run_in_child(c, argc >= 3 ? std::strtoull(argv[2], nullptr, 10) : c.size);
      return 0;
    }
    std::fprintf(stderr,
                 "usage: bench_big [drawio|midi|maxpat|copy-all|remove-all|group-chain|"
                 "maxpat-remove|midi-remove [SIZE]]\n");
    return 2;
  }
  for (const auto& c : kCases)
    fcp::run_in_child(c, c.size);
  return 0;
}
