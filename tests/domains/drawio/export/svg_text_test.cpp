// Label text, escaping, numbers and colours: the small pieces the SVG renderer is built from.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "domains/drawio/export/label_text.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"

namespace fcp::drawio::render::detail {
namespace {

TEST(LabelLines, SplitsPlainTextAtNewlines) {
  EXPECT_EQ(label_lines("a\nb\n\n", false), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(label_lines("a\n\nb", false), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(label_lines("<b>x</b>", false), (std::vector<std::string>{"<b>x</b>"}));
  EXPECT_EQ(label_lines("<b>x</b><br>y", true), (std::vector<std::string>{"x", "y"}));
}

TEST(LabelLines, CapsHugeLabels) {
  const auto lines = label_lines(std::string(100000, 'x'), false);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_LE(lines.front().size(), kMaxLabelChars + 3);
  EXPECT_TRUE(lines.front().ends_with("\u2026"));
  std::string many;
  for (int i = 0; i < 500; ++i)
    many += "line\n";
  EXPECT_EQ(label_lines(many, false).size(), kMaxLabelLines);
}

TEST(WrapLines, BreaksAtSpacesWithinTheWidth) {
  const std::vector<std::string> lines = wrap_lines({"one two three four five six"}, 60, 12, false);
  EXPECT_GT(lines.size(), 1u);
  std::string joined;
  for (const std::string& line : lines) {
    EXPECT_LE(text_width(line, 12, false), 60) << line;
    joined += (joined.empty() ? "" : " ") + line;
  }
  EXPECT_EQ(joined, "one two three four five six");
  // A word wider than the line overflows it on a line of its own.
  EXPECT_EQ(wrap_lines({"a " + std::string(50, 'w') + " b"}, 60, 12, false),
            (std::vector<std::string>{"a", std::string(50, 'w'), "b"}));
  EXPECT_EQ(wrap_lines({"short"}, 200, 12, false), (std::vector<std::string>{"short"}));
}

TEST(FormatNumber, IsCompactAndLocaleFree) {
  EXPECT_EQ(format_number(120), "120");
  EXPECT_EQ(format_number(0.5), "0.5");
  EXPECT_EQ(format_number(-3.256), "-3.26");
  EXPECT_EQ(format_number(-0.001), "0");
  EXPECT_EQ(format_number(1e300), "1000000");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-1000000");
  EXPECT_EQ(format_number(std::nan("")), "0");
}

TEST(AppendEscaped, EscapesMarkupAndDropsWhatXmlForbids) {
  std::string out;
  append_escaped(out, "<a & \"b\" 'c'>\n\t");
  EXPECT_EQ(out, "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;&#10;&#9;");
  out.clear();
  append_escaped(out, std::string("ok\x01\x1f") + "\xff" + "\xc3\xa9" + "\xed\xa0\x80");
  EXPECT_EQ(out, "ok\uFFFD\u00e9\uFFFD");
  out.clear();
  append_escaped_text(out, "line\nnext");
  EXPECT_EQ(out, "line\nnext");
}

TEST(CssColor, AcceptsColoursAndRejectsEverythingElse) {
  EXPECT_EQ(css_color("#fff"), "#fff");
  EXPECT_EQ(css_color(" #DAE8FC "), "#DAE8FC");
  EXPECT_EQ(css_color("#12345678"), "#123456");
  EXPECT_EQ(css_color("none"), "");
  EXPECT_EQ(css_color("red"), "red");
  EXPECT_EQ(css_color("rgba(0, 0, 0, 0.5)"), "rgba(0, 0, 0, 0.5)");
  EXPECT_EQ(css_color("light-dark(#111111, #eeeeee)"), "#111111");
  EXPECT_EQ(css_color("default"), std::nullopt);
  EXPECT_EQ(css_color("#ggg"), std::nullopt);
  EXPECT_EQ(css_color("url(#x)"), std::nullopt);
  EXPECT_EQ(css_color("\"/><script>"), std::nullopt);
}

TEST(StyleView, AppliesNamedStylesInTokenOrder) {
  Cell cell;
  cell.style = Style::parse("fillColor=#ff0000;text;");
  const StyleView text_after(cell, false);
  EXPECT_EQ(text_after.color("fillColor", "#FFFFFF"), "");  // text's fillColor=none wins
  EXPECT_EQ(text_after.text("align"), "left");

  cell.style = Style::parse("text;fillColor=#ff0000;align=center;");
  const StyleView text_before(cell, false);
  EXPECT_EQ(text_before.color("fillColor", "#FFFFFF"), "#ff0000");
  EXPECT_EQ(text_before.text("align"), "center");

  cell.style = Style::parse("ellipse;fontSize=abc;strokeWidth=2.5");
  const StyleView ellipse(cell, false);
  EXPECT_EQ(ellipse.shape(), "ellipse");
  EXPECT_EQ(ellipse.number("fontSize", 12), 12);
  EXPECT_EQ(ellipse.number("strokeWidth", 1), 2.5);

  Cell edge;
  const StyleView defaults(edge, true);
  EXPECT_EQ(defaults.text("endArrow"), "classic");
  EXPECT_EQ(defaults.shape(), "connector");
}

TEST(FontFamily, KeepsOneSafeFamilyWithFallbacks) {
  EXPECT_EQ(font_family("Helvetica"), "Helvetica, Arial, sans-serif");
  EXPECT_EQ(font_family("Courier New"), "Courier New, Helvetica, Arial, sans-serif");
  EXPECT_EQ(font_family("\"><x"), "x, Helvetica, Arial, sans-serif");
}

}  // namespace
}  // namespace fcp::drawio::render::detail
