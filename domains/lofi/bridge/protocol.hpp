// The LOFI wire protocol: /lofi/<verb> requests carrying one JSON string, and JSON replies.
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "domains/lofi/bridge/osc.hpp"

namespace fcp::lofi::bridge {

// Max truncates symbols beyond this many bytes, so no request JSON may be longer.
constexpr std::size_t kMaxSymbol = 32767;
// Request ids this project generates are at most this long (payload_fits reserves room for one).
constexpr std::size_t kMaxRequestId = 32;
// The address our simulator (and the project's own daemon script) answers on, with one JSON
// string argument. Replies are accepted on any address.
constexpr std::string_view kReplyAddress = "/lofi/reply";

// A request: address "/lofi/<verb>", ONE string argument = the JSON payload with "requestId"
// added (one argument, so Max cannot split the JSON at its commas). Errors: a verb that is not
// [a-z0-9_]+, an empty or over-long request id, JSON longer than kMaxSymbol (the message names
// the size and the limit; callers may split /lofi/ui into several messages).
core::Result<std::string> request_packet(std::string_view verb, const boost::json::object& payload,
                                         std::string_view request_id);

// Whether `payload` plus any request id fits in one Max symbol (for callers that split).
bool payload_fits(const boost::json::object& payload);

// A reply from the Max daemon. `body` is the whole reply object (status and requestId included),
// e.g. {"status":"ok","created":3}.
struct Reply {
  bool ok = false;
  std::string request_id;  // "" when absent
  std::string message;     // the "message" (or "error") text, "" when absent
  boost::json::object body;
};

// Accepts both reply styles: an address plus one string argument holding the JSON, or the JSON
// text AS the OSC address with no arguments (LOFI's daemon does that). A numeric requestId is
// read as its decimal text. Errors: not a JSON object, no "status", a status other than "ok" or
// "error", other argument shapes.
core::Result<Reply> parse_reply(const OscMessage& message);

// What /lofi/ping reports as "hash": FNV-1a (32 bits, 8 lowercase hex digits) over the UTF-8
// bytes of the object ids sorted (bytewise) and joined by '\n'. lofi-daemon.js, the simulator
// and the model compute it alike, so a Max that holds other objects shows.
std::string ids_hash(std::vector<std::string> ids);

}  // namespace fcp::lofi::bridge
