// Turns a tools/call result into what fcp prints: its text (images and audio summarised or
// saved), or
// the raw JSON.
#pragma once

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace fcp::cli {

struct OutputOptions {
  bool json = false;                          // print the raw result instead of its text
  std::optional<std::string> save_media_dir;  // write image and audio content there
};

// Stateful only to number saved files uniquely across a run (image-1.png, audio-1.wav…).
class ResultPrinter {
 public:
  explicit ResultPrinter(OutputOptions options) : options_(std::move(options)) {}

  // The text to print for `result`, without a trailing newline. Throws std::runtime_error
  // when an image or audio content cannot be saved.
  std::string render(const boost::json::object& result);

 private:
  std::string render_media(const boost::json::object& item);

  OutputOptions options_;
  int images_saved_ = 0;
  int audio_saved_ = 0;
};

// True when the result says isError: true.
bool is_error_result(const boost::json::object& result);

// Decodes standard base64 (padding optional, whitespace ignored); nullopt on a bad character.
std::optional<std::string> decode_base64(std::string_view text);

}  // namespace fcp::cli
