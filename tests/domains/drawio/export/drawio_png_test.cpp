// .drawio.png: the picture of the export path with the diagram in draw.io's text chunk, read back
// by the independent chunk reader of png_test_support.hpp; the original file kept when unchanged.
#include "domains/drawio/export/drawio_png.hpp"

#include <gtest/gtest.h>
#include <png.h>

#include <vector>

#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/export/svg_renderer.hpp"
#include "domains/drawio/io/writer.hpp"
#include "export_test_support.hpp"
#include "tests/domains/drawio/model/png_test_support.hpp"

namespace fcp::drawio::render {
namespace {

constexpr std::string_view kTwoPages = R"(<mxfile host="test" version="24.0.0">
<diagram id="p1" name="First"><mxGraphModel dx="800" grid="1"><root>
<mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="a" value="Tricky &quot;label&quot; &amp; 100% ü" style="rounded=1;whiteSpace=wrap;html=1;" vertex="1" parent="1">
  <mxGeometry x="40" y="40" width="140" height="60" as="geometry"/></mxCell>
<mxCell id="b" value="Other" style="ellipse;" vertex="1" parent="1">
  <mxGeometry x="240" y="40" width="80" height="80" as="geometry"/></mxCell>
<mxCell id="e" style="endArrow=open;" edge="1" parent="1" source="a" target="b">
  <mxGeometry relative="1" as="geometry"/></mxCell>
</root></mxGraphModel></diagram>
<diagram id="p2" name="Second"><mxGraphModel><root>
<mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="z" value="OnlyOnPageTwo" vertex="1" parent="1"><mxGeometry width="80" height="40" as="geometry"/></mxCell>
</root></mxGraphModel></diagram></mxfile>)";

std::vector<unsigned char> rgba(const std::string& png) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, png.data(), png.size()) == 0) return {};
  image.format = PNG_FORMAT_RGBA;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) return {};
  return pixels;
}

std::string fixture_png() {
  return testing::read_file(testing::source_dir() / "fixtures" / "drawio" / "embedded.drawio.png");
}

TEST(DrawioPng, ReadsBackAsTheSameDiagram) {
  const Diagram original = testing::diagram_from(kTwoPages);
  auto png = write_drawio_png(original);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  auto reread = read_drawio(*png);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(reread->source_format(), SourceFormat::png);
  EXPECT_TRUE(*reread == original);
  EXPECT_EQ(write_drawio(*reread), write_drawio(original));
}

TEST(DrawioPng, HoldsTheDiagramWhereDrawioLooksForIt) {
  const Diagram original = testing::diagram_from(kTwoPages);
  auto png = write_drawio_png(original);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  auto chunks = drawio::testing::png_chunks(*png);
  ASSERT_TRUE(chunks.has_value());
  for (const auto& chunk : *chunks)
    EXPECT_TRUE(chunk.crc_ok) << chunk.type;
  const auto text = drawio::testing::embedded_mxfile(*png);
  ASSERT_TRUE(text.has_value()) << "no tEXt \"mxfile\" chunk before the image data";
  EXPECT_EQ(*text, drawio_png_text(original));
  EXPECT_EQ(text->rfind("<mxfile host=\"test\" version=\"24.0.0\"><diagram id=\"p1\"", 0), 0u);
  EXPECT_NE(text->find("Tricky &quot;label&quot; &amp; 100% ü"), std::string::npos);
  EXPECT_NE(text->find("OnlyOnPageTwo"), std::string::npos);
  EXPECT_EQ(text->find('\n'), std::string::npos) << "draw.io writes the XML without indentation";
  if (auto accepted = testing::xmllint_accepts(*text)) {
    EXPECT_TRUE(*accepted);
  }
}

TEST(DrawioPng, ThePictureIsTheExportOfTheFirstPage) {
  const Diagram original = testing::diagram_from(kTwoPages);
  auto png = write_drawio_png(original);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  auto svg = render_svg(original.pages().front());
  ASSERT_TRUE(svg.has_value());
  auto exported = svg_to_png(*svg);  // what `export fmt:png page:1` makes
  ASSERT_TRUE(exported.has_value());
  EXPECT_EQ(testing::png_size(*png), testing::png_size(*exported));
  const auto pixels = rgba(*png);
  ASSERT_FALSE(pixels.empty());
  EXPECT_TRUE(pixels == rgba(*exported)) << "the pixels differ from export fmt:png";
}

TEST(DrawioPng, UsesTheScaleAndBorderOfDrawiosExport) {
  const Diagram plain = testing::diagram_from(testing::mxfile_with(
      R"(<mxCell id="a" value="A" vertex="1" parent="1"><mxGeometry x="0" y="0" width="100" height="50" as="geometry"/></mxCell>)"));
  auto normal = write_drawio_png(plain);
  ASSERT_TRUE(normal.has_value()) << normal.error().message;
  EXPECT_EQ(testing::png_size(*normal), std::make_pair(120u, 70u));  // 10 px border

  Diagram scaled = plain;
  scaled.file_attributes().set("scale", "2");
  scaled.file_attributes().set("border", "0");
  auto big = write_drawio_png(scaled);
  ASSERT_TRUE(big.has_value()) << big.error().message;
  EXPECT_EQ(testing::png_size(*big), std::make_pair(200u, 100u));

  Diagram odd = plain;
  odd.file_attributes().set("scale", "lots");
  odd.file_attributes().set("border", "-5");
  auto fallback = write_drawio_png(odd);
  ASSERT_TRUE(fallback.has_value()) << fallback.error().message;
  EXPECT_EQ(testing::png_size(*fallback), std::make_pair(100u, 50u));  // border clamped to 0
}

TEST(DrawioPng, ALargeDrawingIsScaledToFit) {
  const Diagram wide = testing::diagram_from(testing::mxfile_with(
      R"(<mxCell id="a" value="A" vertex="1" parent="1"><mxGeometry x="0" y="0" width="100" height="50" as="geometry"/></mxCell>)"
      R"(<mxCell id="b" value="B" vertex="1" parent="1"><mxGeometry x="30000" y="900" width="100" height="50" as="geometry"/></mxCell>)"));
  auto png = write_drawio_png(wide);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  const auto [width, height] = testing::png_size(*png);
  EXPECT_EQ(width, static_cast<std::uint32_t>(kMaxRasterSide));
  EXPECT_GT(height, 200u);
  EXPECT_LT(height, 400u);
}

TEST(DrawioPng, AnEmptyFirstPageStillMakesAFile) {
  Diagram diagram;
  diagram.add_page(Page::make_blank("p", "Empty"));
  auto png = write_drawio_png(diagram);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  EXPECT_TRUE(testing::is_png(*png));
  auto reread = read_drawio(*png);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(reread->pages().size(), 1u);
  EXPECT_FALSE(write_drawio_png(Diagram()).has_value());
}

TEST(DrawioPng, AnEditedDiagramIsWrittenWithItsPagesAsTheyWereRead) {
  const std::string file = fixture_png();
  auto opened = read_drawio(file);
  ASSERT_TRUE(opened.has_value()) << opened.error().message;
  Diagram edited = *opened;
  edited.pages()[0].find("web")->value = "Edited label";
  auto changed = write_drawio_png(edited);
  ASSERT_TRUE(changed.has_value()) << changed.error().message;
  EXPECT_FALSE(*changed == file);
  auto reread = read_drawio(*changed);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(reread->pages()[0].find("web")->value.value_or(""), "Edited label");
  EXPECT_TRUE(reread->pages()[0].was_compressed()) << "page 1 stays compressed";
  EXPECT_FALSE(reread->pages()[1].was_compressed());
}

}  // namespace
}  // namespace fcp::drawio::render
