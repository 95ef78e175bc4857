#include "domains/drawio/io/codec.hpp"

#include <gtest/gtest.h>

#include <string>

namespace fcp::drawio {
namespace {

TEST(Base64Test, DecodesStandardUrlSafeUnpaddedAndWrappedText) {
  EXPECT_EQ(base64_decode("aGVsbG8gd29ybGQ=").value(), "hello world");
  EXPECT_EQ(base64_decode("aGVsbG8gd29ybGQ").value(), "hello world");
  EXPECT_EQ(base64_decode(" aGVs\nbG8g\r\nd29y bGQ= \n").value(), "hello world");
  EXPECT_EQ(base64_decode("-_8=").value(), "\xfb\xff");
  EXPECT_EQ(base64_decode("+/8=").value(), "\xfb\xff");
  EXPECT_EQ(base64_decode("").value(), "");
}

TEST(Base64Test, RejectsGarbage) {
  EXPECT_FALSE(base64_decode("abc$").has_value());
  EXPECT_FALSE(base64_decode("a").has_value());     // one dangling symbol is no byte
  EXPECT_FALSE(base64_decode("ab=c").has_value());  // data after padding
  EXPECT_NE(base64_decode("ab\x01").error().message.find("offset 2"), std::string::npos);
}

TEST(Base64Test, EncodesAndRoundTripsEveryByte) {
  EXPECT_EQ(base64_encode("hello world"), "aGVsbG8gd29ybGQ=");
  EXPECT_EQ(base64_encode("ab"), "YWI=");
  EXPECT_EQ(base64_encode(""), "");
  std::string all;
  for (int i = 0; i < 256; ++i)
    all.push_back(static_cast<char>(i));
  for (std::size_t n = 0; n < 5; ++n) {
    const std::string chunk = all.substr(n);
    EXPECT_EQ(base64_decode(base64_encode(chunk)).value(), chunk);
  }
}

TEST(InflateTest, InflatesRawDeflate) {
  const std::string text = "<mxGraphModel><root><mxCell id=\"0\"/></root></mxGraphModel>";
  InflateBudget budget;
  const std::size_t before = budget.remaining;
  auto inflated = inflate(deflate_raw(text), budget);
  ASSERT_TRUE(inflated.has_value()) << inflated.error().message;
  EXPECT_EQ(*inflated, text);
  EXPECT_EQ(budget.remaining, before - text.size());
}

TEST(InflateTest, AcceptsZlibWrappedStreams) {
  // zlib header 78 9C + the stored (uncompressed) block "hi" + Adler-32, built by hand.
  const std::string wrapped("\x78\x9c\x01\x02\x00\xfd\xff\x68\x69\x01\x3b\x00\xd2", 13);
  InflateBudget budget;
  auto inflated = inflate(wrapped, budget);
  ASSERT_TRUE(inflated.has_value()) << inflated.error().message;
  EXPECT_EQ(*inflated, "hi");
}

TEST(InflateTest, RejectsTruncatedAndCorruptData) {
  const std::string compressed = deflate_raw(std::string(5000, 'x') + "tail of the data");
  InflateBudget budget;
  EXPECT_FALSE(inflate(compressed.substr(0, compressed.size() / 2), budget).has_value());
  EXPECT_FALSE(inflate("\xff\xff\xff\xff not deflate", budget).has_value());
}

TEST(InflateTest, StopsDeflateBombsAtTheRatioLimit) {
  const std::string bomb = deflate_raw(std::string(std::size_t{32} << 20, '\0'));
  ASSERT_LT(bomb.size(), std::size_t{64} << 10);
  InflateBudget budget;
  auto inflated = inflate(bomb, budget);
  ASSERT_FALSE(inflated.has_value());
  EXPECT_NE(inflated.error().message.find("deflate bomb"), std::string::npos)
      << inflated.error().message;
}

TEST(InflateTest, StopsAtTheTotalBudget) {
  const std::string data = deflate_raw(std::string(4096, 'a'));
  InflateBudget budget;
  budget.remaining = 1000;
  EXPECT_FALSE(inflate(data, budget).has_value());
}

TEST(UrlCodingTest, DecodesLikeDecodeUriComponentIncludingUtf8) {
  EXPECT_EQ(url_decode("%3CmxCell%20id%3D%220%22%2F%3E"), "<mxCell id=\"0\"/>");
  EXPECT_EQ(url_decode("Gr%C3%BC%C3%9Fe%20%E2%86%92%20%E4%B8%96"), "Grüße → 世");
  EXPECT_EQ(url_decode("a+b"), "a+b");  // '+' is not a space in decodeURIComponent
  EXPECT_EQ(url_decode("100%"), "100%");
  EXPECT_EQ(url_decode("%zz%4"), "%zz%4");
}

TEST(UrlCodingTest, EncodesLikeEncodeUriComponent) {
  EXPECT_EQ(url_encode("a b<c>&'()*!~-_.é"), "a%20b%3Cc%3E%26'()*!~-_.%C3%A9");
  const std::string text = "<x a=\"50% → done\"/>\n";
  EXPECT_EQ(url_decode(url_encode(text)), text);
}

TEST(XmlTextTest, FindsInvalidUtf8AndForbiddenCharacters) {
  EXPECT_EQ(find_invalid_xml_text("plain ascii\ttab\nnewline\r"), std::nullopt);
  EXPECT_EQ(find_invalid_xml_text("Grüße → 世界 𝄞"), std::nullopt);
  EXPECT_EQ(find_invalid_xml_text("ab\x01"), 2u);
  EXPECT_EQ(find_invalid_xml_text("a\xc3"), 1u);             // truncated sequence
  EXPECT_EQ(find_invalid_xml_text("a\xc0\xaf"), 1u);         // overlong
  EXPECT_EQ(find_invalid_xml_text("\xed\xa0\x80"), 0u);      // UTF-16 surrogate
  EXPECT_EQ(find_invalid_xml_text("x\xef\xbf\xbf"), 1u);     // U+FFFF
  EXPECT_EQ(find_invalid_xml_text("\xf4\x90\x80\x80"), 0u);  // beyond U+10FFFF
  EXPECT_EQ(find_invalid_xml_text("ok\xff"), 2u);
}

TEST(PageTextTest, DecodesTheThreeEncodings) {
  const std::string xml = "<mxGraphModel><root/></mxGraphModel>";
  InflateBudget budget;
  auto compressed = decode_page_text("\n  " + encode_page_text(xml) + "\n", budget);
  ASSERT_TRUE(compressed.has_value());
  EXPECT_EQ(compressed->xml, xml);
  EXPECT_TRUE(compressed->compressed);
  auto encoded = decode_page_text(url_encode(xml), budget);
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(encoded->xml, xml);
  EXPECT_FALSE(encoded->compressed);
  auto plain = decode_page_text(xml, budget);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->xml, xml);
  // Inflated text that is already XML (not URI-encoded) is taken as it is.
  auto unencoded = decode_page_text(base64_encode(deflate_raw(xml)), budget);
  ASSERT_TRUE(unencoded.has_value());
  EXPECT_EQ(unencoded->xml, xml);
}

}  // namespace
}  // namespace fcp::drawio
