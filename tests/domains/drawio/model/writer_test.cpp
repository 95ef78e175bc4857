#include "domains/drawio/io/writer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "domains/drawio/io/reader.hpp"
#include "drawio_test_support.hpp"

namespace fcp::drawio {
namespace {

using testing::first_difference;
using testing::fixture;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_ok;
using testing::xmllint_accepts;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

class FixtureRoundTripTest : public ::testing::TestWithParam<const char*> {};

TEST_P(FixtureRoundTripTest, WriteThenReadGivesTheSameDiagram) {
  const Diagram original = read_ok(fixture(GetParam()));
  const std::string written = write_drawio(original);
  const Diagram reread = read_ok(written);
  EXPECT_EQ(first_difference(original, reread), "");
  EXPECT_TRUE(original == reread);
  EXPECT_EQ(write_drawio(reread), written);  // writing is stable
  if (auto accepted = xmllint_accepts(written)) {
    EXPECT_TRUE(*accepted) << written;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureRoundTripTest,
                         ::testing::Values("multi-page-layers.drawio", "compressed.drawio",
                                           "compressed.drawio.svg", "bare-model.xml"));

TEST(WriterTest, WritesStandardUncompressedDrawioXml) {
  const std::string written =
      write_drawio(read_ok(fixture("compressed.drawio")), WriteOptions{.compress = false});
  EXPECT_THAT(written, ::testing::StartsWith("<mxfile host=\"fcp-fixture\" compressed=\"true\""));
  EXPECT_THAT(written, HasSubstr("<diagram id=\"p1\" name=\"Flow\">\n    <mxGraphModel dx="));
  EXPECT_THAT(written, HasSubstr("<mxCell id=\"0\"/>"));
  EXPECT_THAT(written, HasSubstr("<mxCell id=\"1\" parent=\"0\"/>"));
  EXPECT_THAT(written, HasSubstr("value=\"Grüße → 世界\""));
  EXPECT_THAT(written, HasSubstr("<mxGeometry x=\"40\" y=\"40\" width=\"120\" height=\"60\" "
                                 "as=\"geometry\"/>"));
  EXPECT_THAT(written, HasSubstr("<diagram id=\"p3\" name=\"Blank\"/>"));
  EXPECT_THAT(written, Not(HasSubstr("tZT")));  // no compressed text left
}

TEST(WriterTest, EscapesAttributeWhitespaceSoItSurvivesRereading) {
  Diagram diagram = read_ok(
      "<mxfile><diagram id=\"d\"><mxGraphModel><root><mxCell id=\"0\"/>"
      "</root></mxGraphModel></diagram></mxfile>");
  Cell cell;
  cell.id = "c";
  cell.parent = "0";
  cell.value = "line 1\nline 2\r\n\ttabbed \"quoted\" <b>&amp;</b> 'single'";
  diagram.pages()[0].insert(cell);
  const std::string written = write_drawio(diagram);
  EXPECT_THAT(written, HasSubstr("value=\"line 1&#10;line 2&#13;&#10;&#9;tabbed &quot;quoted&quot; "
                                 "&lt;b&gt;&amp;amp;&lt;/b&gt; 'single'\""));
  EXPECT_EQ(read_ok(written).pages()[0].find("c")->value, cell.value);
}

TEST(WriterTest, KeepsAttributeOrderAndWritesNewCellsInDrawioOrder) {
  Diagram diagram = read_ok(fixture("multi-page-layers.drawio"));
  Cell cell;
  cell.id = "new";
  cell.vertex = true;
  cell.parent = "1";
  cell.style = Style::parse("rounded=1;");
  cell.value = "New";
  cell.geometry.emplace().width = 10;
  diagram.pages()[0].insert(cell);
  const std::string written = write_drawio(diagram);
  EXPECT_THAT(written, HasSubstr("style=\"rounded=1;whiteSpace=wrap;html=1;\" parent=\"lane\" "
                                 "vertex=\"1\">"));
  EXPECT_THAT(written, HasSubstr("style=\"text;html=1;align=center;verticalAlign=middle\" "
                                 "vertex=\"1\" parent=\"1\">"));
  EXPECT_THAT(written, HasSubstr("<mxCell id=\"new\" value=\"New\" style=\"rounded=1;\" "
                                 "parent=\"1\" vertex=\"1\">\n          <mxGeometry "
                                 "width=\"10\" as=\"geometry\"/>"));
}

TEST(WriterTest, WritesWrappersWithIdAndLabelOnTheWrapper) {
  const std::string written = write_drawio(read_ok(fixture("multi-page-layers.drawio")));
  EXPECT_THAT(written,
              HasSubstr("<UserObject label=\"Service %name%\" placeholders=\"1\" name=\"auth\" "
                        "tooltip=\"Handles&#10;logins\" link=\"https://example.com/?a=1&amp;b=2\" "
                        "id=\"svc\">\n          <mxCell style=\"shape=image;"));
  Diagram diagram;
  Page page;
  Cell cell;
  cell.id = "w";
  cell.value = "Wrapped";
  cell.vertex = true;
  cell.parent = "1";
  cell.wrapper.emplace().attributes.set("owner", "me");
  page.insert(cell);
  diagram.add_page(page);
  EXPECT_THAT(write_drawio(diagram),
              HasSubstr("<object label=\"Wrapped\" id=\"w\" owner=\"me\">\n          <mxCell "
                        "parent=\"1\" vertex=\"1\"/>\n        </object>"));
}

TEST(WriterTest, AnEditChangesOnlyItsOwnLine) {
  const Diagram original = read_ok(fixture("multi-page-layers.drawio"));
  Diagram edited = original;
  edited.pages()[0].find("box")->style->set("strokeColor", "#ff0000");
  const auto before = lines_of(write_drawio(original));
  const auto after = lines_of(write_drawio(edited));
  ASSERT_EQ(before.size(), after.size());
  int changed = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i] == after[i]) continue;
    ++changed;
    EXPECT_THAT(after[i], HasSubstr("style=\"fillColor=#dae8fc;strokeColor=#ff0000;"
                                    "fillColor=#ffffff;ellipse;\""));
  }
  EXPECT_EQ(changed, 1);
}

TEST(WriterTest, CompressOptionWritesDrawioCompressedPages) {
  const Diagram original = read_ok(fixture("multi-page-layers.drawio"));
  const std::string written = write_drawio(original, WriteOptions{.compress = true});
  EXPECT_THAT(written, Not(HasSubstr("<mxGraphModel")));
  const Diagram reread = read_ok(written);
  EXPECT_EQ(first_difference(original, reread), "");
  EXPECT_TRUE(reread.pages()[0].was_compressed());
}

TEST(WriterTest, APageReadCompressedIsWrittenCompressed) {
  const Diagram original = read_ok(fixture("multi-page-layers.drawio"));
  const Diagram compressed = read_ok(write_drawio(original, WriteOptions{.compress = true}));
  const std::string written = write_drawio(compressed);
  EXPECT_THAT(written, Not(HasSubstr("<mxGraphModel")));
  EXPECT_EQ(first_difference(original, read_ok(written)), "");
}

TEST(WriterTest, WritesVerbatimTextCdataAndMixedContentUnchanged) {
  const std::string file =
      "<mxfile><diagram id=\"d\"><mxGraphModel><root><mxCell id=\"0\"><note a=\"1\">Some "
      "<b>bold</b> text &amp; <![CDATA[raw <x> ]]]]><![CDATA[> end]]></note></mxCell></root>"
      "</mxGraphModel></diagram></mxfile>";
  const Diagram diagram = read_ok(file);
  const std::string written = write_drawio(diagram);
  EXPECT_THAT(written, HasSubstr("<note a=\"1\">Some <b>bold</b> text &amp; <![CDATA[raw <x> "
                                 "]]]]><![CDATA[> end]]></note>"));
  EXPECT_EQ(first_difference(diagram, read_ok(written)), "");
}

// Found by fuzz_drawio: text directly inside mxGeometry, mxCell, a wrapper, root, mxGraphModel,
// diagram or mxfile got the writer's indentation appended, so every save grew it.
TEST(WriterTest, TextBesideTypedChildrenReadsBackUnchanged) {
  const std::string file =
      "<mxfile>tail<diagram id=\"d\">x<mxGraphModel>m<root>r<mxCell id=\"0\"/>"
      "<object id=\"2\" label=\"L\">w<mxCell vertex=\"1\" parent=\"0\">c<mxGeometry "
      "width=\"1\" height=\"2\" as=\"geometry\"><mxPoint x=\"1\" y=\"2\" as=\"sourcePoint\"/>"
      "vertex  <mxPoint x=\"-10\" y=\"5\" as=\"offset\"/></mxGeometry></mxCell></object>"
      "</root></mxGraphModel></diagram></mxfile>";
  const Diagram diagram = read_ok(file);
  const std::string written = write_drawio(diagram);
  const Diagram reread = read_ok(written);
  EXPECT_EQ(first_difference(diagram, reread), "");
  EXPECT_EQ(write_drawio(reread), written);
  EXPECT_THAT(written, HasSubstr("as=\"sourcePoint\"/>vertex  <mxPoint"));
}

TEST(WriterTest, WritesABareGraphModel) {
  const Diagram diagram = read_ok(fixture("bare-model.xml"));
  const std::string model = write_graph_model(diagram.pages()[0]);
  EXPECT_THAT(model, ::testing::StartsWith("<mxGraphModel dx=\"800\""));
  const Diagram reread = read_ok(model);
  EXPECT_EQ(reread.pages()[0].cells(), diagram.pages()[0].cells());
}

TEST(WriterTest, WritesABlankPageAsDrawioDoes) {
  Diagram diagram;
  diagram.add_page(Page::make_blank("p1", "Page-1"));
  EXPECT_EQ(write_drawio(diagram),
            "<mxfile>\n  <diagram id=\"p1\" name=\"Page-1\">\n    <mxGraphModel grid=\"1\" "
            "gridSize=\"10\" guides=\"1\" tooltips=\"1\" connect=\"1\" arrows=\"1\" fold=\"1\" "
            "page=\"1\" pageScale=\"1\" pageWidth=\"827\" pageHeight=\"1169\" math=\"0\" "
            "shadow=\"0\">\n      <root>\n"
            "        <mxCell id=\"0\"/>\n        <mxCell id=\"1\" parent=\"0\"/>\n      </root>\n"
            "    </mxGraphModel>\n  </diagram>\n</mxfile>\n");
  EXPECT_EQ(diagram.pages()[0].layers().size(), 1u);
}

TEST(WriterTest, WritesAnEmptyFile) {
  EXPECT_EQ(write_drawio(Diagram()), "<mxfile/>\n");
}

}  // namespace
}  // namespace fcp::drawio
