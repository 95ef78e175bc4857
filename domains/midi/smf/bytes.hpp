// Byte-level helpers shared by the SMF reader and writer (internal to fcp_midi_smf).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fcp::midi::smf::detail {

// The largest value a 4-byte variable-length quantity holds.
inline constexpr std::uint32_t max_vlq = 0x0FFFFFFF;

inline std::uint16_t be16(const unsigned char* p) {
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

inline std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}

inline std::uint32_t le32(const unsigned char* p) {
  return (std::uint32_t{p[3]} << 24) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[1]} << 8) |
         p[0];
}

// "0x9C".
inline std::string hex_byte(std::uint8_t byte) {
  static constexpr char digits[] = "0123456789ABCDEF";
  return {'0', 'x', digits[byte >> 4], digits[byte & 0x0F]};
}

enum class VlqStatus { ok, truncated, too_long };

// Reads a variable-length quantity of at most 4 bytes from p[pos..size), advancing pos.
inline VlqStatus read_vlq(const unsigned char* p, std::size_t size, std::size_t& pos,
                          std::uint32_t& value) {
  value = 0;
  for (int i = 0; i < 4; ++i) {
    if (pos >= size) return VlqStatus::truncated;
    const unsigned char byte = p[pos++];
    value = (value << 7) | (byte & 0x7Fu);
    if ((byte & 0x80) == 0) return VlqStatus::ok;
  }
  return VlqStatus::too_long;
}

// Appends `value` (at most max_vlq) as a minimal variable-length quantity.
inline void append_vlq(std::string& out, std::uint32_t value) {
  char buffer[4];
  int n = 0;
  buffer[n++] = static_cast<char>(value & 0x7F);
  while ((value >>= 7) != 0 && n < 4)
    buffer[n++] = static_cast<char>((value & 0x7F) | 0x80);
  while (n > 0)
    out.push_back(buffer[--n]);
}

inline void append_be16(std::string& out, std::uint32_t value) {
  out.push_back(static_cast<char>((value >> 8) & 0xFF));
  out.push_back(static_cast<char>(value & 0xFF));
}

inline void append_be32(std::string& out, std::uint32_t value) {
  append_be16(out, value >> 16);
  append_be16(out, value & 0xFFFF);
}

}  // namespace fcp::midi::smf::detail
