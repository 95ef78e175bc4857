// UTF-8 encoding shared by every layer that builds text from code points.
#pragma once

#include <string>

namespace fcp::core {

// Appends `code` encoded as UTF-8; a surrogate or a value past U+10FFFF becomes U+FFFD.
void append_utf8(std::string& out, char32_t code);

}  // namespace fcp::core
