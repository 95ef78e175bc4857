#include "domains/drawio/io/reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "domains/drawio/io/codec.hpp"
#include "domains/drawio/io/writer.hpp"
#include "drawio_test_support.hpp"

namespace fcp::drawio {
namespace {

using testing::fixture;
using testing::read_ok;

// A zlib stream around raw DEFLATE data: header 78 9C, the data, then Adler-32 (big-endian).
std::string zlib_wrap(std::string_view text) {
  std::uint32_t a = 1;
  std::uint32_t b = 0;
  for (char c : text) {
    a = (a + static_cast<unsigned char>(c)) % 65521;
    b = (b + a) % 65521;
  }
  const std::uint32_t adler = (b << 16) | a;
  std::string out = "\x78\x9c" + deflate_raw(text);
  for (int shift : {24, 16, 8, 0})
    out.push_back(static_cast<char>((adler >> shift) & 0xFF));
  return out;
}

class MultiPageFixtureTest : public ::testing::Test {
 protected:
  void SetUp() override { diagram_ = read_ok(fixture("multi-page-layers.drawio")); }
  const Page& page() const { return diagram_.pages().at(0); }
  const Cell& cell(std::string_view id) const {
    const Cell* found = page().find(id);
    EXPECT_NE(found, nullptr) << id;
    static const Cell none;
    return found != nullptr ? *found : none;
  }
  Diagram diagram_;
};

TEST_F(MultiPageFixtureTest, ReadsFileAndPageAttributesInOrder) {
  EXPECT_EQ(diagram_.source_format(), SourceFormat::mxfile);
  EXPECT_EQ(diagram_.file_attributes().size(), 6u);
  EXPECT_EQ(diagram_.file_attributes()[0].name, "host");
  EXPECT_EQ(diagram_.file_attributes().get("pages"), "2");
  ASSERT_EQ(diagram_.pages().size(), 2u);
  EXPECT_EQ(page().id(), "page-a");
  EXPECT_EQ(page().name(), "Layers & shapes");
  EXPECT_EQ(diagram_.pages()[1].diagram_attributes()[0].name, "name");  // order kept
  EXPECT_EQ(page().model_attributes().get("pageWidth"), "827");
  EXPECT_EQ(page().model_attributes().size(), 15u);
  EXPECT_EQ(page().cell_count(), 13u);
}

TEST_F(MultiPageFixtureTest, ReadsLayersWithVisibilityAndLock) {
  std::vector<std::string> layers;
  for (const Cell* layer : page().layers())
    layers.push_back(layer->id);
  EXPECT_THAT(layers, ::testing::ElementsAre("1", "hidden-layer", "locked-layer"));
  EXPECT_FALSE(cell("hidden-layer").is_visible());
  EXPECT_TRUE(cell("locked-layer").is_locked());
  EXPECT_TRUE(cell("1").is_visible());
  EXPECT_FALSE(cell("1").is_locked());
}

TEST_F(MultiPageFixtureTest, ReadsShapesKindsAndLabels) {
  EXPECT_TRUE(cell("lane").is_swimlane());
  EXPECT_TRUE(cell("lane").is_container());
  EXPECT_EQ(cell("in-lane").parent, "lane");
  EXPECT_EQ(cell("in-lane").value, "Line one\nLine two <b>bold</b>");
  EXPECT_TRUE(cell("note").is_text());
  EXPECT_FALSE(cell("note").style->trailing_semicolon());
  EXPECT_FALSE(cell("box").is_container());  // connectable="0" alone
  EXPECT_EQ(cell("box").attributes.get("connectable"), "0");
  EXPECT_EQ(cell("box").style_value("fillColor"), "#ffffff");
  EXPECT_EQ(cell("box").style->size(), 4u);
  EXPECT_TRUE(cell("box").has_style_token("ellipse"));
  EXPECT_TRUE(page().is_edge_label(cell("e1-label")));
  EXPECT_TRUE(cell("e1-label").has_style_token("edgeLabel"));
}

TEST_F(MultiPageFixtureTest, ReadsWrappersWithTheirIdLabelAndProperties) {
  const Cell& service = cell("svc");
  ASSERT_TRUE(service.wrapper.has_value());
  EXPECT_EQ(service.wrapper->element, "UserObject");
  EXPECT_EQ(service.value, "Service %name%");
  EXPECT_EQ(service.property("name"), "auth");
  EXPECT_EQ(service.property("tooltip"), "Handles\nlogins");
  EXPECT_EQ(service.property("link"), "https://example.com/?a=1&b=2");
  EXPECT_EQ(service.property("label"), std::nullopt);  // the label is the cell's value
  EXPECT_EQ(service.parent, "locked-layer");
  EXPECT_EQ(service.style_value("image"), "data:image/svg+xml,PHN2Zz48L3N2Zz4=");
  const Cell& db = cell("db");
  EXPECT_EQ(db.wrapper->element, "object");
  EXPECT_EQ(db.value, "");
  EXPECT_EQ(db.property("owner"), "ops");
}

TEST_F(MultiPageFixtureTest, ReadsGeometryPointsAndVerbatimChildren) {
  const Geometry& lane = *cell("lane").geometry;
  EXPECT_EQ(lane.x, 40);
  EXPECT_EQ(lane.width, 300);
  ASSERT_EQ(lane.children.size(), 1u);
  EXPECT_EQ(lane.children[0].name, "mxRectangle");
  EXPECT_EQ(lane.children[0].attributes.get("as"), "alternateBounds");
  EXPECT_EQ(cell("note").geometry->width, 90.5);

  const Geometry& edge = *cell("e1").geometry;
  EXPECT_TRUE(edge.relative);
  EXPECT_FALSE(edge.x.has_value());  // absent, not 0
  ASSERT_TRUE(edge.points.has_value());
  ASSERT_EQ(edge.points->size(), 2u);
  EXPECT_EQ((*edge.points)[1].y, 72.25);
  EXPECT_EQ(edge.offset->x, -10);
  EXPECT_EQ(cell("e1").source, "in-lane");
  EXPECT_EQ(cell("e1").target, "svc");

  const Geometry& label = *cell("e1-label").geometry;
  EXPECT_EQ(label.x, -0.2);
  ASSERT_TRUE(label.offset.has_value());
  EXPECT_FALSE(label.offset->x.has_value());

  const Geometry& dangling = *cell("dangling").geometry;
  EXPECT_EQ(dangling.source_point->x, 100);
  EXPECT_EQ(dangling.target_point->y, 350);
  EXPECT_FALSE(cell("dangling").source.has_value());
}

TEST_F(MultiPageFixtureTest, KeepsAttributeOrderOfEachCell) {
  // in-lane has `parent` before `vertex`; note has `vertex` before `parent`.
  EXPECT_THAT(cell("in-lane").order,
              ::testing::ElementsAre(CellSlot::id, CellSlot::value, CellSlot::style,
                                     CellSlot::parent, CellSlot::vertex));
  EXPECT_THAT(cell("note").order,
              ::testing::ElementsAre(CellSlot::id, CellSlot::value, CellSlot::style,
                                     CellSlot::vertex, CellSlot::parent));
}

TEST_F(MultiPageFixtureTest, ReservesEveryIdOfTheFile) {
  for (int i = 0; i < 200; ++i) {
    const std::string id = diagram_.allocate_id();
    for (const Page& p : diagram_.pages())
      EXPECT_FALSE(p.contains(id)) << id;
  }
}

TEST(ReaderTest, ReadsCompressedPagesAndEmptyDiagrams) {
  const Diagram diagram = read_ok(fixture("compressed.drawio"));
  ASSERT_EQ(diagram.pages().size(), 3u);
  const Page& flow = diagram.pages()[0];
  EXPECT_TRUE(flow.was_compressed());
  EXPECT_EQ(flow.name(), "Flow");
  EXPECT_EQ(flow.model_attributes().get("pageWidth"), "850");
  EXPECT_EQ(flow.find("a")->value, "Grüße → 世界");
  EXPECT_EQ(flow.find("b")->value, "50% done\nnext line");
  EXPECT_TRUE(flow.find("b")->has_style_token("ellipse"));
  EXPECT_EQ(flow.find("c")->wrapper->element, "UserObject");
  EXPECT_EQ(flow.find("c")->property("link"), "data:page/id,p2");
  EXPECT_EQ(flow.find("ab")->style_value("endArrow"), "open");
  EXPECT_EQ(flow.find("ab")->style_value("startArrow"), std::nullopt);
  const Page& two = diagram.pages()[1];
  EXPECT_EQ(two.find("p2-shape")->parent, "p2-layer");
  EXPECT_EQ(two.layers().size(), 1u);
  const Page& blank = diagram.pages()[2];
  EXPECT_FALSE(blank.has_model());
  EXPECT_EQ(blank.cell_count(), 0u);
  EXPECT_EQ(blank.name(), "Blank");
}

TEST(ReaderTest, ReadsBareGraphModelAsOnePage) {
  Diagram diagram = read_ok(fixture("bare-model.xml"));
  EXPECT_EQ(diagram.source_format(), SourceFormat::graph_model);
  ASSERT_EQ(diagram.pages().size(), 1u);
  const Page& page = diagram.pages()[0];
  EXPECT_EQ(page.name(), "Page-1");
  EXPECT_FALSE(page.id().empty());
  EXPECT_FALSE(page.contains(page.id()));
  EXPECT_EQ(page.find("fcp-1")->style->str(), "rhombus;whiteSpace=wrap;html=1;");
  // The file already uses fcp-1 and fcp-2: new ids skip them.
  const std::string id = diagram.allocate_id();
  EXPECT_NE(id, "fcp-1");
  EXPECT_NE(id, "fcp-2");
  EXPECT_NE(id, page.id());
}

TEST(ReaderTest, ReadsDrawioSvgContent) {
  const Diagram diagram = read_ok(fixture("compressed.drawio.svg"));
  EXPECT_EQ(diagram.source_format(), SourceFormat::svg);
  ASSERT_EQ(diagram.pages().size(), 1u);
  EXPECT_EQ(diagram.pages()[0].name(), "Embedded");
  EXPECT_EQ(diagram.pages()[0].find("a")->value, "Grüße → 世界");
}

TEST(ReaderTest, AcceptsUriEncodedAndZlibWrappedPages) {
  const std::string model =
      "<mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>"
      "<mxCell id=\"v\" value=\"100%\" vertex=\"1\" parent=\"1\"/></root></mxGraphModel>";
  const Diagram encoded =
      read_ok("<mxfile><diagram id=\"d\">" + url_encode(model) + "</diagram></mxfile>");
  EXPECT_EQ(encoded.pages().at(0).find("v")->value, "100%");
  const Diagram wrapped =
      read_ok("<mxfile><diagram id=\"d\">" + base64_encode(zlib_wrap(url_encode(model))) +
              "</diagram></mxfile>");
  EXPECT_EQ(wrapped.pages().at(0).find("v")->value, "100%");
  EXPECT_TRUE(wrapped.pages().at(0).was_compressed());
  // XML escaped as the text of <diagram>.
  const std::string escaped =
      "&lt;mxGraphModel&gt;&lt;root&gt;&lt;mxCell id=\"0\"/&gt;&lt;/root&gt;&lt;/mxGraphModel&gt;";
  const Diagram plain = read_ok("<mxfile><diagram id=\"d\">" + escaped + "</diagram></mxfile>");
  EXPECT_TRUE(plain.pages().at(0).contains("0"));
}

// The reader takes each child of <root> out of pugixml's tree once it is in the model (so the
// tree shrinks while the cells grow): cells, wrapped cells and verbatim children still come
// out in document order, each extra after the cell before it.
TEST(ReaderTest, RootChildrenKeepTheirOrderWhileTheTreeIsFreed) {
  const Diagram diagram = read_ok(
      "<mxfile><diagram id=\"d\" name=\"P\"><mxGraphModel><root><First/><mxCell id=\"0\"/><mxCell "
      "id=\"1\" parent=\"0\"/>"
      "<Custom n=\"a\"/><object id=\"w\" label=\"W\" k=\"v\"><mxCell vertex=\"1\" "
      "parent=\"1\"/></object><Custom n=\"b\"><Inner/></Custom><mxCell id=\"2\" "
      "vertex=\"1\" parent=\"1\"/><UserObject id=\"u\"><mxCell vertex=\"1\" parent=\"1\"/>"
      "</UserObject><Last/></root></mxGraphModel></diagram></mxfile>");
  const Page& page = diagram.pages().at(0);
  std::vector<std::string> ids;
  for (const Cell& cell : page.cells())
    ids.push_back(cell.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"0", "1", "w", "2", "u"}));
  EXPECT_EQ(page.find("w")->value, "W");
  EXPECT_EQ(page.find("w")->property("k"), "v");
  EXPECT_EQ(page.find("u")->wrapper->element, "UserObject");
  std::vector<std::string> extras;
  for (const RootExtra& extra : page.root_extras())
    extras.push_back(extra.node.name + "@" + extra.after_id);
  EXPECT_EQ(extras, (std::vector<std::string>{"First@", "Custom@1", "Custom@w", "Last@u"}));
  EXPECT_EQ(page.root_extras()[2].node.children.at(0).name, "Inner");
  // Read again from what the writer makes of it: the same model.
  EXPECT_EQ(read_ok(write_drawio(diagram)), diagram);
}

TEST(ReaderTest, KeepsUnknownElementsEverywhere) {
  const Diagram diagram = read_ok(
      "<mxfile x=\"1\"><diagram id=\"d\"><mxGraphModel><root><mxCell id=\"0\"/>"
      "<Custom kind=\"k\"><Inner>text &amp; more</Inner></Custom>"
      "<mxCell id=\"1\" parent=\"0\" foo=\"bar\" vertex=\"0\"><extra a=\"b\"/></mxCell>"
      "</root><sidecar/></mxGraphModel><note/></diagram><plugin name=\"p\"/></mxfile>");
  const Page& page = diagram.pages().at(0);
  ASSERT_EQ(page.root_extras().size(), 1u);
  EXPECT_EQ(page.root_extras()[0].after_id, "0");
  EXPECT_EQ(page.root_extras()[0].node.children[0].children[0].text, "text & more");
  EXPECT_EQ(page.model_extras().at(0).name, "sidecar");
  EXPECT_EQ(page.diagram_extras().at(0).name, "note");
  EXPECT_EQ(diagram.file_extras().at(0).attributes.get("name"), "p");
  const Cell& cell = *page.find("1");
  EXPECT_FALSE(cell.vertex);
  EXPECT_EQ(cell.attributes.get("vertex"), "0");  // not "1": kept verbatim
  EXPECT_EQ(cell.attributes.get("foo"), "bar");
  EXPECT_EQ(cell.children.at(0).name, "extra");
}

TEST(ReaderTest, KeepsNonNumericCoordinatesVerbatim) {
  const Diagram diagram = read_ok(
      "<mxGraphModel><root><mxCell id=\"0\"><mxGeometry x=\"10px\" y=\"1e3\" width=\"+5\" "
      "relative=\"0\" as=\"geometry\"/></mxCell></root></mxGraphModel>");
  const Geometry& geometry = *diagram.pages().at(0).find("0")->geometry;
  EXPECT_FALSE(geometry.x.has_value());
  EXPECT_EQ(geometry.attributes.get("x"), "10px");
  EXPECT_EQ(geometry.y, 1000);
  EXPECT_EQ(geometry.attributes.get("width"), "+5");
  EXPECT_FALSE(geometry.relative);
  EXPECT_EQ(geometry.attributes.get("relative"), "0");
}

TEST(ReaderTest, NormalisesLiteralWhitespaceInAttributesLikeEveryXmlParser) {
  // XML turns a literal newline or tab in an attribute into a space; &#10; stays a newline.
  const Diagram diagram = read_ok(
      "<mxGraphModel><root><mxCell id=\"0\" value=\"a\nb\tc&#10;d&#9;e\"/></root>"
      "</mxGraphModel>");
  EXPECT_EQ(diagram.pages().at(0).find("0")->value, "a b c\nd\te");
}

TEST(ReaderTest, AcceptsAByteOrderMarkAndAnXmlDeclaration) {
  const Diagram diagram = read_ok(
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mxfile><diagram id=\"x\">"
      "<mxGraphModel><root><mxCell id=\"0\"/></root></mxGraphModel></diagram></mxfile>");
  EXPECT_TRUE(diagram.pages().at(0).contains("0"));
}

TEST(ReaderTest, KeepsTheIdOnTheInnerCellWhenTheWrapperHasNone) {
  const std::string file =
      "<mxGraphModel><root><object label=\"L\" k=\"v\"><mxCell id=\"5\" vertex=\"1\"/>"
      "</object><UserObject label=\"M\" id=\"6\"><mxCell id=\"6-inner\" value=\"inner\"/>"
      "</UserObject></root></mxGraphModel>";
  const Diagram diagram = read_ok(file);
  const Page& page = diagram.pages().at(0);
  ASSERT_NE(page.find("5"), nullptr);
  EXPECT_EQ(page.find("5")->value, "L");
  EXPECT_EQ(page.find("6")->value, "M");
  EXPECT_EQ(page.find("6")->attributes.get("id"), "6-inner");
  EXPECT_EQ(page.find("6")->attributes.get("value"), "inner");
  const std::string written = write_drawio(diagram);
  EXPECT_THAT(written, ::testing::HasSubstr("<object label=\"L\" k=\"v\">"));
  EXPECT_THAT(written, ::testing::HasSubstr("<mxCell id=\"5\" vertex=\"1\"/>"));
  EXPECT_THAT(written, ::testing::HasSubstr("<mxCell id=\"6-inner\" value=\"inner\"/>"));
  EXPECT_EQ(testing::first_difference(diagram, read_ok(written)), "");
}

TEST(ReaderTest, DoesNotExpandDoctypeEntities) {
  std::string file = "<!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\">";
  for (int i = 1; i < 10; ++i) {
    file += "<!ENTITY a" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k)
      file += i == 1 ? "&a;" : "&a" + std::to_string(i - 1) + ";";
    file += "\">";
  }
  file += "]><mxGraphModel><root><mxCell id=\"0\" value=\"&a9;\"/></root></mxGraphModel>";
  const Diagram diagram = read_ok(file);
  EXPECT_EQ(diagram.pages().at(0).find("0")->value, "&a9;");
}

TEST(ReaderTest, AFileWithNothingUnderstoodStillOpens) {
  const Diagram diagram = read_ok("<mxfile><diagram name=\"x\"><mxGraphModel/></diagram></mxfile>");
  ASSERT_EQ(diagram.pages().size(), 1u);
  EXPECT_EQ(diagram.pages()[0].cell_count(), 0u);
  EXPECT_TRUE(diagram.pages()[0].has_model());
}

}  // namespace
}  // namespace fcp::drawio
