// The stateless 2026-07-28 lifecycle of a connection: requests that carry their protocol version
// and client capabilities in _meta, served without initialize and without a current document.
#include <algorithm>

#include "mcp/client_connection.hpp"
#include "mcp/request_state.hpp"
#include "mcp/server.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

// MCP log levels are off (see ClientConnection::log_level_) unless a request asks for them.
constexpr int kLogsOff = 100;

}  // namespace

void ClientConnection::on_stateless_request(const jsonrpc::Incoming& message, const Reply& reply) {
  reply->speak_stateless(lifecycle::cache_hint(message.method));
  auto checked = lifecycle::check_request(message, reply->headers());
  if (auto* refusal = std::get_if<lifecycle::Refusal>(&checked))
    return reply->error(refusal->code, refusal->message, std::move(refusal->data));
  const auto& request = std::get<lifecycle::StatelessRequest>(checked);
  if (initialized()) {
    std::string version;
    {
      std::lock_guard lock(mutex_);
      version = protocol_version_;
    }
    return reply->error(jsonrpc::code::invalid_request,
                        "this connection began a " + version +
                            " session with initialize; send 2026-07-28 requests on a connection "
                            "of their own, without initialize");
  }
  // Log messages only for a request that asks for them (its _meta names a level).
  if (!request.log_level) {
    log_level_ = kLogsOff;
  } else if (!set_log_level(*request.log_level)) {
    return reply->error(jsonrpc::code::invalid_params,
                        "\"" + std::string(lifecycle::meta::log_level) +
                            "\" must be one of debug, info, notice, warning, error, critical, "
                            "alert, emergency");
  }
  {
    std::lock_guard lock(mutex_);
    if (!session_) {
      session_ = server_.make_session("", principal_);
      session_->keep_no_current();
    }
  }
  const auto& method = message.method;
  if (method == "server/discover") {
    const auto instructions = server_.instructions();
    return reply->result(lifecycle::discover_result(
        {server_.options().name, "FCP daemon", server_.options().version, instructions},
        capabilities()));
  }
  // The methods that may answer input_required (SEP-2322): a retry's inputResponses must be an
  // object of results, and its requestState must be one this daemon sealed for this request.
  if (method == "tools/call" || method == "prompts/get" || method == "resources/read") {
    auto retry = mrtr::read_retry(method, message.params, mrtr::daemon_seal());
    if (const auto* refused = std::get_if<mrtr::Refused>(&retry))
      return reply->error(jsonrpc::code::invalid_params, refused->message);
  }
  if (method == "tools/call" && !check_stateless_call(message, request, reply)) return;
  const bool removed_in_2026 = method == "resources/subscribe" || method == "resources/unsubscribe";
  if (fixtures_ && !removed_in_2026 && fixtures_->handle(method, message.params, reply)) return;
  if (method == "subscriptions/listen") return on_subscriptions_listen(message, reply);
  if (serve_feature(message, reply)) return;
  reply->error(jsonrpc::code::method_not_found,
               "method not found: \"" + method +
                   "\" (2026-07-28 has no initialize, ping, logging/setLevel or "
                   "resources/subscribe; server/discover names what this server offers)");
}

bool ClientConnection::check_stateless_call(const jsonrpc::Incoming& message,
                                            const lifecycle::StatelessRequest& request,
                                            const Reply& reply) {
  const auto* name = message.params.if_contains("name");
  const Tool* tool =
      name != nullptr && name->is_string() ? server_.find_tool(name->as_string()) : nullptr;
  if (tool == nullptr) return true;  // tools/call answers what is wrong with the name
  static const json::object kNoArguments;
  const auto* given = message.params.if_contains("arguments");
  const auto& arguments =
      given != nullptr && given->is_object() ? given->as_object() : kNoArguments;
  auto refusal = lifecycle::check_param_headers(tool->input_schema, arguments, reply->headers());
  if (!refusal)
    refusal = lifecycle::check_client_capabilities(tool->client_capabilities,
                                                   request.client_capabilities);
  if (!refusal) return true;
  reply->error(refusal->code, refusal->message, std::move(refusal->data));
  return false;
}

}  // namespace fcp::mcp
