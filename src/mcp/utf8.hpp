// UTF-8 repair for text leaving the daemon: JSON strings must be valid UTF-8, but tool text can
// carry bytes from files (labels, names) that are not.
#pragma once

#include <string>
#include <string_view>

namespace fcp::mcp {

bool is_valid_utf8(std::string_view text);
// Replaces every invalid or truncated sequence with U+FFFD; valid text is returned unchanged.
std::string to_valid_utf8(std::string_view text);

}  // namespace fcp::mcp
