#include "domains/lofi/bridge/protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace fcp::lofi::bridge {

namespace {

bool is_verb_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

std::string excerpt(std::string_view text) {
  constexpr std::size_t kExcerpt = 60;
  if (text.size() <= kExcerpt) return std::string(text);
  return std::string(text.substr(0, kExcerpt)) + "…";
}

// The JSON text of a reply, from either reply style.
core::Result<std::string_view> reply_text(const OscMessage& message) {
  if (message.arguments.empty()) return std::string_view(message.address);
  if (message.arguments.size() == 1) {
    if (const auto* text = std::get_if<std::string>(&message.arguments.front())) {
      return std::string_view(*text);
    }
  }
  return core::make_error(fmt::format(
      "reply {} is not one JSON string (expected an address plus one string argument, or the "
      "JSON as the address)",
      excerpt(describe(message))));
}

std::string read_request_id(const boost::json::value* id) {
  if (id == nullptr) return "";
  if (id->is_string()) return std::string(id->get_string());
  if (id->is_int64()) return std::to_string(id->get_int64());
  if (id->is_uint64()) return std::to_string(id->get_uint64());
  return "";
}

}  // namespace

core::Result<std::string> request_packet(std::string_view verb, const boost::json::object& payload,
                                         std::string_view request_id) {
  if (verb.empty() || !std::all_of(verb.begin(), verb.end(), is_verb_char)) {
    return core::make_error(
        fmt::format("bad LOFI verb \"{}\": use lower-case letters, digits and _", verb));
  }
  if (request_id.empty() || request_id.size() > kMaxRequestId) {
    return core::make_error(
        fmt::format("a request id must be 1 to {} characters long", kMaxRequestId));
  }
  boost::json::object with_id = payload;
  with_id["requestId"] = request_id;
  std::string json = boost::json::serialize(with_id);
  if (json.size() > kMaxSymbol) {
    return core::make_error(fmt::format(
        "the /lofi/{} payload is {} bytes; Max truncates symbols at {} bytes, so it must be sent "
        "in smaller parts",
        verb, json.size(), kMaxSymbol));
  }
  OscMessage message;
  message.address = fmt::format("/lofi/{}", verb);
  message.arguments.emplace_back(std::move(json));
  return encode_osc(message);
}

bool payload_fits(const boost::json::object& payload) {
  boost::json::object with_id = payload;
  with_id["requestId"] = std::string(kMaxRequestId, 'x');
  return boost::json::serialize(with_id).size() <= kMaxSymbol;
}

core::Result<Reply> parse_reply(const OscMessage& message) {
  auto text = reply_text(message);
  if (!text) return text.error();
  boost::system::error_code ec;
  boost::json::value json = boost::json::parse(*text, ec);
  if (ec || !json.is_object()) {
    return core::make_error(fmt::format("reply is not a JSON object: {}", excerpt(*text)));
  }
  Reply reply;
  reply.body = std::move(json.as_object());
  const auto* status = reply.body.if_contains("status");
  if (status == nullptr || !status->is_string()) {
    return core::make_error(fmt::format("reply has no \"status\": {}", excerpt(*text)));
  }
  if (*status != "ok" && *status != "error") {
    return core::make_error(
        fmt::format("reply has an unknown status {}", boost::json::serialize(*status)));
  }
  reply.ok = *status == "ok";
  reply.request_id = read_request_id(reply.body.if_contains("requestId"));
  for (const char* key : {"message", "error"}) {
    if (const auto* text_field = reply.body.if_contains(key);
        text_field && text_field->is_string()) {
      reply.message = std::string(text_field->get_string());
      break;
    }
  }
  return reply;
}

std::string ids_hash(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  std::uint32_t hash = 2166136261U;
  bool first = true;
  for (const auto& id : ids) {
    if (!first) hash = (hash ^ static_cast<unsigned char>('\n')) * 16777619U;
    first = false;
    for (const char c : id)
      hash = (hash ^ static_cast<unsigned char>(c)) * 16777619U;
  }
  return fmt::format("{:08x}", hash);
}

}  // namespace fcp::lofi::bridge
