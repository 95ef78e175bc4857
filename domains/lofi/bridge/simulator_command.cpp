// `fcpd simulate-max`: a simulator in the foreground, for trying the lofi tools without Max.
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/signal_set.hpp>
#include <charconv>
#include <csignal>

#include "domains/lofi/bridge/simulator.hpp"

namespace fcp::lofi::bridge {

namespace {

constexpr std::string_view kUsage =
    "usage: fcpd simulate-max [--port 7400] [--reply 7401] [--reply-host 127.0.0.1]\n"
    "                         [--listen 127.0.0.1] [--fail-on /lofi/ADDRESS] [--latency-ms MS]\n"
    "                         [--fault none|silent|slow:MS|error|garbage|duplicate|no-id]\n"
    "Answers the lofi daemon protocol on UDP like the Max patch would; --reply 0 answers the "
    "sender;\n--latency-ms delays every reply by MS (each on its own timer, like a distant Max).\n";

struct FaultName {
  Fault fault;
  std::string_view name;
};
constexpr std::array kFaultNames{
    FaultName{Fault::none, "none"},       FaultName{Fault::silent, "silent"},
    FaultName{Fault::slow, "slow"},       FaultName{Fault::error, "error"},
    FaultName{Fault::garbage, "garbage"}, FaultName{Fault::duplicate, "duplicate"},
    FaultName{Fault::no_id, "no-id"},
};

core::Result<std::uint64_t> parse_number(std::string_view flag, std::string_view text,
                                         std::uint64_t max) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value > max) {
    return core::make_error(
        fmt::format("{} needs a number from 0 to {}, not \"{}\"", flag, max, text));
  }
  return value;
}

// Where spdlog's default logger still writes to stdout, log to stderr instead.
void ensure_stderr_logging() {
  if (!spdlog::default_logger()->name().empty()) return;  // the daemon configured logging
  auto logger = spdlog::get("simulate-max");
  if (!logger) logger = spdlog::stderr_color_mt("simulate-max");
  logger->set_pattern("%H:%M:%S.%e %^%l%$ %v");
  spdlog::set_default_logger(logger);
}

}  // namespace

std::string_view to_string(Fault fault) {
  for (const auto& entry : kFaultNames) {
    if (entry.fault == fault) return entry.name;
  }
  return "none";
}

core::Result<void> parse_fault(std::string_view text, SimulatorOptions& options) {
  std::string_view name = text;
  std::string_view argument;
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    name = text.substr(0, colon);
    argument = text.substr(colon + 1);
  }
  if (name == "no_id") name = "no-id";
  for (const auto& entry : kFaultNames) {
    if (entry.name != name) continue;
    if (!argument.empty() && entry.fault != Fault::slow) break;
    options.fault = entry.fault;
    if (entry.fault == Fault::slow) {
      auto ms = parse_number("--fault slow:MS", argument.empty() ? "1000" : argument, 600000);
      if (!ms) return ms.error();
      options.delay = std::chrono::milliseconds(*ms);
    }
    return {};
  }
  return core::make_error(fmt::format(
      "unknown fault \"{}\" (none, silent, slow:MS, error, garbage, duplicate, no-id)", text));
}

core::Result<SimulatorOptions> parse_simulator_args(const std::vector<std::string>& args) {
  SimulatorOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (i + 1 == args.size()) return core::make_error(fmt::format("{} needs a value", flag));
    const std::string& value = args[++i];
    if (flag == "--port" || flag == "--reply") {
      auto port = parse_number(flag, value, 65535);
      if (!port) return port.error();
      (flag == "--port" ? options.port : options.reply_port) = static_cast<std::uint16_t>(*port);
    } else if (flag == "--reply-host") {
      options.reply_host = value;
    } else if (flag == "--listen") {
      options.listen_host = value;
    } else if (flag == "--fault") {
      if (auto parsed = parse_fault(value, options); !parsed) return parsed.error();
    } else if (flag == "--latency-ms") {
      auto ms = parse_number(flag, value, 600000);
      if (!ms) return ms.error();
      options.delay = std::chrono::milliseconds(*ms);
    } else if (flag == "--fail-on") {
      options.fail_on = value;
    } else {
      return core::make_error(fmt::format("unknown argument \"{}\"", flag));
    }
  }
  return options;
}

int run_simulator_command(int argc, char** argv) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
    fmt::print(stderr, "{}", kUsage);
    return 0;
  }
  auto options = parse_simulator_args(args);
  if (!options) {
    fmt::print(stderr, "fcpd simulate-max: {}\n{}", options.error().message, kUsage);
    return 2;
  }
  ensure_stderr_logging();
  options->on_message = [](const std::string& address, const std::string& json) {
    spdlog::info("{} {}", address, json);
  };
  boost::asio::io_context io;
  auto simulator = Simulator::start(io, *options);
  if (!simulator) {
    spdlog::error("{}", simulator.error().message);
    return 1;
  }
  spdlog::info("simulating the Max lofi daemon on {}:{}, replying to {} (fault: {}{}{})",
               options->listen_host, (*simulator)->port(),
               options->reply_port == 0
                   ? std::string("the sender")
                   : fmt::format("{}:{}", options->reply_host, options->reply_port),
               to_string(options->fault),
               options->fault == Fault::slow ? fmt::format(" {} ms", options->delay.count()) : "",
               options->fail_on.empty() ? "" : ", failing " + options->fail_on);
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code, int signal) {
    spdlog::info("simulated Max: signal {}, stopping", signal);
    (*simulator)->stop();
    io.stop();
  });
  io.run();
  return 0;
}

}  // namespace fcp::lofi::bridge
