// Counts the shapes of the shared draw.io corpus that the native renderer draws as placeholders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "domains/drawio/export/svg_renderer.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

namespace fs = std::filesystem;

// Placeholders over every page of the 22-file corpus. Before issue 13 the renderer drew 993
// shapes as placeholders (635 inline stencils, 45 images from URLs, 313 other names) and said
// nothing about them.
constexpr std::size_t kPlaceholdersBefore = 993;
constexpr std::size_t kPlaceholdersNow = 123;

// The shape name as counted: an inline stencil's XML is cut off.
std::string counted_name(const std::string& shape) {
  return shape.starts_with("stencil(") ? std::string("stencil(…)") : shape;
}

TEST(ExportCorpus, PlaceholdersAreReportedAndFewerThanBefore) {
  const std::vector<fs::path> files = testing::corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus at " << testing::source_dir() / ".." / "shared";
  std::size_t total = 0, pages = 0;
  std::map<std::string, std::size_t> by_name;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    auto diagram = read_drawio(testing::read_file(path));
    ASSERT_TRUE(diagram.has_value()) << diagram.error().message;
    for (const Page& page : diagram->pages()) {
      auto rendered = render_svg_report(page);
      if (!rendered) continue;  // empty pages (EveryPageRendersToSvgAndPng checks them)
      ++pages;
      std::set<std::string> seen;
      for (const Placeholder& shape : rendered->placeholders) {
        // Each placeholder is a vertex of this page with that shape, reported once.
        const Cell* cell = page.find(shape.cell_id);
        ASSERT_NE(cell, nullptr) << shape.cell_id;
        EXPECT_TRUE(cell->vertex) << shape.cell_id;
        EXPECT_TRUE(seen.insert(shape.cell_id).second) << shape.cell_id;
        ++by_name[counted_name(shape.shape)];
        ++total;
      }
    }
  }
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (const auto& [name, count] : by_name)
    ranked.emplace_back(count, name);
  std::sort(ranked.rbegin(), ranked.rend());
  std::printf("  %zu shapes drawn as placeholders on %zu pages (before: %zu)\n", total, pages,
              kPlaceholdersBefore);
  for (const auto& [count, name] : ranked)
    std::printf("  %5zu %s\n", count, name.c_str());
  EXPECT_EQ(total, kPlaceholdersNow);
  EXPECT_LE(total, kPlaceholdersBefore);
}

// The complaint of issue 13: a threat model's attack-tree gates (shape=xor;direction=north) came
// out as rectangles. They are drawn as xor outlines turned north, and nothing on the page is a
// placeholder.
TEST(ExportCorpus, ThreatModelGatesAreDrawnAsGates) {
  const fs::path path = testing::source_dir() / ".." / "shared" / "corpus" / "drawio" /
                        "jgraph__drawio-diagrams__threat-modelling.drawio";
  if (!fs::exists(path)) GTEST_SKIP() << "no corpus file " << path;
  auto diagram = read_drawio(testing::read_file(path));
  ASSERT_TRUE(diagram.has_value()) << diagram.error().message;
  std::size_t gates = 0;
  for (const Page& page : diagram->pages()) {
    auto rendered = render_svg_report(page);
    if (!rendered) continue;
    EXPECT_TRUE(rendered->placeholders.empty()) << page.name();
    // An xor outline ends with the curved back, "Q … Z", inside a north turn.
    for (std::size_t at = rendered->svg.find("<g transform=\"rotate(270 "); at != std::string::npos;
         at = rendered->svg.find("<g transform=\"rotate(270 ", at + 1)) {
      const std::size_t end = rendered->svg.find("</g>", at);
      const std::string_view group = std::string_view(rendered->svg).substr(at, end - at);
      if (group.find(" Q ") != std::string_view::npos &&
          group.find(" Z\"") != std::string_view::npos)
        ++gates;
    }
  }
  EXPECT_EQ(gates, 5u);
}

}  // namespace
}  // namespace fcp::drawio::render
