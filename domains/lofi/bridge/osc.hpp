// OSC 1.0 messages as values: encoding and strict decoding of UDP datagrams (oscpack underneath).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"

namespace fcp::lofi::bridge {

// The argument types the LOFI protocol uses ('i', 'f', 's'; a received 'S' symbol decodes as a
// string).
using OscArgument = std::variant<std::int32_t, float, std::string>;

struct OscMessage {
  std::string address;
  std::vector<OscArgument> arguments;

  friend bool operator==(const OscMessage&, const OscMessage&) = default;
};

// The largest UDP payload over IPv4 (65 535 - 8 byte UDP header - 20 byte IP header).
constexpr std::size_t kMaxDatagram = 65507;

// Which addresses encode_osc accepts.
enum class AddressRule {
  osc,  // OSC 1.0: starts with '/', printable ASCII, no space, '#' or ','
  any,  // any non-empty text without NUL: LOFI's Max daemon sends its JSON reply as the address
};

// Encodes one message (not a bundle). Errors: a bad address, a string argument containing NUL,
// a datagram larger than kMaxDatagram. A string whose length is a multiple of 4 gets 4 NULs.
core::Result<std::string> encode_osc(const OscMessage& message);
core::Result<std::string> encode_osc(const OscMessage& message, AddressRule rule);

// Decodes a datagram holding a message or a bundle (nested bundles flattened, in order).
// Strict: sizes must be multiples of 4, strings NUL-terminated and NUL-padded, every argument
// present, no bytes left over; type tags other than i f s S are refused. Never reads outside
// `packet`. A message must have a type tag string — except when its address does not start with
// '/' (LOFI's JSON-as-address replies), which then has no arguments. A bundle cut exactly at an
// element boundary is still a valid bundle (OSC framing cannot tell); UDP delivers whole
// datagrams, so that only matters for corrupted input.
core::Result<std::vector<OscMessage>> decode_osc(std::string_view packet);

// "/lofi/create s \"{...}\" i 3 f 1.5" — for logs and test failure messages.
std::string describe(const OscMessage& message);

}  // namespace fcp::lofi::bridge
