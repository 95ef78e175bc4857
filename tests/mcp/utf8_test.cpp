#include "mcp/utf8.hpp"

#include <gtest/gtest.h>

namespace fcp::mcp {
namespace {

TEST(Utf8, ValidTextIsUnchanged) {
  for (const char* text : {"", "plain", "Grüße", "日本語", "\xF0\x9F\x8E\xB9 piano"}) {
    EXPECT_TRUE(is_valid_utf8(text)) << text;
    EXPECT_EQ(to_valid_utf8(text), text);
  }
}

TEST(Utf8, InvalidSequencesBecomeReplacementCharacters) {
  EXPECT_EQ(to_valid_utf8("a\xFFz"), "a\xEF\xBF\xBDz");
  EXPECT_EQ(to_valid_utf8("\xC3"), "\xEF\xBF\xBD");                                  // truncated
  EXPECT_EQ(to_valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong
  EXPECT_EQ(to_valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
}

}  // namespace
}  // namespace fcp::mcp
