// PNG and PDF through librsvg + cairo.
#include "domains/drawio/export/raster.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "domains/drawio/export/svg_renderer.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

constexpr std::string_view kSvg =
    R"(<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">)"
    R"(<rect width="200" height="100" fill="red"/></svg>)";

TEST(SvgToPng, UsesTheDocumentSizeByDefault) {
  auto png = svg_to_png(kSvg);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  ASSERT_TRUE(testing::is_png(*png));
  EXPECT_EQ(testing::png_size(*png), (std::pair<std::uint32_t, std::uint32_t>{200, 100}));
}

TEST(SvgToPng, ScalesToTheRequestedSizeKeepingTheAspect) {
  auto wide = svg_to_png(kSvg, 400);
  ASSERT_TRUE(wide.has_value()) << wide.error().message;
  EXPECT_EQ(testing::png_size(*wide), (std::pair<std::uint32_t, std::uint32_t>{400, 200}));
  auto short_one = svg_to_png(kSvg, 0, 50);
  ASSERT_TRUE(short_one.has_value());
  EXPECT_EQ(testing::png_size(*short_one), (std::pair<std::uint32_t, std::uint32_t>{100, 50}));
  auto both = svg_to_png(kSvg, 300, 300);
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(testing::png_size(*both), (std::pair<std::uint32_t, std::uint32_t>{300, 300}));
}

TEST(SvgToPng, RefusesHugeNegativeAndBrokenInput) {
  auto huge = svg_to_png(kSvg, 10000);
  ASSERT_FALSE(huge.has_value());
  EXPECT_NE(huge.error().message.find("too large"), std::string::npos);
  EXPECT_FALSE(huge.error().hints.empty());
  const std::string big = R"(<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="10"/>)";
  EXPECT_FALSE(svg_to_png(big).has_value());
  EXPECT_FALSE(svg_to_png(kSvg, -1).has_value());
  auto broken = svg_to_png("<svg><unclosed></svg>");
  ASSERT_FALSE(broken.has_value());
  EXPECT_NE(broken.error().message.find("cannot render SVG"), std::string::npos);
  EXPECT_FALSE(svg_to_png("").has_value());
  EXPECT_FALSE(svg_to_png("not xml at all").has_value());
}

TEST(SvgToPdf, WritesAOnePagePdf) {
  auto pdf = svg_to_pdf(kSvg, 400);
  ASSERT_TRUE(pdf.has_value()) << pdf.error().message;
  EXPECT_TRUE(pdf->starts_with("%PDF-"));
  EXPECT_NE(pdf->rfind("%%EOF"), std::string::npos);
  EXPECT_EQ(testing::count(*pdf, "/Type /Page\n") + testing::count(*pdf, "/Type /Page "), 1u);
  // 400×200 px at 96 dpi is 300×150 pt.
  EXPECT_NE(pdf->find("/MediaBox [ 0 0 300 150 ]"), std::string::npos);
  EXPECT_FALSE(svg_to_pdf("<nope").has_value());
}

TEST(Raster, RendersADiagramConcurrently) {
  const Diagram diagram = testing::diagram_from(testing::mxfile_with(
      R"(<mxCell id="a" value="Hello" vertex="1" parent="1"><mxGeometry x="0" y="0" width="120" height="60" as="geometry"/></mxCell>)"));
  auto svg = render_svg(diagram.pages().front());
  ASSERT_TRUE(svg.has_value());
  auto expected = svg_to_png(*svg, 280);
  ASSERT_TRUE(expected.has_value());
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 5; ++k) {
        auto png = svg_to_png(*svg, 280);
        results[i] = png ? *png : std::string();
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  for (const std::string& png : results)
    EXPECT_EQ(png, *expected);
}

}  // namespace
}  // namespace fcp::drawio::render
