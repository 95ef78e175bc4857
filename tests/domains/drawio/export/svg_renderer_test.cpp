// The native SVG renderer on a page that has one of everything.
#include "domains/drawio/export/svg_renderer.hpp"

#include <gtest/gtest.h>

#include <string>

#include "domains/drawio/export/raster.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

using testing::count;
using testing::diagram_from;
using testing::mxfile_with;

constexpr std::string_view kCells = R"(
<mxCell id="a" value="Alpha" style="rounded=1;whiteSpace=wrap;html=1;fillColor=#dae8fc;strokeColor=#6c8ebf;" vertex="1" parent="1">
  <mxGeometry x="20" y="20" width="120" height="60" as="geometry"/></mxCell>
<mxCell id="b" value="Beta" style="ellipse;whiteSpace=wrap;html=1;" vertex="1" parent="1">
  <mxGeometry x="300" y="20" width="120" height="60" as="geometry"/></mxCell>
<mxCell id="c" value="Gamma" style="rhombus;whiteSpace=wrap;html=1;" vertex="1" parent="1">
  <mxGeometry x="20" y="200" width="80" height="80" as="geometry"/></mxCell>
<mxCell id="hex" value="Hex" style="shape=hexagon;perimeter=hexagonPerimeter2;" vertex="1" parent="1">
  <mxGeometry x="20" y="500" width="80" height="50" as="geometry"/></mxCell>
<mxCell id="db" value="Db" style="shape=cylinder3;boundedLbl=1;size=15;" vertex="1" parent="1">
  <mxGeometry x="120" y="500" width="60" height="80" as="geometry"/></mxCell>
<mxCell id="cloud" value="Cloud" style="ellipse;shape=cloud;" vertex="1" parent="1">
  <mxGeometry x="200" y="500" width="120" height="80" as="geometry"/></mxCell>
<mxCell id="doc" value="Doc" style="shape=document;" vertex="1" parent="1">
  <mxGeometry x="340" y="500" width="80" height="60" as="geometry"/></mxCell>
<mxCell id="para" value="Para" style="shape=parallelogram;" vertex="1" parent="1">
  <mxGeometry x="440" y="500" width="100" height="50" as="geometry"/></mxCell>
<mxCell id="tri" value="Tri" style="triangle;direction=north;" vertex="1" parent="1">
  <mxGeometry x="560" y="500" width="60" height="60" as="geometry"/></mxCell>
<mxCell id="proc" value="Proc" style="shape=process;" vertex="1" parent="1">
  <mxGeometry x="640" y="500" width="100" height="50" as="geometry"/></mxCell>
<mxCell id="person" value="Person" style="shape=actor;" vertex="1" parent="1">
  <mxGeometry x="760" y="500" width="40" height="60" as="geometry"/></mxCell>
<mxCell id="user" value="User" style="shape=umlActor;verticalLabelPosition=bottom;verticalAlign=top;" vertex="1" parent="1">
  <mxGeometry x="820" y="500" width="30" height="60" as="geometry"/></mxCell>
<mxCell id="lane" value="Lane" style="swimlane;startSize=30;" vertex="1" parent="1">
  <mxGeometry x="500" y="200" width="200" height="150" as="geometry"/></mxCell>
<mxCell id="inside" value="Inside" style="whiteSpace=wrap;" vertex="1" parent="lane">
  <mxGeometry x="20" y="50" width="80" height="40" as="geometry"/></mxCell>
<mxCell id="g" value="" style="group" vertex="1" connectable="0" parent="1">
  <mxGeometry x="300" y="300" width="200" height="100" as="geometry"/></mxCell>
<mxCell id="gc" value="Grouped" style="" vertex="1" parent="g">
  <mxGeometry x="10" y="10" width="60" height="30" as="geometry"/></mxCell>
<mxCell id="gd" value="Second" vertex="1" parent="g">
  <mxGeometry x="120" y="10" width="60" height="30" as="geometry"/></mxCell>
<mxCell id="ge" edge="1" parent="g" source="gc" target="gd">
  <mxGeometry relative="1" as="geometry"><Array as="points"><mxPoint x="95" y="80"/></Array></mxGeometry></mxCell>
<mxCell id="t" value="Just text" style="text;html=1;" vertex="1" parent="1">
  <mxGeometry x="20" y="400" width="100" height="30" as="geometry"/></mxCell>
<mxCell id="s" value="" style="shape=mxgraph.aws4.lambda_function;fillColor=#ED7100;" vertex="1" parent="1">
  <mxGeometry x="900" y="20" width="120" height="80" as="geometry"/></mxCell>
<mxCell id="h" value="&lt;div&gt;Line one&lt;/div&gt;&lt;div&gt;Line &amp;amp; two&lt;/div&gt;" style="html=1;" vertex="1" parent="1">
  <mxGeometry x="700" y="20" width="120" height="60" as="geometry"/></mxCell>
<mxCell id="hid" value="HiddenCell" vertex="1" parent="1" visible="0">
  <mxGeometry x="0" y="0" width="10" height="10" as="geometry"/></mxCell>
<mxCell id="e1" style="edgeStyle=none;endArrow=block;startArrow=oval;dashed=1;" edge="1" parent="1" source="a" target="b">
  <mxGeometry relative="1" as="geometry"><Array as="points"><mxPoint x="200" y="150"/><mxPoint x="250" y="150"/></Array></mxGeometry></mxCell>
<mxCell id="el" value="yes" style="edgeLabel;html=1;align=center;verticalAlign=middle;" vertex="1" connectable="0" parent="e1">
  <mxGeometry x="-0.5" relative="1" as="geometry"><mxPoint as="offset"/></mxGeometry></mxCell>
<mxCell id="e2" value="orth label" style="edgeStyle=orthogonalEdgeStyle;" edge="1" parent="1" source="b" target="c">
  <mxGeometry relative="1" as="geometry"/></mxCell>
<mxCell id="L2" value="Hidden layer" parent="0" visible="0"/>
<mxCell id="secret" value="SecretLabel" vertex="1" parent="L2">
  <mxGeometry x="0" y="0" width="50" height="50" as="geometry"/></mxCell>
)";

std::string render_sample(const SvgOptions& options = {}) {
  const Diagram diagram = diagram_from(mxfile_with(kCells));
  auto svg = render_svg(diagram.pages().front(), options);
  EXPECT_TRUE(svg.has_value()) << (svg ? "" : svg.error().message);
  return svg ? *svg : std::string();
}

TEST(SvgRenderer, WritesAWellFormedDocumentThatLibrsvgRenders) {
  const std::string svg = render_sample();
  EXPECT_TRUE(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(svg.find("version=\"1.1\""), std::string::npos);
  if (auto accepted = testing::xmllint_accepts(svg)) {
    EXPECT_TRUE(*accepted);
  }
  auto png = svg_to_png(svg);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  EXPECT_TRUE(testing::is_png(*png));
}

TEST(SvgRenderer, WritesEveryVisibleLabelAsText) {
  const std::string svg = render_sample();
  for (std::string_view label :
       {"Alpha",   "Beta",      "Gamma", "Hex",        "Db",       "Cloud",         "Doc",
        "Para",    "Tri",       "Proc",  "Person",     "User",     "Lane",          "Inside",
        "Grouped", "Just text", "yes",   "orth label", "Line one", "Line &amp; two"}) {
    EXPECT_NE(svg.find(">" + std::string(label) + "</tspan>"), std::string::npos) << label;
  }
  // The stencil has no label: the fallback names it.
  EXPECT_NE(svg.find(">lambda function</text>"), std::string::npos);
}

// The baseline of the first line of `label` in `svg`.
double baseline_of(const std::string& svg, std::string_view label) {
  const auto at = svg.find(">" + std::string(label) + "</tspan>");
  if (at == std::string::npos) return -1;
  const auto y = svg.rfind(" y=\"", at);
  return std::stod(svg.substr(y + 4));
}

double x_of(const std::string& svg, std::string_view label) {
  const auto at = svg.find(">" + std::string(label) + "</tspan>");
  if (at == std::string::npos) return -1;
  const auto x = svg.rfind("<tspan x=\"", at);
  return std::stod(svg.substr(x + 10));
}

std::string render_one(std::string_view style) {
  const Diagram diagram = diagram_from(
      mxfile_with(std::string(R"(<mxCell id="u" value="Customer" style=")") + std::string(style) +
                  R"(" vertex="1" parent="1"><mxGeometry x="100" y="100" width="30" height="60" )"
                  R"(as="geometry"/></mxCell>)"));
  auto svg = render_svg(diagram.pages().front(), {});
  EXPECT_TRUE(svg.has_value());
  return svg ? *svg : std::string();
}

// draw.io's sidebar actor puts its label under the figure; labelPosition and
// verticalLabelPosition move any label beside or above its shape, as draw.io does.
TEST(SvgRenderer, PutsLabelsWhereTheirPositionSays) {
  const double below =
      baseline_of(render_one("shape=umlActor;verticalLabelPosition=bottom;verticalAlign=top;"
                             "html=1;outlineConnect=0;"),
                  "Customer");
  EXPECT_GT(below, 160);  // under the figure (y 100 … 160), first line near its bottom
  EXPECT_LT(below, 180);
  const double middle = baseline_of(render_one("shape=umlActor;html=1;"), "Customer");
  EXPECT_GT(middle, 120);  // draw.io's default: across the figure
  EXPECT_LT(middle, 140);
  const double above = baseline_of(
      render_one("shape=umlActor;verticalLabelPosition=top;verticalAlign=bottom;"), "Customer");
  EXPECT_LT(above, 100);
  const std::string right =
      render_one("shape=umlActor;labelPosition=right;align=left;verticalAlign=middle;");
  EXPECT_GE(x_of(right, "Customer"), 130);  // starts right of the figure (x 100 … 130)
}

// draw.io's CylinderShape3.getLabelMargins: with boundedLbl=1 the label is centred in the body
// below the top ellipse (2 × size) and above the bottom curve (0.3 × size), not in the box.
TEST(SvgRenderer, PutsACylindersBoundedLabelInItsBody) {
  // The box: y 100 … 160. size 15: the body is 130 … 155.5, its middle 142.75; the baseline
  // sits 0.35 × fontSize (12) below the middle of a one-line label.
  EXPECT_NEAR(baseline_of(render_one("shape=cylinder3;boundedLbl=1;size=15;"), "Customer"),
              142.75 + 4.2, 0.01);
  EXPECT_NEAR(baseline_of(render_one("shape=cylinder3;size=15;"), "Customer"), 130 + 4.2, 0.01);
  // Without a lid the top ellipse is half as tall: the body is 115 … 157.75.
  EXPECT_NEAR(baseline_of(render_one("shape=cylinder3;boundedLbl=1;size=15;lid=0;"), "Customer"),
              136.375 + 4.2, 0.01);
}

TEST(SvgRenderer, LeavesOutHiddenLayersAndCells) {
  const std::string svg = render_sample();
  EXPECT_EQ(svg.find("SecretLabel"), std::string::npos);
  EXPECT_EQ(svg.find("HiddenCell"), std::string::npos);
  EXPECT_EQ(svg.find("foreignObject"), std::string::npos);
}

TEST(SvgRenderer, PlacesChildrenRelativeToTheirParent) {
  const std::string svg = render_sample();
  // Group at (300,300), child at (10,10); swimlane at (500,200), child at (20,50).
  EXPECT_NE(svg.find("<rect x=\"310\" y=\"310\" width=\"60\" height=\"30\""), std::string::npos);
  EXPECT_NE(svg.find("<rect x=\"520\" y=\"250\" width=\"80\" height=\"40\""), std::string::npos);
  // An edge inside the group: its waypoint (95,80) is relative to the group too.
  EXPECT_NE(svg.find(" L 395 380 L "), std::string::npos);
  // The group itself (fillColor and strokeColor none) draws nothing.
  EXPECT_EQ(svg.find("<rect x=\"300\" y=\"300\""), std::string::npos);
}

TEST(SvgRenderer, DrawsShapesByName) {
  const std::string svg = render_sample();
  EXPECT_NE(svg.find("<ellipse cx=\"360\" cy=\"50\" rx=\"60\" ry=\"30\""), std::string::npos);
  // Rhombus at (20,200) 80×80: the four side midpoints.
  EXPECT_NE(svg.find("d=\"M 60 200 L 100 240 L 60 280 L 20 240 Z\""), std::string::npos);
  // Rounded rectangle: arcSize 15 % of the shorter side.
  EXPECT_NE(svg.find("<rect x=\"20\" y=\"20\" width=\"120\" height=\"60\" rx=\"9\" ry=\"9\" "
                     "fill=\"#dae8fc\" stroke=\"#6c8ebf\""),
            std::string::npos);
  // Triangle pointing north at (560,500) 60×60: drawn facing east, turned by direction=north.
  EXPECT_NE(svg.find("<g transform=\"rotate(270 590 530)\">\n<path d=\"M 560 500 L 620 530 L 560 "
                     "560 Z\""),
            std::string::npos);
  // Swimlane header line under the 30 px header.
  EXPECT_NE(svg.find("d=\"M 500 230 L 700 230\""), std::string::npos);
}

TEST(SvgRenderer, RoutesEdgesThroughWaypointsWithArrowheads) {
  const std::string svg = render_sample();
  // e1 leaves Alpha's perimeter towards the first waypoint, then runs through both waypoints.
  EXPECT_NE(svg.find(" L 200 150 L 250 150 L "), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray=\"3 3\""), std::string::npos);
  // startArrow=oval: a circle of radius 3 (two arcs) centred on the start point (116,80).
  EXPECT_NE(svg.find("d=\"M 113 80 A 3 3 0 0 1 119 80 A 3 3 0 0 1 113 80 Z\""), std::string::npos);
  // endArrow=block: a filled triangle; classic (e2's default) has a notch: 4 points.
  EXPECT_GE(count(svg, "Z\" fill=\"#000000\""), 2u);
}

TEST(SvgRenderer, PutsEdgeLabelsOnTheEdge) {
  const std::string svg = render_sample();
  // The edge label child sits a quarter along e1 (x=-0.5); its text is centred there.
  const std::size_t at = svg.find(">yes</tspan>");
  ASSERT_NE(at, std::string::npos);
  const std::size_t text = svg.rfind("<text", at);
  EXPECT_NE(svg.substr(text, at - text).find("text-anchor=\"middle\""), std::string::npos);
  // Edge labels get draw.io's white label background: a rect right before the text.
  const std::size_t background = svg.rfind("<rect ", text);
  ASSERT_NE(background, std::string::npos);
  const std::string_view between = std::string_view(svg).substr(background, text - background);
  EXPECT_NE(between.find("fill=\"#FFFFFF\""), std::string_view::npos);
  EXPECT_EQ(between.find('\n'), between.size() - 1);  // nothing else in between
}

TEST(SvgRenderer, KeepsDocumentOrderAsZOrder) {
  const std::string svg = render_sample();
  EXPECT_LT(svg.find(">Alpha<"), svg.find(">Beta<"));
  EXPECT_LT(svg.find(">Lane<"), svg.find(">Inside<"));
  EXPECT_LT(svg.find(" L 200 150 L 250 150"), svg.find(">yes<"));
}

TEST(SvgRenderer, ScalesToTheRequestedSize) {
  const std::string natural = render_sample();
  SvgOptions options;
  options.width = 400;
  const std::string scaled = render_sample(options);
  EXPECT_NE(scaled.find(" width=\"400\" "), std::string::npos);
  auto png = svg_to_png(scaled);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  EXPECT_EQ(testing::png_size(*png).first, 400u);

  options.height = 100;  // both: fit inside 400×100
  const std::string fitted = render_sample(options);
  EXPECT_NE(fitted.find(" height=\"100\" "), std::string::npos);
  EXPECT_EQ(fitted.find(" width=\"400\" "), std::string::npos);
}

TEST(SvgRenderer, PaintsTheBackgroundAndRejectsBadOptions) {
  SvgOptions options;
  options.background = "#ffeeaa";
  EXPECT_NE(render_sample(options).find("fill=\"#ffeeaa\""), std::string::npos);

  const Diagram diagram = diagram_from(mxfile_with(kCells));
  options.background = "url(http://example.com/x)";
  auto bad = render_svg(diagram.pages().front(), options);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("background"), std::string::npos);
  SvgOptions negative;
  negative.width = -5;
  EXPECT_FALSE(render_svg(diagram.pages().front(), negative).has_value());
}

TEST(SvgRenderer, AnEmptyPageIsAnError) {
  const Diagram blank = diagram_from(mxfile_with(""));
  auto svg = render_svg(blank.pages().front());
  ASSERT_FALSE(svg.has_value());
  EXPECT_EQ(svg.error().message, "empty page");

  const Diagram hidden = diagram_from(mxfile_with(
      R"(<mxCell id="L2" parent="0" visible="0"/><mxCell id="v" value="x" vertex="1" parent="L2">)"
      R"(<mxGeometry width="10" height="10" as="geometry"/></mxCell>)"));
  EXPECT_FALSE(render_svg(hidden.pages().front()).has_value());
}

TEST(SvgRenderer, SurvivesHostileValues) {
  std::string long_label(100000, 'x');
  const std::string cells =
      R"(<mxCell id="a" value="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;" style="fillColor=&quot;/&gt;&lt;x;fontFamily=&quot;&gt;;strokeWidth=1e300;dashed=1;dashPattern=1e308 nan -1;" vertex="1" parent="1">)"
      R"(<mxGeometry x="1e300" y="-1e300" width="-50" height="1e200" as="geometry"/></mxCell>)"
      R"(<mxCell id="b" value=")" +
      long_label +
      R"(" style="html=1;whiteSpace=wrap;fontSize=100000;rotation=1e9;" vertex="1" parent="1">)"
      R"(<mxGeometry x="10" y="10" width="1" height="1" as="geometry"/></mxCell>)"
      R"(<mxCell id="e" style="endArrow=ERzeroToMany;endSize=1e9;exitX=1e9;exitY=nan;" edge="1" parent="1" source="a" target="b">)"
      R"(<mxGeometry relative="1" as="geometry"/></mxCell>)";
  const Diagram diagram = diagram_from(mxfile_with(cells));
  SvgOptions options;
  options.width = 500;
  auto svg = render_svg(diagram.pages().front(), options);
  ASSERT_TRUE(svg.has_value()) << svg.error().message;
  EXPECT_EQ(svg->find("<script"), std::string::npos);
  EXPECT_NE(svg->find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"),
            std::string::npos);
  EXPECT_LT(svg->size(), 64u * 1024u);  // the long label is capped
  if (auto accepted = testing::xmllint_accepts(*svg)) {
    EXPECT_TRUE(*accepted);
  }
  EXPECT_TRUE(svg_to_png(*svg).has_value());
}

TEST(SvgRenderer, SurvivesCyclesAndDeepNesting) {
  std::string cells =
      R"(<mxCell id="x" value="X" vertex="1" parent="y"><mxGeometry width="10" height="10" as="geometry"/></mxCell>)"
      R"(<mxCell id="y" value="Y" vertex="1" parent="x"><mxGeometry width="10" height="10" as="geometry"/></mxCell>)"
      R"(<mxCell id="e1" edge="1" parent="1" source="e2" target="e2"><mxGeometry relative="1" as="geometry"/></mxCell>)"
      R"(<mxCell id="e2" edge="1" parent="1" source="e1" target="e1"><mxGeometry relative="1" as="geometry"/></mxCell>)";
  std::string parent = "1";
  for (int i = 0; i < 3000; ++i) {
    const std::string id = "n" + std::to_string(i);
    cells += "<mxCell id=\"" + id + "\" value=\"" + id + "\" vertex=\"1\" parent=\"" + parent +
             "\"><mxGeometry x=\"1\" y=\"1\" width=\"20\" height=\"20\" as=\"geometry\"/></mxCell>";
    parent = id;
  }
  const Diagram diagram = diagram_from(mxfile_with(cells));
  auto svg = render_svg(diagram.pages().front());
  ASSERT_TRUE(svg.has_value()) << svg.error().message;
  EXPECT_NE(svg->find(">n0</tspan>"), std::string::npos);
  EXPECT_EQ(svg->find(">X</tspan>"), std::string::npos);      // not reachable from a layer
  EXPECT_EQ(svg->find(">n2999</tspan>"), std::string::npos);  // beyond the nesting limit
}

}  // namespace
}  // namespace fcp::drawio::render
