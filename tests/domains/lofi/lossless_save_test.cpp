// Open → save with no edit gives every readable Max file back byte for byte (the shared corpus
// and the project's fixtures), and an edit leaves every other box as the file had it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "domains/lofi/device_io.hpp"
#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/patcher.hpp"
#include "tests/domains/lofi/maxpat/maxpat_test_support.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
using maxpat::testing::corpus_dir;
using maxpat::testing::patcher_of;
using maxpat::testing::read_file;

// The Max files in `dir` (.maxpat, .amxd), sorted.
std::vector<fs::path> max_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto extension = entry.path().extension();
    if (entry.is_regular_file() && (extension == ".maxpat" || extension == ".amxd"))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Counts {
  int identical = 0;
  int refused = 0;
};

// Opens each file as a device and saves it with no edit; every readable file must come back
// byte for byte. Files that cannot be read must say why (only encryption is expected).
Counts expect_open_save_identical(const std::vector<fs::path>& files) {
  Counts counts;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = read_file(path);
    auto device = read_device(bytes, path.stem().string());
    if (!device) {
      EXPECT_NE(device.error().message.find("encrypted"), std::string::npos)
          << device.error().message;
      std::printf("  %-58s refused: %s\n", path.filename().c_str(), device.error().message.c_str());
      ++counts.refused;
      continue;
    }
    auto saved = write_device(*device, path.filename());
    if (!saved) {
      ADD_FAILURE() << saved.error().message;
      continue;
    }
    EXPECT_EQ(*saved, bytes);
    if (*saved == bytes) ++counts.identical;
  }
  return counts;
}

TEST(LosslessSave, CorpusFilesComeBackByteForByte) {
  const auto files = max_files(corpus_dir());
  if (files.empty()) GTEST_SKIP() << "no Max corpus at " << corpus_dir();
  const Counts counts = expect_open_save_identical(files);
  std::printf("corpus: %d of %zu files identical after open → save, %d refused\n", counts.identical,
              files.size(), counts.refused);
  EXPECT_EQ(counts.identical + counts.refused, static_cast<int>(files.size()));
  EXPECT_LE(counts.refused, 1) << "only the encrypted device may be refused";
}

TEST(LosslessSave, FixtureFilesComeBackByteForByte) {
  const auto files = max_files(fcp::testing::source_dir() / "fixtures" / "lofi");
  ASSERT_FALSE(files.empty()) << "fixtures/lofi holds devices an older fcp wrote";
  const Counts counts = expect_open_save_identical(files);
  std::printf("fixtures: %d of %zu files identical after open → save\n", counts.identical,
              files.size());
  EXPECT_EQ(counts.identical, static_cast<int>(files.size()));
}

// A device container under a .maxpat name (Max tells files apart by content; a frozen device
// can carry either name) is saved as the container it is, byte for byte, and after an edit
// still as a container.
TEST(LosslessSave, AContainerNamedMaxpatStaysAContainer) {
  int checked = 0;
  for (const fs::path& path : max_files(corpus_dir())) {
    if (path.extension() != ".amxd") continue;
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = read_file(path);
    auto device = read_device(bytes, path.stem().string());
    if (!device) continue;
    const fs::path as_maxpat = path.stem().string() + ".maxpat";
    auto saved = write_device(*device, as_maxpat);
    ASSERT_TRUE(saved) << saved.error().message;
    EXPECT_TRUE(*saved == bytes) << "written as " << saved->substr(0, 4) << ", not byte for byte";
    MaxObject probe;
    probe.id = "fcp_probe";
    probe.cls = "cycle~";
    device->put_object(probe);
    auto edited = write_device(*device, as_maxpat);
    ASSERT_TRUE(edited) << edited.error().message;
    EXPECT_TRUE(edited->starts_with("ampf"));
    EXPECT_TRUE(maxpat::read_amxd(*edited).has_value());
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no readable .amxd in " << corpus_dir();
}

// The save that follows an edit goes through the model, not the shortcut for unchanged
// devices: every box and line the edit did not touch must still be written as the file had it.
TEST(LosslessSave, AnEditLeavesEveryOtherBoxAsItWas) {
  const auto files = max_files(corpus_dir());
  if (files.empty()) GTEST_SKIP() << "no Max corpus at " << corpus_dir();
  int checked = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = read_file(path);
    auto device = read_device(bytes, path.stem().string());
    if (!device) continue;
    MaxObject probe;
    probe.id = "fcp_probe";
    probe.cls = "cycle~";
    probe.args = "440";
    device->put_object(probe);
    auto saved = write_device(*device, path.filename());
    ASSERT_TRUE(saved) << saved.error().message;
    maxpat::Patcher after = patcher_of(*saved);
    const maxpat::Patcher before = patcher_of(bytes);
    ASSERT_EQ(after.boxes.size(), before.boxes.size() + 1);
    // The new box is the frontmost, listed first as Max lists the newest box.
    EXPECT_EQ(after.boxes.front().json.at("varname"), boost::json::value("fcp_probe"));
    after.boxes.erase(after.boxes.begin());
    EXPECT_EQ(maxpat::write_maxpat(after), maxpat::write_maxpat(before));
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace fcp::lofi
