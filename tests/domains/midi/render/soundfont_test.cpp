// SF2 preset headers from a bounds-checked RIFF read, and the default GM SoundFont lookup.
#include "domains/midi/render/soundfont.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/domains/midi/render/sf2_fixture.hpp"

namespace fcp::midi::render {
namespace {

namespace fs = std::filesystem;

using testing::le32;
using testing::phdr_record;

std::string tiny_sf2(const std::string& phdr) {
  return testing::skeleton_sf2(phdr);
}

class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    path_ = fs::temp_directory_path() /
            ("fcp_render_sf_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SoundfontPresets, ParsesSortsAndDropsTheTerminalRecord) {
  TempFile file(tiny_sf2(phdr_record("Standard Kit", 0, 128) + phdr_record("Bass  ", 33, 0) +
                         phdr_record("Grand Piano", 0, 0) + phdr_record("EOP", 0, 0)));
  auto presets = soundfont_presets(file.path());
  ASSERT_TRUE(presets) << presets.error().message;
  ASSERT_EQ(presets->size(), 3U);
  EXPECT_EQ((*presets)[0].name, "Grand Piano");
  EXPECT_EQ((*presets)[1].name, "Bass");  // trailing blanks trimmed
  EXPECT_EQ((*presets)[1].program, 33);
  EXPECT_EQ((*presets)[2].name, "Standard Kit");
  EXPECT_EQ((*presets)[2].bank, 128);
}

TEST(SoundfontPresets, FullTwentyCharacterNamesAndOddBytesAreSafe) {
  TempFile file(tiny_sf2(phdr_record("ABCDEFGHIJKLMNOPQRST", 1, 0) +
                         phdr_record("Caf\xE9\x01", 2, 0) + phdr_record("EOP", 0, 0)));
  auto presets = soundfont_presets(file.path());
  ASSERT_TRUE(presets) << presets.error().message;
  ASSERT_EQ(presets->size(), 2U);
  EXPECT_EQ((*presets)[0].name, "ABCDEFGHIJKLMNOPQRST");
  EXPECT_EQ((*presets)[1].name, "Caf??");
}

TEST(SoundfontPresets, RejectsMalformedFiles) {
  const std::string good_phdr = phdr_record("Piano", 0, 0) + phdr_record("EOP", 0, 0);
  const std::string good = tiny_sf2(good_phdr);
  struct Case {
    std::string bytes;
    const char* reason;
  };
  const Case cases[] = {
      {"", "too short"},
      {"just some text, clearly not RIFF", "no RIFF sfbk header"},
      {"RIFF" + le32(4) + "WAVE", "no RIFF sfbk header"},
      {good.substr(0, good.size() - 10), "truncated: header declares"},
      {tiny_sf2(good_phdr.substr(0, 50)), "not a whole number of 38-byte records"},
      {tiny_sf2(""), "not a whole number of 38-byte records"},
      {"RIFF" + le32(4 + 8 + 5) + "sfbk" + "LIST" + le32(100) + "pdta" + "x",
       "truncated chunk at byte 12"},
      {"RIFF" + le32(4) + "sfbk", "no pdta list"},
  };
  for (const Case& c : cases) {
    TempFile file(c.bytes);
    auto presets = soundfont_presets(file.path());
    ASSERT_FALSE(presets) << c.reason;
    EXPECT_EQ(presets.error().message.rfind("not a SoundFont: " + file.path().string(), 0), 0U)
        << presets.error().message;
    EXPECT_NE(presets.error().message.find(c.reason), std::string::npos) << presets.error().message;
  }
}

TEST(SoundfontPresets, MissingFileIsAnError) {
  auto presets = soundfont_presets("/nonexistent/fcp/font.sf2");
  ASSERT_FALSE(presets);
  EXPECT_NE(presets.error().message.find("/nonexistent/fcp/font.sf2"), std::string::npos);
}

class InstalledSoundfont : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path tim = "/usr/share/sounds/sf2/TimGM6mb.sf2";
    if (!fs::exists(tim)) GTEST_SKIP() << "timgm6mb-soundfont is not installed";
    path_ = tim;
  }
  fs::path path_;
};

TEST_F(InstalledSoundfont, TimGm6mbHasTheGmPresets) {
  auto presets = soundfont_presets(path_);
  ASSERT_TRUE(presets) << presets.error().message;
  ASSERT_GE(presets->size(), 128U);
  EXPECT_TRUE(std::is_sorted(presets->begin(), presets->end(), [](const auto& a, const auto& b) {
    return a.bank != b.bank ? a.bank < b.bank : a.program < b.program;
  }));
  EXPECT_EQ(presets->front().bank, 0);
  EXPECT_EQ(presets->front().program, 0);
  EXPECT_NE(presets->front().name.find("Piano"), std::string::npos) << presets->front().name;
  const auto bank0 =
      std::count_if(presets->begin(), presets->end(), [](const Preset& p) { return p.bank == 0; });
  EXPECT_EQ(bank0, 128);
  EXPECT_TRUE(std::any_of(presets->begin(), presets->end(), [](const Preset& p) {
    return p.bank == 128 && p.program == 0;
  })) << "a GM drum kit at bank 128";
  EXPECT_TRUE(std::none_of(presets->begin(), presets->end(),
                           [](const Preset& p) { return p.name == "EOP"; }));
}

TEST_F(InstalledSoundfont, TruncatedCopyIsAnError) {
  const std::string bytes = read_file(path_);
  ASSERT_GT(bytes.size(), 1000U);
  for (std::size_t keep : {bytes.size() / 2, bytes.size() - 1, std::size_t{100}}) {
    TempFile file(bytes.substr(0, keep));
    auto presets = soundfont_presets(file.path());
    ASSERT_FALSE(presets) << "kept " << keep << " bytes";
    EXPECT_EQ(presets.error().message.rfind("not a SoundFont: ", 0), 0U);
    EXPECT_NE(presets.error().message.find("truncated"), std::string::npos)
        << presets.error().message;
  }
}

class DefaultSoundfont : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* value = std::getenv("FCP_SOUNDFONT")) saved_ = value;
  }
  void TearDown() override {
    if (saved_) {
      ::setenv("FCP_SOUNDFONT", saved_->c_str(), 1);
    } else {
      ::unsetenv("FCP_SOUNDFONT");
    }
  }
  std::optional<std::string> saved_;
};

TEST_F(DefaultSoundfont, EnvironmentVariableWinsWhenReadable) {
  TempFile font("any readable file");
  ::setenv("FCP_SOUNDFONT", font.path().c_str(), 1);
  EXPECT_EQ(default_soundfont(), font.path());
}

TEST_F(DefaultSoundfont, UnreadableEnvironmentValueFallsBackToTheSystemFonts) {
  ::setenv("FCP_SOUNDFONT", "/nonexistent/font.sf2", 1);
  auto found = default_soundfont();
  ::unsetenv("FCP_SOUNDFONT");
  EXPECT_EQ(found, default_soundfont());
  if (!found) GTEST_SKIP() << "no system GM SoundFont installed";
  EXPECT_EQ(found->string().rfind("/usr/share/", 0), 0U) << *found;
  EXPECT_TRUE(fs::is_regular_file(*found));
}

TEST_F(DefaultSoundfont, DirectoryIsNotAFont) {
  ::setenv("FCP_SOUNDFONT", fs::temp_directory_path().c_str(), 1);
  auto found = default_soundfont();
  EXPECT_NE(found, fs::temp_directory_path());
}

}  // namespace
}  // namespace fcp::midi::render
