#include "domains/midi/song_text.hpp"

#include <cmath>
#include <cstdio>

#include "domains/midi/theory/keys.hpp"

namespace fcp::midi {
namespace {

constexpr std::size_t kMaxTextChars = 80;

// The length of one valid UTF-8 sequence at `at`, or 0.
std::size_t utf8_sequence(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

std::string bpm_text(double bpm) {
  if (std::abs(bpm - std::round(bpm)) < 0.005) return std::to_string(std::lround(bpm));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", bpm);
  return buffer;
}

std::string key_text(const KeySignature& key) {
  std::string name = theory::key_name(key.sharps, key.minor);
  if (name.empty()) return "sharps:" + std::to_string(key.sharps);
  if (key.minor && name.ends_with('m')) name.pop_back();
  return name + (key.minor ? " minor" : " major");
}

std::string meter_text(int numerator, int denominator) {
  return std::to_string(numerator) + "/" + std::to_string(denominator);
}

std::string quoted_text(std::string_view text) {
  std::string out = "\"";
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    if (chars == kMaxTextChars) return out + "…\"";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      if (const std::size_t n = utf8_sequence(text, i); n > 0) {
        out.append(text.substr(i, n));
        i += n;
        continue;
      }
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7F) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02X", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out + "\"";
}

}  // namespace fcp::midi
