#include "daemon/daemon.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "core/call_scope.hpp"
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

// The tokens of the token file and $FCPD_TOKEN (or the config's auth.token); none: no
// authentication.
core::Result<std::shared_ptr<const mcp::Authenticator>> load_authenticator(const Config& config) {
  std::vector<mcp::Authenticator::Entry> entries;
  if (config.token_file) {
    const std::string& path = *config.token_file;
    std::ifstream in(path, std::ios::binary);
    if (!in) return core::make_error("cannot read the token file \"" + path + "\"");
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = mcp::parse_token_file(text.str(), path);
    if (!parsed) return parsed.error();
    entries = std::move(*parsed);
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && (info.st_mode & 0077) != 0)
      spdlog::warn("the token file {} can be read by other users (chmod 600 {})", path, path);
  }
  std::optional<std::string> token = config.token;
  std::string origin = "auth.token";
  if (const char* env = std::getenv("FCPD_TOKEN"); env != nullptr && *env != '\0') {
    token = env;
    origin = "FCPD_TOKEN";
  }
  if (token) {
    if (auto ok = mcp::check_token(*token, origin); !ok) return ok.error();
    for (const auto& entry : entries) {
      if (entry.principal == mcp::kTokenPrincipal)
        return core::make_error(origin +
                                " names the principal \"default\", which the token file "
                                "also lists; drop one of them");
    }
    entries.push_back({std::string(mcp::kTokenPrincipal), *token});
  }
  return std::make_shared<const mcp::Authenticator>(std::move(entries));
}

// TCP and HTTP on an address other than loopback need a token, unless --insecure.
core::Result<void> check_exposure(const Config& config, const mcp::Authenticator& auth) {
  if (auth.enabled() || config.insecure) return {};
  const auto check = [](const std::vector<Endpoint>& endpoints, std::string_view flag) {
    for (const auto& endpoint : endpoints) {
      auto address = resolve(endpoint);
      if (address && address->address().is_loopback()) continue;
      return core::Result<void>(core::make_error(
          "refusing to listen on " + std::string(flag) + " " + endpoint.host + ":" +
          std::to_string(endpoint.port) +
          " without a token: anyone who can reach it could read and write files under the roots. "
          "Set FCPD_TOKEN or --token-file FILE (PRINCIPAL:TOKEN lines), or pass --insecure if "
          "something in front of fcpd authenticates (SECURITY.md)"));
    }
    return core::Result<void>();
  };
  if (auto ok = check(config.tcp, "--tcp"); !ok) return ok;
  return check(config.http, "--http");
}

// Everything a running daemon owns, torn down in reverse order.
class Daemon {
 public:
  Daemon(const Config& config, const DomainFactory& factory, RootPolicy roots,
         std::shared_ptr<const mcp::Authenticator> auth)
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
    options.limits.max_document_bytes = config.max_document_bytes;
    options.limits.max_call_duration = std::chrono::seconds(config.max_call_seconds);
    options.query_time_limit = std::chrono::seconds(config.max_query_seconds);
    options.session_time_limit = std::chrono::seconds(config.max_session_seconds);
    options.max_calls_per_client = config.max_calls_per_client != 0
                                       ? config.max_calls_per_client
                                       : std::max<std::size_t>(1, config.workers / 2);
    options.max_named_sessions = config.max_named_sessions;
    options.max_documents = config.max_documents;
    options.auth = std::move(auth);
    options.principal_limits.max_calls_in_flight = config.max_calls_per_principal;
    options.principal_limits.max_journal_bytes = config.max_journal_bytes_per_principal;
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
    options.journal.fsync_interval = std::chrono::milliseconds(config.journal_fsync_interval_ms);
    options.journal.compact_after = config.journal_compact_after;
    options.journal.history = config.journal_history;
    options.journal.idle_evict = std::chrono::seconds(config.idle_evict_seconds);
    options.journal.replica.id = config.replica_id;
    options.journal.replica.lease_ttl = std::chrono::milliseconds(config.replica_lease_ms);
    options.journal.replica.handoff_wait = std::chrono::milliseconds(config.replica_handoff_ms);
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
      shut_down(signal);
    });
    EventLoopOptions loop;
    loop.busy_poll = std::chrono::microseconds(config_.busy_poll_us);
    loop.threads = config_.workers + 1;
    // Returns once calls already running have finished (transports cancelled what they could);
    // replies still queued are dropped with the stopped io_context.
    EventLoop(io_, loop).run();
    if (watch_.joinable()) watch_.join();
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
      // Checked when the config was read.
      if (auto proxies = transport::TrustedProxies::parse(config_.trusted_proxies); proxies)
        options.trusted_proxies = std::move(*proxies);
      options.session_idle_timeout = std::chrono::seconds(config_.http_session_idle_seconds);
      // Replicas: session ids start with the replica's name, so a load balancer keeps a legacy
      // session on the replica that holds it (deploy/nginx.conf.template).
      if (!config_.replica_id.empty()) options.session_id_prefix = config_.replica_id + "-";
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

  // SIGTERM/SIGINT: no new connections; the calls running get config.shutdown_grace_seconds to
  // finish and answer; then every call still running is stopped (a batch rolls back at its next
  // op, a layout's Graphviz worker is killed, and the client is told so), and once they have
  // ended the connections close and the daemon exits 0. An op that ignores the stop (stuck in a
  // library) gets kStopGrace more, then the process exits 1 without it.
  // The watch runs on a thread of its own: every event-loop thread may be busy with a long call.
  // Journaling unsaved documents on shutdown (the durable-documents work) hooks in here, once
  // the calls have ended and before stop().
  void shut_down(int signal) {
    if (stopping_.load() || shutting_down_.exchange(true)) return;
    // Back to the default action: a second SIGINT or SIGTERM ends the process at once.
    boost::system::error_code ignored;
    signals_.clear(ignored);
    for (auto& server : tcp_)
      server->stop_accepting();
    for (auto& server : http_)
      server->stop_accepting();
    const auto grace = std::chrono::seconds(config_.shutdown_grace_seconds);
    const std::size_t running = server_->calls_running();
    spdlog::info(
        "signal {} received: shutting down; no new connections; {} call(s) running, waiting up "
        "to {} s for them (a second signal exits at once)",
        signal, running, grace.count());
    watch_ = std::thread([this, grace] {
      using Clock = std::chrono::steady_clock;
      const auto wait_until = [this](Clock::time_point deadline) {
        while (server_->calls_running() > 0 && Clock::now() < deadline && !stopping_.load())
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return server_->calls_running() == 0 || stopping_.load();
      };
      if (wait_until(Clock::now() + grace)) {
        spdlog::info("no calls running: closing the connections");
      } else {
        spdlog::warn(
            "{} call(s) still running {} s after the signal: stopping them (their changes are "
            "rolled back)",
            server_->calls_running(), grace.count());
        core::stop_all_calls();
        if (wait_until(Clock::now() + kStopGrace)) {
          spdlog::info("the stopped calls have ended: closing the connections");
        } else {
          spdlog::error("{} call(s) did not stop within {} s: exiting without them",
                        server_->calls_running(), kStopGrace.count());
          spdlog::default_logger()->flush();
          std::_Exit(1);
        }
      }
      // The server tears down the subscriptions/listen streams: stdio and TCP clients get
      // notifications/cancelled naming each one, HTTP streams close (MCP 2026-07-28).
      if (const std::size_t ended = server_->subscriptions().end_streams("fcpd is shutting down");
          ended > 0)
        spdlog::info("ended {} subscription stream(s)", ended);
      // The last replies were handed to their transports just before their calls ended: give
      // the writes a moment before the connections close.
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      asio::post(io_, [this] { stop(); });
    });
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
    // Every acknowledged change is already in its document's journal: the journals of documents
    // with unsaved work are synced for `recover` after a restart; the others go, as on close.
    server_->documents().stop_timers();
    if (const std::size_t kept = server_->documents().close_journals_at_exit(); kept > 0) {
      spdlog::info(
          "{} document(s) with unsaved work kept in their journals: after a restart, "
          "DOMAIN_session recover lists them",
          kept);
    }
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
  static constexpr std::chrono::seconds kStopGrace{5};
  std::atomic<bool> stopping_ = false;
  std::atomic<bool> shutting_down_ = false;
  std::thread watch_;  // the shutdown's watch of the calls still running
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
  auto auth = load_authenticator(config);
  if (!auth) {
    spdlog::error("{}", auth.error().message);
    return 2;
  }
  if (auto exposed = check_exposure(config, **auth); !exposed) {
    spdlog::error("{}", exposed.error().message);
    return 2;
  }
  if ((*auth)->enabled())
    spdlog::info("TCP and HTTP clients must authenticate ({} principal(s))", (*auth)->size());
  Daemon daemon(config, factory, std::move(*roots), *auth);
  spdlog::info("fcpd {} starting; {} domain(s); roots: {}", kVersion, daemon.domain_count(),
               roots_text(daemon));
  return daemon.serve();
}

}  // namespace fcp::daemon
