// Base64 (RFC 4648, with padding) for binary tool content such as PNG exports.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fcp::mcp {

std::string base64_encode(std::string_view bytes);
// Strict decoding: the standard alphabet, a length that is a multiple of 4, padding only at the
// end and only where it belongs; nullopt for anything else.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace fcp::mcp
