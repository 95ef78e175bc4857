// Standard MIDI Files (SMF 1.0): a lossless event model, the reader and the writer.
//
// The model keeps what a file says, not what it means: every event of every track at its
// absolute tick with its bytes as stored (minus delta time and running status), so that
// read → write → read gives an equal File. Musical interpretation (notes with durations,
// tempo in seconds) lives in notes.hpp and tempo_map.hpp. Plain values, no shared state: any
// thread may use them, one at a time per object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::midi::smf {

// The header's time division: ticks per quarter note, or SMPTE frames × ticks per frame.
struct Division {
  bool smpte = false;
  int ticks_per_quarter = 480;  // when !smpte (1..32767)
  int frames_per_second = 0;    // when smpte: 24, 25, 29 (drop-frame 30, i.e. 29.97), 30
  int ticks_per_frame = 0;      // when smpte (1..255)
  bool operator==(const Division&) const = default;
};

// One event at an absolute tick, bytes as in the file minus running status and delta time.
struct Event {
  std::uint64_t tick = 0;
  std::uint8_t status = 0;     // 0x80..0xEF channel messages (full status byte, channel in low
                               // nibble), 0xF0 / 0xF7 SysEx (escape), 0xFF meta
  std::uint8_t meta_type = 0;  // for 0xFF
  std::string data;  // channel: the 1–2 data bytes; SysEx/meta: the payload (after the length)
  bool operator==(const Event&) const = default;

  // True for 0x80..0xEF.
  bool is_channel() const { return status >= 0x80 && status < 0xF0; }
  // True for FF events.
  bool is_meta() const { return status == 0xFF; }
  // True for F0 (SysEx start) and F7 (continuation packet or escape) events.
  bool is_sysex() const { return status == 0xF0 || status == 0xF7; }
  // The channel 0..15 of a channel message (low nibble of the status).
  int channel() const { return status & 0x0F; }
  // The message kind of a channel message: 0x80 note-off … 0xE0 pitch bend.
  std::uint8_t kind() const { return static_cast<std::uint8_t>(status & 0xF0); }
  // 0x9n with velocity > 0.
  bool is_note_on() const { return kind() == 0x90 && data.size() >= 2 && data[1] != 0; }
  // 0x8n, or 0x9n with velocity 0.
  bool is_note_off() const {
    return kind() == 0x80 || (kind() == 0x90 && data.size() >= 2 && data[1] == 0);
  }
  // The first data byte as 0..127 (note number, controller, program), 0 when absent.
  int data1() const { return data.empty() ? 0 : static_cast<unsigned char>(data[0]) & 0x7F; }
  // The second data byte as 0..127 (velocity, controller value), 0 when absent.
  int data2() const { return data.size() < 2 ? 0 : static_cast<unsigned char>(data[1]) & 0x7F; }
};

// How many data bytes a channel message with this status carries: 1 for 0xCn and 0xDn, 2 for
// the other channel messages, 0 for anything else.
constexpr std::size_t channel_data_length(std::uint8_t status) {
  if (status < 0x80 || status >= 0xF0) return 0;
  const int kind = status & 0xF0;
  return kind == 0xC0 || kind == 0xD0 ? 1 : 2;
}

struct Track {
  std::vector<Event> events;   // in file order (non-decreasing ticks), WITHOUT the end-of-track
  std::uint64_t end_tick = 0;  // tick of the end-of-track meta event
  bool operator==(const Track&) const = default;
};

// A chunk other than MThd/MTrk, kept verbatim. `id` is 4 bytes.
struct Chunk {
  std::string id;
  std::string data;
  bool operator==(const Chunk&) const = default;
};

struct File {
  int format = 1;  // 0, 1 or 2
  Division division;
  std::vector<Track> tracks;
  std::vector<Chunk> extra_chunks;  // non-MTrk chunks after the header, kept verbatim
  bool operator==(const File&) const = default;
};

// Bounds on what one file may cost to read. Exceeding one is an error, never a crash.
struct ReadLimits {
  std::size_t max_bytes = 64u << 20;
  std::size_t max_events = 20'000'000;  // all tracks together, end-of-track metas excluded
  std::size_t max_tracks = 65535;
};

// Parses a Standard MIDI File, or one wrapped in RIFF "RMID" (the first "data" chunk is read,
// other RIFF chunks and the RIFF size field are ignored). Accepts formats 0–2, any division,
// MThd longer than 6 bytes (the extra bytes are skipped), unknown chunks anywhere after MThd
// (kept in extra_chunks, which the writer puts after the tracks), more MTrk chunks than the
// header announces, SysEx F0 and F7 packets, every meta type (undefined ones too), and a track
// chunk without end-of-track (end_tick is then its last event's tick). Ignored and not kept:
// bytes after a track's end-of-track inside its chunk, the end-of-track's payload, and fewer
// than 8 stray bytes after the last chunk once all announced tracks are read. Refused: fewer
// MTrk chunks than announced, a chunk longer than what is left of the input, status bytes
// F1..FE (they need an F7 escape), a status byte where a data byte belongs, VLQs over 4 bytes.
//
// Running status: a data byte where a status is expected repeats the last channel status of
// the track. SMF 1.0 says SysEx and meta events cancel running status; this reader keeps the
// last channel status across them (as mido does), which reads every compliant file exactly as
// the spec does and also accepts files from writers that rely on it. A data byte before any
// channel message in a track is an error. The writer never relies on it (see write_smf).
//
// Errors say where, with tracks counted from 1 and byte offsets from the start of the input
// (of the RIFF file for RMID): "not a MIDI file: …", "track 3 at byte 1234: running status
// without a previous status", "… — truncated", "… more than the limit of …". Never reads
// outside `bytes`, and never allocates more than the input's own events need.
core::Result<File> read_smf(std::string_view bytes, const ReadLimits& limits = {});

// Takes each track as read_smf_tracks reads it: the file so far (header, extra chunks before
// this track; no tracks) and the track. An error stops the reading and is what it returns.
using TrackSink = std::function<std::optional<core::Error>(const File& file, Track&& track)>;

// read_smf, with each track handed to `sink` as soon as it is read instead of kept in the File
// (whose `tracks` then stay empty): reading a big file never holds all its events as Events.
// The same checks and errors, in the same order; an empty sink keeps the tracks like read_smf.
core::Result<File> read_smf_tracks(std::string_view bytes, const TrackSink& sink,
                                   const ReadLimits& limits = {});

// Writes a plain SMF (never RIFF): MThd of length 6, each track as MTrk with minimal VLQ deltas,
// running status for consecutive channel messages with the same status (cancelled by every
// SysEx and meta event, as SMF 1.0 requires), end-of-track at end_tick (or the last event's tick
// if larger), then the extra chunks (ids cut or space-padded to 4 bytes). Byte-exact for files
// written the same way (e.g. by mido). Tolerates a model that breaks the invariants instead of
// writing a corrupt stream: events out of tick order are written in stable tick order;
// end-of-track metas inside `events` only move the end; events with a status below 0x80 or in
// F1..FE are skipped; channel messages get exactly the data bytes their status needs (missing
// ones as 0, each masked to 7 bits); payloads are cut at 0x0FFFFFFF bytes and gaps between events
// of more than 0x0FFFFFFF ticks (the largest delta) are bridged with empty text metas (FF 01 00).
std::string write_smf(const File& file);

// write_smf in parts, for a writer that makes one track at a time: the MThd chunk, one MTrk
// chunk, and the extra chunks; write_header, each track, then write_chunks is write_smf.
void write_header(std::string& out, int format, std::size_t tracks, const Division& division);
void write_track(std::string& out, const Track& track);
void write_chunks(std::string& out, const std::vector<Chunk>& chunks);

}  // namespace fcp::midi::smf
