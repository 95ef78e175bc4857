// Multi round-trip requests (2026-07-28, SEP-2322): a result that asks the client for input
// (resultType "input_required": inputRequests, and optionally requestState) and the retry that
// answers it (inputResponses, and the requestState echoed back). The server keeps nothing
// between the rounds: what it needs again travels in requestState, sealed with HMAC-SHA256 under
// a random per-daemon key and bound to the request it belongs to, so a client can neither forge
// nor alter it, nor replay it on another tool.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace fcp::mcp::mrtr {

// Seals and opens request states. Thread: any (immutable after construction).
class RequestStateSeal {
 public:
  // A seal with a fresh random 32-byte key.
  RequestStateSeal();
  // A seal with a given key (tests).
  explicit RequestStateSeal(std::string key) : key_(std::move(key)) {}

  // `payload` bound to `scope` as base64(payload) "." base64(HMAC-SHA256(scope, payload)).
  std::string seal(std::string_view scope, const boost::json::object& payload) const;
  // The payload of a state this seal made for `scope`; nullopt when the state is malformed, was
  // altered, was made under another key or for another scope.
  std::optional<boost::json::object> open(std::string_view scope, std::string_view state) const;

 private:
  std::string mac(std::string_view scope, std::string_view payload) const;
  std::string key_;
};

// The daemon's seal: its key is drawn on first use and lives as long as the process, so a
// state survives across connections but not a restart.
const RequestStateSeal& daemon_seal();

// What a request's requestState is bound to: the method and what it names (tool or prompt name,
// resource uri).
std::string scope_of(std::string_view method, const boost::json::object& params);

// A request's answers to an earlier input_required result.
struct Retry {
  boost::json::object input_responses;       // key → the client's result; empty on a first call
  std::optional<boost::json::object> state;  // the opened requestState, if one came
};

// A retry the server refuses (-32602): inputResponses not an object of objects, or a
// requestState that fails its integrity check.
struct Refused {
  std::string message;
};

// Reads inputResponses and requestState of `params` (tools/call, prompts/get, resources/read).
std::variant<Retry, Refused> read_retry(std::string_view method, const boost::json::object& params,
                                        const RequestStateSeal& seal);

// An input_required result asking for `input_requests` (key → {method, params}), with
// `request_state` when the next round needs it.
boost::json::object input_required(boost::json::object input_requests,
                                   const std::optional<std::string>& request_state = std::nullopt);

}  // namespace fcp::mcp::mrtr
