#include "cli/mcp_client.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <ostream>
#include <sstream>

#include "cli/errors.hpp"
#include "cli/version.hpp"
#include "mcp/jsonrpc.hpp"

namespace fcp::cli {
namespace json = boost::json;
namespace {

using Clock = std::chrono::steady_clock;

namespace jsonrpc = mcp::jsonrpc;

std::string excerpt(std::string_view text) {
  constexpr std::size_t limit = 200;
  return text.size() > limit ? std::string(text.substr(0, limit)) + "…" : std::string(text);
}

// "tools/call failed: Unknown tool 'x' (JSON-RPC error -32602)"
ProtocolError error_from_response(std::string_view method, const json::value& error) {
  std::int64_t code = 0;
  std::string message = "malformed error response: " + json::serialize(error);
  if (const auto* object = error.if_object()) {
    if (const auto* c = object->if_contains("code"); c && c->is_int64()) code = c->get_int64();
    if (const auto* m = object->if_contains("message"); m && m->is_string()) {
      message = std::string(m->get_string());
    }
    if (const auto* d = object->if_contains("data"); d && d->is_string()) {
      message += ": " + std::string(d->get_string());
    }
  }
  std::ostringstream text;
  text << method << " failed: " << message << " (JSON-RPC error " << code << ")";
  return ProtocolError(code, text.str());
}

bool id_matches(const json::value* id, std::int64_t expected) {
  if (id == nullptr || !id->is_number()) return false;
  boost::system::error_code ec;
  auto value = id->to_number<std::int64_t>(ec);
  return !ec && value == expected;
}

std::string text_of(const json::value& value) {
  return value.is_string() ? std::string(value.get_string()) : json::serialize(value);
}

}  // namespace

McpClient::McpClient(MessageChannel& channel, ClientSettings settings, std::ostream& log)
    : channel_(channel), settings_(std::move(settings)), log_(log) {}

json::object McpClient::initialize() {
  json::object params{
      {"protocolVersion", protocol_version},
      {"capabilities", json::object{}},
      {"clientInfo", json::object{{"name", client_name}, {"version", client_version}}}};
  json::object fcp;
  if (settings_.session) fcp["session"] = *settings_.session;
  if (settings_.token) fcp["token"] = *settings_.token;
  if (!fcp.empty()) params["fcp"] = std::move(fcp);
  json::value result = request("initialize", std::move(params));
  if (!result.is_object())
    throw ProtocolError(jsonrpc::code::invalid_request, "initialize returned no object");
  auto& object = result.as_object();
  if (const auto* version = object.if_contains("protocolVersion");
      version && version->is_string()) {
    channel_.set_protocol_version(std::string(version->get_string()));
  }
  notify("notifications/initialized", {});
  return std::move(object);
}

json::object McpClient::list_tools() {
  json::array tools;
  json::object params;
  for (;;) {
    json::value page = request("tools/list", params);
    const auto* object = page.if_object();
    const auto* list = object ? object->if_contains("tools") : nullptr;
    if (list == nullptr || !list->is_array()) {
      throw ProtocolError(jsonrpc::code::invalid_request, "tools/list returned no tools array");
    }
    for (const auto& tool : list->get_array())
      tools.push_back(tool);
    const auto* cursor = object->if_contains("nextCursor");
    if (cursor == nullptr || !cursor->is_string() || cursor->get_string().empty()) break;
    params["cursor"] = *cursor;
  }
  return json::object{{"tools", std::move(tools)}};
}

json::object McpClient::call_tool(std::string_view name, json::object arguments) {
  json::object params{{"name", name}, {"arguments", std::move(arguments)}};
  // Progress notifications only matter when someone will see them.
  if (settings_.verbose) params["_meta"] = json::object{{"progressToken", "fcp"}};
  json::value result = request("tools/call", std::move(params));
  if (!result.is_object())
    throw ProtocolError(jsonrpc::code::invalid_request, "tools/call returned no object");
  return std::move(result.as_object());
}

json::value McpClient::request(std::string_view method, json::object params) {
  std::int64_t id = next_id_++;
  json::object message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.empty()) message["params"] = std::move(params);
  channel_.send(json::serialize(message));
  return await_response(id, method);
}

void McpClient::notify(std::string_view method, json::object params) {
  json::object message{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.empty()) message["params"] = std::move(params);
  channel_.send(json::serialize(message));
}

json::value McpClient::await_response(std::int64_t id, std::string_view method) {
  auto deadline = Clock::now() + settings_.timeout;
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    std::string line;
    try {
      if (left.count() <= 0) throw timeout_error(settings_.timeout);
      line = channel_.receive(left);
    } catch (const TimeoutError&) {
      std::ostringstream text;
      text << "timed out after " << static_cast<double>(settings_.timeout.count()) / 1000.0
           << " s waiting for the reply to " << method << " (see --timeout)";
      throw TimeoutError(text.str());
    }
    boost::system::error_code ec;
    json::value value = json::parse(line, ec);
    if (ec || !value.is_object()) {
      throw ProtocolError(jsonrpc::code::parse_error,
                          "the daemon sent something that is not a JSON-RPC "
                          "message: " +
                              excerpt(line));
    }
    const auto& message = value.as_object();
    if (message.contains("method")) {
      handle_incoming(message);
      continue;
    }
    const auto* reply_id = message.if_contains("id");
    bool unattributed = reply_id == nullptr || reply_id->is_null();
    if (id_matches(reply_id, id) || (unattributed && message.contains("error"))) {
      if (const auto* error = message.if_contains("error"))
        throw error_from_response(method, *error);
      if (const auto* result = message.if_contains("result")) return *result;
      throw ProtocolError(jsonrpc::code::invalid_request,
                          "reply to " + std::string(method) + " has no result");
    }
    // A reply to an earlier, abandoned request: not ours to report.
  }
}

void McpClient::handle_incoming(const json::object& message) {
  std::string_view method = message.at("method").is_string()
                                ? std::string_view(message.at("method").get_string())
                                : std::string_view();
  static const json::object no_params;
  const auto* params = message.if_contains("params");
  const auto& param_object = params && params->is_object() ? params->get_object() : no_params;
  const auto* id = message.if_contains("id");
  if (id == nullptr) {
    if (settings_.verbose) log_notification(method, param_object);
    return;
  }
  // fcp offers no client capabilities, so only ping gets a real answer.
  channel_.send(method == "ping" ? jsonrpc::result(*id, json::object{})
                                 : jsonrpc::error(*id, jsonrpc::code::method_not_found,
                                                  "fcp does not handle " + std::string(method)));
}

void McpClient::log_notification(std::string_view method, const json::object& params) {
  if (method == "notifications/message") {
    log_ << "[" << (params.contains("level") ? text_of(params.at("level")) : "log") << "] ";
    if (const auto* logger = params.if_contains("logger")) log_ << text_of(*logger) << ": ";
    log_ << (params.contains("data") ? text_of(params.at("data")) : "") << "\n";
  } else if (method == "notifications/progress") {
    log_ << "[progress] " << (params.contains("progress") ? text_of(params.at("progress")) : "?");
    if (const auto* total = params.if_contains("total")) log_ << "/" << text_of(*total);
    if (const auto* text = params.if_contains("message")) log_ << " " << text_of(*text);
    log_ << "\n";
  } else {
    log_ << "[notification] " << method << "\n";
  }
  log_.flush();
}

}  // namespace fcp::cli
