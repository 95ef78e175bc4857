#include "domains/midi/song_io.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "domains/midi/smf/notes.hpp"
#include "domains/midi/theory/gm.hpp"

namespace fcp::midi {
namespace {

constexpr std::uint8_t kMeta = 0xFF;
constexpr std::uint8_t kTrackName = 0x03;
constexpr std::uint8_t kMarker = 0x06;
constexpr std::uint8_t kTempo = 0x51;
constexpr std::uint8_t kTimeSignature = 0x58;
constexpr std::uint8_t kKeySignature = 0x59;

smf::Event meta(Tick tick, std::uint8_t type, std::string data) {
  smf::Event event;
  event.tick = tick;
  event.status = kMeta;
  event.meta_type = type;
  event.data = std::move(data);
  return event;
}

smf::Event channel_event(Tick tick, std::uint8_t kind, int channel,
                         std::initializer_list<int> bytes) {
  smf::Event event;
  event.tick = tick;
  event.status = static_cast<std::uint8_t>(kind | (channel & 0x0F));
  for (int b : bytes)
    event.data += static_cast<char>(b & 0x7F);
  return event;
}

int byte(const std::string& data, std::size_t i) {
  return i < data.size() ? static_cast<unsigned char>(data[i]) : 0;
}

bool is_conductor_meta(const smf::Event& e) {
  return e.status == kMeta && (e.meta_type == kTempo || e.meta_type == kTimeSignature ||
                               e.meta_type == kKeySignature || e.meta_type == kMarker);
}

void read_conductor_meta(Conductor& conductor, const smf::Event& e, bool& tempo_seen,
                         bool& key_seen) {
  if (e.meta_type == kTempo && e.data.size() >= 3) {
    const int us = (byte(e.data, 0) << 16) | (byte(e.data, 1) << 8) | byte(e.data, 2);
    if (us > 0) {
      if (!tempo_seen) conductor.tempos.clear();
      tempo_seen = true;
      conductor.tempos[e.tick] = 60'000'000.0 / us;
    }
  } else if (e.meta_type == kTimeSignature && e.data.size() >= 2) {
    const int numerator = byte(e.data, 0);
    const int power = byte(e.data, 1);
    if (numerator >= 1 && power <= 6) {
      const auto& meter = conductor.meter;
      int bar = meter.bar_of(e.tick);
      if (meter.bar_start(bar) != e.tick) ++bar;  // signatures take effect at bar starts
      (void)conductor.meter.set(bar, numerator, 1 << power);
    }
  } else if (e.meta_type == kKeySignature && e.data.size() >= 2) {
    if (!key_seen) conductor.keys.clear();
    key_seen = true;
    const int raw = byte(e.data, 0);
    const int sharps = raw < 0x80 ? raw : raw - 0x100;  // a signed byte
    conductor.keys[e.tick] = KeySignature{std::clamp(sharps, -7, 7), byte(e.data, 1) != 0};
  } else if (e.meta_type == kMarker) {
    conductor.markers.emplace(e.tick, e.data);
  }
}

// Adds the events of one file track (or one channel of a format 0 track) to `track`.
void read_track_events(Song& song, Track& track, const smf::Track& source,
                       const std::vector<bool>& take) {
  std::vector<bool> used(source.events.size(), false);
  for (const auto& pair : smf::pair_notes(source)) {
    if (!take[pair.on]) continue;
    const smf::Event& on = source.events[pair.on];
    Note note;
    note.id = song.allocate_id();
    note.track = track.id;
    note.tick = on.tick;
    note.pitch = byte(on.data, 0);
    note.velocity = byte(on.data, 1);
    note.channel = on.channel();
    if (pair.off != static_cast<std::size_t>(-1)) {
      const smf::Event& off = source.events[pair.off];
      note.duration = static_cast<std::uint32_t>(off.tick - on.tick);
      note.release = off.kind() == 0x90 ? -1 : byte(off.data, 1);
      used[pair.off] = true;
    } else {
      note.duration = static_cast<std::uint32_t>(std::max<Tick>(source.end_tick, on.tick) -
                                                 on.tick);  // never released: until the end
      note.release = -1;
    }
    used[pair.on] = true;
    song.put_note(note);
  }
  for (std::size_t i = 0; i < source.events.size(); ++i) {
    if (used[i] || !take[i]) continue;
    const smf::Event& e = source.events[i];
    if (e.status == kMeta && e.meta_type == kTrackName && track.name.empty()) {
      track.name = e.data;
      continue;
    }
    if (e.is_channel() && e.kind() != 0x80 && e.kind() != 0x90) {
      Control control;
      control.id = song.allocate_id();
      control.track = track.id;
      control.tick = e.tick;
      control.channel = e.channel();
      switch (e.kind()) {
        case 0xB0:
          control.kind = ControlKind::cc;
          control.number = byte(e.data, 0);
          control.value = byte(e.data, 1);
          break;
        case 0xE0:
          control.kind = ControlKind::bend;
          control.value = ((byte(e.data, 1) << 7) | byte(e.data, 0)) - 8192;
          break;
        case 0xC0:
          control.kind = ControlKind::program;
          control.value = byte(e.data, 0);
          break;
        case 0xD0:
          control.kind = ControlKind::channel_pressure;
          control.value = byte(e.data, 0);
          break;
        default:  // 0xA0
          control.kind = ControlKind::key_pressure;
          control.number = byte(e.data, 0);
          control.value = byte(e.data, 1);
          break;
      }
      song.controls().put(control);
      continue;
    }
    // Unpaired note-offs, SysEx, metas: kept as they are.
    RawEvent raw;
    raw.id = song.allocate_id();
    raw.track = track.id;
    raw.tick = e.tick;
    raw.event = e;
    song.raws().put(raw);
  }
}

int first_channel(const smf::Track& track, const std::vector<bool>& take) {
  for (std::size_t i = 0; i < track.events.size(); ++i) {
    if (take[i] && track.events[i].is_channel()) return track.events[i].channel();
  }
  return 0;
}

}  // namespace

core::Result<Song> song_from_file(const smf::File& file) {
  Song song;
  Conductor& conductor = song.conductor();
  conductor.division = file.division;
  conductor.ppqn =
      file.division.smpte
          ? std::max(1, file.division.frames_per_second * file.division.ticks_per_frame / 2)
          : file.division.ticks_per_quarter;
  conductor.meter = theory::MeterMap(conductor.ppqn);
  bool tempo_seen = false, key_seen = false;

  for (std::size_t t = 0; t < file.tracks.size(); ++t) {
    const smf::Track& source = file.tracks[t];
    std::vector<bool> take(source.events.size(), true);
    bool has_channel_events = false;
    if (t == 0) {
      for (std::size_t i = 0; i < source.events.size(); ++i) {
        const auto& e = source.events[i];
        if (is_conductor_meta(e)) {
          read_conductor_meta(conductor, e, tempo_seen, key_seen);
          take[i] = false;
        }
        has_channel_events = has_channel_events || e.is_channel();
      }
    } else {
      for (const auto& e : source.events)
        has_channel_events = has_channel_events || e.is_channel();
    }
    if (t == 0 && !has_channel_events) {  // the conductor track
      for (std::size_t i = 0; i < source.events.size(); ++i) {
        if (!take[i]) continue;
        const auto& e = source.events[i];
        if (e.status == kMeta && e.meta_type == kTrackName && conductor.title.empty()) {
          conductor.title = e.data;
        } else {
          conductor.other.push_back(e);
        }
      }
      continue;
    }
    if (file.format == 0) {
      // One track per channel; the rest (names, SysEx, text) stays with the conductor.
      std::map<int, std::vector<bool>> by_channel;
      for (std::size_t i = 0; i < source.events.size(); ++i) {
        const auto& e = source.events[i];
        if (!take[i]) continue;
        if (e.is_channel()) {
          auto& mask = by_channel[e.channel()];
          mask.resize(source.events.size(), false);
          mask[i] = true;
        } else if (e.status == kMeta && e.meta_type == kTrackName && conductor.title.empty()) {
          conductor.title = e.data;
        } else {
          conductor.other.push_back(e);
        }
      }
      for (auto& [channel, mask] : by_channel) {
        Track track;
        track.id = song.allocate_id();
        track.channel = channel;
        read_track_events(song, track, source, mask);
        if (track.name.empty()) {
          auto program = song.program_of(track.id);
          track.name = channel == 9 ? std::string("Drums")
                       : program    ? std::string(theory::gm_instruments()[*program].name)
                                    : "Channel " + std::to_string(channel + 1);
        }
        song.insert_track(song.tracks().size(), track);
      }
      continue;
    }
    Track track;
    track.id = song.allocate_id();
    track.channel = first_channel(source, take);
    read_track_events(song, track, source, take);
    if (track.name.empty()) track.name = "Track " + std::to_string(song.tracks().size() + 1);
    song.insert_track(song.tracks().size(), track);
  }
  return song;
}

smf::File file_from_song(const Song& song) {
  smf::File file;
  file.format = 1;
  const Conductor& conductor = song.conductor();
  file.division = conductor.division;
  if (!file.division.smpte) file.division.ticks_per_quarter = conductor.ppqn;

  smf::Track head;
  if (!conductor.title.empty()) head.events.push_back(meta(0, kTrackName, conductor.title));
  for (const auto& change : conductor.meter.changes()) {
    int power = 0;
    while ((1 << power) < change.denominator)
      ++power;
    std::string data;
    data += static_cast<char>(change.numerator);
    data += static_cast<char>(power);
    data += static_cast<char>(24);
    data += static_cast<char>(8);
    head.events.push_back(meta(change.tick, kTimeSignature, std::move(data)));
  }
  for (const auto& [tick, key] : conductor.keys) {
    std::string data;
    data += static_cast<char>(static_cast<signed char>(key.sharps));
    data += static_cast<char>(key.minor ? 1 : 0);
    head.events.push_back(meta(tick, kKeySignature, std::move(data)));
  }
  for (const auto& [tick, bpm] : conductor.tempos) {
    const auto us =
        static_cast<std::uint32_t>(std::clamp(std::lround(60'000'000.0 / bpm), 1L, 0xFFFFFFL));
    std::string data;
    data += static_cast<char>((us >> 16) & 0xFF);
    data += static_cast<char>((us >> 8) & 0xFF);
    data += static_cast<char>(us & 0xFF);
    head.events.push_back(meta(tick, kTempo, std::move(data)));
  }
  for (const auto& [tick, text] : conductor.markers)
    head.events.push_back(meta(tick, kMarker, text));
  for (const auto& e : conductor.other)
    head.events.push_back(e);
  std::stable_sort(head.events.begin(), head.events.end(),
                   [](const auto& a, const auto& b) { return a.tick < b.tick; });
  head.end_tick = head.events.empty() ? 0 : head.events.back().tick;
  file.tracks.push_back(std::move(head));

  for (const Track& track : song.tracks()) {
    // Order at one tick: metas and SysEx, controls (bank and program before notes), note-offs,
    // note-ons.
    std::vector<std::pair<int, smf::Event>> events;
    events.emplace_back(0, meta(0, kTrackName, track.name));
    for (const auto& [tick, id] : song.raws().of_track(track.id))
      events.emplace_back(0, song.raws().find(id)->event);
    for (const auto& [tick, id] : song.controls().of_track(track.id)) {
      const Control& c = *song.controls().find(id);
      switch (c.kind) {
        case ControlKind::cc:
          events.emplace_back(1, channel_event(c.tick, 0xB0, c.channel, {c.number, c.value}));
          break;
        case ControlKind::bend: {
          const int raw = std::clamp(c.value + 8192, 0, 16383);
          events.emplace_back(1, channel_event(c.tick, 0xE0, c.channel, {raw & 0x7F, raw >> 7}));
          break;
        }
        case ControlKind::program:
          events.emplace_back(1, channel_event(c.tick, 0xC0, c.channel, {c.value}));
          break;
        case ControlKind::channel_pressure:
          events.emplace_back(1, channel_event(c.tick, 0xD0, c.channel, {c.value}));
          break;
        case ControlKind::key_pressure:
          events.emplace_back(1, channel_event(c.tick, 0xA0, c.channel, {c.number, c.value}));
          break;
      }
    }
    for (const auto& [tick, id] : song.notes().of_track(track.id)) {
      const Note& n = *song.notes().find(id);
      events.emplace_back(3, channel_event(n.tick, 0x90, n.channel, {n.pitch, n.velocity}));
      // Offs of earlier notes go before the note-ons of their tick; a zero-length note's own
      // off must follow its on, or the pair would be read back the other way round.
      const int off_order = n.duration == 0 ? 4 : 2;
      if (n.release < 0) {
        events.emplace_back(off_order,
                            channel_event(n.tick + n.duration, 0x90, n.channel, {n.pitch, 0}));
      } else {
        events.emplace_back(
            off_order, channel_event(n.tick + n.duration, 0x80, n.channel, {n.pitch, n.release}));
      }
    }
    std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
      return a.second.tick != b.second.tick ? a.second.tick < b.second.tick : a.first < b.first;
    });
    smf::Track out;
    out.events.reserve(events.size());
    for (auto& [order, event] : events)
      out.events.push_back(std::move(event));
    out.end_tick = out.events.empty() ? 0 : out.events.back().tick;
    file.tracks.push_back(std::move(out));
  }
  return file;
}

core::Result<Song> read_song(std::string_view bytes) {
  auto file = smf::read_smf(bytes);
  if (!file) return file.error();
  return song_from_file(*file);
}

std::string write_song(const Song& song) {
  return smf::write_smf(file_from_song(song));
}

}  // namespace fcp::midi
