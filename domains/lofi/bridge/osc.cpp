#include "domains/lofi/bridge/osc.hpp"

#include <fmt/format.h>
#include <osc/OscOutboundPacketStream.h>
#include <osc/OscReceivedElements.h>

#include <algorithm>

namespace fcp::lofi::bridge {

namespace {

constexpr std::size_t kMaxBundleDepth = 8;
constexpr std::string_view kBundleTag{"#bundle\0", 8};

// Bytes a string takes on the wire: its text, at least one NUL, padded to a multiple of 4.
std::size_t padded_string_size(std::size_t length) {
  return (length + 4) & ~std::size_t{3};
}

bool is_osc_address_char(char c) {
  return c > ' ' && c < 0x7f && c != '#' && c != ',';
}

core::Result<void> check_address(std::string_view address, AddressRule rule) {
  if (address.empty()) return core::make_error("an OSC address cannot be empty");
  if (address.find('\0') != std::string_view::npos) {
    return core::make_error("the OSC address contains a NUL byte");
  }
  if (rule == AddressRule::any) return {};
  if (address.front() != '/' || !std::all_of(address.begin(), address.end(), is_osc_address_char)) {
    return core::make_error(fmt::format(
        "bad OSC address \"{}\": it must start with / and hold printable ASCII without spaces, "
        "'#' or ','",
        address));
  }
  return {};
}

std::size_t encoded_size(const OscMessage& message) {
  std::size_t size =
      padded_string_size(message.address.size()) + padded_string_size(1 + message.arguments.size());
  for (const auto& argument : message.arguments) {
    if (const auto* text = std::get_if<std::string>(&argument)) {
      size += padded_string_size(text->size());
    } else {
      size += 4;
    }
  }
  return size;
}

std::uint32_t read_be32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

// Strict structural checks, so that oscpack (which trusts padding and may read one byte past a
// malformed element) only ever sees well-formed input.
class PacketChecker {
 public:
  core::Result<void> element(std::string_view bytes, std::size_t depth) {
    if (bytes.empty()) return core::make_error("empty OSC packet");
    if (bytes.size() % 4 != 0) {
      return core::make_error(
          fmt::format("OSC element of {} bytes: sizes must be multiples of 4", bytes.size()));
    }
    if (bytes.front() == '#') return bundle(bytes, depth);
    return message(bytes);
  }

 private:
  core::Result<void> bundle(std::string_view bytes, std::size_t depth) {
    if (bytes.substr(0, kBundleTag.size()) != kBundleTag) {
      return core::make_error("OSC element starts with '#' but is not a #bundle");
    }
    if (depth >= kMaxBundleDepth) {
      return core::make_error(fmt::format("OSC bundles nested deeper than {}", kMaxBundleDepth));
    }
    if (bytes.size() < 16) return core::make_error("OSC bundle shorter than its time tag");
    std::size_t at = 16;
    while (at < bytes.size()) {
      if (bytes.size() - at < 4) return core::make_error("truncated OSC bundle element size");
      const std::size_t size = read_be32(bytes, at);
      at += 4;
      if (size == 0 || size > bytes.size() - at) {
        return core::make_error(
            fmt::format("OSC bundle element of {} bytes does not fit in the {} bytes left", size,
                        bytes.size() - at));
      }
      if (auto checked = element(bytes.substr(at, size), depth + 1); !checked) return checked;
      at += size;
    }
    return {};
  }

  core::Result<void> message(std::string_view bytes) {
    std::size_t at = 0;
    auto address = string(bytes, at, "address");
    if (!address) return address.error();
    if (address->empty()) return core::make_error("OSC message with an empty address");
    if (at == bytes.size()) {
      // No type tag string. Tolerated only where the address is not an OSC address (LOFI's
      // JSON-as-address replies, should a sender omit the tags); for a '/' address it is what a
      // truncated packet looks like.
      if (address->front() != '/') return {};
      return core::make_error(
          fmt::format("OSC message {} has no type tag string (truncated?)", *address));
    }
    if (bytes[at] != ',') {
      return core::make_error(
          fmt::format("OSC type tags must start with ',' (found byte 0x{:02x} at {})",
                      static_cast<unsigned char>(bytes[at]), at));
    }
    auto tags = string(bytes, at, "type tag string");
    if (!tags) return tags.error();
    for (char tag : tags->substr(1)) {
      if (auto checked = argument(bytes, at, tag); !checked) return checked;
    }
    if (at != bytes.size()) {
      return core::make_error(
          fmt::format("{} bytes left over after the OSC arguments", bytes.size() - at));
    }
    return {};
  }

  core::Result<void> argument(std::string_view bytes, std::size_t& at, char tag) {
    switch (tag) {
      case 'i':
      case 'f':
        if (bytes.size() - at < 4) return core::make_error("truncated OSC argument");
        at += 4;
        return {};
      case 's':
      case 'S':
        if (auto text = string(bytes, at, "string argument"); !text) return text.error();
        return {};
      default:
        return core::make_error(fmt::format(
            "unsupported OSC type tag '{}' (this bridge reads i, f, s and S)",
            tag > ' ' && tag < 0x7f ? std::string(1, tag)
                                    : fmt::format("\\x{:02x}", static_cast<unsigned char>(tag))));
    }
  }

  // Reads a NUL-terminated, NUL-padded string starting at `at`; advances `at` past its padding.
  static core::Result<std::string_view> string(std::string_view bytes, std::size_t& at,
                                               std::string_view what) {
    const auto end = bytes.find('\0', at);
    if (end == std::string_view::npos) {
      return core::make_error(fmt::format("unterminated OSC {} at byte {}", what, at));
    }
    const std::size_t next = at + padded_string_size(end - at);
    if (next > bytes.size()) {
      return core::make_error(fmt::format("OSC {} padding runs past the end", what));
    }
    for (std::size_t i = end; i < next; ++i) {
      if (bytes[i] != '\0') {
        return core::make_error(fmt::format("non-NUL padding after OSC {} at byte {}", what, i));
      }
    }
    const auto text = bytes.substr(at, end - at);
    at = next;
    return text;
  }
};

OscMessage read_message(const osc::ReceivedMessage& received) {
  OscMessage message;
  message.address = received.AddressPattern();
  for (auto it = received.ArgumentsBegin(); it != received.ArgumentsEnd(); ++it) {
    if (it->IsInt32()) {
      message.arguments.emplace_back(it->AsInt32Unchecked());
    } else if (it->IsFloat()) {
      message.arguments.emplace_back(it->AsFloatUnchecked());
    } else if (it->IsSymbol()) {
      message.arguments.emplace_back(std::string(it->AsSymbolUnchecked()));
    } else {
      message.arguments.emplace_back(std::string(it->AsStringUnchecked()));
    }
  }
  return message;
}

void read_bundle(const osc::ReceivedBundle& bundle, std::vector<OscMessage>& out) {
  for (auto it = bundle.ElementsBegin(); it != bundle.ElementsEnd(); ++it) {
    if (it->IsBundle()) {
      read_bundle(osc::ReceivedBundle(*it), out);
    } else {
      out.push_back(read_message(osc::ReceivedMessage(*it)));
    }
  }
}

}  // namespace

core::Result<std::string> encode_osc(const OscMessage& message) {
  return encode_osc(message, AddressRule::osc);
}

core::Result<std::string> encode_osc(const OscMessage& message, AddressRule rule) {
  if (auto checked = check_address(message.address, rule); !checked) return checked.error();
  for (std::size_t i = 0; i < message.arguments.size(); ++i) {
    const auto* text = std::get_if<std::string>(&message.arguments[i]);
    if (text && text->find('\0') != std::string::npos) {
      return core::make_error(fmt::format("OSC string argument {} contains a NUL byte", i + 1));
    }
  }
  const std::size_t size = encoded_size(message);
  if (size > kMaxDatagram) {
    return core::make_error(
        fmt::format("the OSC message for {} would be {} bytes; a UDP datagram holds at most {}",
                    message.address, size, kMaxDatagram));
  }
  std::string buffer(size, '\0');
  try {
    osc::OutboundPacketStream stream(buffer.data(), buffer.size());
    stream << osc::BeginMessage(message.address.c_str());
    for (const auto& argument : message.arguments) {
      std::visit(
          [&stream](const auto& value) {
            if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>) {
              stream << value.c_str();
            } else {
              stream << value;
            }
          },
          argument);
    }
    stream << osc::EndMessage;
    buffer.resize(stream.Size());
  } catch (const osc::Exception& e) {
    return core::make_error(
        fmt::format("cannot encode OSC message {}: {}", message.address, e.what()));
  }
  return buffer;
}

core::Result<std::vector<OscMessage>> decode_osc(std::string_view packet) {
  if (packet.size() > kMaxDatagram) {
    return core::make_error(
        fmt::format("OSC packet of {} bytes exceeds a UDP datagram", packet.size()));
  }
  if (auto checked = PacketChecker{}.element(packet, 0); !checked) return checked.error();
  std::vector<OscMessage> messages;
  try {
    const osc::ReceivedPacket received(packet.data(), packet.size());
    if (received.IsBundle()) {
      read_bundle(osc::ReceivedBundle(received), messages);
    } else {
      messages.push_back(read_message(osc::ReceivedMessage(received)));
    }
  } catch (const osc::Exception& e) {
    return core::make_error(fmt::format("malformed OSC packet: {}", e.what()));
  }
  return messages;
}

std::string describe(const OscMessage& message) {
  std::string text = message.address;
  for (const auto& argument : message.arguments) {
    if (const auto* value = std::get_if<std::int32_t>(&argument)) {
      text += fmt::format(" i {}", *value);
    } else if (const auto* number = std::get_if<float>(&argument)) {
      text += fmt::format(" f {}", *number);
    } else {
      text += fmt::format(" s \"{}\"", std::get<std::string>(argument));
    }
  }
  return text;
}

}  // namespace fcp::lofi::bridge
