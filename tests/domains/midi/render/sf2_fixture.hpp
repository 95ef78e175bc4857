// SoundFont files written byte by byte for the render tests: just enough RIFF structure for a
// preset-header reader, and deliberately not enough for a synthesizer.
#pragma once

#include <cstdint>
#include <string>

namespace fcp::midi::render::testing {

inline std::string le32(std::uint32_t v) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}

inline std::string riff_chunk(const std::string& id, const std::string& payload) {
  std::string out = id + le32(static_cast<std::uint32_t>(payload.size())) + payload;
  if (payload.size() % 2 != 0) out += '\0';
  return out;
}

inline std::string phdr_record(const std::string& name, int program, int bank) {
  std::string record = name;
  record.resize(20, '\0');
  record += static_cast<char>(program & 0xFF);
  record += static_cast<char>(program >> 8);
  record += static_cast<char>(bank & 0xFF);
  record += static_cast<char>(bank >> 8);
  record.resize(38, '\0');
  return record;
}

// INFO, an odd-sized sdta (exercises chunk padding) and a pdta holding only the given phdr.
inline std::string skeleton_sf2(const std::string& phdr) {
  const std::string body =
      "sfbk" + riff_chunk("LIST", "INFO" + riff_chunk("ifil", std::string("\x02\x00\x04\x00", 4))) +
      riff_chunk("LIST", "sdta" + riff_chunk("smpl", "abc")) +
      riff_chunk("LIST", "pdta" + riff_chunk("phdr", phdr));
  return "RIFF" + le32(static_cast<std::uint32_t>(body.size())) + body;
}

}  // namespace fcp::midi::render::testing
