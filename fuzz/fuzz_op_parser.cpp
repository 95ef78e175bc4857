// libFuzzer target: the op tokenizer and parser (core::tokenize, TokenStream, parse_op), with the
// contracts tokenizer.hpp states checked on every input: tokens are valid UTF-8, the one-token
// stream agrees with tokenize, and quote_token gives a token that reads back as itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/parsed_op.hpp"
#include "core/tokenizer.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    char32_t code = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    if ((lead & 0xE0) == 0xC0) {
      length = 2;
      code = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
      length = 3;
      code = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
      length = 4;
      code = lead & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
      return false;
    i += length;
  }
  return true;
}

using fcp::fuzz::check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto tokens = fcp::core::tokenize(input);

  // The stream gives the same tokens; where tokenize fails, the stream fails too (after the
  // tokens before the error).
  fcp::core::TokenStream stream(input);
  fcp::core::TokenView view;
  std::size_t streamed = 0;
  bool stream_failed = false;
  for (;;) {
    auto more = stream.next(view);
    if (!more) {
      stream_failed = true;
      break;
    }
    if (!*more) break;
    if (tokens) {
      check(streamed < tokens->size(), "TokenStream gave more tokens than tokenize");
      check((*tokens)[streamed].text == view.text, "TokenStream and tokenize differ");
    }
    ++streamed;
  }
  check(stream_failed != tokens.has_value(), "TokenStream and tokenize disagree on an error");
  if (tokens) {
    check(streamed == tokens->size(), "TokenStream gave fewer tokens than tokenize");
    for (const auto& token : *tokens) {
      check(valid_utf8(token.text), "a token is not valid UTF-8");
      const std::string quoted = fcp::core::quote_token(token.text);
      auto again = fcp::core::tokenize(quoted);
      check(again && again->size() == 1 && (*again)[0].text == token.text,
            "quote_token does not read back as the same token");
      (void)fcp::core::to_integer(token.text);
      (void)fcp::core::to_number(token.text);
    }
  }

  auto op = fcp::core::parse_op(input);
  if (op) {
    for (const auto& param : op->params) {
      (void)op->integer(param.key);
      (void)op->number(param.key);
    }
  }
  return 0;
}
