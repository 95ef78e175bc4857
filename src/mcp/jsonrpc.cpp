#include "mcp/jsonrpc.hpp"

#include <variant>

namespace fcp::mcp::jsonrpc {
namespace json = boost::json;

namespace {

bool valid_id(const json::value& id) {
  return id.is_string() || id.is_int64() || id.is_uint64();
}

Rejection reject(int code, std::string message, json::value id = nullptr) {
  return Rejection{code, std::move(message), std::move(id)};
}

}  // namespace

std::variant<Incoming, Rejection> parse(std::string_view text) {
  json::error_code ec;
  json::parse_options options;
  options.max_depth = 64;
  json::value value = json::parse(text, ec, {}, options);
  if (ec) return reject(code::parse_error, "parse error: " + ec.message());
  if (value.is_array()) {
    return reject(code::invalid_request,
                  "JSON-RPC batches are not supported by MCP; send one message at a time");
  }
  if (!value.is_object()) return reject(code::invalid_request, "a message must be a JSON object");
  auto& object = value.as_object();
  const json::value* id = object.if_contains("id");
  json::value reply_id = (id != nullptr && valid_id(*id)) ? *id : json::value(nullptr);
  const json::value* version = object.if_contains("jsonrpc");
  if (version == nullptr || !version->is_string() || version->as_string() != "2.0") {
    return reject(code::invalid_request, "\"jsonrpc\" must be \"2.0\"", reply_id);
  }
  if (id != nullptr && !valid_id(*id)) {
    return reject(code::invalid_request, "\"id\" must be a string or an integer");
  }
  Incoming incoming;
  const json::value* method = object.if_contains("method");
  if (method == nullptr) {
    if (id != nullptr && (object.contains("result") || object.contains("error"))) {
      incoming.kind = Incoming::Kind::response;
      incoming.id = *id;
      return incoming;
    }
    return reject(code::invalid_request, "a request needs a \"method\"", reply_id);
  }
  if (!method->is_string())
    return reject(code::invalid_request, "\"method\" must be a string", reply_id);
  incoming.method = std::string(method->as_string());
  if (const json::value* params = object.if_contains("params")) {
    if (!params->is_object()) {
      return reject(code::invalid_params, "\"params\" must be an object", reply_id);
    }
    incoming.params = params->as_object();
  }
  incoming.kind = id == nullptr ? Incoming::Kind::notification : Incoming::Kind::request;
  if (id != nullptr) incoming.id = *id;
  return incoming;
}

std::string result(const json::value& id, json::value result) {
  json::object message;
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  message["result"] = std::move(result);
  return json::serialize(message);
}

std::string error(const json::value& id, int code, std::string_view text, json::value data) {
  json::object err;
  err["code"] = code;
  err["message"] = text;
  if (!data.is_null()) err["data"] = std::move(data);
  json::object message;
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  message["error"] = std::move(err);
  return json::serialize(message);
}

std::string notification(std::string_view method, json::object params) {
  json::object message;
  message["jsonrpc"] = "2.0";
  message["method"] = method;
  message["params"] = std::move(params);
  return json::serialize(message);
}

}  // namespace fcp::mcp::jsonrpc
