#include "core/tokenizer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace fcp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> texts(std::string_view input) {
  auto tokens = tokenize(input);
  EXPECT_TRUE(tokens.has_value()) << "input: " << input;
  std::vector<std::string> out;
  if (!tokens) return out;
  for (const Token& token : *tokens)
    out.push_back(token.text);
  return out;
}

std::string error_of(std::string_view input) {
  auto tokens = tokenize(input);
  EXPECT_FALSE(tokens.has_value()) << "input: " << input;
  return tokens ? std::string() : tokens.error().message;
}

// An independent strict UTF-8 check (RFC 3629), used to prove the output is always valid.
bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t len = b < 0x80           ? 1
                      : (b >> 5) == 0x6  ? 2
                      : (b >> 4) == 0xE  ? 3
                      : (b >> 3) == 0x1E ? 4
                                         : 0;
    if (len == 0 || i + len > text.size()) return false;
    char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    const char32_t min = len == 1 ? 0 : len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

const std::string fffd = "\xEF\xBF\xBD";

TEST(Tokenizer, SplitsOnEveryKindOfWhitespace) {
  EXPECT_THAT(texts("add svc Auth"), ElementsAre("add", "svc", "Auth"));
  EXPECT_THAT(texts("a \t b\r\nc\rd\ne"), ElementsAre("a", "b", "c", "d", "e"));
  EXPECT_THAT(texts("  \t lead trail \r\n"), ElementsAre("lead", "trail"));
}

TEST(Tokenizer, EmptyAndWhitespaceOnlyGiveNoTokens) {
  EXPECT_THAT(texts(""), IsEmpty());
  EXPECT_THAT(texts(" \t\r\n "), IsEmpty());
}

TEST(Tokenizer, SpecExamples) {
  EXPECT_THAT(texts(R"(note Piano "My Track" at:1.1)"),
              ElementsAre("note", "Piano", "My Track", "at:1.1"));
  EXPECT_THAT(texts(R"(add svc "Auth Service" theme:blue)"),
              ElementsAre("add", "svc", "Auth Service", "theme:blue"));
}

TEST(Tokenizer, QuotedTokensAreFlagged) {
  auto tokens = tokenize(R"(plain "double" 'single' label:"a b")");
  ASSERT_TRUE(tokens);
  ASSERT_EQ(tokens->size(), 4u);
  EXPECT_FALSE((*tokens)[0].quoted);
  EXPECT_FALSE((*tokens)[0].value_quoted);
  EXPECT_TRUE((*tokens)[1].quoted);
  EXPECT_EQ((*tokens)[1].text, "double");
  EXPECT_TRUE((*tokens)[2].quoted);
  EXPECT_EQ((*tokens)[2].text, "single");
  EXPECT_FALSE((*tokens)[3].quoted);
  EXPECT_TRUE((*tokens)[3].value_quoted);
  EXPECT_EQ((*tokens)[3].text, "label:a b");
}

TEST(Tokenizer, EmptyQuotedTokens) {
  EXPECT_THAT(texts(R"("")"), ElementsAre(""));
  EXPECT_THAT(texts("''"), ElementsAre(""));
  EXPECT_THAT(texts(R"(a "" b)"), ElementsAre("a", "", "b"));
  auto tokens = tokenize(R"("")");
  ASSERT_TRUE(tokens);
  EXPECT_TRUE(tokens->front().quoted);
}

TEST(Tokenizer, ClosingQuoteEndsTheToken) {
  EXPECT_THAT(texts(R"("abc"def)"), ElementsAre("abc", "def"));
  EXPECT_THAT(texts(R"("a""b")"), ElementsAre("a", "b"));
  EXPECT_THAT(texts(R"("a"'b')"), ElementsAre("a", "b"));
  auto tokens = tokenize(R"("x"y"z")");
  ASSERT_TRUE(tokens);
  ASSERT_EQ(tokens->size(), 2u);
  EXPECT_TRUE((*tokens)[0].quoted);
  EXPECT_EQ((*tokens)[1].text, "yz");
  EXPECT_TRUE((*tokens)[1].value_quoted);
}

TEST(Tokenizer, OtherQuoteKindIsLiteralInsideQuotes) {
  EXPECT_THAT(texts(R"("it's")"), ElementsAre("it's"));
  EXPECT_THAT(texts(R"('say "hi"')"), ElementsAre("say \"hi\""));
}

TEST(Tokenizer, Escapes) {
  EXPECT_THAT(texts(R"("say \"hi\"")"), ElementsAre("say \"hi\""));
  EXPECT_THAT(texts(R"('it\'s')"), ElementsAre("it's"));
  EXPECT_THAT(texts(R"("a\\b")"), ElementsAre("a\\b"));
  EXPECT_THAT(texts(R"("l1\nl2")"), ElementsAre("l1\nl2"));
  EXPECT_THAT(texts(R"("\t\q")"), ElementsAre("tq"));
  EXPECT_THAT(texts("\"\\\xC3\xA9\""), ElementsAre("\xC3\xA9"));
}

TEST(Tokenizer, UnescapesExactlyOnce) {
  EXPECT_THAT(texts(R"("a\\n")"), ElementsAre("a\\n"));
  EXPECT_THAT(texts(R"("\\\"")"), ElementsAre("\\\""));
}

TEST(Tokenizer, UnicodeEscapes) {
  EXPECT_THAT(texts(R"("caf\u00e9")"), ElementsAre("caf\xC3\xA9"));
  EXPECT_THAT(texts(R"("\u00C9\u20AC")"), ElementsAre("\xC3\x89\xE2\x82\xAC"));
  EXPECT_THAT(texts(R"("\u0041")"), ElementsAre("A"));
  EXPECT_THAT(texts(R"("\u12")"), ElementsAre("u12"));
  EXPECT_THAT(texts(R"("\uzzzz")"), ElementsAre("uzzzz"));
  auto nul = texts(R"("a\u0000b")");
  ASSERT_EQ(nul.size(), 1u);
  EXPECT_EQ(nul[0], std::string("a\0b", 3));
}

TEST(Tokenizer, SurrogatePairsCombineAndLoneSurrogatesAreReplaced) {
  EXPECT_THAT(texts(R"("\uD83D\uDE00")"), ElementsAre("\xF0\x9F\x98\x80"));
  EXPECT_THAT(texts(R"("\ud83c\udfb9")"), ElementsAre("\xF0\x9F\x8E\xB9"));
  EXPECT_THAT(texts(R"("\uD83Dx")"), ElementsAre(fffd + "x"));
  EXPECT_THAT(texts(R"("\uDE00")"), ElementsAre(fffd));
  EXPECT_THAT(texts(R"("\uD83D\u0041")"), ElementsAre(fffd + "A"));
  EXPECT_THAT(texts(R"("\uDE00\uD83D")"), ElementsAre(fffd + fffd));
  EXPECT_THAT(texts(R"("\uD83D\uD83D\uDE00")"), ElementsAre(fffd + "\xF0\x9F\x98\x80"));
}

TEST(Tokenizer, BackslashOutsideQuotesIsLiteral) {
  EXPECT_THAT(texts(R"(open C:\dir\f.mid a\nb)"), ElementsAre("open", "C:\\dir\\f.mid", "a\\nb"));
  EXPECT_THAT(texts(R"(a\"b")"), ElementsAre("a\\b"));
}

TEST(Tokenizer, EmbeddedQuotedRegions) {
  EXPECT_THAT(texts(R"(style label:"Auth Service" x)"),
              ElementsAre("style", "label:Auth Service", "x"));
  EXPECT_THAT(texts("label:'a b'"), ElementsAre("label:a b"));
  EXPECT_THAT(texts(R"(label:"a:b")"), ElementsAre("label:a:b"));
  EXPECT_THAT(texts(R"(a"b c"d)"), ElementsAre("ab cd"));
  EXPECT_THAT(texts(R"(label:"say \"hi\"")"), ElementsAre("label:say \"hi\""));
  EXPECT_THAT(texts(R"(label:"")"), ElementsAre("label:"));
}

TEST(Tokenizer, WhitespaceInsideQuotesIsKept) {
  EXPECT_THAT(texts("\"a\nb\tc\r\""), ElementsAre("a\nb\tc\r"));
}

TEST(Tokenizer, HashIsNotAComment) {
  EXPECT_THAT(texts("add # note #tag"), ElementsAre("add", "#", "note", "#tag"));
}

TEST(Tokenizer, UnicodePassesThrough) {
  const std::string input = "add Caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x8E\xB9";
  EXPECT_THAT(texts(input),
              ElementsAre("add", "Caf\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x8E\xB9"));
}

TEST(Tokenizer, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_THAT(texts("\xFF"), ElementsAre(fffd));
  EXPECT_THAT(texts("a\xC3"), ElementsAre("a" + fffd));                 // truncated at the end
  EXPECT_THAT(texts("\xE2\x82x"), ElementsAre(fffd + "x"));             // truncated, one subpart
  EXPECT_THAT(texts("\xC0\xAF"), ElementsAre(fffd + fffd));             // overlong
  EXPECT_THAT(texts("\xED\xA0\x80"), ElementsAre(fffd + fffd + fffd));  // encoded surrogate
  EXPECT_THAT(texts("\xF4\x90\x80\x80"), ElementsAre(fffd + fffd + fffd + fffd));  // > U+10FFFF
  EXPECT_THAT(texts("\x80 ok"), ElementsAre(fffd, "ok"));  // stray continuation byte
  EXPECT_THAT(texts("\"a\xFF b\""), ElementsAre("a" + fffd + " b"));
  EXPECT_THAT(texts("label:\"\xFE\""), ElementsAre("label:" + fffd));
}

TEST(Tokenizer, OutputIsAlwaysValidUtf8) {
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> byte(0, 255);
  const std::string alphabet = " \"'\\u:ab0D8E";
  int checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string input;
    const int length = 1 + round % 24;
    for (int i = 0; i < length; ++i) {
      const int b = byte(random);
      input +=
          b < 128 ? alphabet[static_cast<std::size_t>(b) % alphabet.size()] : static_cast<char>(b);
    }
    auto tokens = tokenize(input);
    if (!tokens) continue;
    ++checked;
    for (const Token& token : *tokens)
      EXPECT_TRUE(is_valid_utf8(token.text)) << input;
  }
  EXPECT_GT(checked, 500);
}

TEST(Tokenizer, UnterminatedQuoteReportsTheColumnOfTheOpeningQuote) {
  EXPECT_EQ(error_of(R"("abc)"), "unterminated quote at column 1");
  EXPECT_EQ(error_of(R"(add "My Track)"), "unterminated quote at column 5");
  EXPECT_EQ(error_of("add 'x"), "unterminated quote at column 5");
  EXPECT_EQ(error_of(R"(add label:"Auth)"), "unterminated quote at column 11");
  EXPECT_EQ(error_of(R"(a "b" "c)"), "unterminated quote at column 7");
  EXPECT_EQ(error_of(R"("abc\")"), "unterminated quote at column 1");
  EXPECT_EQ(error_of("\"abc'"), "unterminated quote at column 1");
  EXPECT_EQ(error_of("it's"), "unterminated quote at column 3");
  EXPECT_EQ(error_of("\"abc\\"), "unterminated quote at column 1");
  // Columns count code points, not bytes.
  EXPECT_EQ(error_of("\xC3\xA9\xC3\xA9 \"x"), "unterminated quote at column 4");
}

TEST(Tokenizer, ManyTokens) {
  std::string input;
  for (int i = 0; i < 10000; ++i) {
    input += 't';
    input += std::to_string(i);
    input += i % 2 ? ' ' : '\t';
  }
  auto tokens = tokenize(input);
  ASSERT_TRUE(tokens);
  ASSERT_EQ(tokens->size(), 10000u);
  EXPECT_EQ(tokens->front().text, "t0");
  EXPECT_EQ(tokens->back().text, "t9999");
}

// TokenStream's views: into the input where nothing was unescaped, into the token's own storage
// otherwise; either way the same text tokenize() returns.
TEST(TokenStream, ViewsTheInputUnlessTheTokenNeededUnescaping) {
  const std::string input = R"(add "User DB" label:"a b" "x\"y" )"
                            "caf\xC3\xA9 bad\xFF";
  const auto inside_input = [&](std::string_view text) {
    return text.data() >= input.data() && text.data() + text.size() <= input.data() + input.size();
  };
  TokenStream stream(input);
  TokenView token;
  std::vector<std::pair<std::string, bool>> seen;  // text, viewed in the input
  for (;;) {
    auto more = stream.next(token);
    ASSERT_TRUE(more) << more.error().message;
    if (!*more) break;
    seen.emplace_back(std::string(token.text), inside_input(token.text));
  }
  const std::vector<std::pair<std::string, bool>> expected{
      {"add", true},   {"User DB", true},      {"label:a b", false},
      {"x\"y", false}, {"caf\xC3\xA9", false}, {"bad\xEF\xBF\xBD", false}};
  EXPECT_EQ(seen, expected);
  auto tokens = tokenize(input);
  ASSERT_TRUE(tokens);
  ASSERT_EQ(tokens->size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ((*tokens)[i].text, expected[i].first);
}

TEST(Trim, RemovesAsciiWhitespaceAtBothEnds) {
  EXPECT_EQ(trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(trim("\n\n"), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("x"), "x");
  EXPECT_EQ(trim("\xC2\xA0x"), "\xC2\xA0x");  // only ASCII whitespace
}

}  // namespace
}  // namespace fcp::core
