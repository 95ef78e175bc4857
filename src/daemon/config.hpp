// fcpd's configuration: defaults, the JSON config file (config/fcpd.json) and command-line
// flags, which override the file.
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace fcp::daemon {

struct Endpoint {
  std::string host;
  unsigned short port = 0;
};

struct Config {
  // Config sections domains read themselves, by domain name ("lofi": bridge host, ports, timeout).
  boost::json::object domain_settings;
  bool stdio = false;
  std::vector<Endpoint> tcp;
  std::vector<Endpoint> http;
  std::vector<std::string> roots;  // empty: the working directory
  std::string log_level = "info";
  std::optional<std::string> log_file;
  // Spare event-loop threads: long calls that may run at once while I/O goes on.
  std::size_t workers = 4;
  // How long the event loop keeps polling after an event before it sleeps (0: never polls).
  std::size_t busy_poll_us = 200;
  static constexpr std::size_t kMaxBusyPollUs = 1'000'000;
  std::size_t max_message_bytes = 4u << 20;
  std::size_t max_file_bytes = 512u << 20;
  std::size_t max_ops_per_call = 1'000'000;
  std::size_t max_created_per_call = 50'000;
  std::size_t max_reply_bytes = 16u << 20;
  std::size_t max_document_bytes = std::size_t{8} << 30;  // estimated memory of one document
  std::size_t max_call_seconds = 120;                     // ops calls (a batch; a layout in it)
  std::size_t max_query_seconds = 60;                     // query calls (an image or audio export)
  std::size_t max_session_seconds = 120;                  // session calls (open, save)
  std::size_t max_connections = 256;
  // TCP and stdio resource limits (transport::Limits has the meaning of each).
  std::size_t max_connections_per_address = 64;
  std::size_t max_calls_in_flight = 16;
  // Tool calls one client (principal and address) runs at once; 0: max(1, workers / 2).
  std::size_t max_calls_per_client = 0;
  std::size_t max_queued_bytes = 16u << 20;
  std::size_t max_total_queued_bytes = 256u << 20;
  std::size_t max_total_partial_bytes = 256u << 20;
  std::size_t tcp_idle_seconds = 900;
  std::size_t message_timeout_seconds = 30;
  std::size_t write_timeout_seconds = 60;
  std::size_t max_named_sessions = 64;
  // Per principal (a token's name; "local" without tokens): open documents, tool calls running
  // or queued on all its connections, bytes of unsaved work the journal may hold.
  std::size_t max_documents = 256;
  std::size_t max_calls_per_principal = 64;
  std::size_t max_journal_bytes_per_principal = std::size_t{1} << 30;
  // Authentication: a token (config auth.token; $FCPD_TOKEN wins) names the principal "default";
  // a token file holds PRINCIPAL:TOKEN lines. Without either, TCP and HTTP may only listen on
  // loopback unless `insecure` says otherwise.
  std::optional<std::string> token;
  std::optional<std::string> token_file;
  bool insecure = false;
  std::vector<std::string> allowed_origins;
  std::vector<std::string> allowed_hosts;
  // Reverse proxies (addresses or networks) whose X-Forwarded-For names the client for its share
  // of call threads (max_calls_per_client). Empty: every HTTP peer is its own client.
  std::vector<std::string> trusted_proxies;
  std::size_t http_session_idle_seconds = 3600;
  // After SIGINT/SIGTERM, how long calls still running may take to finish before they are
  // stopped (rolled back) and the daemon exits.
  std::size_t shutdown_grace_seconds = 10;
  bool conformance_fixtures = false;  // --conformance-fixtures (testing only)
  // Journals for crash recovery: in `state_dir` (empty: the per-user default,
  // $XDG_STATE_HOME/fcpd or ~/.local/state/fcpd); off when `journals` is false (state_dir null).
  bool journals = true;
  std::string state_dir;
  std::string journal_fsync = "batch";           // batch | interval | never
  std::size_t journal_fsync_interval_ms = 1000;  // with journal_fsync "interval"
  std::size_t journal_compact_after = 1000;
  std::size_t journal_history = 100;
  std::size_t idle_evict_seconds = 0;  // 0: documents stay in memory until closed
  // Replicas sharing state_dir behind a load balancer (deploy/): this replica's name (empty: no
  // leases), how long an unrenewed document lease lasts, how long a call waits for the replica
  // holding its document to hand it over.
  std::string replica_id;
  std::size_t replica_lease_ms = 5000;
  std::size_t replica_handoff_ms = 3000;
};

// What the command line asked for.
struct Invocation {
  enum class Mode { serve, conformance, help, version };
  Mode mode = Mode::serve;
  Config config;
  std::vector<std::string> files;  // conformance fixture files
};

// Parses `argv` (after loading --config FILE or $FCPD_CONFIG if given). Errors are usage errors.
core::Result<Invocation> parse_invocation(int argc, const char* const* argv);
// Applies a JSON config document to `config` (unknown keys are errors, so typos are caught).
core::Result<void> apply_config_json(std::string_view text, Config& config);
core::Result<Endpoint> parse_endpoint(std::string_view text);

std::string usage_text();

}  // namespace fcp::daemon
