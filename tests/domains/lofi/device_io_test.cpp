// Devices opened from real Max files save back with every box, line and attribute; devices
// built with the tools save as patchers shaped like Max's own.
#include "domains/lofi/device_io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/patcher.hpp"
#include "tests/domains/lofi/maxpat/maxpat_test_support.hpp"
#include "tests/support/source_dir.hpp"
#include "tests/support/transcript.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
using maxpat::testing::corpus_dir;
using maxpat::testing::patcher_of;
using maxpat::testing::read_file;

TEST(DeviceIo, CorpusFilesSaveBackWithEveryBoxLineAndAttribute) {
  const fs::path corpus = corpus_dir();
  if (!fs::exists(corpus)) GTEST_SKIP() << "no corpus at " << corpus;
  int opened = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string bytes = read_file(entry.path());
    SCOPED_TRACE(entry.path().filename().string());
    auto device = read_device(bytes, entry.path().stem().string());
    if (!device) {
      EXPECT_NE(device.error().message.find("encrypted"), std::string::npos)
          << device.error().message;
      continue;
    }
    ++opened;
    auto saved = write_device(*device, entry.path().filename());
    ASSERT_TRUE(saved) << saved.error().message;
    const auto before = patcher_of(bytes);
    const auto after = patcher_of(*saved);
    ASSERT_EQ(after.boxes.size(), before.boxes.size());
    ASSERT_EQ(after.lines.size(), before.lines.size());
    for (const auto& box : before.boxes) {
      const auto* kept = after.find_box(box.id());
      ASSERT_NE(kept, nullptr) << box.id();
      for (const auto& [key, value] : box.json) {
        if (key == "varname") continue;  // ids the tools address become varnames
        EXPECT_EQ(kept->json.if_contains(key) ? *kept->json.if_contains(key) : boost::json::value(),
                  value)
            << box.id() << "." << key;
      }
    }
  }
  EXPECT_GT(opened, 0);
}

TEST(DeviceIo, BuiltDevicesLookLikeMaxFiles) {
  Device device;
  device.info().name = "Built";
  device.put_object(MaxObject{"osc", "cycle~", "440", 40, 40, std::nullopt, {}, false, "", 0, ""});
  device.put_object(MaxObject{"dac", "dac~", "", 40, 100, std::nullopt, {}, false, "", 0, ""});
  device.put_object(MaxObject{"30_knob",
                              "live.dial",
                              "",
                              20,
                              20,
                              std::array<double, 2>{44, 48},
                              {},
                              true,
                              "30_knob",
                              0,
                              ""});
  device.add_wire({"osc", 0, "dac", 0});
  device.add_wire({"osc", 0, "dac", 1});
  auto saved = write_device(device, "built.maxpat");
  ASSERT_TRUE(saved);
  auto patcher = maxpat::read_maxpat(*saved);
  ASSERT_TRUE(patcher) << patcher.error().message;
  ASSERT_EQ(patcher->boxes.size(), 3u);
  ASSERT_EQ(patcher->lines.size(), 2u);
  for (const auto& box : patcher->boxes) {
    for (const char* key : {"id", "maxclass", "numinlets", "numoutlets", "patching_rect"})
      EXPECT_TRUE(box.json.contains(key)) << box.id() << " lacks " << key;
  }
  const auto knob = std::find_if(patcher->boxes.begin(), patcher->boxes.end(),
                                 [](const auto& b) { return b.maxclass() == "live.dial"; });
  ASSERT_NE(knob, patcher->boxes.end());
  EXPECT_EQ(knob->json.at("presentation"), boost::json::value(1));
  auto reopened = read_device(*saved, "built");
  ASSERT_TRUE(reopened);
  EXPECT_EQ(reopened->objects().size(), 3u);
  EXPECT_EQ(reopened->wires().size(), 2u);
  // Max keeps no device name in the file: like Live, the file's name is the device's.
  EXPECT_EQ(reopened->info().name, "built");
  EXPECT_EQ(saved->find("\"fcp\""), std::string::npos);
  auto amxd = write_device(device, "built.amxd");
  ASSERT_TRUE(amxd);
  EXPECT_TRUE(amxd->starts_with("ampf"));
  EXPECT_NE(amxd->find("\"project\""), std::string::npos);
}

}  // namespace
}  // namespace fcp::lofi
