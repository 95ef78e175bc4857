// Base64 (RFC 4648, with padding) for binary tool content such as PNG exports.
#pragma once

#include <string>
#include <string_view>

namespace fcp::mcp {

std::string base64_encode(std::string_view bytes);

}  // namespace fcp::mcp
