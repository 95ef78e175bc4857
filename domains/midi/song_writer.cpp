// Song → Standard MIDI File. A song read from a file is written back as it was read wherever the
// song still says the same: each event goes back to its file track, at its index among the events
// of its tick, with its bytes; the conductor's events as read stay while they still say what the
// conductor says. What an edit made or changed goes where fcp puts new events, and nothing the
// model only assumes (120 BPM, 4/4, C major, a made-up track name) is added.
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "core/call_scope.hpp"
#include "domains/midi/conductor_meta.hpp"
#include "domains/midi/smf/meta.hpp"
#include "domains/midi/song_io.hpp"

namespace fcp::midi {
namespace {

// Where fcp puts a new event among the events of its tick: metas and SysEx, controls (bank and
// program before notes), note-offs, note-ons, then the offs of zero-length notes (their own on
// must come first, or the pair would be read back the other way round).
enum class Rank : std::uint8_t { meta, control, note_off, note_on, zero_length_off };

Rank rank_of(const smf::Event& event) {
  if (!event.is_channel()) return Rank::meta;
  if (event.is_note_off()) return Rank::note_off;
  return event.is_note_on() ? Rank::note_on : Rank::control;
}

// One event bound for a file track.
struct Outgoing {
  smf::Event event;
  Rank rank = Rank::meta;
  std::optional<std::uint32_t> index;  // its index as read, where it goes back
  EntityId owner = 0;                  // of copies that share a place, the oldest entity keeps it
};

// The events of one file track being written: those going back to their places as read, and
// the new ones, merged.
class TrackBuilder {
 public:
  TrackBuilder(std::optional<std::uint32_t> file_track, Tick end)
      : file_track_(file_track), end_(end) {}

  const std::optional<std::uint32_t>& file_track() const { return file_track_; }
  bool empty() const { return events_.empty() && unreleased_offs_.empty(); }
  void extend_end(Tick end) { end_ = std::max(end_, end); }
  void reserve(std::size_t more) { events_.reserve(events_.size() + more); }

  // An event of this file track as read, going back to its index (its tick is that of the read
  // event; its bytes may have changed).
  void add_read(std::uint32_t index, smf::Event event, EntityId owner = 0) {
    const Rank rank = rank_of(event);
    events_.push_back({std::move(event), rank, index, owner});
  }

  // An event the song made or changed: where fcp puts new events.
  void add_new(smf::Event event, Rank rank) {
    events_.push_back({std::move(event), rank, std::nullopt, 0});
  }

  // An entity's event: back at its place when it was read from this file track and still has
  // the tick it had there, else as new.
  void add(smf::Event event, Rank rank, const std::optional<FilePlace>& place, EntityId owner) {
    if (place && file_track_ && place->track == *file_track_ && place->tick == event.tick) {
      events_.push_back({std::move(event), rank, place->index, owner});
    } else {
      add_new(std::move(event), rank);
    }
  }

  // The note-off of a note the file never released, at the end it was read with: written only
  // if the track no longer ends there (the note then sounds to its old end, no longer to the
  // end of the track).
  void add_unreleased_off(smf::Event off) { unreleased_offs_.push_back(std::move(off)); }

  // The track: events as read at their indexes, the new ones merged in. O(n) but for the new
  // events, which are sorted.
  smf::Track build() {
    Tick end = end_;
    for (const Outgoing& out : events_)
      end = std::max(end, out.event.tick);
    for (smf::Event& off : unreleased_offs_) {
      if (off.tick != end) add_new(std::move(off), Rank::note_off);
    }
    // Each index as read goes to one event: of copies that share it, the oldest entity's (the
    // first added among equals); the others are written as new.
    constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    std::size_t slots = 0;
    for (const Outgoing& out : events_) {
      if (out.index) slots = std::max<std::size_t>(slots, std::size_t{*out.index} + 1);
    }
    std::vector<std::uint32_t> at(slots, none);  // index as read -> position in events_
    std::vector<std::uint32_t> fresh, displaced;
    for (std::uint32_t pos = 0; pos < events_.size(); ++pos) {
      const Outgoing& out = events_[pos];
      if (!out.index) {
        fresh.push_back(pos);
        continue;
      }
      std::uint32_t& slot = at[*out.index];
      if (slot == none) {
        slot = pos;
      } else if (out.owner < events_[slot].owner) {
        displaced.push_back(slot);
        slot = pos;
      } else {
        displaced.push_back(pos);
      }
    }
    std::sort(displaced.begin(), displaced.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::tuple(*events_[a].index, events_[a].owner, a) <
             std::tuple(*events_[b].index, events_[b].owner, b);
    });
    fresh.insert(fresh.end(), displaced.begin(), displaced.end());
    std::stable_sort(fresh.begin(), fresh.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Outgoing& x = events_[a];
      const Outgoing& y = events_[b];
      return x.event.tick != y.event.tick ? x.event.tick < y.event.tick : x.rank < y.rank;
    });
    // Both lists are in tick order. At one tick, a new event goes before the first event as read
    // that fcp would have put after it.
    smf::Track track;
    track.events.reserve(events_.size());
    std::size_t k = 0, f = 0;
    const auto next_kept = [&] {
      while (k < at.size() && at[k] == none)
        ++k;
    };
    next_kept();
    while (k < at.size() || f < fresh.size()) {
      bool take_fresh = k == at.size();
      if (k < at.size() && f < fresh.size()) {
        const Outgoing& kept = events_[at[k]];
        const Outgoing& made = events_[fresh[f]];
        take_fresh = made.event.tick != kept.event.tick ? made.event.tick < kept.event.tick
                                                        : kept.rank > made.rank;
      }
      if (take_fresh) {
        track.events.push_back(std::move(events_[fresh[f++]].event));
      } else {
        track.events.push_back(std::move(events_[at[k++]].event));
        next_kept();
      }
    }
    events_.clear();
    track.end_tick = end_;
    return track;
  }

 private:
  std::optional<std::uint32_t> file_track_;
  Tick end_;
  std::vector<Outgoing> events_;
  std::vector<smf::Event> unreleased_offs_;
};

using ReadByTick = std::map<Tick, std::vector<const PlacedEvent*>>;

// One kind of conductor value (`values` by tick) against the events as read that set it (`read`,
// by the tick of the value they set): a group that still sets its value is written as read; a
// changed value replaces its group, at the place of the group's event that held; a value no
// event was read for is new, except the model's default at tick 0 in a song read from a file
// (`unwritten_default`), which that file did not say.
template <class Value, class Same, class Make>
void add_values(const std::map<Tick, Value>& values, const ReadByTick& read, Same same, Make make,
                const std::optional<Value>& unwritten_default, TrackBuilder& out) {
  for (const auto& [tick, group] : read) {
    const auto value = values.find(tick);
    if (value == values.end()) continue;  // removed
    const PlacedEvent& holding = *group.back();
    if (same(holding.event, value->second)) {
      for (const PlacedEvent* placed : group)
        out.add_read(placed->index, placed->event);
    } else if (holding.event.tick == tick) {
      out.add_read(holding.index, make(tick, value->second));
    } else {
      out.add_new(make(tick, value->second), Rank::meta);
    }
  }
  for (const auto& [tick, value] : values) {
    if (read.contains(tick)) continue;
    if (tick == 0 && unwritten_default && value == *unwritten_default) continue;
    out.add_new(make(tick, value), Rank::meta);
  }
}

// The first bar line at or after `tick`: where a time signature read there takes effect.
Tick bar_line_from(const theory::MeterMap& meter, Tick tick) {
  int bar = meter.bar_of(tick);
  if (meter.bar_start(bar) != tick) ++bar;
  return meter.bar_start(bar);
}

void add_conductor(const Conductor& conductor, const std::optional<FileOrigin>& origin,
                   TrackBuilder& out) {
  const int ppqn = conductor.meter.ppqn();
  ReadByTick tempos, meters, keys;
  std::multimap<Tick, std::string> markers = conductor.markers;  // those no event as read says
  const smf::Event* title_read = nullptr;  // the event the title was read from
  if (origin) {
    std::vector<const smf::Event*> names;
    for (const PlacedEvent& placed : origin->conductor_events) {
      if (is_track_name(placed.event)) names.push_back(&placed.event);
    }
    if (!names.empty()) title_read = names[naming_event(names)];
    for (const PlacedEvent& placed : origin->conductor_events) {
      const smf::Event& event = placed.event;
      if (bpm_of(event)) {
        tempos[event.tick].push_back(&placed);
      } else if (meter_of(event, ppqn)) {
        meters[bar_line_from(conductor.meter, event.tick)].push_back(&placed);
      } else if (key_of(event)) {
        keys[event.tick].push_back(&placed);
      } else if (is_marker(event)) {
        const auto [begin, end] = markers.equal_range(event.tick);
        const auto kept = std::find_if(
            begin, end, [&](const auto& marker) { return marker.second == event.data; });
        if (kept == end) continue;  // removed
        markers.erase(kept);
        out.add_read(placed.index, event);
      } else if (&event == title_read) {
        if (conductor.title.empty() && !event.data.empty()) continue;  // removed
        smf::Event title = event;
        title.data = conductor.title;
        out.add_read(placed.index, std::move(title));
      } else {
        out.add_read(placed.index, event);  // not interpreted: kept as read
      }
    }
  }
  if (!title_read && !conductor.title.empty())
    out.add_new(smf::make_track_name(conductor.title), Rank::meta);

  const bool from_file = origin.has_value();
  std::map<Tick, Meter> meter_values;
  for (const auto& change : conductor.meter.changes())
    meter_values[change.tick] = Meter{change.numerator, change.denominator};
  add_values(
      meter_values, meters,
      [&](const smf::Event& e, const Meter& meter) { return meter_of(e, ppqn) == meter; },
      meter_event, from_file ? std::optional<Meter>(Meter{}) : std::nullopt, out);
  add_values(
      conductor.keys, keys,
      [](const smf::Event& e, const KeySignature& key) { return key_of(e) == key; }, key_event,
      from_file ? std::optional<KeySignature>(KeySignature{}) : std::nullopt, out);
  add_values(
      conductor.tempos, tempos,
      [](const smf::Event& e, double bpm) {
        return smf::us_from_bpm(*bpm_of(e)) == smf::us_from_bpm(bpm);
      },
      tempo_event, from_file ? std::optional<double>(120.0) : std::nullopt, out);
  for (const auto& [tick, text] : markers)
    out.add_new(smf::make_marker(text, tick), Rank::meta);
}

smf::Event control_event(const Control& c) {
  switch (c.kind) {
    case ControlKind::cc:
      return smf::make_control_change(c.channel, c.number, c.value, c.tick);
    case ControlKind::bend:
      return smf::make_pitch_bend(c.channel, c.value, c.tick);
    case ControlKind::program:
      return smf::make_program_change(c.channel, c.value, c.tick);
    case ControlKind::channel_pressure:
      return smf::make_channel_pressure(c.channel, c.value, c.tick);
    case ControlKind::key_pressure:
      break;
  }
  return smf::make_poly_pressure(c.channel, c.number, c.value, c.tick);
}

void add_track(const Song& song, const Track& track, TrackBuilder& out) {
  if (track.name_event) {
    smf::Event name = track.name_event->event;
    if (track.name != track.made_up_name) name.data = track.name;
    out.add_read(track.name_event->index, std::move(name), track.id);
  } else if (track.name != track.made_up_name) {
    out.add_new(smf::make_track_name(track.name), Rank::meta);
  }
  song.raws().of_track(track.id).for_each([&](const RawEvent& raw) {
    smf::Event event = raw.event;
    event.tick = raw.tick;
    out.add(std::move(event), Rank::meta, raw.place, raw.id);
  });
  song.controls().of_track(track.id).for_each([&](const Control& control) {
    out.add(control_event(control), Rank::control, control.place, control.id);
  });
  out.reserve(song.notes().count(track.id) * 2);
  song.notes().of_track(track.id).for_each([&](const Note& n) {
    out.add(smf::make_note_on(n.channel, n.pitch, n.velocity, n.tick), Rank::note_on, n.on_place,
            n.id);
    const Tick end = n.tick + n.duration;
    smf::Event off = n.release < 0 ? smf::make_note_on(n.channel, n.pitch, 0, end)
                                   : smf::make_note_off(n.channel, n.pitch, n.release, end);
    if (n.unreleased_end && end == *n.unreleased_end) {
      out.add_unreleased_off(std::move(off));
    } else if (n.duration > 0) {
      out.add(std::move(off), Rank::note_off, n.off_place, n.id);
    } else if (n.on_place && n.off_place && n.on_place->tick == n.tick &&
               n.off_place->tick == n.tick && n.on_place->index < n.off_place->index) {
      out.add(std::move(off), Rank::zero_length_off, n.off_place, n.id);  // after its on, as read
    } else {
      out.add_new(std::move(off), Rank::zero_length_off);
    }
  });
}

}  // namespace

namespace {

// The file tracks of a song, made one at a time: the conductor's (when the file has one), then
// one per song track, except that song tracks read from one file track (a format 0 file's
// channels, or track 0 holding both the conductor and notes) go back into it together.
class FileTracks {
 public:
  explicit FileTracks(const Song& song)
      : song_(song),
        head_(song.origin() ? song.origin()->conductor_track : std::nullopt,
              song.origin() ? song.origin()->conductor_end : 0) {
    const std::optional<FileOrigin>& origin = song.origin();
    add_conductor(song.conductor(), origin, head_);
    // A file read with no track at all gets a conductor track only when there is something in
    // it.
    head_part_ = !origin || origin->conductor_track || !head_.empty();
    if (head_part_) parts_.push_back({head_.file_track(), {}});
    for (const Track& track : song.tracks()) {
      const bool joins_previous =
          track.file_track && !parts_.empty() && parts_.back().file_track == track.file_track;
      if (!joins_previous) parts_.push_back({track.file_track, {}});
      parts_.back().tracks.push_back(&track);
    }
    format_ = origin ? origin->format : 1;
    // Format 0 holds one track: a track made here makes it format 1. (Files with more than one
    // track that say format 0 exist; they keep what they say.)
    if (format_ == 0 && std::any_of(parts_.begin(), parts_.end(),
                                    [](const Part& part) { return !part.file_track; }))
      format_ = 1;
  }

  int format() const { return format_; }
  std::size_t size() const { return parts_.size(); }

  // File track `i`, once (the conductor's events move into the first).
  smf::Track build(std::size_t i) {
    const bool with_head = i == 0 && head_part_;
    TrackBuilder out = with_head ? std::move(head_) : TrackBuilder(parts_[i].file_track, 0);
    for (const Track* track : parts_[i].tracks) {
      out.extend_end(track->file_end);
      add_track(song_, *track, out);
    }
    return out.build();
  }

 private:
  struct Part {
    std::optional<std::uint32_t> file_track;
    std::vector<const Track*> tracks;
  };

  const Song& song_;
  TrackBuilder head_;
  bool head_part_ = false;  // the conductor's events make the first file track
  std::vector<Part> parts_;
  int format_ = 1;
};

}  // namespace

smf::File file_from_song(const Song& song) {
  const Conductor& conductor = song.conductor();
  FileTracks tracks(song);
  smf::File file;
  file.division = conductor.division;
  if (!file.division.smpte) file.division.ticks_per_quarter = conductor.ppqn;
  file.format = tracks.format();
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    if (core::call_stop()) break;  // a call that must stop ends the file here (see write_song)
    file.tracks.push_back(tracks.build(i));
  }
  if (song.origin()) file.extra_chunks = song.origin()->extra_chunks;
  return file;
}

std::string write_song(const Song& song) {
  // The same file as write_smf(file_from_song(song)), written one track at a time: only one
  // file track's events exist at once beside the song and the bytes.
  const Conductor& conductor = song.conductor();
  smf::Division division = conductor.division;
  if (!division.smpte) division.ticks_per_quarter = conductor.ppqn;
  FileTracks tracks(song);
  std::string out;
  out.reserve(14 + 8 * tracks.size() + song.notes().size() * 7 + song.controls().size() * 4);
  smf::write_header(out, tracks.format(), tracks.size(), division);
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    if (core::call_stop()) break;  // the caller asks core::stop_error and drops the bytes
    smf::write_track(out, tracks.build(i));
  }
  if (song.origin()) smf::write_chunks(out, song.origin()->extra_chunks);
  return out;
}

}  // namespace fcp::midi
