#include <algorithm>
#include <numeric>

#include "domains/midi/smf/bytes.hpp"
#include "domains/midi/smf/smf.hpp"

namespace fcp::midi::smf {
namespace {

using detail::append_be16;
using detail::append_be32;
using detail::append_vlq;
using detail::max_vlq;

std::uint16_t division_word(const Division& division) {
  if (!division.smpte) return static_cast<std::uint16_t>(division.ticks_per_quarter & 0x7FFF);
  const auto frames = static_cast<std::uint8_t>(-division.frames_per_second);  // two's complement
  return static_cast<std::uint16_t>((frames << 8) | (division.ticks_per_frame & 0xFF));
}

// Appends one track's events as delta-timed MTrk data, with running status for channel messages.
class EventWriter {
 public:
  explicit EventWriter(std::string& out) : out_(out) {}

  void write(const Event& event) {
    if (event.is_channel()) {
      delta_to(event.tick);
      if (event.status != running_) out_.push_back(static_cast<char>(event.status));
      running_ = event.status;
      const std::size_t length = channel_data_length(event.status);
      for (std::size_t i = 0; i < length; ++i) {
        out_.push_back(i < event.data.size() ? static_cast<char>(event.data[i] & 0x7F) : '\0');
      }
    } else if (event.is_sysex()) {
      delta_to(event.tick);
      out_.push_back(static_cast<char>(event.status));
      payload(event.data);
    } else if (event.is_meta()) {
      if (event.meta_type == 0x2F) {
        end_ = std::max(end_, event.tick);  // the track's own end-of-track comes last
        return;
      }
      delta_to(event.tick);
      out_.push_back('\xFF');
      out_.push_back(static_cast<char>(event.meta_type));
      payload(event.data);
    }
    // Anything else cannot be stored in an SMF and is skipped rather than corrupt the stream.
  }

  void finish(std::uint64_t end_tick) {
    delta_to(std::max({end_tick, end_, tick_}));
    out_.append("\xFF\x2F\x00", 3);
  }

 private:
  void delta_to(std::uint64_t tick) {
    std::uint64_t delta = tick - tick_;  // events arrive in tick order
    while (delta > max_vlq) {            // beyond one delta: bridge with empty text metas
      append_vlq(out_, max_vlq);
      out_.append("\xFF\x01\x00", 3);
      running_ = 0;
      delta -= max_vlq;
    }
    append_vlq(out_, static_cast<std::uint32_t>(delta));
    tick_ = tick;
  }

  // SysEx and meta payloads: VLQ length, bytes. They cancel running status (SMF 1.0).
  void payload(const std::string& data) {
    const std::size_t length = std::min<std::size_t>(data.size(), max_vlq);
    append_vlq(out_, static_cast<std::uint32_t>(length));
    out_.append(data, 0, length);
    running_ = 0;
  }

  std::string& out_;
  std::uint64_t tick_ = 0;
  std::uint64_t end_ = 0;
  std::uint8_t running_ = 0;
};

}  // namespace

void write_track(std::string& out, const Track& track) {
  const std::size_t chunk_at = out.size();
  out.append("MTrk\0\0\0\0", 8);
  EventWriter writer(out);
  const auto by_tick = [](const Event& a, const Event& b) { return a.tick < b.tick; };
  if (std::is_sorted(track.events.begin(), track.events.end(), by_tick)) {
    for (const Event& event : track.events)
      writer.write(event);
  } else {
    std::vector<std::size_t> order(track.events.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return by_tick(track.events[a], track.events[b]);
    });
    for (std::size_t index : order)
      writer.write(track.events[index]);
  }
  writer.finish(track.end_tick);
  std::string length;
  append_be32(length, static_cast<std::uint32_t>(out.size() - chunk_at - 8));
  out.replace(chunk_at + 4, 4, length);
}

void write_header(std::string& out, int format, std::size_t tracks, const Division& division) {
  out.append("MThd", 4);
  append_be32(out, 6);
  append_be16(out, static_cast<std::uint32_t>(format) & 0xFFFF);
  append_be16(out, static_cast<std::uint32_t>(std::min<std::size_t>(tracks, 0xFFFF)));
  append_be16(out, division_word(division));
}

void write_chunks(std::string& out, const std::vector<Chunk>& chunks) {
  for (const Chunk& chunk : chunks) {
    std::string id = chunk.id.substr(0, 4);
    id.resize(4, ' ');
    out += id;
    append_be32(out, static_cast<std::uint32_t>(chunk.data.size()));
    out += chunk.data;
  }
}

std::string write_smf(const File& file) {
  std::size_t estimate = 14;
  for (const Track& track : file.tracks)
    estimate += 12 + track.events.size() * 4;
  for (const Chunk& chunk : file.extra_chunks)
    estimate += 8 + chunk.data.size();
  std::string out;
  out.reserve(estimate);
  write_header(out, file.format, file.tracks.size(), file.division);
  for (const Track& track : file.tracks)
    write_track(out, track);
  write_chunks(out, file.extra_chunks);
  return out;
}

}  // namespace fcp::midi::smf
