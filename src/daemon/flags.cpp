// Command-line flags of fcpd. They override config/fcpd.json settings.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "daemon/config.hpp"
#include "mcp/document_lease.hpp"
#include "transport/trusted_proxies.hpp"

namespace fcp::daemon {
using core::make_error;
using core::Result;

namespace {

Result<std::string> read_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read config file \"" + path + "\"");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value after a flag, or a usage error.
Result<std::string> value_of(int& i, int argc, const char* const* argv) {
  std::string flag = argv[i];
  if (i + 1 >= argc) return make_error(flag + " needs a value");
  return std::string(argv[++i]);
}

Result<std::size_t> size_of(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value == 0 || text.front() == '-') {
    return make_error(flag + " needs a positive whole number, got \"" + text + "\"");
  }
  return static_cast<std::size_t>(value);
}

// Loads --config FILE (or $FCPD_CONFIG) first so flags can override it.
Result<void> load_config_file(int argc, const char* const* argv, Config& config) {
  std::string path;
  if (const char* env = std::getenv("FCPD_CONFIG"); env != nullptr) path = env;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) == "--config") path = argv[i + 1];
  }
  if (path.empty()) return {};
  auto text = read_config_file(path);
  if (!text) return text.error();
  return apply_config_json(*text, config);
}

Result<void> apply_flag(const std::string& flag, int& i, int argc, const char* const* argv,
                        Config& config) {
  if (flag == "--stdio") {
    config.stdio = true;
    return {};
  }
  if (flag == "--insecure") {
    config.insecure = true;
    return {};
  }
  if (flag == "--no-state-dir") {
    config.journals = false;
    return {};
  }
  if (flag == "--conformance-fixtures") {
    config.conformance_fixtures = true;
    return {};
  }
  auto value = value_of(i, argc, argv);
  if (!value) return value.error();
  if (flag == "--config") return {};
  if (flag == "--tcp" || flag == "--http") {
    auto endpoint = parse_endpoint(*value);
    if (!endpoint) return make_error(flag + ": " + endpoint.error().message);
    (flag == "--tcp" ? config.tcp : config.http).push_back(*endpoint);
    return {};
  }
  if (flag == "--root") {
    config.roots.push_back(*value);
    return {};
  }
  if (flag == "--state-dir") {
    config.journals = true;
    config.state_dir = *value;
    return {};
  }
  if (flag == "--replica-id") {
    if (!mcp::valid_replica_id(*value)) {
      return make_error("--replica-id: \"" + *value +
                        "\" is not a replica name (1 to 32 letters, digits, '_' or '-')");
    }
    config.replica_id = *value;
    return {};
  }
  if (flag == "--log-level") {
    config.log_level = *value;
    return {};
  }
  if (flag == "--token-file") {
    config.token_file = *value;
    return {};
  }
  if (flag == "--log-file") {
    config.log_file = *value;
    return {};
  }
  if (flag == "--allow-origin") {
    config.allowed_origins.push_back(*value);
    return {};
  }
  if (flag == "--allow-host") {
    config.allowed_hosts.push_back(*value);
    return {};
  }
  if (flag == "--trusted-proxy") {
    if (auto parsed = transport::TrustedProxies::parse({*value}); !parsed) return parsed.error();
    config.trusted_proxies.push_back(*value);
    return {};
  }
  if (flag == "--busy-poll-us") {
    char* end = nullptr;
    const unsigned long long us = std::strtoull(value->c_str(), &end, 10);
    if (value->empty() || *end != '\0' || value->front() == '-' || us > Config::kMaxBusyPollUs) {
      return make_error(flag +
                        " needs a whole number of microseconds from 0 (off) to 1000000, got \"" +
                        *value + "\"");
    }
    config.busy_poll_us = static_cast<std::size_t>(us);
    return {};
  }
  std::size_t* target = flag == "--workers"             ? &config.workers
                        : flag == "--max-message-bytes" ? &config.max_message_bytes
                        : flag == "--max-file-bytes"    ? &config.max_file_bytes
                                                        : nullptr;
  if (target == nullptr) return make_error("unknown flag \"" + flag + "\"");
  auto size = size_of(flag, *value);
  if (!size) return size.error();
  *target = *size;
  return {};
}

}  // namespace

Result<Invocation> parse_invocation(int argc, const char* const* argv) {
  Invocation invocation;
  if (argc >= 2 && std::string_view(argv[1]) == "conformance") {
    invocation.mode = Invocation::Mode::conformance;
    for (int i = 2; i < argc; ++i)
      invocation.files.emplace_back(argv[i]);
    if (invocation.files.empty()) return make_error("conformance needs fixture files");
    return invocation;
  }
  if (auto loaded = load_config_file(argc, argv, invocation.config); !loaded) return loaded.error();
  // Roots and endpoints given on the command line replace the config file's lists.
  bool cli_roots = false, cli_tcp = false, cli_http = false;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      invocation.mode = Invocation::Mode::help;
      return invocation;
    }
    if (flag == "--version") {
      invocation.mode = Invocation::Mode::version;
      return invocation;
    }
    if (flag == "--root" && !cli_roots) invocation.config.roots.clear(), cli_roots = true;
    if (flag == "--tcp" && !cli_tcp) invocation.config.tcp.clear(), cli_tcp = true;
    if (flag == "--http" && !cli_http) invocation.config.http.clear(), cli_http = true;
    if (auto ok = apply_flag(flag, i, argc, argv, invocation.config); !ok) return ok.error();
  }
  const auto& config = invocation.config;
  if (!config.replica_id.empty() && !config.journals) {
    return make_error(
        "--replica-id needs a state directory (--state-dir DIR, shared by the "
        "replicas): documents move between replicas through their journals");
  }
  if (!config.stdio && config.tcp.empty() && config.http.empty()) {
    return make_error(
        "choose at least one transport: --stdio, --tcp HOST:PORT or --http HOST:PORT");
  }
  return invocation;
}

std::string usage_text() {
  return R"(usage: fcpd [--stdio] [--tcp HOST:PORT]... [--http HOST:PORT]... [options]
       fcpd conformance FIXTURE.json...

Transports (any combination):
  --stdio                 MCP over stdin/stdout, one JSON message per line (AI clients)
  --tcp HOST:PORT         newline-delimited JSON-RPC over TCP (the fcp CLI, scripts)
  --http HOST:PORT        MCP Streamable HTTP at http://HOST:PORT/mcp

Options:
  --config FILE           settings file (default: $FCPD_CONFIG; see config/fcpd.json)
  --root DIR              a directory tools may read and write (repeatable;
                          default: the working directory)
  --state-dir DIR         where document journals live for crash recovery and idle
                          eviction (default $XDG_STATE_HOME/fcpd or ~/.local/state/fcpd)
  --no-state-dir          keep no journals (no recover, no idle eviction)
  --replica-id NAME       run as replica NAME of several sharing --state-dir behind a
                          load balancer: a lease per document, taken over from its
                          journal when its holder dies (see deploy/)
  --log-level LEVEL       trace, debug, info, warn, error, critical, off (default info)
  --log-file FILE         also log to FILE (logs always go to stderr)
  --workers N             long calls that may run at once while I/O goes on (default 4)
  --busy-poll-us N        keep polling this long after an event before sleeping
                          (default 200; 0 never polls: lowest CPU, slower replies)
  --max-message-bytes N   largest accepted MCP message (default 4194304)
  --max-file-bytes N      largest file `open` reads (default 536870912)
  --token-file FILE       PRINCIPAL:TOKEN per line: TCP and HTTP clients must send one
                          of these tokens, and each principal sees only its own
                          documents ($FCPD_TOKEN alone is the principal "default")
  --insecure              allow TCP/HTTP on a non-loopback address without a token
  --allow-origin ORIGIN   an HTTP Origin to accept besides localhost (repeatable)
  --allow-host HOST       an HTTP Host name to accept besides localhost (repeatable)
  --trusted-proxy ADDR    a reverse proxy (address or network) whose X-Forwarded-For
                          names the client for its share of call threads (repeatable)
  --conformance-fixtures  host the MCP conformance suite's fixture tools, resources,
                          prompts and completions (testing only)
  --version, --help
)";
}

}  // namespace fcp::daemon
