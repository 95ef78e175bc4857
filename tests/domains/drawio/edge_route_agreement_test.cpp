// The SVG/PNG renderer and the batch warnings' model of drawn edges (drawn_path) agree on draw.io's
// route for orthogonal edges without waypoints (issue 13).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domains/drawio/edge_paths.hpp"
#include "domains/drawio/export/svg_edges.hpp"
#include "domains/drawio/rect.hpp"

namespace fcp::drawio {
namespace {

using render::detail::Box;
using render::detail::Perimeter;
using render::detail::StyleView;
using render::detail::Vec;

Cell edge_with(std::string_view style) {
  Cell cell;
  cell.edge = true;
  cell.style = Style::parse(style);
  return cell;
}

// The renderer draws an orthogonal edge without waypoints as the batch warnings' model
// (drawn_path) says draw.io draws it, over a grid of placements and fixed or automatic ports:
// before issue 13's fix they differed in most configurations with a fixed port.
TEST(RouteEdge, OrthogonalRoutesWithoutWaypointsMatchTheWarningsModel) {
  const Rect source{200, 200, 80, 60};
  const std::vector<std::string> ports{"",      "0;0.5",  "1;0.5",  "0.5;0",
                                       "0.5;1", "1;0.25", "0.25;1", "0.1;0.5"};
  int fixed_total = 0, fixed_differ = 0, automatic_total = 0, automatic_differ = 0;
  std::string first_difference;
  for (const std::string_view edge_style :
       {"orthogonalEdgeStyle", "elbowEdgeStyle",
        "orthogonalEdgeStyle;jettySize=auto;endArrow=block;endSize=14"}) {
    for (const double dx : {-220.0, -110.0, -40.0, 0.0, 40.0, 110.0, 220.0}) {
      for (const double dy : {-200.0, -90.0, -30.0, 0.0, 30.0, 90.0, 200.0}) {
        const Rect target{source.x + dx, source.y + dy, 80, 60};
        if (target.overlaps(source)) continue;
        for (const std::string& exit : ports) {
          for (const std::string& entry : ports) {
            std::string style = "edgeStyle=" + std::string(edge_style) + ";";
            if (!exit.empty())
              style += "exitX=" + exit.substr(0, exit.find(';')) +
                       ";exitY=" + exit.substr(exit.find(';') + 1) + ";";
            if (!entry.empty())
              style += "entryX=" + entry.substr(0, entry.find(';')) +
                       ";entryY=" + entry.substr(entry.find(';') + 1) + ";";
            const Cell edge = edge_with(style);
            const std::vector<PathPoint> model = drawn_path(edge, source, target, {0, 0});
            const auto port = [](const Rect& r,
                                 const std::string& fractions) -> std::optional<Vec> {
              if (fractions.empty()) return std::nullopt;
              const double fx = std::stod(fractions.substr(0, fractions.find(';')));
              const double fy = std::stod(fractions.substr(fractions.find(';') + 1));
              return Vec{r.x + fx * r.width, r.y + fy * r.height};
            };
            const StyleView view(edge, true);
            const auto drawn =
                render::detail::route_edge(view,
                                           {Box{source.x, source.y, source.width, source.height},
                                            Perimeter::rectangle, port(source, exit)},
                                           {Box{target.x, target.y, target.width, target.height},
                                            Perimeter::rectangle, port(target, entry)},
                                           {});
            bool same = model.size() == drawn.size();
            for (std::size_t i = 0; same && i < model.size(); ++i)
              same = std::abs(model[i].x - drawn[i].x) < 0.01 &&
                     std::abs(model[i].y - drawn[i].y) < 0.01;
            const bool fixed = !exit.empty() || !entry.empty();
            (fixed ? fixed_total : automatic_total) += 1;
            if (!same) {
              (fixed ? fixed_differ : automatic_differ) += 1;
              if (first_difference.empty())
                first_difference =
                    style + " target at " + std::to_string(dx) + "," + std::to_string(dy);
            }
          }
        }
      }
    }
  }
  std::cout << "renderer vs warnings model: fixed ports " << fixed_differ << " of " << fixed_total
            << " differ, automatic ports " << automatic_differ << " of " << automatic_total << "\n";
  EXPECT_EQ(fixed_differ, 0) << "first: " << first_difference;
  EXPECT_EQ(automatic_differ, 0) << "first: " << first_difference;
}

// mxEdgeStyle.getJettySize's rules: an end's own size over the edge's, "auto" sized by the arrow.
TEST(JettySize, FollowsTheStyleAsDrawIoDoes) {
  EXPECT_EQ(jetty_size("", "", "none", ""), 10);
  EXPECT_EQ(jetty_size("", "auto", "none", ""), 20);
  EXPECT_EQ(jetty_size("", "auto", "classic", ""), 20);  // (6 + 10) / 10 → 2 buffers
  EXPECT_EQ(jetty_size("", "auto", "block", "14"), 30);  // (14 + 10) / 10 → 3 buffers
  EXPECT_EQ(jetty_size("35", "auto", "classic", ""), 35);
  EXPECT_EQ(jetty_size("", "15", "classic", ""), 15);
  EXPECT_EQ(jetty_size("", "wide", "classic", ""), 10);
}

}  // namespace
}  // namespace fcp::drawio
