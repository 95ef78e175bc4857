#include "daemon/daemon.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <iostream>
#include <thread>

#include "daemon/config.hpp"
#include "daemon/conformance.hpp"
#include "daemon/event_loop.hpp"
#include "daemon/logging.hpp"
#include "daemon/roots.hpp"
#include "mcp/server.hpp"
#include "transport/http.hpp"
#include "transport/stdio.hpp"
#include "transport/tcp.hpp"

namespace fcp::daemon {
namespace asio = boost::asio;

namespace {

constexpr const char* kVersion = FCP_VERSION;  // from CMake's project version

core::Result<asio::ip::tcp::endpoint> resolve(const Endpoint& endpoint) {
  boost::system::error_code ec;
  std::string host = endpoint.host == "localhost" ? "127.0.0.1" : endpoint.host;
  auto address = asio::ip::make_address(host, ec);
  if (ec) return core::make_error("\"" + endpoint.host + "\" is not an IP address");
  return asio::ip::tcp::endpoint(address, endpoint.port);
}

transport::Limits limits_of(const Config& config) {
  transport::Limits limits;
  limits.max_message_bytes = config.max_message_bytes;
  limits.max_connections = config.max_connections;
  limits.max_connections_per_address = config.max_connections_per_address;
  limits.max_calls_in_flight = config.max_calls_in_flight;
  limits.max_queued_bytes = config.max_queued_bytes;
  limits.max_total_queued_bytes = config.max_total_queued_bytes;
  limits.max_total_partial_bytes = config.max_total_partial_bytes;
  limits.idle_timeout = std::chrono::seconds(config.tcp_idle_seconds);
  limits.message_timeout = std::chrono::seconds(config.message_timeout_seconds);
  limits.write_timeout = std::chrono::seconds(config.write_timeout_seconds);
  return limits;
}

// Everything a running daemon owns, torn down in reverse order.
class Daemon {
 public:
  Daemon(const Config& config, const DomainFactory& factory, RootPolicy roots)
      : config_(config),
        roots_(std::move(roots)),
        signals_(io_, SIGINT, SIGTERM),
        domains_(factory(DomainEnvironment{io_, config.domain_settings})) {
    std::vector<const core::Domain*> hosted;
    for (const auto& domain : domains_)
      hosted.push_back(domain.get());
    mcp::ServerOptions options;
    options.version = kVersion;
    options.limits.max_file_bytes = config.max_file_bytes;
    options.limits.max_ops_per_call = config.max_ops_per_call;
    options.limits.max_created_per_call = config.max_created_per_call;
    options.limits.max_reply_bytes = config.max_reply_bytes;
    options.limits.max_call_duration = std::chrono::seconds(config.max_call_seconds);
    options.max_named_sessions = config.max_named_sessions;
    options.conformance_fixtures = config.conformance_fixtures;
    // doc:dw-… for draw.io; midi and lofi use their names' first letters (doc:mi-…, doc:lo-…).
    options.handle_prefixes = {{"drawio", "dw"}};
    if (config.journals) {
      options.journal.state_dir = config.state_dir.empty()
                                      ? mcp::default_state_dir()
                                      : std::filesystem::path(config.state_dir);
    }
    options.journal.fsync = config.journal_fsync == "never"      ? mcp::FsyncPolicy::never
                            : config.journal_fsync == "interval" ? mcp::FsyncPolicy::interval
                                                                 : mcp::FsyncPolicy::batch;
    options.journal.compact_after = config.journal_compact_after;
    options.journal.history = config.journal_history;
    options.journal.idle_evict = std::chrono::seconds(config.idle_evict_seconds);
    // Tool calls run on the event loop's threads (see EventLoop: a long call hands the I/O on).
    server_ = std::make_unique<mcp::Server>(io_.get_executor(), hosted, roots_, options);
  }

  std::size_t domain_count() const { return domains_.size(); }
  const RootPolicy& roots() const { return roots_; }

  int serve() {
    if (auto started = start_transports(); !started) {
      spdlog::error("{}", started.error().message);
      stop();
      return 1;
    }
    signals_.async_wait([this](const boost::system::error_code& ec, int signal) {
      if (ec) return;
      spdlog::info("signal {} received, shutting down (a second one exits at once)", signal);
      stop();
      start_shutdown_deadline();
    });
    EventLoopOptions loop;
    loop.busy_poll = std::chrono::microseconds(config_.busy_poll_us);
    loop.threads = config_.workers + 1;
    // Returns once calls already running have finished (transports cancelled what they could);
    // replies still queued are dropped with the stopped io_context.
    EventLoop(io_, loop).run();
    stopped_->store(true);
    spdlog::info("fcpd stopped");
    return 0;
  }

 private:
  core::Result<void> start_transports() {
    const auto limits = limits_of(config_);
    for (const auto& endpoint : config_.tcp) {
      auto address = resolve(endpoint);
      if (!address) return address.error();
      auto server = std::make_unique<transport::TcpServer>(io_, *server_, *address, limits);
      if (auto ok = server->start(); !ok) return ok.error();
      spdlog::info("listening for MCP over TCP on {}:{}", endpoint.host,
                   server->local_endpoint().port());
      tcp_.push_back(std::move(server));
    }
    for (const auto& endpoint : config_.http) {
      auto address = resolve(endpoint);
      if (!address) return address.error();
      transport::HttpOptions options;
      options.limits = limits;
      options.allowed_origins = config_.allowed_origins;
      options.allowed_hosts = config_.allowed_hosts;
      options.session_idle_timeout = std::chrono::seconds(config_.http_session_idle_seconds);
      auto server = std::make_unique<transport::HttpServer>(io_, *server_, *address, options);
      if (auto ok = server->start(); !ok) return ok.error();
      spdlog::info("listening for MCP over HTTP on http://{}:{}/mcp", endpoint.host,
                   server->local_endpoint().port());
      http_.push_back(std::move(server));
    }
    if (config_.stdio) {
      stdio_ = std::make_unique<transport::StdioTransport>(io_, *server_, limits);
      stdio_->start([this] {
        spdlog::info("stdin closed, shutting down");
        stop();
      });
    }
    return {};
  }

  // After a signal: the connections were closed, so batches stop at their next op; an op that
  // runs on (a large layout) gets config.shutdown_grace_seconds, then the process exits anyway.
  // A thread of its own: the event loop may be the one that is stuck.
  void start_shutdown_deadline() {
    std::thread([stopped = stopped_, grace = std::chrono::seconds(config_.shutdown_grace_seconds)] {
      const auto deadline = std::chrono::steady_clock::now() + grace;
      while (!stopped->load() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (stopped->load()) return;
      spdlog::warn("calls still running {} s after the signal: exiting without them",
                   grace.count());
      spdlog::default_logger()->flush();
      std::_Exit(1);
    }).detach();
  }

  // Any event-loop thread (a signal, the end of stdin), possibly two at once.
  void stop() {
    if (stopping_.exchange(true)) return;
    // Back to the default action: a second SIGINT or SIGTERM ends the process at once.
    boost::system::error_code ignored;
    signals_.clear(ignored);
    for (auto& server : tcp_)
      server->stop();
    for (auto& server : http_)
      server->stop();
    if (stdio_) stdio_->stop();
    io_.stop();
  }

  const Config& config_;
  RootPolicy roots_;
  asio::io_context io_;
  asio::signal_set signals_;
  // After io_: domains may own sockets and timers on it, which must go before it.
  std::vector<std::unique_ptr<core::Domain>> domains_;
  std::unique_ptr<mcp::Server> server_;
  std::vector<std::unique_ptr<transport::TcpServer>> tcp_;
  std::vector<std::unique_ptr<transport::HttpServer>> http_;
  std::unique_ptr<transport::StdioTransport> stdio_;
  std::atomic<bool> stopping_ = false;
  // Set once the event loop has returned; shared with the shutdown deadline's thread.
  std::shared_ptr<std::atomic<bool>> stopped_ = std::make_shared<std::atomic<bool>>(false);
};

std::string roots_text(const Daemon& daemon) {
  return daemon.roots().roots().front().string();
}

}  // namespace

int run(int argc, const char* const* argv, std::vector<std::unique_ptr<core::Domain>> domains) {
  auto owned = std::make_shared<std::vector<std::unique_ptr<core::Domain>>>(std::move(domains));
  return run(argc, argv, [owned](const DomainEnvironment&) { return std::move(*owned); });
}

int run(int argc, const char* const* argv, const DomainFactory& factory) {
  auto invocation = parse_invocation(argc, argv);
  if (!invocation) {
    std::cerr << "fcpd: " << invocation.error().message << "\n\n" << usage_text();
    return 2;
  }
  switch (invocation->mode) {
    case Invocation::Mode::help:
      std::cout << usage_text();
      return 0;
    case Invocation::Mode::version:
      std::cout << "fcpd " << kVersion << "\n";
      return 0;
    case Invocation::Mode::conformance:
      return run_conformance(invocation->files, std::cout);
    case Invocation::Mode::serve:
      break;
  }
  const Config& config = invocation->config;
  // A peer that goes away must be a write error on its connection, not the end of the daemon.
  std::signal(SIGPIPE, SIG_IGN);
  if (auto logging = setup_logging(config.log_level, config.log_file); !logging) {
    std::cerr << "fcpd: " << logging.error().message << "\n";
    return 2;
  }
  auto roots = RootPolicy::make(config.roots);
  if (!roots) {
    spdlog::error("{}", roots.error().message);
    return 2;
  }
  Daemon daemon(config, factory, std::move(*roots));
  spdlog::info("fcpd {} starting; {} domain(s); roots: {}", kVersion, daemon.domain_count(),
               roots_text(daemon));
  return daemon.serve();
}

}  // namespace fcp::daemon
