// bench_soak: fcpd under a long mixed load with hostile clients beside it. Spawns the real daemon
// (default: <build>/src/fcpd, all three domains) on TCP and HTTP, gives each well-behaved client
// a named session with a drawio, a midi and a lofi document, and runs rounds of CLIENTS × CALLS
// mixed calls (ops, queries and undo in each domain; a new TCP connection for every call): a
// warm-up, a quiet round, then rounds with hostile clients (pipelining without reading, slowloris
// on TCP and HTTP, disconnects mid-call) running beside them. Reports errors of the well-behaved
// clients, their latency quiet and under attack, and the daemon's resident memory through the
// run. Exit status 1 when a well-behaved call failed or fcpd did not stop cleanly; with --check
// also when p99 under attack exceeds 2× the quiet p99 or memory grew more than 10 % between the
// attack rounds.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "bench/roundtrip/daemon_process.hpp"
#include "bench/roundtrip/report.hpp"
#include "bench/soak/hostile.hpp"
#include "bench/soak/workload.hpp"

namespace fcp::bench {
namespace {

constexpr const char* kUsage = R"(usage: bench_soak [options]
  --fcpd PATH        daemon to run (default: <build>/src/fcpd)
  --clients N        well-behaved clients (default 32)
  --calls N          calls per client and round (default 1000)
  --attack-rounds N  rounds with hostile clients after the quiet one (default 2)
  --no-hostile       the attack rounds without hostile clients (a control run)
  --keep-history     remove what the mix adds instead of undoing it: the undo history (and
                     memory) then grows with every call, by design
  --abrupt-close     clients close each connection without waiting for fcpd's close (shows
                     "session in use" when a reconnect overtakes the previous close)
  --check            also fail when p99 under attack > 2 × quiet or memory grew > 10 %
  --json FILE        also write the figures as JSON
)";

struct Options {
  std::string fcpd;
  WorkloadSettings workload;
  std::size_t attack_rounds = 2;
  bool hostile = true;
  bool check = false;
  std::string json_path;
};

std::size_t count_arg(const std::string& flag, const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*text == '\0' || *end != '\0' || *text == '-') throw BenchError(flag + " needs a number");
  return static_cast<std::size_t>(value);
}

Options parse_options(int argc, char** argv) {
  Options options;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  options.fcpd = (self.parent_path().parent_path() / "src" / "fcpd").string();
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw BenchError(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--fcpd")
      options.fcpd = value();
    else if (flag == "--clients")
      options.workload.clients = count_arg(flag, value());
    else if (flag == "--calls")
      options.workload.calls = count_arg(flag, value());
    else if (flag == "--attack-rounds")
      options.attack_rounds = count_arg(flag, value());
    else if (flag == "--no-hostile")
      options.hostile = false;
    else if (flag == "--abrupt-close")
      options.workload.graceful_close = false;
    else if (flag == "--check")
      options.check = true;
    else if (flag == "--json")
      options.json_path = value();
    else
      throw BenchError("unknown option " + flag + "\n" + kUsage);
  }
  return options;
}

// The daemon's resident memory in KiB, sampled on a thread of its own.
class MemorySampler {
 public:
  explicit MemorySampler(pid_t pid) : path_("/proc/" + std::to_string(pid) + "/status") {
    thread_ = std::thread([this] {
      while (!stop_) {
        const std::size_t kib = read();
        {
          const std::lock_guard lock(mutex_);
          peak_ = std::max(peak_, kib);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    });
  }
  ~MemorySampler() {
    stop_ = true;
    thread_.join();
  }
  MemorySampler(const MemorySampler&) = delete;
  MemorySampler& operator=(const MemorySampler&) = delete;

  std::size_t read() const {
    std::ifstream in(path_);
    std::string line;
    while (std::getline(in, line))
      if (line.starts_with("VmRSS:")) return std::strtoull(line.c_str() + 6, nullptr, 10);
    return 0;
  }
  std::size_t peak() {
    const std::lock_guard lock(mutex_);
    return peak_;
  }

 private:
  std::string path_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::size_t peak_ = 0;
  std::thread thread_;
};

struct Round {
  std::string name;
  bool hostile = false;
  std::size_t calls = 0;
  std::size_t errors = 0;
  std::vector<std::string> first_errors;
  double seconds = 0;
  Latency call;   // the tools/call round trip
  Latency cycle;  // connect + initialize + call + close
  std::size_t rss_kib_after = 0;
  std::size_t peak_rss_kib = 0;
  std::size_t hostile_connections = 0;
  std::size_t hostile_requests = 0;
  std::size_t hostile_closed_by_server = 0;
};

Round run_round(const Options& options, const std::string& name, std::size_t index, bool hostile,
                const asio::ip::tcp::endpoint& http, MemorySampler& memory) {
  std::optional<HostileClients> attackers;
  if (hostile) {
    attackers.emplace(HostileSettings{options.workload.endpoint, http});
    attackers->start();
  }
  WorkloadResult result = run_workload(options.workload, index);
  Round round;
  round.name = name;
  round.hostile = hostile;
  if (attackers) {
    attackers->stop();
    round.hostile_connections = attackers->counts().connections;
    round.hostile_requests = attackers->counts().requests;
    round.hostile_closed_by_server = attackers->counts().server_closed;
  }
  round.calls = result.call_ns.size() + result.errors;
  round.errors = result.errors;
  round.first_errors = std::move(result.first_errors);
  round.seconds = result.seconds;
  round.call = summarize(result.call_ns);
  round.cycle = summarize(result.cycle_ns);
  round.rss_kib_after = memory.read();
  round.peak_rss_kib = memory.peak();
  return round;
}

void print_round(const Round& r, std::ostream& out) {
  out << std::fixed << std::setprecision(0) << std::left << std::setw(10) << r.name << std::right
      << std::setw(7) << r.calls << std::setw(7) << r.errors << std::setw(8) << std::setprecision(1)
      << r.seconds << std::setprecision(0) << std::setw(9) << r.call.p50_us << std::setw(9)
      << r.call.p99_us << std::setw(9) << r.call.max_us << std::setw(10) << r.cycle.p99_us
      << std::setw(10) << r.rss_kib_after / 1024.0 << std::setw(9) << r.peak_rss_kib / 1024.0;
  if (r.hostile)
    out << "   hostile: " << r.hostile_connections << " connections, " << r.hostile_requests
        << " requests, " << r.hostile_closed_by_server << " closed by fcpd";
  out << "\n";
  for (const auto& e : r.first_errors)
    out << "    error: " << e << "\n";
}

json::object round_json(const Round& r) {
  auto latency = [](const Latency& l) {
    return json::object{
        {"p50_us", l.p50_us}, {"p90_us", l.p90_us}, {"p99_us", l.p99_us}, {"max_us", l.max_us}};
  };
  json::array errors(r.first_errors.begin(), r.first_errors.end());
  return {{"name", r.name},
          {"hostile", r.hostile},
          {"calls", r.calls},
          {"errors", r.errors},
          {"first_errors", std::move(errors)},
          {"seconds", r.seconds},
          {"call", latency(r.call)},
          {"cycle", latency(r.cycle)},
          {"rss_kib_after", r.rss_kib_after},
          {"peak_rss_kib", r.peak_rss_kib},
          {"hostile_connections", r.hostile_connections},
          {"hostile_requests", r.hostile_requests},
          {"hostile_closed_by_server", r.hostile_closed_by_server}};
}

int run(int argc, char** argv) {
  Options options = parse_options(argc, argv);
  const auto root =
      std::filesystem::temp_directory_path() / ("fcp-soak-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root);
  DaemonProcess daemon(options.fcpd,
                       {"--tcp", "127.0.0.1:0", "--http", "127.0.0.1:0", "--root", root.string()},
                       false);
  const std::chrono::milliseconds wait{10'000};
  options.workload.endpoint =
      parse_endpoint(daemon.wait_for_log("listening for MCP over TCP on ", wait), nullptr);
  const auto http =
      parse_endpoint(daemon.wait_for_log("listening for MCP over HTTP on ", wait), nullptr);
  MemorySampler memory(daemon.pid());
  const std::size_t rss_start = memory.read();
  prepare_sessions(options.workload);

  std::vector<Round> rounds;
  rounds.push_back(run_round(options, "warm-up", 0, false, http, memory));
  rounds.push_back(run_round(options, "quiet", 1, false, http, memory));
  for (std::size_t i = 0; i < options.attack_rounds; ++i)
    rounds.push_back(run_round(options, "attack " + std::to_string(i + 1), 2 + i, options.hostile,
                               http, memory));
  const DaemonExit exit = daemon.stop(std::chrono::milliseconds(5000));
  std::filesystem::remove_all(root);

  std::cout
      << "bench_soak: " << options.workload.clients << " clients x " << options.workload.calls
      << " calls per round, a new TCP connection per call; " << std::thread::hardware_concurrency()
      << " cpus\n"
      << "round       calls errors      s  p50 us   p99 us   max us  cycle99  RSS MiB  peak\n";
  for (const auto& r : rounds)
    print_round(r, std::cout);
  const Round& quiet = rounds[1];
  const Round& last = rounds.back();
  const double ratio = quiet.call.p99_us > 0 ? last.call.p99_us / quiet.call.p99_us : 0;
  const Round& first_attack = rounds.size() > 3 ? rounds[2] : last;
  const double growth = first_attack.rss_kib_after > 0
                            ? static_cast<double>(last.rss_kib_after) / first_attack.rss_kib_after
                            : 1;
  std::size_t errors = 0;
  for (const auto& r : rounds)
    errors += r.errors;
  std::cout << std::setprecision(2) << "p99 last attack round / quiet: " << ratio << "; RSS start "
            << rss_start / 1024 << " MiB, last/first attack round: " << growth << "; fcpd "
            << exit.description << "; fcpd warnings logged: " << daemon.problem_count() << "\n";
  for (const auto& line : daemon.problems())
    std::cout << "    fcpd: " << line << "\n";

  if (!options.json_path.empty()) {
    json::array list;
    for (const auto& r : rounds)
      list.push_back(round_json(r));
    std::ofstream out(options.json_path, std::ios::trunc);
    out << json::serialize(json::object{{"clients", options.workload.clients},
                                        {"calls", options.workload.calls},
                                        {"rss_kib_start", rss_start},
                                        {"p99_ratio", ratio},
                                        {"rss_growth", growth},
                                        {"rounds", std::move(list)}})
        << "\n";
  }
  bool failed = errors != 0 || !exit.clean;
  if (options.check && (ratio > 2.0 || growth > 1.10)) failed = true;
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace fcp::bench

int main(int argc, char** argv) {
  fcp::bench::install_signal_handlers();
  try {
    return fcp::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bench_soak: " << e.what() << "\n";
    return 2;
  }
}
