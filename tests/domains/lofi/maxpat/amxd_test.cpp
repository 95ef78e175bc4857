// The .amxd container: plain and frozen layouts, new devices, clear errors.
#include "domains/lofi/maxpat/amxd.hpp"

#include <gtest/gtest.h>

#include <boost/json/value.hpp>

#include "maxpat_test_support.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;
using testing::amxd_error;
using testing::be32;
using testing::le32;

constexpr std::string_view tiny_json =
    "{\n\t\"patcher\" : \t{\n\t\t\"boxes\" : [  ],\n"
    "\t\t\"lines\" : [  ]\n\t}\n\n}\n";

// A plain container assembled by hand (independent of the writer under test).
std::string plain_device(std::string_view type, std::string_view json_text, int meta = 0) {
  return "ampf" + le32(4) + std::string(type) + "meta" + le32(4) + le32(meta) + "ptch" +
         le32(static_cast<std::uint32_t>(json_text.size() + 1)) + std::string(json_text) +
         std::string(1, '\0');
}

std::string field(std::string_view tag, std::string_view data) {
  return std::string(tag) + be32(static_cast<std::uint32_t>(8 + data.size())) + std::string(data);
}

// A frozen device like Max 9.1 writes: mx@c header, the patcher JSON, a second file, and a
// directory of both.
std::string frozen_device(std::string_view json_text, std::string_view script) {
  const std::string json_file = std::string(json_text) + std::string(1, '\0');
  const std::uint32_t json_at = 16;
  const auto script_at = static_cast<std::uint32_t>(json_at + json_file.size());
  const auto dir_at = static_cast<std::uint32_t>(script_at + script.size());
  auto entry = [](std::string_view type, std::string_view name, std::uint32_t size,
                  std::uint32_t offset) {
    const std::string body = field("type", type) + field("fnam", std::string(name) + '\0') +
                             field("sz32", be32(size)) + field("of32", be32(offset)) +
                             field("vers", be32(0)) + field("flag", be32(0x11)) +
                             field("mdat", be32(0xE611B439));
    return field("dire", body);
  };
  const std::string entries =
      entry("JSON", "dev.maxpat", static_cast<std::uint32_t>(json_file.size()), json_at) +
      entry("TEXT", "helper.js", static_cast<std::uint32_t>(script.size()), script_at);
  const std::string dir = field("dlst", entries);
  const std::string data =
      "mx@c" + be32(16) + be32(0) + be32(dir_at) + json_file + std::string(script) + dir;
  return "ampf" + le32(4) + "aaaa" + "ptch" + le32(static_cast<std::uint32_t>(data.size())) + data;
}

TEST(AmxdTest, ReadsAPlainDevice) {
  const std::string bytes = plain_device("mmmm", tiny_json, 1);
  auto file = read_amxd(bytes);
  ASSERT_TRUE(file.has_value()) << file.error().message;
  EXPECT_EQ(file->device_type, "mmmm");
  EXPECT_EQ(device_type_name(file->device_type), "MIDI effect");
  EXPECT_EQ(file->raw_header.size(), 32u);
  EXPECT_EQ(file->raw_trailer, std::string(1, '\0'));
  EXPECT_EQ(file->json_size, tiny_json.size());
  EXPECT_EQ(write_amxd(*file), bytes);
}

TEST(AmxdTest, WriteFixesThePatcherLengthAndType) {
  auto file = read_amxd(plain_device("aaaa", tiny_json, 1));
  ASSERT_TRUE(file.has_value());
  file->patcher.boxes.push_back(make_box("obj-1", "plugin~", "", 10, 10));
  file->device_type = "iiii";
  const std::string json_text = write_maxpat(file->patcher);
  EXPECT_EQ(write_amxd(*file), plain_device("iiii", json_text, 1));
}

TEST(AmxdTest, ReadsAndEditsAFrozenDevice) {
  const std::string script = "post('hello');\n";
  const std::string bytes = frozen_device(tiny_json, script);
  auto file = read_amxd(bytes);
  ASSERT_TRUE(file.has_value()) << file.error().message;
  EXPECT_EQ(file->device_type, "aaaa");
  EXPECT_EQ(file->json_size, tiny_json.size());
  EXPECT_EQ(write_amxd(*file), bytes);

  file->patcher.boxes.push_back(make_box("obj-1", "cycle~", "440", 10, 10));
  const std::string json_text = write_maxpat(file->patcher);
  const std::string written = write_amxd(*file);
  // Same as a frozen device made from scratch around the longer JSON: every offset and size
  // (ptch length, directory offset, the patcher's sz32, the script's of32) moved along.
  EXPECT_EQ(written, frozen_device(json_text, script));
  auto reread = read_amxd(written);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(reread->patcher, file->patcher);
  EXPECT_NE(written.find(script), std::string::npos);
}

TEST(AmxdTest, NewDeviceHasTheContainerAndProjectBlock) {
  Patcher patcher = make_patcher(400, 170);
  patcher.boxes.push_back(make_box("obj-1", "plugin~", "", 10, 10));
  patcher.boxes.push_back(make_box("obj-2", "plugout~", "", 10, 100));
  patcher.lines.push_back(make_line("obj-1", 0, "obj-2", 0));
  const AmxdFile file = make_amxd(patcher, "mmmm");
  EXPECT_EQ(file.device_type, "mmmm");
  EXPECT_EQ(file.patcher.boxes, patcher.boxes);
  EXPECT_EQ(file.patcher.lines, patcher.lines);
  const json::object& project = file.patcher.json.at("project").as_object();
  EXPECT_EQ(project.at("amxdtype"), 0x6D6D6D6D);
  EXPECT_EQ(project.at("devpath"), ".");
  EXPECT_EQ(file.patcher.json.at("latency"), 0);
  // autosave stays the last key.
  EXPECT_EQ(std::prev(patcher_to_json(file.patcher).end())->key(), "autosave");

  const std::string bytes = write_amxd(file);
  EXPECT_EQ(bytes, plain_device("mmmm", write_maxpat(file.patcher)));
  auto reread = read_amxd(bytes);
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(reread->patcher, file.patcher);
  EXPECT_EQ(write_amxd(*reread), bytes);
}

TEST(AmxdTest, MakeAmxdKeepsAnExistingProjectBlock) {
  Patcher patcher = make_patcher(100, 100);
  patcher.json["project"] = json::object{{"version", 7}};
  const AmxdFile file = make_amxd(patcher);
  EXPECT_EQ(file.patcher.json.at("project").at("version"), 7);
  EXPECT_EQ(file.device_type, "aaaa");
}

TEST(AmxdTest, WithoutAHeaderAPlainContainerIsWritten) {
  AmxdFile file;
  file.device_type = "aaaa";
  file.patcher = make_patcher(100, 100);
  const std::string bytes = write_amxd(file);
  EXPECT_EQ(bytes, plain_device("aaaa", write_maxpat(file.patcher)));
}

TEST(AmxdTest, ErrorsSayWhatIsWrong) {
  EXPECT_NE(amxd_error("").find("not a Max for Live device"), std::string::npos);
  EXPECT_NE(amxd_error("RIFF....").find("starts with \"ampf\""), std::string::npos);
  EXPECT_NE(amxd_error(tiny_json).find("open it as .maxpat"), std::string::npos);
  EXPECT_NE(
      amxd_error("ampf" + le32(4) + "aaaa" + "meta" + le32(4) + le32(0) + "ciph" + le32(3) + "xyz")
          .find("encrypted"),
      std::string::npos);
  EXPECT_NE(amxd_error(plain_device("abcd", tiny_json)).find("unknown Max for Live device type"),
            std::string::npos);
  EXPECT_TRUE(read_amxd(plain_device("nnnn", tiny_json)).has_value());  // a future kind
  EXPECT_NE(amxd_error("ampf" + le32(4) + "aaaa" + "meta" + le32(4) + le32(0))
                .find("before the patcher (ptch) chunk"),
            std::string::npos);
  EXPECT_NE(amxd_error(plain_device("aaaa", "not json")).find("holds no patcher JSON"),
            std::string::npos);
  EXPECT_NE(amxd_error(plain_device("aaaa", "{\"x\": 1}")).find("the device's patcher: no"),
            std::string::npos);
  EXPECT_NE(amxd_error("ampf" + le32(5) + "aaaaa").find("ampf chunk is not 4 bytes"),
            std::string::npos);
  const std::string truncated = plain_device("aaaa", tiny_json).substr(0, 40);
  EXPECT_NE(amxd_error(truncated).find("chunk \"ptch\" at byte 24 claims"), std::string::npos);
}

TEST(AmxdTest, DamagedFrozenDevicesAreErrors) {
  std::string bytes = frozen_device(tiny_json, "x");
  std::string bad_dir = bytes;
  bad_dir[20 + 12] = '\x7F';  // the directory offset points outside the file
  EXPECT_NE(amxd_error(bad_dir).find("points outside"), std::string::npos);
  std::string bad_list = bytes;
  bad_list.replace(bad_list.find("dlst"), 4, "xxxx");
  EXPECT_NE(amxd_error(bad_list).find("directory"), std::string::npos);
  std::string no_json = bytes;
  no_json.replace(no_json.find("JSON"), 4, "TEXT");
  EXPECT_NE(amxd_error(no_json).find("no JSON entry"), std::string::npos);
}

}  // namespace
}  // namespace fcp::lofi::maxpat
