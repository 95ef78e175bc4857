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

// A token for hot paths (parse_op), which copy its text once, to where it belongs: `text` views
// the input itself when the token needed no unescaping or repair (the usual case), else
// `storage`. Valid until the next call that reuses it; do not copy it (the view would dangle).
struct TokenView {
  std::string_view text;
  bool quoted = false;
  bool value_quoted = false;
  std::string storage;
};

// The same tokenizer one token at a time. `input` must outlive the stream and its tokens.
class TokenStream {
 public:
  explicit TokenStream(std::string_view input) : input_(input) {}
  // Overwrites `token` with the next token: true, false at the end of the input, or the
  // unterminated-quote error (after which the stream is spent).
  Result<bool> next(TokenView& token);

 private:
  std::string_view input_;
  std::size_t pos_ = 0;
};

// `text` as one op token: as it is when it reads back unchanged, else quoted and escaped.
std::string quote_token(std::string_view text);

// Trims ASCII whitespace (space, tab, CR, LF) from both ends.
std::string_view trim(std::string_view text);

}  // namespace fcp::core
