// Opens every file of the shared draw.io corpus and checks open → write → read is lossless.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/io/writer.hpp"
#include "drawio_test_support.hpp"

namespace fcp::drawio {
namespace {

namespace fs = std::filesystem;
using testing::first_difference;
using testing::read_file;
using testing::source_dir;

std::vector<fs::path> corpus_files() {
  const fs::path dir = source_dir() / ".." / "shared" / "corpus" / "drawio";
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Counts {
  std::size_t cells = 0, wrapped = 0, compressed = 0, edges = 0, points = 0;
};

Counts count(const Diagram& diagram) {
  Counts counts;
  for (const Page& page : diagram.pages()) {
    counts.compressed += page.was_compressed() ? 1 : 0;
    for (const Cell& cell : page.cells()) {
      ++counts.cells;
      counts.wrapped += cell.wrapper ? 1 : 0;
      counts.edges += cell.edge ? 1 : 0;
      counts.points += cell.geometry && cell.geometry->points ? cell.geometry->points->size() : 0;
    }
  }
  return counts;
}

// Set FCP_DRAWIO_DUMP_DIR to keep the written files (for checks with other tools).
void dump(const fs::path& source, const std::string& written) {
  const char* dir = std::getenv("FCP_DRAWIO_DUMP_DIR");
  if (dir == nullptr || *dir == '\0') return;
  std::ofstream(fs::path(dir) / (source.filename().string() + ".out.drawio"), std::ios::binary)
      << written;
}

TEST(CorpusTest, EveryFileRoundTripsLosslessly) {
  const std::vector<fs::path> files = corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus at " << source_dir() / ".." / "shared";
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    auto original = read_drawio(read_file(path));
    ASSERT_TRUE(original.has_value()) << original.error().message;
    ASSERT_FALSE(original->pages().empty());
    const std::string written = write_drawio(*original);
    dump(path, written);
    auto reread = read_drawio(written);
    ASSERT_TRUE(reread.has_value()) << reread.error().message;
    EXPECT_EQ(first_difference(*original, *reread), "");
    EXPECT_EQ(write_drawio(*reread), written);
    if (auto accepted = testing::xmllint_accepts(written)) {
      EXPECT_TRUE(*accepted);
    }
    const Counts counts = count(*original);
    EXPECT_GT(counts.cells, 0u);
    std::printf(
        "  %-75s %2zu pages (%zu compressed) %5zu cells %4zu edges %3zu wrapped %3zu "
        "waypoints\n",
        path.filename().c_str(), original->pages().size(), counts.compressed, counts.cells,
        counts.edges, counts.wrapped, counts.points);
  }
}

TEST(CorpusTest, EveryStyleStringPrintsBackExactly) {
  const std::vector<fs::path> files = corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus";
  std::size_t styles = 0;
  for (const fs::path& path : files) {
    auto diagram = read_drawio(read_file(path));
    ASSERT_TRUE(diagram.has_value()) << path;
    for (const Page& page : diagram->pages()) {
      for (const Cell& cell : page.cells()) {
        if (!cell.style) continue;
        ++styles;
        EXPECT_EQ(Style::parse(cell.style->str()), *cell.style);
      }
    }
  }
  EXPECT_GT(styles, 1000u);
}

TEST(CorpusTest, AllocatedIdsNeverCollideWithOpenedIds) {
  const std::vector<fs::path> files = corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus";
  for (const fs::path& path : files) {
    auto diagram = read_drawio(read_file(path));
    ASSERT_TRUE(diagram.has_value()) << path;
    for (int i = 0; i < 100; ++i) {
      const std::string id = diagram->allocate_id();
      for (const Page& page : diagram->pages()) {
        EXPECT_FALSE(page.contains(id)) << path << " " << id;
        EXPECT_NE(page.id(), id);
      }
    }
  }
}

}  // namespace
}  // namespace fcp::drawio
