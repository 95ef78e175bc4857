#include "domains/midi/song_io.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "core/call_scope.hpp"
#include "domains/midi/conductor_meta.hpp"
#include "domains/midi/smf/notes.hpp"
#include "domains/midi/theory/gm.hpp"

namespace fcp::midi {
namespace {

int byte(const std::string& data, std::size_t i) {
  return i < data.size() ? static_cast<unsigned char>(data[i]) : 0;
}

FilePlace place_of(std::uint32_t file_track, std::size_t index, const smf::Event& event) {
  return FilePlace{file_track, static_cast<std::uint32_t>(index), event.tick};
}

// Reads the conductor's events into the conductor, and keeps each as read in `origin`.
class ConductorReader {
 public:
  ConductorReader(Conductor& conductor, FileOrigin& origin)
      : conductor_(conductor), origin_(origin) {}

  // True when `event` is a tempo, time or key signature or marker the conductor takes.
  bool interprets(const smf::Event& event) const {
    return bpm_of(event) || meter_of(event, conductor_.meter.ppqn()) || key_of(event) ||
           is_marker(event);
  }

  // Takes event `index` of the conductor's file track: its value into the conductor, the event
  // as read into the origin.
  void take(std::size_t index, const smf::Event& event) {
    if (const auto bpm = bpm_of(event)) {
      if (!tempo_seen_) conductor_.tempos.clear();  // the default 120 was not in the file
      tempo_seen_ = true;
      conductor_.tempos[event.tick] = *bpm;  // several at one tick: the last one holds
    } else if (const auto meter = meter_of(event, conductor_.meter.ppqn())) {
      auto& map = conductor_.meter;
      int bar = map.bar_of(event.tick);
      if (map.bar_start(bar) != event.tick) ++bar;  // signatures take effect at bar starts
      (void)map.set(bar, meter->numerator, meter->denominator);  // meter_of checked what set does
    } else if (const auto key = key_of(event)) {
      if (!key_seen_) conductor_.keys.clear();
      key_seen_ = true;
      conductor_.keys[event.tick] = *key;
    } else if (is_marker(event)) {
      conductor_.markers.emplace(event.tick, event.data);
    }
    origin_.conductor_events.push_back({static_cast<std::uint32_t>(index), event});
  }

  // Once every event is taken: puts them in file order and reads the title from them.
  void finish() {
    std::sort(origin_.conductor_events.begin(), origin_.conductor_events.end(),
              [](const PlacedEvent& a, const PlacedEvent& b) { return a.index < b.index; });
    std::vector<const smf::Event*> names;
    for (const PlacedEvent& placed : origin_.conductor_events) {
      if (is_track_name(placed.event)) names.push_back(&placed.event);
    }
    if (!names.empty()) conductor_.title = names[naming_event(names)]->data;
  }

 private:
  Conductor& conductor_;
  FileOrigin& origin_;
  bool tempo_seen_ = false, key_seen_ = false;
};

// Adds the events of file track `file_track` (or one channel of a format 0 track) chosen by
// `take` to `track`, each with its place in the file.
// Stops (the call that reads is cancelled or past its time limit) every few thousand notes.
core::Result<void> read_track_events(Song& song, Track& track, const smf::Track& source,
                                     std::uint32_t file_track, const std::vector<bool>& take) {
  core::StopPoll poll(4096);
  std::vector<bool> used(source.events.size(), false);
  std::vector<const smf::Event*> names;
  for (std::size_t i = 0; i < source.events.size(); ++i) {
    if (take[i] && is_track_name(source.events[i])) names.push_back(&source.events[i]);
  }
  const smf::Event* name = names.empty() ? nullptr : names[naming_event(names)];
  const auto pairs = smf::pair_notes(source);
  song.reserve_notes(pairs.size());
  for (const auto& pair : pairs) {
    if (auto stop = poll.check("reading the song", "no document was opened")) return *stop;
    if (!take[pair.on]) continue;
    const smf::Event& on = source.events[pair.on];
    Note note;
    note.id = song.allocate_id();
    note.track = track.id;
    note.tick = on.tick;
    note.pitch = byte(on.data, 0);
    note.velocity = byte(on.data, 1);
    note.channel = on.channel();
    note.on_place = place_of(file_track, pair.on, on);
    if (pair.off != smf::NotePair::npos) {
      const smf::Event& off = source.events[pair.off];
      note.duration = static_cast<std::uint32_t>(off.tick - on.tick);
      note.release = off.kind() == 0x90 ? -1 : byte(off.data, 1);
      note.off_place = place_of(file_track, pair.off, off);
      used[pair.off] = true;
    } else {
      // Never released: it sounds to the end of the track, and is saved without a note-off.
      const Tick end = std::max<Tick>(source.end_tick, on.tick);
      note.duration = static_cast<std::uint32_t>(end - on.tick);
      note.release = -1;
      note.unreleased_end = end;
    }
    used[pair.on] = true;
    song.put_note(note);
  }
  for (std::size_t i = 0; i < source.events.size(); ++i) {
    if (used[i] || !take[i]) continue;
    const smf::Event& e = source.events[i];
    if (&e == name) {
      track.name = e.data;
      track.name_event = PlacedEvent{static_cast<std::uint32_t>(i), e};
      continue;
    }
    if (e.is_channel() && e.kind() != 0x80 && e.kind() != 0x90) {
      Control control;
      control.id = song.allocate_id();
      control.track = track.id;
      control.tick = e.tick;
      control.channel = e.channel();
      control.place = place_of(file_track, i, e);
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
    raw.place = place_of(file_track, i, e);
    song.raws().put(raw);
  }
  return {};
}

int first_channel(const smf::Track& track, const std::vector<bool>& take) {
  for (std::size_t i = 0; i < track.events.size(); ++i) {
    if (take[i] && track.events[i].is_channel()) return track.events[i].channel();
  }
  return 0;
}

// A name for a track its file does not name; saving leaves it out while the track keeps it.
void make_up_name(Track& track, std::string name) {
  track.name = std::move(name);
  track.made_up_name = track.name;
}

// Builds a song from a file's tracks, taken one at a time in file order, so that a reader can
// drop each track's events once taken.
class SongBuilder {
 public:
  explicit SongBuilder(const smf::File& header) : conductor_reader_(song_.conductor(), origin_) {
    Conductor& conductor = song_.conductor();
    conductor.division = header.division;
    conductor.ppqn =
        header.division.smpte
            ? std::max(1, header.division.frames_per_second * header.division.ticks_per_frame / 2)
            : header.division.ticks_per_quarter;
    conductor.meter = theory::MeterMap(conductor.ppqn);
    origin_.format = header.format;
  }

  // Stops (an error) when the call that reads must stop.
  core::Result<void> take(const smf::Track& source) {
    const auto file_track = static_cast<std::uint32_t>(tracks_taken_++);
    std::vector<bool> take(source.events.size(), true);
    const bool has_channel_events = std::any_of(source.events.begin(), source.events.end(),
                                                [](const smf::Event& e) { return e.is_channel(); });
    if (file_track == 0) {
      origin_.conductor_track = 0;
      origin_.conductor_end = source.end_tick;
      // The conductor takes track 0's tempo, meter, keys and markers; when the track holds
      // nothing else that plays, all of it (the title, text, SysEx).
      for (std::size_t i = 0; i < source.events.size(); ++i) {
        const smf::Event& e = source.events[i];
        if (!has_channel_events || conductor_reader_.interprets(e)) {
          conductor_reader_.take(i, e);
          take[i] = false;
        }
      }
      if (!has_channel_events) return {};
    }
    if (origin_.format == 0 && file_track == 0) {
      // One track per channel; the rest (names, SysEx, text) stays with the conductor.
      std::map<int, std::vector<bool>> by_channel;
      for (std::size_t i = 0; i < source.events.size(); ++i) {
        const auto& e = source.events[i];
        if (!take[i]) continue;
        if (e.is_channel()) {
          auto& mask = by_channel[e.channel()];
          mask.resize(source.events.size(), false);
          mask[i] = true;
        } else {
          conductor_reader_.take(i, e);
        }
      }
      for (auto& [channel, mask] : by_channel) {
        Track track;
        track.id = song_.allocate_id();
        track.channel = channel;
        track.file_track = file_track;
        track.file_end = source.end_tick;
        if (auto read = read_track_events(song_, track, source, file_track, mask); !read)
          return read.error();
        if (track.name.empty()) {
          auto program = song_.program_of(track.id);
          make_up_name(track, channel == 9 ? std::string("Drums")
                              : program    ? std::string(theory::gm_instruments()[*program].name)
                                           : "Channel " + std::to_string(channel + 1));
        }
        song_.insert_track(song_.tracks().size(), track);
      }
      return {};
    }
    Track track;
    track.id = song_.allocate_id();
    track.channel = first_channel(source, take);
    track.file_track = file_track;
    track.file_end = source.end_tick;
    if (auto read = read_track_events(song_, track, source, file_track, take); !read)
      return read.error();
    if (track.name.empty())
      make_up_name(track, "Track " + std::to_string(song_.tracks().size() + 1));
    song_.insert_track(song_.tracks().size(), track);
    return {};
  }

  // Once every track is taken; `file` gives the extra chunks.
  Song finish(const smf::File& file) {
    origin_.extra_chunks = file.extra_chunks;
    conductor_reader_.finish();
    song_.set_origin(std::move(origin_));
    return std::move(song_);
  }

 private:
  Song song_;
  FileOrigin origin_;
  ConductorReader conductor_reader_;
  std::size_t tracks_taken_ = 0;
};

}  // namespace

core::Result<Song> song_from_file(const smf::File& file) {
  SongBuilder builder(file);
  for (const smf::Track& track : file.tracks) {
    if (auto taken = builder.take(track); !taken) return taken.error();
  }
  return builder.finish(file);
}

core::Result<Song> read_song(std::string_view bytes) {
  // Each track becomes part of the song as soon as it is read, and its events are dropped.
  std::optional<SongBuilder> builder;
  auto file = smf::read_smf_tracks(
      bytes, [&](const smf::File& header, smf::Track&& track) -> std::optional<core::Error> {
        if (!builder) builder.emplace(header);
        auto taken = builder->take(track);
        track = {};
        if (!taken) return taken.error();
        return std::nullopt;
      });
  if (!file) return file.error();
  if (!builder) builder.emplace(*file);
  return builder->finish(*file);
}

}  // namespace fcp::midi
