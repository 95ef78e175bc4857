#include "core/tokenizer.hpp"

#include <array>
#include <optional>

#include "core/utf8.hpp"

namespace fcp::core {
namespace {

constexpr std::string_view replacement_char = "\xEF\xBF\xBD";  // U+FFFD

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_quote(char c) {
  return c == '"' || c == '\'';
}
bool is_ascii(char c) {
  return static_cast<unsigned char>(c) < 0x80;
}

// Byte classes for the scanning loops, which are the hot path of every op.
constexpr unsigned char space_class = 1;
constexpr unsigned char quote_class = 2;
constexpr unsigned char backslash_class = 4;
constexpr unsigned char non_ascii_class = 8;

constexpr std::array<unsigned char, 256> byte_classes = [] {
  std::array<unsigned char, 256> table{};
  for (unsigned char c : {' ', '\t', '\r', '\n'})
    table[c] = space_class;
  table['"'] = quote_class;
  table['\''] = quote_class;
  table['\\'] = backslash_class;
  for (std::size_t c = 0x80; c < table.size(); ++c)
    table[c] = non_ascii_class;
  return table;
}();

unsigned char class_of(char c) {
  return byte_classes[static_cast<unsigned char>(c)];
}

struct Utf8Step {
  std::size_t length;  // bytes consumed: the whole sequence, or its maximal ill-formed subpart
  bool valid;
};

// Decodes per the Unicode well-formedness table, so overlong forms, surrogates and values
// above U+10FFFF are rejected; each maximal ill-formed subpart becomes one U+FFFD.
Utf8Step utf8_step(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  std::size_t need = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    need = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    need = 2;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    need = 3;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return {1, false};
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (pos + k >= text.size()) return {k, false};
    const auto byte = static_cast<unsigned char>(text[pos + k]);
    if (byte < low || byte > high) return {k, false};
    low = 0x80;
    high = 0xBF;
  }
  return {need + 1, true};
}

std::optional<char32_t> read_hex4(std::string_view text, std::size_t pos) {
  if (pos + 4 > text.size()) return std::nullopt;
  char32_t value = 0;
  for (std::size_t i = pos; i < pos + 4; ++i) {
    const char c = text[i];
    char32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<char32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<char32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<char32_t>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    value = value * 16 + digit;
  }
  return value;
}

bool is_high_surrogate(char32_t cp) {
  return cp >= 0xD800 && cp <= 0xDBFF;
}
bool is_low_surrogate(char32_t cp) {
  return cp >= 0xDC00 && cp <= 0xDFFF;
}

// Reads one token at a time from a position owned by the caller; the position only moves
// forward.
class Scanner {
 public:
  Scanner(std::string_view input, std::size_t& pos) : input_(input), pos_(pos) {}

  Result<bool> next(TokenView& token) {
    while (pos_ < input_.size() && is_space(input_[pos_]))
      ++pos_;
    if (pos_ >= input_.size()) return false;
    token.text = {};
    token.storage.clear();
    token.quoted = false;
    token.value_quoted = false;
    const bool ok = is_quote(input_[pos_]) ? quoted_token(token) : unquoted_token(token);
    if (!ok) {
      pos_ = input_.size();
      return unterminated();
    }
    return true;
  }

 private:
  // The end of a run of bytes that stand for themselves outside quotes.
  std::size_t plain_run_end(std::size_t from) const {
    constexpr unsigned char stop = space_class | quote_class | non_ascii_class;
    while (from < input_.size() && (class_of(input_[from]) & stop) == 0)
      ++from;
    return from;
  }
  // The same inside quotes, where the run also ends at the closing quote.
  std::size_t quoted_run_end(std::size_t from, char quote) const {
    constexpr unsigned char stop = backslash_class | non_ascii_class;
    while (from < input_.size() && input_[from] != quote && (class_of(input_[from]) & stop) == 0)
      ++from;
    return from;
  }

  bool quoted_token(TokenView& token) {
    token.quoted = true;
    const char quote = input_[pos_];
    const std::size_t end = quoted_run_end(pos_ + 1, quote);
    if (end < input_.size() && input_[end] == quote) {  // nothing to unescape: view the input
      token.text = input_.substr(pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      return true;
    }
    if (!quoted_region(token.storage)) return false;
    token.text = token.storage;
    return true;
  }

  bool unquoted_token(TokenView& token) {
    const std::size_t start = pos_;
    pos_ = plain_run_end(pos_);
    if (pos_ == input_.size() || is_space(input_[pos_])) {  // the usual case: view the input
      token.text = input_.substr(start, pos_ - start);
      return true;
    }
    token.storage.assign(input_.substr(start, pos_ - start));
    while (pos_ < input_.size() && !is_space(input_[pos_])) {
      if (is_quote(input_[pos_])) {
        token.value_quoted = true;
        if (!quoted_region(token.storage)) return false;
      } else {
        copy_char(token.storage);
      }
    }
    token.text = token.storage;
    return true;
  }

  // pos_ is on the opening quote; consumes through the matching closing quote.
  bool quoted_region(std::string& out) {
    const char quote = input_[pos_];
    const std::size_t open = pos_++;
    while (pos_ < input_.size()) {
      const std::size_t run = quoted_run_end(pos_, quote);
      out.append(input_.substr(pos_, run - pos_));
      pos_ = run;
      if (pos_ >= input_.size()) break;
      const char c = input_[pos_];
      if (c == quote) {
        ++pos_;
        return true;
      }
      if (c == '\\') {
        escape(out);
      } else {
        copy_char(out);
      }
    }
    open_quote_ = open;
    return false;
  }

  // pos_ is on a backslash inside a quoted region.
  void escape(std::string& out) {
    ++pos_;
    if (pos_ >= input_.size()) return;  // the region is unterminated anyway
    const char next = input_[pos_];
    if (next == 'n') {
      out += '\n';
      ++pos_;
    } else if (next == 'u' && unicode_escape(out)) {
      return;
    } else {
      copy_char(out);  // \" \' \\ and any other \X: X itself
    }
  }

  // pos_ is on the 'u' of \uXXXX; false (nothing consumed) when no four hex digits follow.
  bool unicode_escape(std::string& out) {
    auto unit = read_hex4(input_, pos_ + 1);
    if (!unit) return false;
    pos_ += 5;
    char32_t cp = *unit;
    if (is_high_surrogate(cp)) {
      const bool pair_follows =
          pos_ + 1 < input_.size() && input_[pos_] == '\\' && input_[pos_ + 1] == 'u';
      auto low = pair_follows ? read_hex4(input_, pos_ + 2) : std::nullopt;
      if (low && is_low_surrogate(*low)) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (*low - 0xDC00);
        pos_ += 6;
      } else {
        cp = 0xFFFD;
      }
    } else if (is_low_surrogate(cp)) {
      cp = 0xFFFD;
    }
    core::append_utf8(out, cp);
    return true;
  }

  // Copies one code point; an ill-formed UTF-8 sequence becomes U+FFFD.
  void copy_char(std::string& out) {
    const char c = input_[pos_];
    if (is_ascii(c)) {
      out += c;
      ++pos_;
      return;
    }
    const Utf8Step step = utf8_step(input_, pos_);
    if (step.valid) {
      out.append(input_.substr(pos_, step.length));
    } else {
      out.append(replacement_char);
    }
    pos_ += step.length;
  }

  // Columns count code points (1-based), so they match what an editor shows.
  Error unterminated() const {
    std::size_t column = 1;
    for (std::size_t i = 0; i < open_quote_; ++i) {
      if ((static_cast<unsigned char>(input_[i]) & 0xC0) != 0x80) ++column;
    }
    return make_error("unterminated quote at column " + std::to_string(column));
  }

  std::string_view input_;
  std::size_t& pos_;
  std::size_t open_quote_ = 0;
};

}  // namespace

Result<bool> TokenStream::next(TokenView& token) {
  return Scanner(input_, pos_).next(token);
}

Result<std::vector<Token>> tokenize(std::string_view input) {
  std::vector<Token> tokens;
  TokenStream stream(input);
  TokenView token;
  for (;;) {
    auto more = stream.next(token);
    if (!more) return more.error();
    if (!*more) return tokens;
    tokens.push_back(Token{std::string(token.text), token.quoted, token.value_quoted});
  }
}

std::string_view trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && is_space(text[begin]))
    ++begin;
  while (end > begin && is_space(text[end - 1]))
    --end;
  return text.substr(begin, end - begin);
}

// The inverse of the tokenizer for one token: `text` as written in an op (quoted and escaped
// when it has spaces, quotes, a colon, a backslash, or could be taken for an arrow or selector).
std::string quote_token(std::string_view text) {
  bool plain = !text.empty() && text.front() != '@' && text.front() != '"';
  for (char c : text) {
    if (is_space(c) || c == '"' || c == ':' || c == '\\' || c == '\'') {
      plain = false;
      break;
    }
  }
  if (plain && text != "->" && text != "<->" && text != "--") return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

}  // namespace fcp::core
