#include "mcp/lifecycle.hpp"

#include <algorithm>
#include <cctype>

#include "mcp/base64.hpp"

namespace fcp::mcp::lifecycle {
namespace json = boost::json;

namespace {

// Header names as TransportHeaders keeps them (lowercase).
constexpr std::string_view kVersionHeader = "mcp-protocol-version";
constexpr std::string_view kMethodHeader = "mcp-method";
constexpr std::string_view kNameHeader = "mcp-name";
constexpr std::string_view kParamHeaderPrefix = "mcp-param-";

// What changes rarely (the tool list of a running daemon) may be kept five minutes; documents
// and their resources change with every call.
constexpr std::int64_t kStableTtlMs = 300'000;

const json::object* meta_of(const json::object& params) {
  const auto* meta = params.if_contains("_meta");
  return meta != nullptr && meta->is_object() ? &meta->as_object() : nullptr;
}

std::optional<std::string_view> meta_version(const json::object& params) {
  const auto* meta = meta_of(params);
  if (meta == nullptr) return std::nullopt;
  const auto* version = meta->if_contains(meta::protocol_version);
  if (version == nullptr || !version->is_string()) return std::nullopt;
  return std::string_view(version->as_string());
}

bool known_version(std::string_view version) {
  return version == kStatelessProtocolVersion || is_supported_protocol_version(version);
}

Refusal unsupported(std::string_view requested) {
  std::string message = "unsupported protocol version \"" + std::string(requested) +
                        "\": this server serves " + std::string(kStatelessProtocolVersion) +
                        " statelessly (every request names it in _meta)";
  if (is_supported_protocol_version(requested))
    message += ", and " + std::string(requested) + " in a session begun by initialize";
  return Refusal{jsonrpc::code::unsupported_protocol_version, std::move(message),
                 json::object{{"supported", json::array{json::string(kStatelessProtocolVersion)}},
                              {"requested", requested}}};
}

Refusal header_mismatch(std::string message) {
  return Refusal{jsonrpc::code::header_mismatch, std::move(message), nullptr};
}

// The body value that the Mcp-Name header mirrors, nullopt when the method has none.
std::optional<std::string_view> named_in_body(const jsonrpc::Incoming& message) {
  const char* key = nullptr;
  if (message.method == "tools/call" || message.method == "prompts/get") key = "name";
  if (message.method == "resources/read") key = "uri";
  if (key == nullptr) return std::nullopt;
  const auto* value = message.params.if_contains(key);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return std::string_view(value->as_string());
}

std::optional<Refusal> check_headers(const jsonrpc::Incoming& message,
                                     const TransportHeaders& headers) {
  const auto method = headers.get(kMethodHeader);
  if (!method)
    return header_mismatch("the Mcp-Method header is missing; it must repeat the body's method \"" +
                           message.method + "\"");
  if (*method != message.method)
    return header_mismatch("the Mcp-Method header \"" + std::string(*method) +
                           "\" does not match the body's method \"" + message.method + "\"");
  const auto body = named_in_body(message);
  const auto name = headers.get(kNameHeader);
  if (body && !name)
    return header_mismatch("the Mcp-Name header is missing; it must repeat \"" +
                           std::string(*body) + "\" from the body");
  if (name && (!body || *name != *body))
    return header_mismatch(
        "the Mcp-Name header \"" + std::string(*name) + "\" does not match the body (" +
        (body ? "\"" + std::string(*body) + "\"" : std::string("nothing")) + ")");
  return std::nullopt;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// An argument as its header carries it: strings as they are, numbers and booleans as JSON.
std::string header_form(const json::value& value) {
  if (value.is_string()) return std::string(value.as_string());
  return json::serialize(value);
}

// A header value: `=?base64?…?=` is decoded (nullopt when that is not valid Base64); any other
// value is taken literally.
std::optional<std::string> decode_param(std::string_view value) {
  constexpr std::string_view kOpen = "=?base64?";
  constexpr std::string_view kClose = "?=";
  if (value.size() < kOpen.size() + kClose.size() || !value.starts_with(kOpen) ||
      !value.ends_with(kClose))
    return std::string(value);
  return base64_decode(value.substr(kOpen.size(), value.size() - kOpen.size() - kClose.size()));
}

}  // namespace

Era era_of(const jsonrpc::Incoming& message, const TransportHeaders* headers, bool in_session) {
  if (const auto* meta = meta_of(message.params);
      meta != nullptr && meta->contains(meta::protocol_version))
    return Era::stateless;
  if (message.method == "server/discover" && !in_session) return Era::stateless;
  if (headers != nullptr) {
    if (const auto version = headers->get(kVersionHeader);
        version && !is_supported_protocol_version(*version))
      return Era::stateless;
  }
  return Era::session;
}

std::variant<StatelessRequest, Refusal> check_request(const jsonrpc::Incoming& message,
                                                      const TransportHeaders* headers) {
  const auto header_version =
      headers != nullptr ? headers->get(kVersionHeader) : std::optional<std::string_view>{};
  const auto* meta = meta_of(message.params);
  const auto version = meta_version(message.params);
  const auto* capabilities =
      meta != nullptr ? meta->if_contains(meta::client_capabilities) : nullptr;
  if (!version || capabilities == nullptr || !capabilities->is_object()) {
    if (header_version && !known_version(*header_version)) return unsupported(*header_version);
    return Refusal{jsonrpc::code::invalid_params,
                   "\"" + message.method + "\" needs params._meta with \"" +
                       std::string(meta::protocol_version) + "\": \"" +
                       std::string(kStatelessProtocolVersion) + "\" and \"" +
                       std::string(meta::client_capabilities) +
                       "\": {…} (a 2025-era client sends initialize first instead)",
                   nullptr};
  }
  if (headers != nullptr && !header_version)
    return header_mismatch("the MCP-Protocol-Version header is missing; it must repeat _meta's \"" +
                           std::string(*version) + "\"");
  if (header_version && *header_version != *version)
    return header_mismatch("the MCP-Protocol-Version header \"" + std::string(*header_version) +
                           "\" does not match _meta's protocol version \"" + std::string(*version) +
                           "\"");
  if (*version != kStatelessProtocolVersion) return unsupported(*version);
  if (headers != nullptr) {
    if (auto refusal = check_headers(message, *headers)) return std::move(*refusal);
  }
  StatelessRequest request{capabilities->as_object(), std::nullopt};
  if (const auto* level = meta->if_contains(meta::log_level)) {
    if (!level->is_string())
      return Refusal{jsonrpc::code::invalid_params,
                     "\"" + std::string(meta::log_level) +
                         "\" must be a level name (debug … "
                         "emergency)",
                     nullptr};
    request.log_level = std::string(level->as_string());
  }
  return request;
}

std::optional<Refusal> check_param_headers(const json::object& input_schema,
                                           const json::object& arguments,
                                           const TransportHeaders* headers) {
  if (headers == nullptr) return std::nullopt;
  const auto* properties = input_schema.if_contains("properties");
  if (properties == nullptr || !properties->is_object()) return std::nullopt;
  for (const auto& [key, property] : properties->as_object()) {
    if (!property.is_object()) continue;
    const auto* mirrored = property.as_object().if_contains("x-mcp-header");
    if (mirrored == nullptr || !mirrored->is_string()) continue;
    const std::string header_name = "Mcp-Param-" + std::string(mirrored->as_string());
    const auto header =
        headers->get(std::string(kParamHeaderPrefix) + lowercase(mirrored->as_string()));
    const auto* argument = arguments.if_contains(key);
    if (argument == nullptr || argument->is_null()) {
      if (header)
        return header_mismatch("the " + header_name + " header is set but the argument \"" +
                               std::string(key) + "\" is not");
      continue;
    }
    const std::string expected = header_form(*argument);
    if (!header)
      return header_mismatch("the " + header_name + " header is missing; it must repeat the \"" +
                             std::string(key) + "\" argument \"" + expected + "\"");
    const auto decoded = decode_param(*header);
    if (!decoded)
      return header_mismatch("the " + header_name + " header \"" + std::string(*header) +
                             "\" is not valid =?base64?…?= text");
    if (*decoded != expected)
      return header_mismatch("the " + header_name + " header \"" + std::string(*header) +
                             "\" does not match the \"" + std::string(key) + "\" argument \"" +
                             expected + "\"");
  }
  return std::nullopt;
}

std::optional<Refusal> check_client_capabilities(const json::object& required,
                                                 const json::object& declared) {
  json::object missing;
  std::string names;
  for (const auto& [name, value] : required) {
    if (declared.contains(name)) continue;
    missing[name] = value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  if (missing.empty()) return std::nullopt;
  return Refusal{jsonrpc::code::missing_client_capability,
                 "this request needs the client capabilities " + names + ", which _meta's \"" +
                     std::string(meta::client_capabilities) + "\" does not declare",
                 json::object{{"requiredCapabilities", std::move(missing)}}};
}

std::optional<CacheHint> cache_hint(std::string_view method) {
  if (method == "server/discover" || method == "tools/list" || method == "prompts/list" ||
      method == "resources/templates/list")
    return CacheHint{kStableTtlMs, "public"};
  // The principal's documents: only for the same authorization context, and stale at once.
  if (method == "resources/list" || method == "resources/read") return CacheHint{0, "private"};
  return std::nullopt;
}

int stateless_error_code(int code) {
  return code == jsonrpc::code::resource_not_found ? jsonrpc::code::invalid_params : code;
}

json::value shape_result(json::value result, const std::optional<CacheHint>& hint) {
  if (!result.is_object()) return result;
  auto& object = result.as_object();
  if (!object.contains("resultType")) object["resultType"] = "complete";
  if (hint) {
    object["ttlMs"] = hint->ttl_ms;
    object["cacheScope"] = hint->scope;
  }
  return result;
}

json::object server_capabilities(bool has_prompts) {
  json::object capabilities{
      {"tools", json::object{{"listChanged", false}}},
      {"logging", json::object{}},
      {"resources", json::object{{"subscribe", true}, {"listChanged", true}}}};
  if (has_prompts) capabilities["prompts"] = json::object{{"listChanged", false}};
  return capabilities;
}

json::object discover_result(const ServerIdentity& server, json::object capabilities) {
  // The same identity in both places: clients (the TypeScript SDK v2's getServerVersion) read the
  // _meta one, and the title there is what a 2025 initialize answers too.
  const json::object info{
      {"name", server.name}, {"title", server.title}, {"version", server.version}};
  return json::object{{"supportedVersions", json::array{json::string(kStatelessProtocolVersion)}},
                      {"capabilities", std::move(capabilities)},
                      {"serverInfo", info},
                      {"instructions", server.instructions},
                      {"_meta", json::object{{meta::server_info, info}}}};
}

}  // namespace fcp::mcp::lifecycle
