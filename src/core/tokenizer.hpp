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

// Errors: "unterminated quote at column N" (N is 1-based, the column of the opening quote,
// counted in code points).
Result<std::vector<Token>> tokenize(std::string_view input);

// The same tokenizer one token at a time, so hot paths (parse_op) can reuse one Token.
// `input` must outlive the stream.
class TokenStream {
 public:
  explicit TokenStream(std::string_view input) : input_(input) {}
  // Overwrites `token` with the next token: true, false at the end of the input, or the
  // unterminated-quote error (after which the stream is spent).
  Result<bool> next(Token& token);

 private:
  std::string_view input_;
  std::size_t pos_ = 0;
};

// Trims ASCII whitespace (space, tab, CR, LF) from both ends.
std::string_view trim(std::string_view text);

}  // namespace fcp::core
