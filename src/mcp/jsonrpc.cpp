#include "mcp/jsonrpc.hpp"

#include <optional>
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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The code unit of a \uXXXX escape starting at text[i] ('\\'), or -1.
int escape_unit(std::string_view text, std::size_t i) {
  if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u') return -1;
  int unit = 0;
  for (std::size_t k = i + 2; k < i + 6; ++k) {
    const int digit = hex_value(text[k]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

// JSON text may escape lone UTF-16 surrogates ("\ud800"), which Boost.JSON refuses. Clients do
// send them (a truncated emoji), so they become U+FFFD instead of failing the whole message.
// Returns nullopt when there is nothing to repair.
std::optional<std::string> repair_lone_surrogates(std::string_view text) {
  std::string out;
  bool changed = false, in_string = false;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      out += c;
      continue;
    }
    if (c == '"') {
      in_string = false;
      out += c;
      continue;
    }
    if (c != '\\' || i + 1 >= text.size()) {
      out += c;
      continue;
    }
    const int unit = escape_unit(text, i);
    if (unit < 0xD800 || unit > 0xDFFF) {  // an ordinary escape: copy both characters
      out += c;
      out += text[++i];
      continue;
    }
    const int next = unit <= 0xDBFF ? escape_unit(text, i + 6) : -1;
    if (next >= 0xDC00 && next <= 0xDFFF) {  // a proper pair
      out.append(text.substr(i, 12));
      i += 11;
      continue;
    }
    out += "\\ufffd";
    changed = true;
    i += 5;
  }
  if (!changed) return std::nullopt;
  return out;
}

// {"jsonrpc":"2.0","id":ID,"KEY":BODY}, written directly around the serialized parts: building a
// json::object for the envelope cost as much as serializing the whole reply (this is every
// call's hot path).
std::string response(const json::value& id, std::string_view key, const json::value& body) {
  std::string message = R"({"jsonrpc":"2.0","id":)";
  message += json::serialize(id);
  message += ",\"";
  message += key;
  message += "\":";
  message += json::serialize(body);
  message += '}';
  return message;
}

}  // namespace

std::variant<Incoming, Rejection> parse(std::string_view text) {
  json::error_code ec;
  json::parse_options options;
  options.max_depth = 64;
  json::value value = json::parse(text, ec, {}, options);
  if (ec) {
    if (auto repaired = repair_lone_surrogates(text)) {
      ec.clear();
      value = json::parse(*repaired, ec, {}, options);
    }
  }
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
      if (json::value* result = object.if_contains("result")) incoming.result = std::move(*result);
      if (json::value* error = object.if_contains("error")) incoming.error = std::move(*error);
      return incoming;
    }
    return reject(code::invalid_request, "a request needs a \"method\"", reply_id);
  }
  if (!method->is_string())
    return reject(code::invalid_request, "\"method\" must be a string", reply_id);
  incoming.method = std::string(method->as_string());
  if (json::value* params = object.if_contains("params")) {
    if (!params->is_object()) {
      return reject(code::invalid_params, "\"params\" must be an object", reply_id);
    }
    incoming.params = std::move(params->as_object());  // the parsed value is ours: no copy
  }
  incoming.kind = id == nullptr ? Incoming::Kind::notification : Incoming::Kind::request;
  if (id != nullptr) incoming.id = *id;
  return incoming;
}

std::string result(const json::value& id, const json::value& result) {
  return response(id, "result", result);
}

std::string error(const json::value& id, int code, std::string_view text, json::value data) {
  json::object err;
  err["code"] = code;
  err["message"] = text;
  if (!data.is_null()) err["data"] = std::move(data);
  return response(id, "error", err);
}

std::string http_error(unsigned http_status, std::string_view message, const json::value& id) {
  constexpr unsigned bad_request = 400;
  return error(id, http_status == bad_request ? code::invalid_request : code::server_error,
               message);
}

json::value request_id(std::string_view body) {
  json::error_code ec;
  json::parse_options options;
  options.max_depth = 64;
  const json::value value = json::parse(body, ec, {}, options);
  const json::object* object = ec ? nullptr : value.if_object();
  if (object == nullptr || !object->contains("method")) return nullptr;
  const json::value* id = object->if_contains("id");
  return id != nullptr && valid_id(*id) ? *id : json::value(nullptr);
}

std::string notification(std::string_view method, const json::object& params) {
  std::string message = R"({"jsonrpc":"2.0","method":)";
  message += json::serialize(json::string_view(method));
  message += R"(,"params":)";
  message += json::serialize(params);
  message += '}';
  return message;
}

unsigned http_status_of(int error_code) {
  switch (error_code) {
    case code::method_not_found:
      return 404;
    case code::internal_error:
      return 500;
    case code::parse_error:
    case code::invalid_request:
    case code::invalid_params:
    case code::header_mismatch:
    case code::missing_client_capability:
    case code::unsupported_protocol_version:
      return 400;
    default:
      return 200;
  }
}

}  // namespace fcp::mcp::jsonrpc
