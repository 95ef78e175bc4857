#include "domains/drawio/model/style.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fcp::drawio {
namespace {

std::vector<std::string> keys(const Style& style) {
  std::vector<std::string> out;
  for (const StyleToken& token : style.tokens())
    out.push_back(token.key);
  return out;
}

TEST(StyleTest, ParsesKeyValuesAndBareTokensInOrder) {
  const Style style = Style::parse("text;html=1;align=center;edgeLabel;");
  EXPECT_THAT(keys(style), ::testing::ElementsAre("text", "html", "align", "edgeLabel"));
  EXPECT_TRUE(style.has("text"));
  EXPECT_TRUE(style.has("edgeLabel"));
  EXPECT_FALSE(style.has("html"));  // a key with a value is not a bare token
  EXPECT_TRUE(style.has_key("html"));
  EXPECT_EQ(style.get("align"), "center");
  EXPECT_EQ(style.get("text"), std::nullopt);  // bare tokens have no value
  EXPECT_EQ(style.tokens()[0].value, std::nullopt);
}

class StyleRoundTripTest : public ::testing::TestWithParam<const char*> {};

TEST_P(StyleRoundTripTest, PrintsExactlyWhatItParsed) {
  EXPECT_EQ(Style::parse(GetParam()).str(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, StyleRoundTripTest,
    ::testing::Values("", ";", ";;", "rounded=1;whiteSpace=wrap;html=1;",
                      "rounded=1;whiteSpace=wrap;html=1", "swimlane", "ellipse;", "a=1;;b=2;",
                      ";a=1", "fillColor=#fff;9E9E9E;", "key=", "=value;",
                      "fontSize= 12; fillColor=red",
                      "image=data:image/svg+xml,PHN2ZyB4bWxucz0i=;aspect=fixed;",
                      "shape=stencil(rVbLbhsxDPya==);", "x=1;x=2;x=3;", "label=a=b=c;",
                      "text;html=1;align=center;verticalAlign=middle"));

TEST(StyleTest, SplitsEachTokenAtTheFirstEqualsSign) {
  const Style style = Style::parse("image=data:image/png,iVBOR==;label=a=b");
  EXPECT_EQ(style.get("image"), "data:image/png,iVBOR==");
  EXPECT_EQ(style.get("label"), "a=b");
}

TEST(StyleTest, KeepsTheTrailingSemicolonFlag) {
  EXPECT_TRUE(Style::parse("a=1;").trailing_semicolon());
  EXPECT_FALSE(Style::parse("a=1").trailing_semicolon());
  Style style = Style::parse("a=1");
  style.set("b", "2");
  EXPECT_EQ(style.str(), "a=1;b=2");
}

TEST(StyleTest, DuplicatesArePreservedAndTheLastOneWins) {
  Style style = Style::parse("fillColor=#dae8fc;strokeColor=#000;fillColor=#ffffff;");
  EXPECT_EQ(style.size(), 3u);
  EXPECT_EQ(style.get("fillColor"), "#ffffff");
  style.set("fillColor", "#ff0000");  // edits the effective (last) occurrence in place
  EXPECT_EQ(style.str(), "fillColor=#dae8fc;strokeColor=#000;fillColor=#ff0000;");
  EXPECT_TRUE(style.erase("fillColor"));  // all occurrences, or an older one would resurface
  EXPECT_EQ(style.str(), "strokeColor=#000;");
  EXPECT_FALSE(style.erase("fillColor"));
}

TEST(StyleTest, SetReplacesInPlaceOrAppends) {
  Style style = Style::parse("rounded=0;whiteSpace=wrap;");
  style.set("rounded", "1");
  style.set("dashed", "1");
  EXPECT_EQ(style.str(), "rounded=1;whiteSpace=wrap;dashed=1;");
}

TEST(StyleTest, BareTokensCanBeAddedOnceAndErased) {
  Style style = Style::parse("html=1");
  style.add_bare("text");
  style.add_bare("text");
  EXPECT_EQ(style.str(), "html=1;text");
  EXPECT_TRUE(style.erase("text"));
  EXPECT_EQ(style.str(), "html=1");
}

TEST(StyleTest, AnEmptyStyleGainsDrawioTrailingSemicolonWithItsFirstToken) {
  Style style;
  EXPECT_EQ(style.str(), "");
  style.set("rounded", "1");
  EXPECT_EQ(style.str(), "rounded=1;");
  Style bare;
  bare.add_bare("ellipse");
  EXPECT_EQ(bare.str(), "ellipse;");
}

TEST(StyleTest, EqualityComparesTokensAndTheFlag) {
  EXPECT_EQ(Style::parse("a=1;b"), Style::parse("a=1;b"));
  EXPECT_NE(Style::parse("a=1;b"), Style::parse("a=1;b;"));
  EXPECT_NE(Style::parse("a=1;b"), Style::parse("b;a=1"));
}

}  // namespace
}  // namespace fcp::drawio
