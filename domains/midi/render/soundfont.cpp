#include "domains/midi/render/soundfont.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>
#include <system_error>

namespace fcp::midi::render {
namespace {

namespace fs = std::filesystem;

// SF2 2.04, section 7.2: achPresetName[20], wPreset, wBank, wPresetBagNdx, dwLibrary, dwGenre,
// dwMorphology.
constexpr std::size_t kPhdrRecordSize = 38;
constexpr std::size_t kPresetNameSize = 20;
constexpr std::size_t kChunkHeaderSize = 8;

std::uint32_t read_u32le(const char* bytes) {
  const auto* u = reinterpret_cast<const unsigned char*>(bytes);
  return static_cast<std::uint32_t>(u[0]) | (static_cast<std::uint32_t>(u[1]) << 8) |
         (static_cast<std::uint32_t>(u[2]) << 16) | (static_cast<std::uint32_t>(u[3]) << 24);
}

std::uint16_t read_u16le(const char* bytes) {
  const auto* u = reinterpret_cast<const unsigned char*>(bytes);
  return static_cast<std::uint16_t>(u[0] | (u[1] << 8));
}

core::Error not_a_soundfont(const fs::path& file, std::string_view reason) {
  std::vector<std::string> hints;
  if (auto fallback = default_soundfont()) hints.push_back(fallback->string());
  return core::make_error("not a SoundFont: " + file.string() + " (" + std::string(reason) + ")",
                          std::move(hints));
}

// A RIFF chunk header: its four-character id and where its payload lies in the file.
struct Chunk {
  std::string id;
  std::uint64_t data_offset = 0;
  std::uint64_t size = 0;
};

// Reads RIFF chunk headers by seeking, so only the parts asked for are loaded. Every read is
// checked against the end of the enclosing chunk, which is itself checked against the file size.
class RiffFile {
 public:
  RiffFile(std::ifstream& in, std::uint64_t file_size) : in_(in), file_size_(file_size) {}

  bool read_at(std::uint64_t offset, char* out, std::size_t count) {
    if (offset > file_size_ || count > file_size_ - offset) return false;
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(out, static_cast<std::streamsize>(count));
    return in_.gcount() == static_cast<std::streamsize>(count);
  }

  // The chunk starting at `offset`, which must end at or before `limit`; nullopt if it overruns.
  std::optional<Chunk> chunk_at(std::uint64_t offset, std::uint64_t limit) {
    std::array<char, kChunkHeaderSize> header{};
    if (offset + kChunkHeaderSize > limit || !read_at(offset, header.data(), header.size())) {
      return std::nullopt;
    }
    Chunk chunk{std::string(header.data(), 4), offset + kChunkHeaderSize, read_u32le(&header[4])};
    if (chunk.size > limit - chunk.data_offset) return std::nullopt;
    return chunk;
  }

 private:
  std::ifstream& in_;
  std::uint64_t file_size_;
};

// RIFF chunks are padded to an even length.
std::uint64_t next_chunk_offset(const Chunk& chunk) {
  return chunk.data_offset + chunk.size + (chunk.size & 1U);
}

std::string preset_name(const char* bytes) {
  std::string name(bytes, strnlen(bytes, kPresetNameSize));
  // Names are nominally ASCII; anything else would corrupt the UTF-8 of a reply.
  for (char& c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
  }
  while (!name.empty() && name.back() == ' ')
    name.pop_back();
  return name;
}

core::Result<std::vector<Preset>> parse_phdr(const fs::path& file, std::string_view phdr) {
  if (phdr.size() < kPhdrRecordSize || phdr.size() % kPhdrRecordSize != 0) {
    return not_a_soundfont(file, "phdr chunk of " + std::to_string(phdr.size()) +
                                     " bytes is not a whole number of 38-byte records");
  }
  std::vector<Preset> presets;
  const std::size_t count = phdr.size() / kPhdrRecordSize - 1;  // the last record is "EOP"
  presets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const char* record = phdr.data() + i * kPhdrRecordSize;
    presets.push_back(Preset{read_u16le(record + kPresetNameSize + 2),
                             read_u16le(record + kPresetNameSize), preset_name(record)});
  }
  std::stable_sort(presets.begin(), presets.end(), [](const Preset& a, const Preset& b) {
    return a.bank != b.bank ? a.bank < b.bank : a.program < b.program;
  });
  return presets;
}

// Finds the phdr sub-chunk inside the pdta list [begin, end) and parses it.
core::Result<std::vector<Preset>> read_pdta(const fs::path& file, RiffFile& riff,
                                            std::uint64_t begin, std::uint64_t end) {
  for (std::uint64_t offset = begin; offset < end;) {
    auto chunk = riff.chunk_at(offset, end);
    if (!chunk) return not_a_soundfont(file, "truncated pdta chunk");
    if (chunk->id == "phdr") {
      std::string phdr(chunk->size, '\0');
      if (!riff.read_at(chunk->data_offset, phdr.data(), phdr.size())) {
        return not_a_soundfont(file, "truncated phdr chunk");
      }
      return parse_phdr(file, phdr);
    }
    offset = next_chunk_offset(*chunk);
  }
  return not_a_soundfont(file, "no phdr chunk in pdta");
}

core::Result<std::vector<Preset>> read_sfbk(const fs::path& file, RiffFile& riff,
                                            std::uint64_t file_size) {
  std::array<char, 12> header{};
  if (!riff.read_at(0, header.data(), header.size())) return not_a_soundfont(file, "too short");
  if (std::string_view(header.data(), 4) != "RIFF" ||
      std::string_view(header.data() + 8, 4) != "sfbk") {
    return not_a_soundfont(file, "no RIFF sfbk header");
  }
  const std::uint64_t end = kChunkHeaderSize + std::uint64_t{read_u32le(&header[4])};
  if (end > file_size) {
    return not_a_soundfont(file, "truncated: header declares " + std::to_string(end) +
                                     " bytes, file has " + std::to_string(file_size));
  }
  for (std::uint64_t offset = header.size(); offset < end;) {
    auto chunk = riff.chunk_at(offset, end);
    if (!chunk) return not_a_soundfont(file, "truncated chunk at byte " + std::to_string(offset));
    std::array<char, 4> list_type{};
    if (chunk->id == "LIST" && chunk->size >= 4 &&
        riff.read_at(chunk->data_offset, list_type.data(), list_type.size()) &&
        std::string_view(list_type.data(), 4) == "pdta") {
      return read_pdta(file, riff, chunk->data_offset + 4, chunk->data_offset + chunk->size);
    }
    offset = next_chunk_offset(*chunk);
  }
  return not_a_soundfont(file, "no pdta list");
}

bool is_readable_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  return in.good();
}

}  // namespace

core::Result<std::vector<Preset>> soundfont_presets(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    return core::make_error("cannot read SoundFont " + file.string() + ": no such file");
  }
  const std::uint64_t file_size = fs::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in) return core::make_error("cannot read SoundFont " + file.string());
  RiffFile riff(in, file_size);
  return read_sfbk(file, riff, file_size);
}

std::optional<fs::path> default_soundfont() {
  if (const char* configured = std::getenv("FCP_SOUNDFONT");
      configured != nullptr && is_readable_file(configured)) {
    return fs::path(configured);
  }
  static const std::array<const char*, 4> kCandidates = {
      "/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2",
      "/usr/share/sounds/sf2/FluidR3_GM.sf2", "/usr/share/soundfonts/default.sf2"};
  for (const char* candidate : kCandidates) {
    if (is_readable_file(candidate)) return fs::path(candidate);
  }
  return std::nullopt;
}

}  // namespace fcp::midi::render
