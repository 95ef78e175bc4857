// HTML label markup reduced to what a reader sees, and character references.
#include "domains/drawio/model/label_markup.hpp"

#include <gtest/gtest.h>

#include <string>

namespace fcp::drawio {
namespace {

struct HtmlCase {
  std::string_view html;
  std::string_view text;
};

class HtmlToText : public ::testing::TestWithParam<HtmlCase> {};

TEST_P(HtmlToText, ReducesMarkupToLines) {
  EXPECT_EQ(html_to_text(GetParam().html), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Labels, HtmlToText,
    ::testing::Values(HtmlCase{"a<br>b", "a\nb"}, HtmlCase{"a<br/>b<BR />c", "a\nb\nc"},
                      HtmlCase{"<div>x</div><div>y</div>", "x\ny"},
                      HtmlCase{"top<div>next</div>", "top\nnext"},
                      HtmlCase{"&lt;b&gt; &amp; &#65;&#x42; &quot;q&quot;", "<b> & AB \"q\""},
                      HtmlCase{"<b>bold</b> <i>text</i>", "bold text"},
                      HtmlCase{"a\n   b\t c", "a b c"}, HtmlCase{"a&nbsp;&nbsp;b", "a b"},
                      HtmlCase{"<ul><li>one</li><li>two</li></ul>", "\u2022 one\n\u2022 two"},
                      HtmlCase{"<style>p { color: red }</style>x", "x"},
                      HtmlCase{"<span style=\"a>b\">quoted</span>", "quoted"},
                      HtmlCase{"5 < 6 and &unknown; & done", "5 < 6 and &unknown; & done"},
                      HtmlCase{"<!-- note -->kept", "kept"},
                      HtmlCase{"<p>one</p><p>two</p>", "one\ntwo"}));

TEST(HtmlEntities, DecodesNamedDecimalAndHexReferencesOnly) {
  std::string out;
  EXPECT_EQ(decode_html_entity("x&amp;y", 1, out), 5u);
  EXPECT_EQ(decode_html_entity("&#10;", 0, out), 5u);
  EXPECT_EQ(decode_html_entity("&#x2192;", 0, out), 8u);
  EXPECT_EQ(decode_html_entity("&#xD800;", 0, out), 8u);  // a lone surrogate: U+FFFD
  EXPECT_EQ(out, "&\n\u2192\uFFFD");
  EXPECT_EQ(decode_html_entity("&bogus;", 0, out), 0u);
  EXPECT_EQ(decode_html_entity("& alone", 0, out), 0u);
  EXPECT_EQ(decode_html_entity("&#12x;", 0, out), 0u);
  EXPECT_EQ(decode_html_entity("&averyveryverylongname;", 0, out), 0u);
  EXPECT_EQ(out, "&\n\u2192\uFFFD");  // nothing appended by the failures
}

}  // namespace
}  // namespace fcp::drawio
