// .drawio.svg: a picture that draw.io (and our reader) re-open as the diagram.
#include "domains/drawio/export/drawio_svg.hpp"

#include <gtest/gtest.h>

#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/io/writer.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

constexpr std::string_view kTwoPages = R"(<mxfile host="test" version="24.0.0">
<diagram id="p1" name="First &amp; foremost"><mxGraphModel dx="800" grid="1"><root>
<mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="a" value="Tricky &quot;label&quot; &lt;with&gt; &amp; newline&#10;second line" style="rounded=1;whiteSpace=wrap;html=1;" vertex="1" parent="1">
  <mxGeometry x="40" y="40" width="140" height="60" as="geometry"/></mxCell>
<UserObject label="Wrapped" tooltip="tip" id="w"><mxCell style="ellipse;" vertex="1" parent="1">
  <mxGeometry x="240" y="40" width="80" height="80" as="geometry"/></mxCell></UserObject>
<mxCell id="e" style="edgeStyle=orthogonalEdgeStyle;endArrow=open;" edge="1" parent="1" source="a" target="w">
  <mxGeometry relative="1" as="geometry"/></mxCell>
</root></mxGraphModel></diagram>
<diagram id="p2" name="Second"><mxGraphModel><root>
<mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="z" value="OnlyOnPageTwo" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>
</root></mxGraphModel></diagram></mxfile>)";

TEST(DrawioSvg, ReadsBackAsTheSameDiagram) {
  const Diagram original = testing::diagram_from(kTwoPages);
  auto svg = write_drawio_svg(original);
  ASSERT_TRUE(svg.has_value()) << svg.error().message;
  auto reread = read_drawio(*svg);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(reread->source_format(), SourceFormat::svg);
  EXPECT_TRUE(*reread == original);
  EXPECT_EQ(write_drawio(*reread), write_drawio(original));
}

TEST(DrawioSvg, IsAPictureOfTheFirstPageWithTheDiagramInContent) {
  const Diagram original = testing::diagram_from(kTwoPages);
  auto svg = write_drawio_svg(original);
  ASSERT_TRUE(svg.has_value());
  const std::size_t root = svg->find("<svg ");
  ASSERT_NE(root, std::string::npos);
  const std::size_t content = svg->find(" content=\"&lt;mxfile ", root);
  ASSERT_NE(content, std::string::npos);
  EXPECT_LT(content, svg->find('>', root));  // an attribute of the root element
  EXPECT_NE(svg->find(">Wrapped</tspan>"), std::string::npos);
  // Page two is in the content, not in the picture.
  EXPECT_EQ(svg->find(">OnlyOnPageTwo<"), std::string::npos);
  EXPECT_NE(svg->find("OnlyOnPageTwo"), std::string::npos);
  if (auto accepted = testing::xmllint_accepts(*svg)) {
    EXPECT_TRUE(*accepted);
  }
  auto png = svg_to_png(*svg);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  EXPECT_TRUE(testing::is_png(*png));
}

TEST(DrawioSvg, AnEmptyFirstPageStillMakesAFile) {
  const Diagram blank = testing::diagram_from(testing::mxfile_with(""));
  auto svg = write_drawio_svg(blank);
  ASSERT_TRUE(svg.has_value()) << svg.error().message;
  auto reread = read_drawio(*svg);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_TRUE(*reread == blank);
  EXPECT_TRUE(svg_to_png(*svg).has_value());

  EXPECT_FALSE(write_drawio_svg(Diagram()).has_value());
}

}  // namespace
}  // namespace fcp::drawio::render
