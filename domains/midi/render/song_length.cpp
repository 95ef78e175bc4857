#include "domains/midi/render/song_length.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace fcp::midi::render {
namespace {

constexpr std::uint32_t kDefaultTempo = 500000;  // µs per quarter note: 120 bpm
constexpr int kMaxTracks = 128;                  // FluidSynth's player refuses more
constexpr std::size_t kMaxVlqBytes = 4;

struct TempoChange {
  std::uint64_t tick = 0;
  std::uint32_t micros_per_quarter = kDefaultTempo;
};

core::Error not_smf(const std::string& reason) {
  return core::make_error("not a Standard MIDI File: " + reason);
}

// Inside a track the error is just the reason; scan_song_length adds which file and track.
core::Error bad_track(const std::string& reason) {
  return core::make_error(reason);
}

// Bounds-checked big-endian reads; every accessor fails instead of reading past the end.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ >= bytes_.size(); }

  bool peek(std::uint8_t& out) const {
    if (at_end()) return false;
    out = static_cast<std::uint8_t>(bytes_[pos_]);
    return true;
  }
  bool u8(std::uint8_t& out) {
    if (!peek(out)) return false;
    ++pos_;
    return true;
  }
  bool be(std::size_t count, std::uint32_t& out) {
    if (remaining() < count) return false;
    out = 0;
    for (std::size_t i = 0; i < count; ++i) {
      out = (out << 8) | static_cast<std::uint8_t>(bytes_[pos_ + i]);
    }
    pos_ += count;
    return true;
  }
  bool vlq(std::uint32_t& out) {
    out = 0;
    for (std::size_t i = 0; i < kMaxVlqBytes; ++i) {
      std::uint8_t byte = 0;
      if (!u8(byte)) return false;
      out = (out << 7) | (byte & 0x7FU);
      if ((byte & 0x80U) == 0) return true;
    }
    return false;
  }
  bool skip(std::size_t count) {
    if (remaining() < count) return false;
    pos_ += count;
    return true;
  }
  bool tag(std::string_view expected) {
    if (remaining() < expected.size() || bytes_.substr(pos_, expected.size()) != expected) {
      return false;
    }
    pos_ += expected.size();
    return true;
  }
  std::string_view take(std::size_t count) {
    auto view = bytes_.substr(pos_, count);
    pos_ += view.size();
    return view;
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

// Skips a meta event's payload, recording a tempo; sets `end_of_track` on FF 2F.
core::Result<void> scan_meta(ByteReader& in, std::uint64_t tick, std::vector<TempoChange>& tempos,
                             bool& end_of_track) {
  std::uint8_t type = 0;
  std::uint32_t length = 0;
  if (!in.u8(type) || !in.vlq(length) || in.remaining() < length) {
    return bad_track("truncated meta event");
  }
  if (type == 0x51 && length == 3) {
    std::uint32_t tempo = 0;
    in.be(3, tempo);
    if (tempo == 0)
      return bad_track("tempo of 0 microseconds per quarter note at tick " + std::to_string(tick));
    tempos.push_back({tick, tempo});
    return {};
  }
  end_of_track = type == 0x2F;
  in.skip(length);
  return {};
}

core::Result<void> scan_channel_message(ByteReader& in, std::uint8_t status) {
  const std::uint8_t kind = status & 0xF0U;
  const int data_bytes = (kind == 0xC0 || kind == 0xD0) ? 1 : 2;
  for (int i = 0; i < data_bytes; ++i) {
    std::uint8_t data = 0;
    if (!in.u8(data)) return bad_track("truncated channel message");
    if (data >= 0x80) return bad_track("status byte where a data byte was expected");
  }
  return {};
}

// One event after its delta time. Running status applies to channel messages only.
core::Result<void> scan_event(ByteReader& in, std::uint64_t tick, std::uint8_t& running,
                              std::vector<TempoChange>& tempos, bool& end_of_track) {
  std::uint8_t status = 0;
  if (!in.peek(status)) return bad_track("truncated event");
  if (status >= 0x80) {
    in.u8(status);
  } else if (running == 0) {
    return bad_track("data byte without a running status at tick " + std::to_string(tick));
  } else {
    status = running;
  }
  if (status == 0xFF) return scan_meta(in, tick, tempos, end_of_track);
  if (status == 0xF0 || status == 0xF7) {
    std::uint32_t length = 0;
    if (!in.vlq(length) || !in.skip(length)) return bad_track("truncated SysEx event");
    return {};
  }
  if (status > 0xF0) return bad_track("system message in a track");
  running = status;
  return scan_channel_message(in, status);
}

// The tick of the track's last event (End of Track included).
core::Result<std::uint64_t> scan_track(std::string_view track, std::vector<TempoChange>& tempos) {
  ByteReader in(track);
  std::uint64_t tick = 0;
  std::uint8_t running = 0;
  bool end_of_track = false;
  while (!in.at_end() && !end_of_track) {
    std::uint32_t delta = 0;
    if (!in.vlq(delta)) return bad_track("bad delta time");
    tick += delta;
    auto event = scan_event(in, tick, running, tempos, end_of_track);
    if (!event) return event.error();
  }
  return tick;
}

double ticks_to_seconds(std::uint64_t end_tick, int ticks_per_quarter,
                        std::vector<TempoChange> tempos) {
  // Stable: at one tick, the later track's tempo wins, as in a merged playback.
  std::stable_sort(tempos.begin(), tempos.end(),
                   [](const TempoChange& a, const TempoChange& b) { return a.tick < b.tick; });
  const double seconds_per_micro_tick = 1e-6 / ticks_per_quarter;
  double seconds = 0;
  std::uint64_t last_tick = 0;
  double tempo = kDefaultTempo;
  for (const TempoChange& change : tempos) {
    if (change.tick >= end_tick) break;
    seconds += static_cast<double>(change.tick - last_tick) * tempo * seconds_per_micro_tick;
    last_tick = change.tick;
    tempo = change.micros_per_quarter;
  }
  return seconds + static_cast<double>(end_tick - last_tick) * tempo * seconds_per_micro_tick;
}

}  // namespace

core::Result<SongLength> scan_song_length(std::string_view smf_bytes) {
  ByteReader in(smf_bytes);
  std::uint32_t header_length = 0, format = 0, track_count = 0, division = 0;
  if (!in.tag("MThd")) return not_smf("no MThd header");
  if (!in.be(4, header_length) || header_length != 6 || !in.be(2, format) ||
      !in.be(2, track_count) || !in.be(2, division)) {
    return not_smf("malformed MThd header");
  }
  if (format > 2) return not_smf("unknown format " + std::to_string(format));
  if ((division & 0x8000U) != 0) {
    return core::make_error("SMPTE time division is not supported by the audio renderer");
  }
  if (division == 0) return not_smf("division of 0 ticks per quarter note");
  if (track_count > kMaxTracks) {
    return core::make_error("the audio renderer plays at most 128 tracks, the file has " +
                            std::to_string(track_count));
  }
  SongLength length;
  length.ticks_per_quarter = static_cast<int>(division);
  length.tracks = static_cast<int>(track_count);
  std::vector<TempoChange> tempos;
  for (std::uint32_t found = 0; found < track_count;) {
    std::string id(in.take(4));
    std::uint32_t size = 0;
    if (id.size() != 4 || !in.be(4, size) || in.remaining() < size) {
      return not_smf("truncated: " + std::to_string(found) + " of " + std::to_string(track_count) +
                     " tracks present");
    }
    std::string_view body = in.take(size);
    if (id != "MTrk") continue;  // alien chunks are skipped, as players do
    auto end_tick = scan_track(body, tempos);
    if (!end_tick) {
      return not_smf("track " + std::to_string(found + 1) + ": " + end_tick.error().message);
    }
    length.end_tick = std::max(length.end_tick, *end_tick);
    ++found;
  }
  length.seconds = ticks_to_seconds(length.end_tick, length.ticks_per_quarter, std::move(tempos));
  return length;
}

}  // namespace fcp::midi::render
