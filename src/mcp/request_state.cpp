#include "mcp/request_state.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "mcp/base64.hpp"
#include "mcp/random_id.hpp"

namespace fcp::mcp::mrtr {
namespace json = boost::json;

namespace {

constexpr std::size_t kKeyBytes = 32;

}  // namespace

RequestStateSeal::RequestStateSeal() : key_(random_hex(kKeyBytes)) {}

std::string RequestStateSeal::mac(std::string_view scope, std::string_view payload) const {
  // The scope and the payload, length-prefixed so that no two (scope, payload) pairs share bytes.
  std::string message = std::to_string(scope.size()) + ":";
  message.append(scope);
  message.append(payload);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length);
  return {reinterpret_cast<const char*>(digest), length};
}

std::string RequestStateSeal::seal(std::string_view scope, const json::object& payload) const {
  const std::string text = json::serialize(payload);
  return base64_encode(text) + "." + base64_encode(mac(scope, text));
}

std::optional<json::object> RequestStateSeal::open(std::string_view scope,
                                                   std::string_view state) const {
  const auto dot = state.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto payload = base64_decode(state.substr(0, dot));
  const auto given = base64_decode(state.substr(dot + 1));
  if (!payload || !given) return std::nullopt;
  const std::string expected = mac(scope, *payload);
  if (given->size() != expected.size() ||
      CRYPTO_memcmp(given->data(), expected.data(), expected.size()) != 0)
    return std::nullopt;
  boost::system::error_code error;
  auto value = json::parse(*payload, error);
  if (error || !value.is_object()) return std::nullopt;
  return std::move(value.as_object());
}

const RequestStateSeal& daemon_seal() {
  static const RequestStateSeal seal;
  return seal;
}

std::string scope_of(std::string_view method, const json::object& params) {
  const auto* name = params.if_contains(method == "resources/read" ? "uri" : "name");
  std::string scope(method);
  scope += ' ';
  if (name != nullptr && name->is_string()) scope.append(name->as_string());
  return scope;
}

std::variant<Retry, Refused> read_retry(std::string_view method, const json::object& params,
                                        const RequestStateSeal& seal) {
  Retry retry;
  if (const auto* responses = params.if_contains("inputResponses")) {
    if (!responses->is_object())
      return Refused{
          "\"inputResponses\" must be an object: each key of the input_required "
          "result's inputRequests with the client's result for it"};
    for (const auto& [key, answer] : responses->as_object()) {
      if (!answer.is_object())
        return Refused{"inputResponses[\"" + std::string(key) +
                       "\"] must be an object: the result of the request \"" + std::string(key) +
                       "\" asked for (e.g. {\"action\": \"accept\", \"content\": {...}})"};
    }
    retry.input_responses = responses->as_object();
  }
  if (const auto* state = params.if_contains("requestState")) {
    if (!state->is_string())
      return Refused{"\"requestState\" must be the string an input_required result gave"};
    retry.state = seal.open(scope_of(method, params), state->as_string());
    if (!retry.state)
      return Refused{
          "\"requestState\" failed its integrity check: send it back exactly as the "
          "last input_required result of this " +
          std::string(method) +
          " gave it (a state from another request, another server run or an altered "
          "one is refused), or call again without it to start over"};
  }
  return retry;
}

json::object input_required(json::object input_requests,
                            const std::optional<std::string>& request_state) {
  json::object result{{"resultType", "input_required"},
                      {"inputRequests", std::move(input_requests)}};
  if (request_state) result["requestState"] = *request_state;
  return result;
}

}  // namespace fcp::mcp::mrtr
