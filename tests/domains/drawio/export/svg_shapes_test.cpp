// Per-shape tests of the native renderer: outlines by shape name, rotation, direction and flips,
// inline stencils, and which shapes count as placeholders.
#include <gtest/gtest.h>

#include "domains/drawio/export/svg_renderer.hpp"
#include "domains/drawio/export/svg_shape_parts.hpp"
#include "domains/drawio/io/codec.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

using testing::diagram_from;
using testing::mxfile_with;

// One vertex "v" at (10,20), 100×60, with `style`.
RenderedSvg render_one(std::string_view style) {
  const Diagram diagram = diagram_from(mxfile_with(
      "<mxCell id=\"v\" value=\"\" style=\"" + std::string(style) +
      "\" vertex=\"1\" parent=\"1\"><mxGeometry x=\"10\" y=\"20\" width=\"100\" height=\"60\" "
      "as=\"geometry\"/></mxCell>"));
  auto rendered = render_svg_report(diagram.pages().front());
  EXPECT_TRUE(rendered.has_value()) << (rendered ? "" : rendered.error().message);
  return rendered ? std::move(*rendered) : RenderedSvg{};
}

struct ShapeCase {
  const char* style;
  const char* expected;  // a fragment of the SVG
};

void PrintTo(const ShapeCase& shape, std::ostream* out) {
  *out << shape.style;
}

class NativeShape : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(NativeShape, DrawsItsOutlineAndIsNoPlaceholder) {
  const RenderedSvg out = render_one(GetParam().style);
  EXPECT_NE(out.svg.find(GetParam().expected), std::string::npos) << out.svg;
  EXPECT_TRUE(out.placeholders.empty()) << GetParam().style;
}

INSTANTIATE_TEST_SUITE_P(
    Outlines, NativeShape,
    ::testing::Values(
        ShapeCase{"shape=or", "d=\"M 10 20 Q 110 20 110 50 Q 110 80 10 80 Z\""},
        ShapeCase{"shape=xor", "d=\"M 10 20 Q 110 20 110 50 Q 110 80 10 80 Q 60 50 10 20 Z\""},
        ShapeCase{"shape=delay", "d=\"M 10 20 L 80 20 Q 110 20 110 50 Q 110 80 80 80 L 10 80 Z\""},
        ShapeCase{"shape=callout",
                  "d=\"M 10 20 L 110 20 L 110 50 L 80 50 L 60 80 L 60 50 L 10 50 Z\""},
        ShapeCase{"shape=requiredInterface;fillColor=none",
                  "d=\"M 10 20 Q 110 20 110 50 Q 110 80 10 80\" fill=\"none\""},
        ShapeCase{"shape=offPageConnector",
                  "d=\"M 10 20 L 110 20 L 110 57.5 L 60 80 L 10 57.5 Z\""},
        ShapeCase{"shape=umlLifeline", "stroke-dasharray=\"3 3\""},
        ShapeCase{"shape=mxgraph.flowchart.decision", "d=\"M 60 20 L 110 50 L 60 80 L 10 50 Z\""},
        ShapeCase{"shape=tape", "d=\"M 10 32 Q 35 53.6 60 32 Q 85 10.4 110 32 L 110 68"},
        ShapeCase{"shape=mxgraph.electrical.logic_gates.logic_gate;operation=and",
                  "d=\"M 30 20 L 60 20 A 30 30 0 0 1 60 80 L 30 80 Z\""},
        ShapeCase{"shape=mxgraph.bpmn.gateway2;gwType=parallel",
                  "d=\"M 60 20 L 110 50 L 60 80 L 10 50 Z\""},
        ShapeCase{"shape=mxgraph.bpmn.event;outline=end;strokeWidth=2", "stroke-width=\"4\""},
        ShapeCase{"shape=mxgraph.floorplan.wall",
                  "<rect x=\"10\" y=\"45\" width=\"100\" height=\"10\""},
        ShapeCase{"shape=mxgraph.basic.rect;rectStyle=snip;size=10",
                  "d=\"M 10 30 L 20 20 L 100 20 L 110 30 L 110 70 L 100 80 L 20 80 L 10 70 Z\""}));

TEST(ShapeTables, EveryNamedShapeDrawsSomethingAndIsNoPlaceholder) {
  std::size_t names = 0;
  for (auto table : {detail::core_shapes(), detail::builtin_shapes(), detail::library_shapes()}) {
    for (const detail::ShapeEntry& entry : table) {
      const std::string name(entry.name);
      if (name == "image" || name == "connector") continue;  // tested on their own
      ++names;
      const RenderedSvg out = render_one("shape=" + name);
      EXPECT_TRUE(out.placeholders.empty()) << name;
      const bool drew = out.svg.find("<path") != std::string::npos ||
                        out.svg.find("<rect") != std::string::npos ||
                        out.svg.find("<ellipse") != std::string::npos ||
                        out.svg.find("<circle") != std::string::npos;
      EXPECT_TRUE(drew) << name;
    }
  }
  EXPECT_GT(names, 120u);
}

TEST(ShapeTransforms, RotationTurnsTheShapeAboutItsCentre) {
  const RenderedSvg out = render_one("shape=xor;rotation=30");
  EXPECT_NE(out.svg.find("<g transform=\"rotate(30 60 50)\">\n<path d=\"M 10 20 Q"),
            std::string::npos)
      << out.svg;
}

TEST(ShapeTransforms, DirectionDrawsFacingEastInTheSwappedBoxAndTurns) {
  const RenderedSvg out = render_one("shape=xor;direction=south");
  EXPECT_NE(out.svg.find("<g transform=\"rotate(90 60 50)\">\n<path d=\"M 30 0 Q 90 0 90 50"),
            std::string::npos)
      << out.svg;
  const RenderedSvg west = render_one("shape=xor;direction=west");
  EXPECT_NE(west.svg.find("<g transform=\"rotate(180 60 50)\">\n<path d=\"M 10 20 Q"),
            std::string::npos)
      << west.svg;
}

TEST(ShapeTransforms, FlipsMirrorAndSwapForNorthAndSouth) {
  const RenderedSvg flipped = render_one("shape=xor;flipH=1");
  EXPECT_NE(flipped.svg.find("<g transform=\"matrix(-1 0 0 1 120 0)\">"), std::string::npos)
      << flipped.svg;
  const RenderedSvg north = render_one("shape=xor;direction=north;flipH=1");
  EXPECT_NE(north.svg.find("<g transform=\"rotate(270 60 50) matrix(1 0 0 -1 0 100)\">"),
            std::string::npos)
      << north.svg;
}

// shape=stencil(…) as draw.io writes it: base64 of raw DEFLATE of the URI-encoded XML.
std::string inline_stencil(std::string_view xml) {
  return "shape=stencil(" + base64_encode(deflate_raw(url_encode(xml))) + ")";
}

TEST(InlineStencil, DrawsItsXmlScaledIntoTheBox) {
  const std::string style = inline_stencil(
      "<shape w=\"10\" h=\"10\" strokewidth=\"inherit\"><background><path><move x=\"0\" y=\"0\"/>"
      "<line x=\"10\" y=\"5\"/><line x=\"0\" y=\"10\"/><close/></path></background>"
      "<foreground><fillstroke/><fillcolor color=\"#ff0000\"/><ellipse x=\"4\" y=\"4\" w=\"2\" "
      "h=\"2\"/><fill/></foreground></shape>");
  const RenderedSvg out = render_one(style);
  EXPECT_TRUE(out.placeholders.empty());
  EXPECT_NE(out.svg.find("d=\"M 10 20 L 110 50 L 10 80 Z\""), std::string::npos) << out.svg;
  EXPECT_NE(out.svg.find("fill=\"#ff0000\" stroke=\"none\""), std::string::npos) << out.svg;
}

TEST(InlineStencil, FixedAspectKeepsProportionsCentred) {
  const std::string style = inline_stencil(
      "<shape w=\"10\" h=\"10\" aspect=\"fixed\"><foreground><rect x=\"0\" y=\"0\" w=\"10\" "
      "h=\"10\"/><stroke/></foreground></shape>");
  const RenderedSvg out = render_one(style);
  EXPECT_NE(out.svg.find("d=\"M 30 20 L 90 20 L 90 80 L 30 80 Z\""), std::string::npos) << out.svg;
}

TEST(InlineStencil, ThatDoesNotDecodeIsAPlaceholder) {
  const RenderedSvg out = render_one("shape=stencil(bm90IGRlZmxhdGU=)");
  ASSERT_EQ(out.placeholders.size(), 1u);
  EXPECT_EQ(out.placeholders[0].cell_id, "v");
}

TEST(VendoredStencil, DrawsDrawiosOwnStencilFiles) {
  // networks.xml, floorplan.xml, electrical/resistors.xml: names as draw.io's registry makes them
  // (library name, '.', shape name in lower case with '_' for spaces).
  for (const char* style : {"shape=mxgraph.networks.server", "shape=mxgraph.floorplan.office_chair",
                            "shape=mxgraph.electrical.resistors.resistor_1;direction=north"}) {
    const RenderedSvg out = render_one(style);
    EXPECT_TRUE(out.placeholders.empty()) << style;
    EXPECT_GE(testing::count(out.svg, "<path "), 2u) << style << out.svg;
  }
  EXPECT_NE(render_one("shape=mxgraph.electrical.resistors.resistor_1;direction=north")
                .svg.find("<g transform=\"rotate(270 60 50)\">"),
            std::string::npos);
}

TEST(VendoredStencil, IsIncludedByInlineStencils) {
  const std::string style = inline_stencil(
      "<shape w=\"10\" h=\"10\"><foreground><include-shape name=\"mxgraph.floorplan.chair\" "
      "x=\"0\" y=\"0\" w=\"10\" h=\"10\"/></foreground></shape>");
  const RenderedSvg out = render_one(style);
  EXPECT_TRUE(out.placeholders.empty());
  EXPECT_GE(testing::count(out.svg, "<path "), 1u) << out.svg;
}

TEST(Placeholders, AreStencilsWithoutADrawingUnknownNamesAndImageUrls) {
  for (const char* style : {"shape=mxgraph.cisco.routers.router", "shape=noSuchShape",
                            "shape=image;image=https://example.com/logo.png"}) {
    const RenderedSvg out = render_one(style);
    ASSERT_EQ(out.placeholders.size(), 1u) << style;
    EXPECT_EQ(out.placeholders[0].shape,
              std::string_view(style).substr(6, out.placeholders[0].shape.size()));
  }
  EXPECT_TRUE(render_one("shape=image;image=data:image/png,iVBORw0KGgo=").placeholders.empty());
  EXPECT_TRUE(render_one("rounded=1").placeholders.empty());
}

}  // namespace
}  // namespace fcp::drawio::render
