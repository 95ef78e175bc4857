// bench_roundtrip: fcpd measured from outside, as its clients see it. Spawns the daemon binary
// (default: <build>/tests/fcpd_testing, hosting the test domain "deck") and times
// tools/call deck_query {"q":"status"} over stdio, TCP and Streamable HTTP, one call at a time,
// then the throughput of many TCP clients at once. Prints a table; --json FILE writes the figures.
#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include "bench/roundtrip/daemon_process.hpp"
#include "bench/roundtrip/floor_server.hpp"
#include "bench/roundtrip/scenarios.hpp"

namespace fcp::bench {
namespace {

constexpr auto kStopGrace = std::chrono::milliseconds(3000);
constexpr const char* kTcpMarker = "listening for MCP over TCP on ";
constexpr const char* kHttpMarker = "listening for MCP over HTTP on ";

constexpr const char* kUsage = R"(usage: bench_roundtrip [options]
  --fcpd PATH        daemon to measure (default: <build>/tests/fcpd_testing)
  --calls N          timed sequential calls per transport (default 20000)
  --warmup N         untimed calls before them (default 500)
  --clients N        concurrent TCP clients for the throughput run (default 32)
  --seconds S        length of the throughput run (default 5)
  --timeout-ms N     longest wait for any reply, connect or log line (default 5000)
  --only LIST        comma-separated subset of stdio,tcp,http,load,floor (default: all);
                     floor: the same client against a stand-in server that only echoes a
                     canned reply (stdio and TCP), i.e. what this machine costs without fcpd
  --daemon-arg ARG   one extra fcpd argument (repeatable): --daemon-arg --workers --daemon-arg 2
  --json FILE        also write the figures as JSON
)";

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string default_fcpd() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "../tests/fcpd_testing";
  return (self.parent_path().parent_path() / "tests" / "fcpd_testing").string();
}

std::size_t parse_count(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text.front() == '-' || *end != '\0' || value == 0) {
    throw UsageError(flag + " needs a positive whole number, got \"" + text + "\"");
  }
  return static_cast<std::size_t>(value);
}

double parse_seconds(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0)) {
    throw UsageError(flag + " needs a positive number of seconds, got \"" + text + "\"");
  }
  return value;
}

std::vector<std::string> parse_only(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const auto comma = std::min(text.find(',', begin), text.size());
    std::string part = text.substr(begin, comma - begin);
    if (part != "stdio" && part != "tcp" && part != "http" && part != "load" && part != "floor") {
      throw UsageError("--only takes stdio, tcp, http, load and floor; got \"" + part + "\"");
    }
    parts.push_back(std::move(part));
    begin = comma + 1;
  }
  return parts;
}

void apply_option(const std::string& flag, const std::string& value, Settings& settings) {
  if (flag == "--fcpd")
    settings.fcpd = value;
  else if (flag == "--calls")
    settings.calls = parse_count(flag, value);
  else if (flag == "--warmup")
    settings.warmup = std::strtoull(value.c_str(), nullptr, 10);
  else if (flag == "--clients")
    settings.clients = parse_count(flag, value);
  else if (flag == "--seconds")
    settings.seconds = parse_seconds(flag, value);
  else if (flag == "--timeout-ms")
    settings.timeout = std::chrono::milliseconds(parse_count(flag, value));
  else if (flag == "--only")
    settings.only = parse_only(value);
  else if (flag == "--daemon-arg")
    settings.daemon_args.push_back(value);
  else if (flag == "--json")
    settings.json_path = value;
  else
    throw UsageError("unknown option \"" + flag + "\"");
}

// Options as "--flag value" or "--flag=value".
Settings parse_settings(int argc, char** argv) {
  Settings settings;
  settings.fcpd = default_fcpd();
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      settings.help = true;
      return settings;
    }
    std::string value;
    if (const auto equals = flag.find('='); equals != std::string::npos) {
      value = flag.substr(equals + 1);
      flag.resize(equals);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      throw UsageError(flag + " needs a value");
    }
    apply_option(flag, value, settings);
  }
  return settings;
}

// The first three fields of /proc/loadavg: how busy the machine was when the run began.
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return in ? one + " " + five + " " + fifteen : "unknown";
}

template <typename T>
T run_task(asio::awaitable<T> task) {
  asio::io_context io;
  std::optional<T> result;
  std::exception_ptr error;
  asio::co_spawn(io, std::move(task), [&](const std::exception_ptr& e, T value) {
    error = e;
    if (!e) result = std::move(value);
  });
  io.run();
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

}  // namespace

// Runs each measurement against a daemon of its own and collects the report.
class Runner {
 public:
  explicit Runner(Settings settings) : settings_(std::move(settings)) {
    report_.daemon = settings_.fcpd;
    report_.call = kCallDescription;
    report_.warmup = settings_.warmup;
    report_.cpus = std::thread::hardware_concurrency();
    report_.load_average = load_average();
  }

  // Runs every wanted measurement; one that fails is recorded and the others still run.
  void run() {
    attempt("stdio", [&] { report_.round_trips.push_back(round_trip_stdio()); });
    attempt("tcp", [&] { report_.round_trips.push_back(round_trip_tcp()); });
    attempt("http", [&] { report_.round_trips.push_back(round_trip_http()); });
    attempt("floor", [&] {
      report_.round_trips.push_back(floor_stdio());
      report_.round_trips.push_back(floor_tcp());
    });
    for (const auto& r : report_.round_trips) {
      if (r.reconnects != 0) {
        report_.problems.push_back(r.transport + ": the server closed the connection " +
                                   std::to_string(r.reconnects) + " time(s)");
      }
    }
    attempt("load", [&] { report_.throughput = throughput_tcp(); });
  }

  const Report& report() const { return report_; }
  bool failed() const { return daemon_failed_ || !report_.failures.empty(); }

 private:
  bool wanted(const std::string& part) const {
    return settings_.only.empty() ||
           std::find(settings_.only.begin(), settings_.only.end(), part) != settings_.only.end();
  }

  void attempt(const std::string& part, const std::function<void()>& measure) {
    if (!wanted(part)) return;
    try {
      measure();
    } catch (const std::exception& e) {
      report_.failures.emplace_back(e.what());
    }
  }

  std::vector<std::string> daemon_args(std::vector<std::string> args) const {
    args.insert(args.end(), settings_.daemon_args.begin(), settings_.daemon_args.end());
    return args;
  }

  RoundTrip round_trip_stdio() {
    DaemonProcess daemon(settings_.fcpd, daemon_args({"--stdio"}), true);
    return guarded<RoundTrip>("stdio", daemon, [&] {
      return run_task(measure_stdio(daemon.take_stdin(), daemon.take_stdout(), settings_));
    });
  }

  RoundTrip round_trip_tcp() {
    DaemonProcess daemon(settings_.fcpd, daemon_args({"--tcp", "127.0.0.1:0"}), false);
    return guarded<RoundTrip>("tcp", daemon, [&] {
      const auto endpoint =
          parse_endpoint(daemon.wait_for_log(kTcpMarker, settings_.timeout), nullptr);
      return run_task(measure_tcp(endpoint, settings_));
    });
  }

  RoundTrip round_trip_http() {
    DaemonProcess daemon(settings_.fcpd, daemon_args({"--http", "127.0.0.1:0"}), false);
    return guarded<RoundTrip>("http", daemon, [&] {
      std::string target;
      const auto endpoint =
          parse_endpoint(daemon.wait_for_log(kHttpMarker, settings_.timeout), &target);
      return run_task(measure_http(endpoint, target, settings_));
    });
  }

  // The stand-in server is this program itself (see floor_server.hpp).
  static std::string self_path() {
    std::error_code ec;
    return std::filesystem::read_symlink("/proc/self/exe", ec).string();
  }

  RoundTrip floor_stdio() {
    DaemonProcess server(self_path(), {kFloorServerFlag, "stdio"}, true);
    auto figures = guarded<RoundTrip>("stdio floor", server, [&] {
      return run_task(measure_stdio(server.take_stdin(), server.take_stdout(), settings_));
    });
    figures.transport = "stdio floor";
    return figures;
  }

  RoundTrip floor_tcp() {
    DaemonProcess server(self_path(), {kFloorServerFlag, "tcp"}, false);
    auto figures = guarded<RoundTrip>("tcp floor", server, [&] {
      const auto endpoint =
          parse_endpoint(server.wait_for_log(kTcpMarker, settings_.timeout), nullptr);
      return run_task(measure_tcp(endpoint, settings_));
    });
    figures.transport = "tcp floor";
    return figures;
  }

  Throughput throughput_tcp() {
    DaemonProcess daemon(settings_.fcpd, daemon_args({"--tcp", "127.0.0.1:0"}), false);
    return guarded<Throughput>("load", daemon, [&] {
      const auto endpoint =
          parse_endpoint(daemon.wait_for_log(kTcpMarker, settings_.timeout), nullptr);
      return measure_load(endpoint, settings_);
    });
  }

  // Runs `measure`, adding the daemon's last log lines to any failure, then stops the daemon
  // and notes anything wrong with how it ran or ended.
  template <typename T>
  T guarded(const std::string& label, DaemonProcess& daemon, const std::function<T()>& measure) {
    std::optional<T> figures;
    try {
      figures = measure();
    } catch (const std::exception& e) {
      const DaemonExit exit = daemon.stop(kStopGrace);
      throw BenchError(label + ": " + e.what() + "\nfcpd then: " + exit.description +
                       "; its stderr (last lines):\n" + daemon.recent_log());
    }
    note_daemon(label, daemon);
    return std::move(*figures);
  }

  void note_daemon(const std::string& label, DaemonProcess& daemon) {
    const DaemonExit exit = daemon.stop(kStopGrace);
    if (!exit.clean) {
      daemon_failed_ = true;
      report_.problems.push_back(label +
                                 ": fcpd did not stop cleanly on SIGTERM: " + exit.description);
    }
    if (const auto count = daemon.problem_count(); count != 0) {
      std::string text = label + ": fcpd logged " + std::to_string(count) + " warning(s)/error(s)";
      for (const auto& line : daemon.problems())
        text += "\n    " + line;
      report_.problems.push_back(std::move(text));
    }
  }

  Settings settings_;
  Report report_;
  bool daemon_failed_ = false;
};

void write_json(const Report& report, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << to_json_text(report);
  out.close();
  if (!out) throw BenchError("cannot write " + path);
}

int run(int argc, char** argv) {
  Settings settings;
  try {
    settings = parse_settings(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "bench_roundtrip: " << e.what() << "\n\n" << kUsage;
    return 2;
  }
  if (settings.help) {
    std::cout << kUsage;
    return 0;
  }
  const std::string json_path = settings.json_path;
  Runner runner(std::move(settings));
  runner.run();
  print_table(runner.report(), std::cout);
  for (const auto& failure : runner.report().failures) {
    std::cerr << "bench_roundtrip: " << failure << "\n";
  }
  try {
    if (!json_path.empty()) write_json(runner.report(), json_path);
  } catch (const std::exception& e) {
    std::cerr << "bench_roundtrip: " << e.what() << "\n";
    return 1;
  }
  return runner.failed() ? 1 : 0;
}

}  // namespace fcp::bench

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == fcp::bench::kFloorServerFlag) {
    return fcp::bench::serve_floor(argv[2]);
  }
  fcp::bench::install_signal_handlers();
  return fcp::bench::run(argc, argv);
}
