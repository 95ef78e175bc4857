// .drawio.png through drawio_session open/save: open → save without an edit writes the same
// bytes; after an edit the saved PNG, read by the independent chunk reader (png_test_support.hpp:
// chunk framing, CRC, URI and page decoding without the code under test) and xmllint, holds the
// edit. Over the project's fixture, every .png of ../shared/corpus/drawio (skipped when absent)
// and of $FCP_DRAWIO_PNG_DIR (more real files, when set).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/drawio/domain.hpp"
#include "tests/domains/drawio/model/drawio_test_support.hpp"
#include "tests/domains/drawio/model/png_test_support.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::source_dir;

std::vector<fs::path> pngs_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string extension = entry.path().extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (entry.is_regular_file() && extension == ".png") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> real_files() {
  std::vector<fs::path> files = pngs_in(source_dir() / ".." / "shared" / "corpus" / "drawio");
  if (const char* extra = std::getenv("FCP_DRAWIO_PNG_DIR"); extra != nullptr && *extra) {
    const std::vector<fs::path> more = pngs_in(extra);
    files.insert(files.end(), more.begin(), more.end());
  }
  return files;
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

class PngFileTest : public ::testing::Test {
 protected:
  PngFileTest() : domain_(make_drawio_domain()), session_(*domain_, paths_) {
    dir_ = fs::temp_directory_path() / ("fcp-png-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  ~PngFileTest() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  PngFileTest(const PngFileTest&) = delete;
  PngFileTest& operator=(const PngFileTest&) = delete;

  core::ToolReply session(const std::string& action) {
    return session_.run_session(action, {}).reply;
  }
  core::ToolReply ops(std::vector<std::string> list) { return session_.run_ops(list, {}).reply; }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Open → save (identical) → edit → save (the edit is in the file) → undo → save (identical).
  void round_trip(const fs::path& source) {
    SCOPED_TRACE(source.filename().string());
    const std::string original = read_file(source);
    write_file(dir_ / "in.drawio.png", original);
    auto opened = session("open \"" + path("in.drawio.png") + "\" discard:true");
    ASSERT_FALSE(opened.is_error) << opened.text;
    auto saved = session("save as:\"" + path("same.drawio.png") + "\"");
    ASSERT_FALSE(saved.is_error) << saved.text;
    EXPECT_TRUE(read_file(dir_ / "same.drawio.png") == original)
        << "open → save without an edit changed the file";

    auto added = ops({"add svc \"PNG probe\""});
    ASSERT_FALSE(added.is_error) << added.text;
    ASSERT_FALSE(session("save as:\"" + path("edit.drawio.png") + "\"").is_error);
    const std::string edited = read_file(dir_ / "edit.drawio.png");
    auto chunks = testing::png_chunks(edited);
    ASSERT_TRUE(chunks.has_value()) << "the saved file is not a well-framed PNG";
    for (const auto& chunk : *chunks)
      EXPECT_TRUE(chunk.crc_ok) << chunk.type;
    EXPECT_EQ(chunks->front().type, "IHDR");
    EXPECT_EQ(chunks->back().type, "IEND");
    const auto mxfile = testing::embedded_mxfile(edited);
    ASSERT_TRUE(mxfile.has_value()) << "no tEXt \"mxfile\" chunk before the image data";
    if (auto accepted = testing::xmllint_accepts(*mxfile)) {
      EXPECT_TRUE(*accepted);
    }
    const std::vector<std::string> pages = testing::page_models(*mxfile);
    const auto with_probe = std::count_if(pages.begin(), pages.end(), [](const std::string& page) {
      return page.find("value=\"PNG probe\"") != std::string::npos;
    });
    EXPECT_EQ(with_probe, 1) << *mxfile;
    for (const std::string& page : pages) {
      EXPECT_EQ(page.find("(undecodable page)"), std::string::npos);
      if (auto accepted = testing::xmllint_accepts(page); accepted && !page.empty()) {
        EXPECT_TRUE(*accepted);
      }
    }

    auto undone = session("undo");
    ASSERT_FALSE(undone.is_error) << undone.text;
    ASSERT_FALSE(session("save as:\"" + path("undone.drawio.png") + "\"").is_error);
    EXPECT_TRUE(read_file(dir_ / "undone.drawio.png") == original)
        << "undoing the edit gives the original file back";
  }

  fcp::testing::AllowAll paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
  fs::path dir_;
};

TEST_F(PngFileTest, FixtureRoundTrips) {
  round_trip(source_dir() / "fixtures" / "drawio" / "embedded.drawio.png");
}

TEST_F(PngFileTest, RealFilesRoundTrip) {
  const std::vector<fs::path> files = real_files();
  if (files.empty()) {
    GTEST_SKIP() << "no .png in " << source_dir() / ".." / "shared" / "corpus" / "drawio"
                 << " (set FCP_DRAWIO_PNG_DIR for more)";
  }
  for (const fs::path& file : files)
    round_trip(file);
  std::printf("  %zu real .drawio.png files round-tripped\n", files.size());
}

TEST_F(PngFileTest, OpenTakesItsTitleFromTheNameAndSavesToOtherFormats) {
  write_file(dir_ / "Checkout flow.drawio.png",
             read_file(source_dir() / "fixtures" / "drawio" / "embedded.drawio.png"));
  auto opened = session("open \"" + path("Checkout flow.drawio.png") + "\"");
  ASSERT_FALSE(opened.is_error) << opened.text;
  EXPECT_NE(opened.text.find("(2 pages, 3 shapes, 1 edge, 0 groups)"), std::string::npos)
      << opened.text;
  EXPECT_NE(session_.run_query("status").text.find("Checkout flow"), std::string::npos);
  ASSERT_FALSE(session("save as:\"" + path("copy.drawio") + "\"").is_error);
  const std::string xml = read_file(dir_ / "copy.drawio");
  EXPECT_EQ(xml.rfind("<mxfile host=\"fcp-fixture\"", 0), 0u) << xml.substr(0, 80);
  // A new diagram saved as .drawio.png opens again.
  ASSERT_FALSE(session("new \"Fresh\" discard:true").is_error);
  ASSERT_FALSE(ops({"add svc Web", "add db Orders", "connect Web -> Orders"}).is_error);
  ASSERT_FALSE(session("save as:\"" + path("fresh.drawio.png") + "\"").is_error);
  auto reopened = session("open \"" + path("fresh.drawio.png") + "\"");
  ASSERT_FALSE(reopened.is_error) << reopened.text;
  EXPECT_NE(reopened.text.find("(1 page, 2 shapes, 1 edge, 0 groups)"), std::string::npos)
      << reopened.text;
}

TEST_F(PngFileTest, DamagedFilesGiveAClearErrorAndLeaveTheSessionAsItWas) {
  std::string damaged = read_file(source_dir() / "fixtures" / "drawio" / "embedded.drawio.png");
  damaged.resize(damaged.size() / 2);
  write_file(dir_ / "half.drawio.png", damaged);
  auto reply = session("open \"" + path("half.drawio.png") + "\"");
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("cannot open \"" + path("half.drawio.png") +
                            "\": damaged PNG: the file ends early (truncated)"),
            std::string::npos)
      << reply.text;
  EXPECT_FALSE(session_.has_document());
}

}  // namespace
}  // namespace fcp::drawio
