#include "core/utf8.hpp"

#include <gtest/gtest.h>

namespace fcp::core {
namespace {

std::string encoded(char32_t code) {
  std::string out;
  append_utf8(out, code);
  return out;
}

TEST(Utf8, EncodesEachLength) {
  EXPECT_EQ(encoded(U'A'), "A");
  EXPECT_EQ(encoded(U'\u00e9'), "\xC3\xA9");
  EXPECT_EQ(encoded(U'\u2192'), "\xE2\x86\x92");
  EXPECT_EQ(encoded(U'\U0001F3B9'), "\xF0\x9F\x8E\xB9");
}

TEST(Utf8, SurrogatesAndOutOfRangeBecomeReplacementCharacters) {
  EXPECT_EQ(encoded(0xD800), "\xEF\xBF\xBD");
  EXPECT_EQ(encoded(0xDFFF), "\xEF\xBF\xBD");
  EXPECT_EQ(encoded(0x110000), "\xEF\xBF\xBD");
}

}  // namespace
}  // namespace fcp::core
