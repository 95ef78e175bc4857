// The FCP tokenizer: splits one op string into quote-aware tokens (fcp-core.md §1).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

struct Token {
  std::string text;           // quotes removed, escapes resolved; always valid UTF-8
  bool quoted = false;        // the whole token was one quoted string ("My Track")
  bool value_quoted = false;  // an embedded quoted region inside an unquoted token (label:"a b")
};

// Errors: "unterminated quote at column N" (N is 1-based, the column of the opening quote).
Result<std::vector<Token>> tokenize(std::string_view input);

// Trims ASCII whitespace (space, tab, CR, LF) from both ends.
std::string_view trim(std::string_view text);

}  // namespace fcp::core
