#include "cli/output.hpp"

#include <array>
#include <boost/json/serialize.hpp>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace fcp::cli {
namespace json = boost::json;
namespace {

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

std::string string_field(const json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

// Every extension extension_for gives: a number is taken when a file has it with any of them.
constexpr std::array<const char*, 11> kExtensions{".png",  ".jpg", ".svg", ".gif", ".webp", ".wav",
                                                  ".flac", ".ogg", ".mp3", ".mid", ".bin"};

std::string extension_for(std::string_view mime_type) {
  if (mime_type == "image/png") return ".png";
  if (mime_type == "image/jpeg") return ".jpg";
  if (mime_type == "image/svg+xml") return ".svg";
  if (mime_type == "image/gif") return ".gif";
  if (mime_type == "image/webp") return ".webp";
  if (mime_type == "audio/wav" || mime_type == "audio/x-wav") return ".wav";
  if (mime_type == "audio/flac") return ".flac";
  if (mime_type == "audio/ogg") return ".ogg";
  if (mime_type == "audio/mpeg") return ".mp3";
  if (mime_type == "audio/midi") return ".mid";
  return ".bin";
}

}  // namespace

std::optional<std::string> decode_base64(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size() / 4 * 3);
  unsigned accumulator = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=' || c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
    int digit = base64_digit(c);
    if (digit < 0) return std::nullopt;
    accumulator = (accumulator << 6) | static_cast<unsigned>(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((accumulator >> bits) & 0xFF));
    }
  }
  return bytes;
}

bool is_error_result(const json::object& result) {
  const auto* flag = result.if_contains("isError");
  return flag && flag->is_bool() && flag->get_bool();
}

std::string ResultPrinter::render(const json::object& result) {
  if (options_.json) return json::serialize(result);
  std::string text;
  const auto* content = result.if_contains("content");
  if (content == nullptr || !content->is_array()) return text;
  for (const auto& entry : content->get_array()) {
    const auto* item = entry.if_object();
    if (item == nullptr) continue;
    std::string type = string_field(*item, "type");
    std::string piece;
    if (type == "text") {
      piece = string_field(*item, "text");
    } else if (type == "image" || type == "audio") {
      piece = render_media(*item);
    } else if (type == "resource_link" || type == "resource") {
      piece = "[" + type + " " + string_field(*item, "uri") + "]";
    } else {
      piece = "[" + type + "]";
    }
    if (!text.empty()) text.push_back('\n');
    text += piece;
  }
  return text;
}

std::string ResultPrinter::render_media(const json::object& item) {
  std::string mime_type = string_field(item, "mimeType");
  auto bytes = decode_base64(string_field(item, "data"));
  if (!bytes) return "[" + mime_type + ", undecodable base64 data]";
  if (!options_.save_media_dir) {
    return "[" + mime_type + ", " + std::to_string(bytes->size()) + " bytes]";
  }
  const std::string kind = string_field(item, "type");  // "image" or "audio"
  int& saved = kind == "image" ? images_saved_ : audio_saved_;
  std::filesystem::path dir(*options_.save_media_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // The next free number: files an earlier run saved there are kept, not overwritten.
  const auto taken = [&](int number) {
    for (const char* extension : kExtensions) {
      if (std::filesystem::exists(dir / (kind + "-" + std::to_string(number) + extension), ec))
        return true;
    }
    return false;
  };
  while (taken(saved + 1))
    ++saved;
  const auto path = dir / (kind + "-" + std::to_string(++saved) + extension_for(mime_type));
  std::ofstream file(path, std::ios::binary);
  file.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  if (!file.flush()) throw std::runtime_error("cannot write " + kind + " " + path.string());
  return "[" + mime_type + ", " + std::to_string(bytes->size()) + " bytes saved to " +
         path.string() + "]";
}

}  // namespace fcp::cli
