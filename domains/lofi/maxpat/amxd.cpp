#include "domains/lofi/maxpat/amxd.hpp"

#include <algorithm>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;
using core::make_error;

std::uint32_t le32(std::string_view bytes, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
}

std::uint32_t be32(std::string_view bytes, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

void put_le32(std::string& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[at + static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

void put_be32(std::string& bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[at + static_cast<std::size_t>(i)] = static_cast<char>((value >> (24 - 8 * i)) & 0xFF);
}

std::string le32_bytes(std::uint32_t value) {
  std::string out(4, '\0');
  put_le32(out, 0, value);
  return out;
}

std::uint32_t adjusted(std::uint32_t value, long long delta) {
  const long long result = static_cast<long long>(value) + delta;
  return result < 0 ? 0 : static_cast<std::uint32_t>(std::min<long long>(result, 0xFFFFFFFF));
}

bool known_type(std::string_view type) {
  if (!device_type_name(type).empty()) return true;
  // A future device kind uses the same four-repeated-letters scheme.
  return type.size() == 4 && type[0] >= 'a' && type[0] <= 'z' &&
         type.find_first_not_of(type[0]) == std::string_view::npos;
}

// One directory entry of a frozen device.
struct FrozenEntry {
  std::string type;  // "JSON", "TEXT", …
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
  std::size_t offset_at = 0, size_at = 0;  // where the values sit, relative to the "dlst" tag
};

// The "dire" entries of a "dlst" directory starting at `dir`; nullopt when damaged.
std::optional<std::vector<FrozenEntry>> frozen_entries(std::string_view dir) {
  if (dir.size() < 8 || dir.substr(0, 4) != "dlst") return std::nullopt;
  const std::size_t end = std::min<std::size_t>(be32(dir, 4), dir.size());
  std::vector<FrozenEntry> entries;
  std::size_t pos = 8;
  while (pos + 8 <= end) {
    const std::size_t entry_end = pos + be32(dir, pos + 4);
    if (dir.substr(pos, 4) != "dire" || entry_end > end || entry_end < pos + 8) return std::nullopt;
    FrozenEntry entry;
    for (std::size_t field = pos + 8; field + 8 <= entry_end;) {
      const std::size_t size = be32(dir, field + 4);
      if (size < 8 || field + size > entry_end) return std::nullopt;
      const std::string_view tag = dir.substr(field, 4);
      if (tag == "type" && size >= 12) entry.type = std::string(dir.substr(field + 8, 4));
      if (tag == "of32" && size >= 12) {
        entry.offset = be32(dir, field + 8);
        entry.offset_at = field + 8;
      }
      if (tag == "sz32" && size >= 12) {
        entry.size = be32(dir, field + 8);
        entry.size_at = field + 8;
      }
      field += size;
    }
    entries.push_back(entry);
    pos = entry_end;
  }
  return entries;
}

// Where the patcher JSON sits inside a frozen ("mx@c") ptch chunk: {offset, size}.
core::Result<std::pair<std::size_t, std::size_t>> frozen_patcher(std::string_view data) {
  if (data.size() < 16)
    return make_error("truncated .amxd: the frozen device header (mx@c) is cut off");
  const std::size_t header = be32(data, 4);
  const std::size_t dir = be32(data, 12);
  if (header < 16 || dir < header || dir > data.size())
    return make_error("damaged frozen device: its mx@c header points outside the file");
  const auto entries = frozen_entries(data.substr(dir));
  if (!entries) return make_error("damaged frozen device: its file directory (dlst) is unreadable");
  for (const FrozenEntry& entry : *entries) {
    if (entry.type != "JSON") continue;
    if (entry.offset < header || entry.offset > dir || entry.size > dir - entry.offset)
      return make_error("damaged frozen device: the patcher entry points outside the file");
    return std::pair<std::size_t, std::size_t>{entry.offset, entry.size};
  }
  return make_error("frozen device without a patcher (no JSON entry in its directory)");
}

// Where the parts of a container header sit.
struct HeaderLayout {
  std::optional<std::size_t> type_at;  // the "ampf" data
  std::size_t ptch_size_at = 0;
  std::size_t data_at = 0;  // first byte of the ptch data
  bool frozen = false;
};

std::optional<HeaderLayout> header_layout(std::string_view header) {
  HeaderLayout layout;
  std::size_t pos = 0;
  while (pos + 8 <= header.size()) {
    const std::string_view tag = header.substr(pos, 4);
    const std::size_t size = le32(header, pos + 4);
    if (pos == 0 && tag == "ampf" && size == 4) layout.type_at = 8;
    if (tag == "ptch") {
      layout.ptch_size_at = pos + 4;
      layout.data_at = pos + 8;
      layout.frozen = header.substr(layout.data_at).starts_with("mx@c");
      if (layout.frozen && header.size() < layout.data_at + 16) return std::nullopt;
      return layout;
    }
    if (size > header.size() - pos - 8) return std::nullopt;
    pos += 8 + size;
  }
  return std::nullopt;
}

// Fixes a frozen device's directory offset and entries for a patcher `delta` bytes longer.
void fix_frozen(std::string& header, std::string& trailer, const HeaderLayout& layout,
                std::size_t old_json_size, long long delta) {
  const std::size_t json_offset = header.size() - layout.data_at;
  const std::size_t dir = be32(header, layout.data_at + 12);
  if (dir < json_offset + old_json_size) return;
  put_be32(header, layout.data_at + 12, adjusted(static_cast<std::uint32_t>(dir), delta));
  const std::size_t dir_in_trailer = dir - json_offset - old_json_size;
  if (dir_in_trailer > trailer.size()) return;
  const auto entries = frozen_entries(std::string_view(trailer).substr(dir_in_trailer));
  if (!entries) return;
  for (const FrozenEntry& entry : *entries) {
    if (entry.offset_at == 0) continue;
    if (entry.offset == json_offset && entry.size_at != 0) {
      put_be32(trailer, dir_in_trailer + entry.size_at, adjusted(entry.size, delta));
    } else if (entry.offset > json_offset) {
      put_be32(trailer, dir_in_trailer + entry.offset_at, adjusted(entry.offset, delta));
    }
  }
}

std::string plain_header(std::string_view device_type, std::uint32_t ptch_size) {
  std::string type(device_type.substr(0, 4));
  type.resize(4, ' ');
  return "ampf" + le32_bytes(4) + type + "meta" + le32_bytes(4) + le32_bytes(0) + "ptch" +
         le32_bytes(ptch_size);
}

// 'aaaa' as Max stores it in "amxdtype": the four bytes as a big-endian number.
std::int64_t fourcc(std::string_view type) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value = (value << 8) | static_cast<unsigned char>(i < type.size() ? type[i] : ' ');
  return value;
}

json::object project_block(std::string_view device_type) {
  constexpr std::int64_t date = 3786912000;  // 2024-01-01 in Max's (1904-based) seconds
  return json::object{{"version", 1},
                      {"creationdate", date},
                      {"modificationdate", date},
                      {"viewrect", json::array{0.0, 0.0, 300.0, 500.0}},
                      {"autoorganize", 1},
                      {"hideprojectwindow", 1},
                      {"showdependencies", 1},
                      {"autolocalize", 0},
                      {"contents", json::object{{"patchers", json::object()}}},
                      {"layout", json::object()},
                      {"searchpath", json::object()},
                      {"detailsvisible", 0},
                      {"amxdtype", fourcc(device_type)},
                      {"readonly", 0},
                      {"devpathtype", 0},
                      {"devpath", "."},
                      {"sortmode", 0},
                      {"viewmode", 0},
                      {"includepackages", 0}};
}

}  // namespace

std::string_view device_type_name(std::string_view device_type) {
  if (device_type == "aaaa") return "audio effect";
  if (device_type == "mmmm") return "MIDI effect";
  if (device_type == "iiii") return "instrument";
  return {};
}

core::Result<AmxdFile> read_amxd(std::string_view bytes) {
  if (!bytes.starts_with("ampf")) {
    if (bytes.find_first_not_of(" \t\r\n") != std::string_view::npos &&
        bytes[bytes.find_first_not_of(" \t\r\n")] == '{')
      return make_error("this is patcher JSON, not a Max for Live device: open it as .maxpat");
    return make_error("not a Max for Live device: an .amxd starts with \"ampf\"");
  }
  AmxdFile file;
  std::size_t pos = 0;
  while (true) {
    if (bytes.size() - pos < 8)
      return make_error("truncated .amxd: the chunk header at byte " + std::to_string(pos) +
                        " is cut off before the patcher (ptch) chunk");
    const std::string_view tag = bytes.substr(pos, 4);
    if (tag == "ciph")
      return make_error("encrypted Max for Live device (ciph chunk): its patcher cannot be read",
                        {"open the unprotected original of the device"});
    const std::size_t size = le32(bytes, pos + 4);
    if (size > bytes.size() - pos - 8)
      return make_error("truncated .amxd: chunk \"" + std::string(tag) + "\" at byte " +
                        std::to_string(pos) + " claims " + std::to_string(size) +
                        " bytes but only " + std::to_string(bytes.size() - pos - 8) + " remain");
    if (pos == 0) {
      if (size != 4) return make_error("damaged .amxd: the ampf chunk is not 4 bytes long");
      file.device_type = std::string(bytes.substr(8, 4));
      if (!known_type(file.device_type))
        return make_error("unknown Max for Live device type \"" + file.device_type + "\"",
                          {"aaaa (audio effect)", "mmmm (MIDI effect)", "iiii (instrument)"});
    }
    if (tag == "ptch") break;
    pos += 8 + size;
  }
  const std::size_t data_at = pos + 8;
  const std::string_view data = bytes.substr(data_at, le32(bytes, pos + 4));
  std::size_t offset = 0, region = data.size();
  if (data.starts_with("mx@c")) {
    auto place = frozen_patcher(data);
    if (!place) return place.error();
    std::tie(offset, region) = *place;
  }
  std::string_view text = data.substr(offset, region);
  text = text.substr(0, text.find('\0'));
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{')
    return make_error("the device's ptch chunk holds no patcher JSON (an unknown device format)");
  auto patcher = read_maxpat(text);
  if (!patcher) {
    core::Error error = patcher.error();
    error.message = "the device's patcher: " + error.message;
    return error;
  }
  file.patcher = std::move(*patcher);
  file.raw_header = std::string(bytes.substr(0, data_at + offset));
  file.raw_trailer = std::string(bytes.substr(data_at + offset + text.size()));
  file.json_size = text.size();
  return file;
}

std::string write_amxd(const AmxdFile& file) {
  const std::string json_text = write_maxpat(file.patcher);
  std::string header = file.raw_header;
  std::string trailer = file.raw_trailer;
  const auto layout = header_layout(header);
  if (!layout) {
    if (trailer.empty()) trailer.push_back('\0');
    header = plain_header(file.device_type,
                          static_cast<std::uint32_t>(json_text.size() + trailer.size()));
    return header + json_text + trailer;
  }
  const long long delta =
      static_cast<long long>(json_text.size()) - static_cast<long long>(file.json_size);
  put_le32(header, layout->ptch_size_at, adjusted(le32(header, layout->ptch_size_at), delta));
  if (layout->type_at && file.device_type.size() == 4)
    header.replace(*layout->type_at, 4, file.device_type);
  if (layout->frozen) fix_frozen(header, trailer, *layout, file.json_size, delta);
  return header + json_text + trailer;
}

AmxdFile make_amxd(Patcher patcher, std::string device_type) {
  json::object full = patcher_to_json(patcher);
  const json::object extra{{"latency", 0},
                           {"is_mpe", 0},
                           {"minimum_live_version", ""},
                           {"minimum_max_version", ""},
                           {"platform_compatibility", 0},
                           {"project", project_block(device_type)}};
  json::object out;
  out.reserve(full.size() + extra.size());
  auto add_extra = [&] {
    for (const auto& member : extra) {
      if (!full.contains(member.key())) out.emplace(member.key(), member.value());
    }
  };
  bool added = false;
  for (auto& member : full) {
    if (member.key() == "autosave" && !added) {
      add_extra();
      added = true;
    }
    out.emplace(member.key(), std::move(member.value()));
  }
  if (!added) add_extra();
  const JsonStyle style = patcher.style;
  if (auto rebuilt = patcher_from_json(std::move(out))) {
    patcher = std::move(*rebuilt);
    patcher.style = style;
  }

  AmxdFile file;
  file.device_type = std::move(device_type);
  file.patcher = std::move(patcher);
  file.raw_trailer = std::string(1, '\0');
  file.raw_header = plain_header(file.device_type, 1);  // ptch: the JSON (none yet) and the NUL
  file.json_size = 0;
  return file;
}

}  // namespace fcp::lofi::maxpat
