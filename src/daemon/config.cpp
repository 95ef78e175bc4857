#include "daemon/config.hpp"

#include <boost/json.hpp>
#include <charconv>

#include "core/worker_process.hpp"
#include "mcp/document_lease.hpp"
#include "transport/trusted_proxies.hpp"

namespace fcp::daemon {
namespace json = boost::json;
using core::make_error;
using core::Result;

namespace {

Result<std::vector<std::string>> string_list(const json::value& value, std::string_view key) {
  if (!value.is_array()) return make_error("config: \"" + std::string(key) + "\" must be a list");
  std::vector<std::string> out;
  for (const auto& item : value.as_array()) {
    if (!item.is_string()) return make_error("config: \"" + std::string(key) + "\" holds strings");
    out.emplace_back(item.as_string());
  }
  return out;
}

Result<std::vector<Endpoint>> endpoint_list(const json::value& value, std::string_view key) {
  auto items = string_list(value, key);
  if (!items) return items.error();
  std::vector<Endpoint> out;
  for (const auto& item : *items) {
    auto endpoint = parse_endpoint(item);
    if (!endpoint) return endpoint.error();
    out.push_back(*endpoint);
  }
  return out;
}

Result<std::size_t> size_value(const json::value& value, std::string_view key) {
  if (!value.is_int64() && !value.is_uint64()) {
    return make_error("config: \"" + std::string(key) + "\" must be a whole number");
  }
  auto n = value.to_number<long long>();
  if (n <= 0) return make_error("config: \"" + std::string(key) + "\" must be positive");
  return static_cast<std::size_t>(n);
}

Result<std::size_t> count_value(const json::value& value, std::string_view key) {
  if ((!value.is_int64() && !value.is_uint64()) || value.to_number<long long>() < 0) {
    return make_error("config: \"" + std::string(key) + "\" must be a whole number, 0 or more");
  }
  return static_cast<std::size_t>(value.to_number<long long>());
}

Result<void> apply_key(const std::string& key, const json::value& value, Config& config);

Result<void> apply_object(const json::object& object, const std::string& prefix, Config& config) {
  for (const auto& [key, value] : object) {
    std::string path = prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
    if (key.starts_with("_")) continue;  // "_comment" and friends
    if (value.is_object() && path != "lofi") {
      if (auto ok = apply_object(value.as_object(), path, config); !ok) return ok;
      continue;
    }
    if (auto ok = apply_key(path, value, config); !ok) return ok;
  }
  return {};
}

template <class T>
Result<void> assign(Result<T> parsed, T& target) {
  if (!parsed) return parsed.error();
  target = std::move(*parsed);
  return {};
}

Result<void> apply_key(const std::string& key, const json::value& value, Config& config) {
  if (key == "transports.stdio") {
    if (!value.is_bool()) return make_error("config: \"transports.stdio\" must be true or false");
    config.stdio = value.as_bool();
    return {};
  }
  if (key == "transports.tcp") return assign(endpoint_list(value, key), config.tcp);
  if (key == "transports.http") return assign(endpoint_list(value, key), config.http);
  if (key == "roots") return assign(string_list(value, key), config.roots);
  if (key == "log.level" && value.is_string()) {
    config.log_level = std::string(value.as_string());
    return {};
  }
  if (key == "log.file") {
    if (value.is_null())
      config.log_file.reset();
    else if (value.is_string())
      config.log_file = std::string(value.as_string());
    else
      return make_error("config: \"log.file\" must be a path or null");
    return {};
  }
  if (key == "workers") return assign(size_value(value, key), config.workers);
  if (key == "busy_poll_us") {
    auto us = count_value(value, key);
    if (us && *us > Config::kMaxBusyPollUs)
      return make_error("config: \"busy_poll_us\" is at most 1000000 (one second)");
    return assign(std::move(us), config.busy_poll_us);
  }
  if (key == "limits.max_message_bytes")
    return assign(size_value(value, key), config.max_message_bytes);
  if (key == "limits.max_file_bytes") return assign(size_value(value, key), config.max_file_bytes);
  if (key == "limits.max_call_seconds")
    return assign(size_value(value, key), config.max_call_seconds);
  if (key == "limits.max_query_seconds")
    return assign(size_value(value, key), config.max_query_seconds);
  if (key == "limits.max_session_seconds")
    return assign(size_value(value, key), config.max_session_seconds);
  if (key == "limits.max_ops_per_call")
    return assign(size_value(value, key), config.max_ops_per_call);
  if (key == "limits.max_created_per_call")
    return assign(size_value(value, key), config.max_created_per_call);
  if (key == "limits.max_document_bytes")
    return assign(size_value(value, key), config.max_document_bytes);
  if (key == "limits.max_reply_bytes")
    return assign(size_value(value, key), config.max_reply_bytes);
  if (key == "limits.max_connections")
    return assign(size_value(value, key), config.max_connections);
  if (key == "limits.max_connections_per_address")
    return assign(size_value(value, key), config.max_connections_per_address);
  if (key == "limits.max_calls_per_client")
    return assign(count_value(value, key), config.max_calls_per_client);
  if (key == "limits.max_calls_in_flight")
    return assign(size_value(value, key), config.max_calls_in_flight);
  if (key == "limits.max_queued_bytes")
    return assign(size_value(value, key), config.max_queued_bytes);
  if (key == "limits.max_total_queued_bytes")
    return assign(size_value(value, key), config.max_total_queued_bytes);
  if (key == "limits.max_total_partial_bytes")
    return assign(size_value(value, key), config.max_total_partial_bytes);
  if (key == "limits.tcp_idle_seconds")
    return assign(size_value(value, key), config.tcp_idle_seconds);
  if (key == "limits.message_timeout_seconds")
    return assign(size_value(value, key), config.message_timeout_seconds);
  if (key == "limits.write_timeout_seconds")
    return assign(size_value(value, key), config.write_timeout_seconds);
  if (key == "limits.max_named_sessions")
    return assign(size_value(value, key), config.max_named_sessions);
  if (key == "limits.max_documents") return assign(size_value(value, key), config.max_documents);
  if (key == "limits.max_calls_per_principal")
    return assign(size_value(value, key), config.max_calls_per_principal);
  if (key == "limits.max_journal_bytes_per_principal")
    return assign(size_value(value, key), config.max_journal_bytes_per_principal);
  if (key == "auth.token" || key == "auth.token_file") {
    auto& target = key == "auth.token" ? config.token : config.token_file;
    if (value.is_null())
      target.reset();
    else if (value.is_string() && !value.as_string().empty())
      target = std::string(value.as_string());
    else
      return make_error("config: \"" + key + "\" must be a string or null");
    return {};
  }
  if (key == "auth.insecure") {
    if (!value.is_bool()) return make_error("config: \"auth.insecure\" must be true or false");
    config.insecure = value.as_bool();
    return {};
  }
  if (key == "shutdown_grace_seconds")
    return assign(size_value(value, key), config.shutdown_grace_seconds);
  if (key == "http.allowed_origins") return assign(string_list(value, key), config.allowed_origins);
  if (key == "http.allowed_hosts") return assign(string_list(value, key), config.allowed_hosts);
  if (key == "http.trusted_proxies") {
    auto entries = string_list(value, key);
    if (!entries) return entries.error();
    if (auto parsed = transport::TrustedProxies::parse(*entries); !parsed) return parsed.error();
    config.trusted_proxies = std::move(*entries);
    return {};
  }
  if (key == "http.session_idle_seconds")
    return assign(size_value(value, key), config.http_session_idle_seconds);
  if (key == "drawio.layout_workers") {  // read by fcpd's main: Graphviz worker processes
    auto workers = count_value(value, key);
    if (!workers) return workers.error();
    auto& drawio = config.domain_settings["drawio"];
    if (!drawio.is_object()) drawio = json::object{};
    drawio.as_object()["layout_workers"] = *workers;
    return {};
  }
  if (key == "drawio.worker_memory_bytes") {  // read by fcpd's main: Graphviz and raster workers
    auto bytes = count_value(value, key);
    if (!bytes) return bytes.error();
    if (*bytes != 0 && *bytes < core::kMinWorkerMemory) {
      return make_error("config: \"drawio.worker_memory_bytes\" must be 0 (no limit) or at least " +
                        std::to_string(core::kMinWorkerMemory) +
                        " (512 MiB: with less a worker fails at random as it renders text); " +
                        "the default is " + std::to_string(core::kWorkerMemory) + " (2 GiB)");
    }
    auto& drawio = config.domain_settings["drawio"];
    if (!drawio.is_object()) drawio = json::object{};
    drawio.as_object()["worker_memory_bytes"] = *bytes;
    return {};
  }
  if (key == "drawio.spare_workers") {  // read by fcpd's main: when the spare workers start
    if (!value.is_string() ||
        (value.as_string() != "on_first_use" && value.as_string() != "at_start")) {
      return make_error(
          "config: \"drawio.spare_workers\" must be \"on_first_use\" (the default: a spare "
          "raster and Graphviz worker are started by the first export or layout that needs one) "
          "or \"at_start\" (both wait from start-up, so the first export does not wait either)");
    }
    auto& drawio = config.domain_settings["drawio"];
    if (!drawio.is_object()) drawio = json::object{};
    drawio.as_object()["spare_workers"] = value.as_string();
    return {};
  }
  if (key == "state_dir") {
    if (value.is_null()) {
      config.journals = false;
    } else if (value.is_string()) {
      config.journals = true;
      config.state_dir = std::string(value.as_string());
    } else {
      return make_error("config: \"state_dir\" must be a directory or null (no journals)");
    }
    return {};
  }
  if (key == "journal.fsync") {
    if (!value.is_string() || (value.as_string() != "batch" && value.as_string() != "interval" &&
                               value.as_string() != "never")) {
      return make_error("config: \"journal.fsync\" must be \"batch\", \"interval\" or \"never\"");
    }
    config.journal_fsync = std::string(value.as_string());
    return {};
  }
  if (key == "journal.fsync_interval_ms")
    return assign(size_value(value, key), config.journal_fsync_interval_ms);
  if (key == "journal.compact_after")
    return assign(size_value(value, key), config.journal_compact_after);
  if (key == "journal.history") return assign(count_value(value, key), config.journal_history);
  if (key == "documents.idle_evict_seconds")
    return assign(count_value(value, key), config.idle_evict_seconds);
  if (key == "replica.id") {
    if (value.is_null()) {
      config.replica_id.clear();
      return {};
    }
    if (!value.is_string() || !mcp::valid_replica_id(value.as_string())) {
      return make_error(
          "config: \"replica.id\" must be 1 to 32 letters, digits, '_' or '-', or null");
    }
    config.replica_id = std::string(value.as_string());
    return {};
  }
  if (key == "replica.lease_ms") return assign(size_value(value, key), config.replica_lease_ms);
  if (key == "replica.handoff_ms")
    return assign(count_value(value, key), config.replica_handoff_ms);
  if (key == "lofi") {  // read by the lofi domain
    if (!value.is_object()) return make_error("config: \"lofi\" must be an object");
    config.domain_settings["lofi"] = value;
    return {};
  }
  return make_error("config: unknown setting \"" + key + "\" (see config/fcpd.json for the list)");
}

}  // namespace

Result<Endpoint> parse_endpoint(std::string_view text) {
  auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return make_error("expected HOST:PORT (e.g. 127.0.0.1:7300), got \"" + std::string(text) +
                      "\"");
  }
  Endpoint endpoint;
  endpoint.host = std::string(text.substr(0, colon));
  if (endpoint.host.size() > 2 && endpoint.host.front() == '[' && endpoint.host.back() == ']') {
    endpoint.host = endpoint.host.substr(1, endpoint.host.size() - 2);
  }
  auto port_text = text.substr(colon + 1);
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || value > 65535) {
    return make_error("bad port in \"" + std::string(text) + "\" (0–65535; 0 picks a free port)");
  }
  endpoint.port = static_cast<unsigned short>(value);
  return endpoint;
}

Result<void> apply_config_json(std::string_view text, Config& config) {
  json::error_code ec;
  auto value = json::parse(text, ec);
  if (ec) return make_error("config: invalid JSON: " + ec.message());
  if (!value.is_object()) return make_error("config: the top level must be an object");
  return apply_object(value.as_object(), "", config);
}

}  // namespace fcp::daemon
