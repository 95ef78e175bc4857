// Renders every page of the shared draw.io corpus to SVG and PNG.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/export/svg_renderer.hpp"
#include "export_test_support.hpp"

namespace fcp::drawio::render {
namespace {

namespace fs = std::filesystem;

// Set FCP_DRAWIO_EXPORT_DUMP_DIR to keep the rendered pages (for a look by eye).
void dump(const fs::path& source, std::size_t page, std::string_view extension,
          const std::string& bytes) {
  const char* dir = std::getenv("FCP_DRAWIO_EXPORT_DUMP_DIR");
  if (dir == nullptr || *dir == '\0') return;
  const std::string name =
      source.filename().string() + ".p" + std::to_string(page + 1) + "." + std::string(extension);
  std::ofstream(fs::path(dir) / name, std::ios::binary) << bytes;
}

bool has_visible_cells(const Page& page) {
  for (const Cell& cell : page.cells()) {
    if ((cell.vertex || cell.edge) && cell.is_visible()) return true;
  }
  return false;
}

TEST(ExportCorpus, EveryPageRendersToSvgAndPng) {
  const std::vector<fs::path> files = testing::corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus at " << testing::source_dir() / ".." / "shared";
  std::size_t pages = 0, empty = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    auto diagram = read_drawio(testing::read_file(path));
    ASSERT_TRUE(diagram.has_value()) << diagram.error().message;
    for (std::size_t i = 0; i < diagram->pages().size(); ++i) {
      SCOPED_TRACE("page " + std::to_string(i + 1));
      const Page& page = diagram->pages()[i];
      ++pages;
      auto svg = render_svg(page);
      if (!svg && svg.error().message == "empty page") {
        EXPECT_FALSE(has_visible_cells(page));
        ++empty;
        continue;
      }
      ASSERT_TRUE(svg.has_value()) << svg.error().message;
      EXPECT_EQ(svg->find("foreignObject"), std::string::npos);
      if (auto accepted = testing::xmllint_accepts(*svg)) {
        EXPECT_TRUE(*accepted);
      }
      auto png = svg_to_png(*svg, 1200);
      ASSERT_TRUE(png.has_value()) << png.error().message;
      ASSERT_TRUE(testing::is_png(*png));
      EXPECT_EQ(testing::png_size(*png).first, 1200u);
      dump(path, i, "svg", *svg);
      dump(path, i, "png", *png);
    }
  }
  std::printf("  rendered %zu pages of %zu files (%zu empty)\n", pages, files.size(), empty);
  EXPECT_GT(pages, empty);
}

}  // namespace
}  // namespace fcp::drawio::render
