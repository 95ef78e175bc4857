// Shared helpers for the SMF tests: paths, files, raw byte assembly, event dumps, mido.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "domains/midi/smf/smf.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::midi::smf {

// Readable gtest failure output for the model types (found by argument-dependent lookup).
// NOLINTNEXTLINE(readability-identifier-naming): the name gtest looks up
inline void PrintTo(const Event& e, std::ostream* os) {
  static constexpr char digits[] = "0123456789abcdef";
  *os << "{tick " << e.tick << " status " << digits[e.status >> 4] << digits[e.status & 15];
  if (e.is_meta()) *os << " meta " << int{e.meta_type};
  *os << " data";
  for (unsigned char c : e.data)
    *os << ' ' << digits[c >> 4] << digits[c & 15];
  *os << "}";
}

// NOLINTNEXTLINE(readability-identifier-naming): the name gtest looks up
inline void PrintTo(const Track& track, std::ostream* os) {
  *os << "Track{end " << track.end_tick << ", " << track.events.size() << " events:";
  for (const Event& e : track.events) {
    *os << "\n    ";
    PrintTo(e, os);
  }
  *os << "}";
}

// NOLINTNEXTLINE(readability-identifier-naming): the name gtest looks up
inline void PrintTo(const File& file, std::ostream* os) {
  *os << "File{format " << file.format << ", division " << (file.division.smpte ? "smpte " : "ppq ")
      << file.division.ticks_per_quarter << "/" << file.division.frames_per_second << "/"
      << file.division.ticks_per_frame << ", " << file.extra_chunks.size() << " extra chunks";
  for (const Track& track : file.tracks) {
    *os << "\n  ";
    PrintTo(track, os);
  }
  *os << "}";
}

}  // namespace fcp::midi::smf

namespace fcp::midi::smf::testing {

using fcp::testing::source_dir;

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline std::filesystem::path fixture_dir() {
  return source_dir() / "fixtures" / "midi" / "smf";
}

inline std::string fixture(std::string_view name) {
  const auto path = fixture_dir() / name;
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return read_file(path);
}

// Bytes from a list of values 0..255.
inline std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (int value : values)
    out.push_back(static_cast<char>(value));
  return out;
}

inline std::string be32(std::uint32_t value) {
  return bytes({static_cast<int>(value >> 24), static_cast<int>((value >> 16) & 0xFF),
                static_cast<int>((value >> 8) & 0xFF), static_cast<int>(value & 0xFF)});
}

// A chunk assembled by hand (independent of the writer under test).
inline std::string chunk(std::string_view id, std::string_view data) {
  return std::string(id) + be32(static_cast<std::uint32_t>(data.size())) + std::string(data);
}

inline std::string header(int format, int tracks, int division) {
  return chunk("MThd", bytes({format >> 8, format & 0xFF, tracks >> 8, tracks & 0xFF, division >> 8,
                              division & 0xFF}));
}

// A format-0 file at 96 ticks per quarter holding one track with `body` as its events.
inline std::string one_track(std::string_view body) {
  return header(0, 1, 96) + chunk("MTrk", body);
}

inline std::string hex(std::string_view data) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : data) {
    if (!out.empty()) out += ' ';
    out += digits[c >> 4];
    out += digits[c & 0x0F];
  }
  return out;
}

inline File read_ok(std::string_view data) {
  auto file = read_smf(data);
  EXPECT_TRUE(file.has_value()) << (file ? "" : file.error().message);
  return file ? *file : File{};
}

inline std::string read_error(std::string_view data, const ReadLimits& limits = {}) {
  auto file = read_smf(data, limits);
  EXPECT_FALSE(file.has_value());
  return file ? "" : file.error().message;
}

inline Event event(std::uint64_t tick, int status, std::initializer_list<int> data,
                   int meta_type = 0) {
  Event e;
  e.tick = tick;
  e.status = static_cast<std::uint8_t>(status);
  e.meta_type = static_cast<std::uint8_t>(meta_type);
  e.data = bytes(data);
  return e;
}

inline Event meta_event(std::uint64_t tick, int type, std::string_view payload) {
  Event e;
  e.tick = tick;
  e.status = 0xFF;
  e.meta_type = static_cast<std::uint8_t>(type);
  e.data = std::string(payload);
  return e;
}

// One line per event, "TRACK TICK kind hex" — the shape the mido dump script prints too.
// SysEx F0/F7 payloads are compared as mido sees them: without a leading F0 or trailing F7.
inline std::vector<std::string> dump(const File& file) {
  std::vector<std::string> lines;
  for (std::size_t t = 0; t < file.tracks.size(); ++t) {
    const std::string prefix = std::to_string(t) + " ";
    for (const Event& e : file.tracks[t].events) {
      std::string line = prefix + std::to_string(e.tick) + " ";
      if (e.is_channel()) {
        line += "msg " + hex(std::string(1, static_cast<char>(e.status)) + e.data);
      } else if (e.is_meta()) {
        line += "meta " + hex(std::string(1, static_cast<char>(e.meta_type))) + " " + hex(e.data);
      } else {
        std::string_view body = e.data;
        if (body.starts_with('\xF0')) body.remove_prefix(1);
        if (body.ends_with('\xF7')) body.remove_suffix(1);
        line += "sysex " + hex(body);
      }
      lines.push_back(line);
    }
    lines.push_back(prefix + std::to_string(file.tracks[t].end_tick) + " end");
  }
  return lines;
}

inline const char* const mido_python = "/usr/bin/python3";

// Prints the same dump as dump() using mido, or "error …" when mido cannot read the file.
inline const char* const mido_dump_script = R"PY(
import sys
import mido
try:
    mid = mido.MidiFile(sys.argv[1])
except Exception as error:
    print("error", type(error).__name__, error)
    sys.exit(0)
def hx(values):
    return " ".join("%02x" % v for v in values)
for index, track in enumerate(mid.tracks):
    tick = 0
    for msg in track:
        tick += msg.time
        if msg.type == "end_of_track":
            print(index, tick, "end")
        elif msg.is_meta:
            raw = msg.bytes()
            data = raw[2:]
            while data and data[0] & 0x80:
                data = data[1:]
            print(index, tick, "meta", "%02x" % raw[1], hx(data[1:]))
        elif msg.type == "sysex":
            print(index, tick, "sysex", hx(msg.data))
        else:
            print(index, tick, "msg", hx(msg.bytes()))
)PY";

// Runs the mido dump on `smf_bytes`; nullopt when /usr/bin/python3 with mido is not installed.
inline std::optional<std::vector<std::string>> mido_dump(const std::string& smf_bytes) {
  const std::string probe = std::string(mido_python) + " -c 'import mido' >/dev/null 2>&1";
  if (std::system(probe.c_str()) != 0) return std::nullopt;
  char midi_path[] = "/tmp/fcp-smf-XXXXXX";
  char script_path[] = "/tmp/fcp-smf-py-XXXXXX";
  const int midi_fd = mkstemp(midi_path);
  const int script_fd = mkstemp(script_path);
  if (midi_fd < 0 || script_fd < 0) return std::nullopt;
  close(midi_fd);
  close(script_fd);
  std::ofstream(midi_path, std::ios::binary) << smf_bytes;
  std::ofstream(script_path) << mido_dump_script;
  const std::string command =
      std::string(mido_python) + " " + script_path + " " + midi_path + " 2>&1";
  std::vector<std::string> lines;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    std::string line;
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
      line += buffer;
      if (!line.empty() && line.back() == '\n') {
        line.pop_back();
        lines.push_back(line);
        line.clear();
      }
    }
    pclose(pipe);
  }
  std::remove(midi_path);
  std::remove(script_path);
  return lines;
}

}  // namespace fcp::midi::smf::testing
