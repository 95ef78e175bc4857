#include "cli/output.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <filesystem>
#include <fstream>

namespace fcp::cli {
namespace {

namespace json = boost::json;

json::object parse(const char* text) {
  return json::parse(text).as_object();
}

TEST(OutputTest, TextItemsJoinWithNewlines) {
  ResultPrinter printer({});
  auto result = parse(R"({"content":[{"type":"text","text":"+ A"},{"type":"text","text":"+ B"}],
                          "isError":false})");
  EXPECT_EQ(printer.render(result), "+ A\n+ B");
  EXPECT_FALSE(is_error_result(result));
  EXPECT_TRUE(is_error_result(parse(R"({"content":[],"isError":true})")));
  EXPECT_FALSE(is_error_result(parse(R"({"content":[]})")));
}

TEST(OutputTest, ImagesAreSummarisedWithTheirDecodedSize) {
  ResultPrinter printer({});
  // "hello" is 5 bytes.
  auto result = parse(R"({"content":[{"type":"text","text":"@ exported"},
                          {"type":"image","mimeType":"image/png","data":"aGVsbG8="}]})");
  EXPECT_EQ(printer.render(result), "@ exported\n[image/png, 5 bytes]");
}

TEST(OutputTest, JsonModePrintsTheRawResult) {
  ResultPrinter printer({.json = true, .save_media_dir = std::nullopt});
  auto result = parse(R"({"content":[{"type":"text","text":"x"}],"isError":false})");
  EXPECT_EQ(json::parse(printer.render(result)), json::value(result));
}

TEST(OutputTest, SaveImagesWritesNumberedFiles) {
  auto dir =
      std::filesystem::temp_directory_path() / ("fcp_output_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ResultPrinter printer({.json = false, .save_media_dir = dir.string()});
  auto result = parse(R"({"content":[{"type":"image","mimeType":"image/png","data":"aGk="},
                          {"type":"image","mimeType":"image/svg+xml","data":"PHN2Zy8+"}]})");
  std::string text = printer.render(result);
  EXPECT_NE(text.find("[image/png, 2 bytes saved to " + (dir / "image-1.png").string() + "]"),
            std::string::npos)
      << text;
  std::ifstream png(dir / "image-1.png", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(png)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes, "hi");
  EXPECT_TRUE(std::filesystem::exists(dir / "image-2.svg"));
  std::filesystem::remove_all(dir);
}

TEST(OutputTest, SaveMediaWritesAudioBesideImages) {
  auto dir = std::filesystem::temp_directory_path() /
             ("fcp_output_audio_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ResultPrinter printer({.json = false, .save_media_dir = dir.string()});
  auto result = parse(R"({"content":[{"type":"audio","mimeType":"audio/wav","data":"UklGRg=="},
                          {"type":"image","mimeType":"image/png","data":"aGk="},
                          {"type":"audio","mimeType":"audio/flac","data":"ZkxhQw=="}]})");
  std::string text = printer.render(result);
  EXPECT_NE(text.find("[audio/wav, 4 bytes saved to " + (dir / "audio-1.wav").string() + "]"),
            std::string::npos)
      << text;
  std::ifstream wav(dir / "audio-1.wav", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(wav)), std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes, "RIFF");
  EXPECT_TRUE(std::filesystem::exists(dir / "image-1.png"));
  EXPECT_TRUE(std::filesystem::exists(dir / "audio-2.flac"));
  // A later run (a new printer) saving into the same directory keeps what is there.
  ResultPrinter later({.json = false, .save_media_dir = dir.string()});
  const std::string again = later.render(result);
  EXPECT_NE(again.find((dir / "audio-3.wav").string()), std::string::npos) << again;
  EXPECT_NE(again.find((dir / "image-2.png").string()), std::string::npos) << again;
  std::ifstream first(dir / "audio-1.wav", std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(first)), std::istreambuf_iterator<char>()),
            "RIFF");
  std::filesystem::remove_all(dir);
}

TEST(OutputTest, Base64Decoding) {
  EXPECT_EQ(decode_base64(""), "");
  EXPECT_EQ(decode_base64("TWFu"), "Man");
  EXPECT_EQ(decode_base64("TWE="), "Ma");
  EXPECT_EQ(decode_base64("TQ=="), "M");
  EXPECT_EQ(decode_base64("TW\nFu"), "Man");
  EXPECT_EQ(decode_base64("TWE"), "Ma");  // padding optional
  EXPECT_EQ(decode_base64("//8="), std::string("\xff\xff", 2));
  EXPECT_FALSE(decode_base64("TW*u"));
}

}  // namespace
}  // namespace fcp::cli
