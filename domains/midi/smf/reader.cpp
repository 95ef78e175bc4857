#include <algorithm>
#include <cstring>
#include <string>

#include "core/call_scope.hpp"
#include "domains/midi/smf/bytes.hpp"
#include "domains/midi/smf/smf.hpp"

namespace fcp::midi::smf {
namespace {

using core::make_error;
using detail::be16;
using detail::be32;
using detail::hex_byte;
using detail::le32;
using detail::read_vlq;
using detail::VlqStatus;

// Where a track chunk sits, for error messages that say where.
struct TrackPlace {
  std::size_t number;  // counted from 1
  std::size_t offset;  // of the chunk's first data byte in the input
};

// Parses the events of one MTrk chunk body. `events_left` is the file's remaining event budget.
class TrackReader {
 public:
  TrackReader(std::string_view chunk, TrackPlace place, std::size_t& events_left,
              std::size_t max_events)
      : p_(reinterpret_cast<const unsigned char*>(chunk.data())),
        size_(chunk.size()),
        place_(place),
        events_left_(events_left),
        max_events_(max_events) {}

  core::Result<Track> read() {
    Track track;  // no reserve: a guess from the chunk size would let one huge SysEx cost 16×
    while (pos_ < size_) {
      const std::size_t event_at = pos_;
      std::uint32_t delta = 0;
      if (auto ok = vlq(delta, "a delta time"); !ok) return ok.error();
      tick_ += delta;
      if (pos_ == size_) {
        return fail(event_at,
                    "the track chunk ends after a delta time, before its event — truncated");
      }
      Event event;
      event.tick = tick_;
      if (auto ok = read_event(event); !ok) return ok.error();
      if (event.status == 0xFF && event.meta_type == 0x2F) {
        track.end_tick = tick_;
        return track;  // whatever follows end-of-track in the chunk is not part of the track
      }
      if (events_left_ == 0) {
        return fail(event_at, "more events than the limit of " + std::to_string(max_events_));
      }
      --events_left_;
      track.events.push_back(std::move(event));
    }
    track.end_tick = tick_;  // no end-of-track: the track ends with its last event
    return track;
  }

 private:
  core::Error fail(std::size_t at, std::string_view message) const {
    return make_error("track " + std::to_string(place_.number) + " at byte " +
                      std::to_string(place_.offset + at) + ": " + std::string(message));
  }

  core::Result<void> vlq(std::uint32_t& value, std::string_view what) {
    const std::size_t at = pos_;
    switch (read_vlq(p_, size_, pos_, value)) {
      case VlqStatus::ok:
        return {};
      case VlqStatus::truncated:
        return fail(at, "the track chunk ends inside " + std::string(what) + " — truncated");
      case VlqStatus::too_long:
        break;
    }
    return fail(at, std::string(what) + " is a variable-length quantity longer than 4 bytes");
  }

  core::Result<void> read_event(Event& event) {
    const std::size_t status_at = pos_;
    std::uint8_t status = p_[pos_];
    if (status < 0x80) {
      if (running_ == 0) {
        return fail(status_at, "running status without a previous status (data byte " +
                                   hex_byte(status) + " where a status byte belongs)");
      }
      status = running_;  // the byte is the message's first data byte
    } else {
      ++pos_;
    }
    event.status = status;
    if (status < 0xF0) return read_channel_data(event, status_at);
    if (status == 0xF0 || status == 0xF7) {
      return read_payload(event, "a SysEx event", "the length of a SysEx event");
    }
    if (status == 0xFF) {
      if (pos_ == size_)
        return fail(status_at, "the track chunk ends inside a meta event — truncated");
      event.meta_type = p_[pos_++];
      return read_payload(event, "a meta event", "the length of a meta event");
    }
    return fail(status_at, "status byte " + hex_byte(status) +
                               " is not allowed in a MIDI file (system common and real-time "
                               "messages need an F7 escape)");
  }

  core::Result<void> read_channel_data(Event& event, std::size_t status_at) {
    const std::size_t length = channel_data_length(event.status);
    if (size_ - pos_ < length) {
      return fail(status_at, "the track chunk ends inside channel message " +
                                 hex_byte(event.status) + " — truncated");
    }
    for (std::size_t i = 0; i < length; ++i) {
      if (p_[pos_ + i] >= 0x80) {
        return fail(pos_ + i, "channel message " + hex_byte(event.status) + " has byte " +
                                  hex_byte(p_[pos_ + i]) +
                                  " where a data byte (below 0x80) belongs");
      }
    }
    event.data.assign(reinterpret_cast<const char*>(p_ + pos_), length);
    pos_ += length;
    running_ = event.status;
    return {};
  }

  // Reads the VLQ length and payload of a SysEx or meta event. Running status stays as it was.
  core::Result<void> read_payload(Event& event, std::string_view what,
                                  std::string_view length_what) {
    std::uint32_t length = 0;
    if (auto ok = vlq(length, length_what); !ok) return ok.error();
    if (length > size_ - pos_) {
      return fail(pos_, std::string(what) + " of " + std::to_string(length) +
                            " bytes runs past the end of the track chunk (" +
                            std::to_string(size_ - pos_) + " bytes left) — truncated");
    }
    event.data.assign(reinterpret_cast<const char*>(p_ + pos_), length);
    pos_ += length;
    return {};
  }

  const unsigned char* p_;
  std::size_t size_;
  TrackPlace place_;
  std::size_t& events_left_;
  std::size_t max_events_;
  std::size_t pos_ = 0;
  std::uint64_t tick_ = 0;
  std::uint8_t running_ = 0;  // the last channel status, 0 before the first one
};

std::string tracks_count(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " track" : " tracks");
}

std::string not_midi(std::string_view why) {
  return "not a MIDI file: " + std::string(why);
}

// "MThd" as text when printable, else as hex bytes.
std::string describe_id(std::string_view id) {
  const bool printable =
      std::all_of(id.begin(), id.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
  if (printable) return "\"" + std::string(id) + "\"";
  std::string hex;
  for (char c : id)
    hex += (hex.empty() ? "" : " ") + hex_byte(static_cast<std::uint8_t>(c));
  return hex;
}

core::Result<Division> read_division(std::uint16_t word) {
  Division division;
  if ((word & 0x8000) == 0) {
    division.ticks_per_quarter = word;
    if (word == 0) return make_error("invalid time division: 0 ticks per quarter note");
    return division;
  }
  division.smpte = true;
  division.ticks_per_quarter = 0;
  division.frames_per_second = -static_cast<int>(static_cast<std::int8_t>(word >> 8));
  division.ticks_per_frame = word & 0xFF;
  const int fps = division.frames_per_second;
  if (fps != 24 && fps != 25 && fps != 29 && fps != 30) {
    return make_error("invalid SMPTE time division: " + std::to_string(fps) +
                      " frames per second (24, 25, 29 or 30 exist)");
  }
  if (division.ticks_per_frame == 0) {
    return make_error("invalid SMPTE time division: 0 ticks per frame");
  }
  return division;
}

// Reads MThd at the start of `bytes` into `file`; returns the header's track count.
core::Result<std::size_t> read_header(std::string_view bytes, std::size_t base, File& file,
                                      std::size_t& pos) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 4 || bytes.substr(0, 4) != "MThd") {
    if (bytes.size() < 4 && std::string_view("MThd").starts_with(bytes)) {
      return make_error(
          not_midi("the header is truncated after " + std::to_string(bytes.size()) + " bytes"));
    }
    return make_error(not_midi("it starts with " + describe_id(bytes.substr(0, 4)) +
                               ", not \"MThd\" (or a RIFF RMID header)"));
  }
  const std::uint32_t length = bytes.size() >= 8 ? be32(p + 4) : 6;
  if (length < 6) {
    return make_error(
        not_midi("the header chunk is " + std::to_string(length) + " bytes long, fewer than 6"));
  }
  if (bytes.size() < 14) {
    return make_error(
        not_midi("the header is truncated after " + std::to_string(bytes.size()) + " bytes"));
  }
  if (length > bytes.size() - 8) {
    return make_error(not_midi("the header chunk claims " + std::to_string(length) +
                               " bytes but only " + std::to_string(bytes.size() - 8) +
                               " follow — truncated"));
  }
  file.format = be16(p + 8);
  if (file.format > 2) {
    return make_error("unsupported MIDI file format " + std::to_string(file.format) + " at byte " +
                      std::to_string(base + 8) + " (formats 0, 1 and 2 exist)");
  }
  auto division = read_division(be16(p + 12));
  if (!division) return division.error();
  file.division = *division;
  pos = 8 + std::size_t{length};  // header bytes beyond the 6 defined ones are skipped
  return std::size_t{be16(p + 10)};
}

core::Result<File> read_standard(std::string_view bytes, std::size_t base, const ReadLimits& limits,
                                 const TrackSink& sink) {
  File file;
  std::size_t pos = 0;
  auto announced = read_header(bytes, base, file, pos);
  if (!announced) return announced.error();
  if (*announced > limits.max_tracks) {
    return make_error("the header announces " + tracks_count(*announced) +
                      ", more than the limit of " + std::to_string(limits.max_tracks));
  }
  std::size_t events_left = limits.max_events;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t tracks = 0;
  while (pos < bytes.size()) {
    const std::size_t remaining = bytes.size() - pos;
    if (remaining < 8) {
      if (tracks >= *announced) break;  // stray padding after the last chunk
      return make_error("the file ends inside a chunk header at byte " +
                        std::to_string(base + pos) + " — truncated");
    }
    const std::string_view id = bytes.substr(pos, 4);
    const std::uint32_t length = be32(p + pos + 4);
    const bool is_track = id == "MTrk";
    const std::string where =
        is_track ? "track " + std::to_string(tracks + 1) : "chunk " + describe_id(id);
    if (length > remaining - 8) {
      return make_error(where + " at byte " + std::to_string(base + pos) + ": the chunk claims " +
                        std::to_string(length) + " bytes but only " +
                        std::to_string(remaining - 8) + " remain — truncated");
    }
    const std::string_view body = bytes.substr(pos + 8, length);
    if (auto stop = core::stop_error("reading the MIDI file", "no document was opened"))
      return *stop;
    if (is_track) {
      if (tracks == limits.max_tracks) {
        return make_error(where + " at byte " + std::to_string(base + pos) +
                          ": more tracks than the limit of " + std::to_string(limits.max_tracks));
      }
      auto track =
          TrackReader(body, {tracks + 1, base + pos + 8}, events_left, limits.max_events).read();
      if (!track) return track.error();
      ++tracks;
      if (sink) {
        if (auto refused = sink(file, std::move(*track))) return *refused;
      } else {
        file.tracks.push_back(std::move(*track));
      }
    } else {
      file.extra_chunks.push_back({std::string(id), std::string(body)});
    }
    pos += 8 + std::size_t{length};
  }
  if (tracks < *announced) {
    return make_error("the header announces " + tracks_count(*announced) +
                      " but the file ends after " + std::to_string(tracks) + " — truncated");
  }
  return file;
}

// Finds the SMF inside a RIFF RMID file: its "data" chunk, and that chunk's offset.
core::Result<std::pair<std::string_view, std::size_t>> unwrap_riff(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 12) return make_error(not_midi("the RIFF header is truncated"));
  if (bytes.substr(8, 4) != "RMID") {
    return make_error(
        not_midi("a RIFF " + describe_id(bytes.substr(8, 4)) + " file, not RIFF \"RMID\""));
  }
  // The RIFF size field is often wrong in the wild; the buffer is the only bound trusted.
  const std::size_t end = bytes.size();
  std::size_t pos = 12;
  while (end - pos >= 8) {
    const std::size_t length = le32(p + pos + 4);
    if (bytes.substr(pos, 4) == "data") {
      if (length > bytes.size() - pos - 8) {
        return make_error("RIFF chunk \"data\" at byte " + std::to_string(pos) + " claims " +
                          std::to_string(length) + " bytes but only " +
                          std::to_string(bytes.size() - pos - 8) + " remain — truncated");
      }
      return std::pair{bytes.substr(pos + 8, length), pos + 8};
    }
    if (length + (length & 1) > end - pos - 8) break;
    pos += 8 + length + (length & 1);  // RIFF chunks are padded to an even size
  }
  return make_error(not_midi("RIFF RMID without a complete \"data\" chunk — truncated?"));
}

}  // namespace

core::Result<File> read_smf(std::string_view bytes, const ReadLimits& limits) {
  return read_smf_tracks(bytes, nullptr, limits);
}

core::Result<File> read_smf_tracks(std::string_view bytes, const TrackSink& sink,
                                   const ReadLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    return make_error("the file is " + std::to_string(bytes.size()) +
                      " bytes, more than the limit of " + std::to_string(limits.max_bytes));
  }
  if (bytes.empty()) return make_error(not_midi("the file is empty"));
  if (bytes.starts_with("RIFF")) {
    auto inner = unwrap_riff(bytes);
    if (!inner) return inner.error();
    return read_standard(inner->first, inner->second, limits, sink);
  }
  return read_standard(bytes, 0, limits, sink);
}

}  // namespace fcp::midi::smf
