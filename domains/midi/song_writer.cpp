// Song → Standard MIDI File. A song read from a file is written back as it was read wherever the
// song still says the same: each event goes back to its file track, at its index among the events
// of its tick, with its bytes; the conductor's events as read stay while they still say what the
// conductor says. What an edit made or changed goes where fcp puts new events, and nothing the
// model only assumes (120 BPM, 4/4, C major, a made-up track name) is added.
#include <algorithm>
#include <map>
#include <optional>
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

  smf::Track build() {
    Tick end = end_;
    for (const Outgoing& out : events_)
      end = std::max(end, out.event.tick);
    for (smf::Event& off : unreleased_offs_) {
      if (off.tick != end) add_new(std::move(off), Rank::note_off);
    }
    std::vector<Outgoing> placed, fresh;
    for (Outgoing& out : events_)
      (out.index ? placed : fresh).push_back(std::move(out));
    std::stable_sort(placed.begin(), placed.end(), [](const Outgoing& a, const Outgoing& b) {
      return *a.index != *b.index ? *a.index < *b.index : a.owner < b.owner;
    });
    // A copy made at its original's tick shares its place: the first one keeps it.
    std::vector<Outgoing> kept;
    kept.reserve(placed.size());
    for (Outgoing& out : placed) {
      if (!kept.empty() && *kept.back().index == *out.index) {
        out.index.reset();
        fresh.push_back(std::move(out));
      } else {
        kept.push_back(std::move(out));
      }
    }
    std::stable_sort(fresh.begin(), fresh.end(), [](const Outgoing& a, const Outgoing& b) {
      return a.event.tick != b.event.tick ? a.event.tick < b.event.tick : a.rank < b.rank;
    });
    // Both lists are in tick order. At one tick, a new event goes before the first event as read
    // that fcp would have put after it.
    smf::Track track;
    track.events.reserve(kept.size() + fresh.size());
    std::size_t k = 0, f = 0;
    while (k < kept.size() || f < fresh.size()) {
      bool take_fresh = k == kept.size();
      if (k < kept.size() && f < fresh.size()) {
        const Tick kept_tick = kept[k].event.tick, fresh_tick = fresh[f].event.tick;
        take_fresh =
            fresh_tick != kept_tick ? fresh_tick < kept_tick : kept[k].rank > fresh[f].rank;
      }
      track.events.push_back(std::move(take_fresh ? fresh[f++].event : kept[k++].event));
    }
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
  for (const auto& [tick, id] : song.raws().of_track(track.id)) {
    const RawEvent& raw = *song.raws().find(id);
    smf::Event event = raw.event;
    event.tick = raw.tick;
    out.add(std::move(event), Rank::meta, raw.place, raw.id);
  }
  for (const auto& [tick, id] : song.controls().of_track(track.id)) {
    const Control& control = *song.controls().find(id);
    out.add(control_event(control), Rank::control, control.place, control.id);
  }
  for (const auto& [tick, id] : song.notes().of_track(track.id)) {
    const Note& n = *song.notes().find(id);
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
  }
}

}  // namespace

smf::File file_from_song(const Song& song) {
  const Conductor& conductor = song.conductor();
  const std::optional<FileOrigin>& origin = song.origin();
  smf::File file;
  file.division = conductor.division;
  if (!file.division.smpte) file.division.ticks_per_quarter = conductor.ppqn;

  TrackBuilder head(origin ? origin->conductor_track : std::nullopt,
                    origin ? origin->conductor_end : 0);
  add_conductor(conductor, origin, head);
  std::vector<TrackBuilder> tracks;
  // A file read with no track at all gets a conductor track only when there is something in it.
  if (!origin || origin->conductor_track || !head.empty()) tracks.push_back(std::move(head));
  for (const Track& track : song.tracks()) {
    // A call that must stop ends the file here (see write_song's contract).
    if (core::call_stop()) break;
    // Song tracks read from one file track (a format 0 file's channels, or track 0 holding
    // both the conductor and notes) go back into it.
    const bool joins_previous =
        track.file_track && !tracks.empty() && tracks.back().file_track() == track.file_track;
    if (!joins_previous) tracks.emplace_back(track.file_track, 0);
    tracks.back().extend_end(track.file_end);
    add_track(song, track, tracks.back());
  }
  file.format = origin ? origin->format : 1;
  // Format 0 holds one track: a track made here makes it format 1. (Files with more than one
  // track that say format 0 exist; they keep what they say.)
  if (file.format == 0 && std::any_of(tracks.begin(), tracks.end(),
                                      [](const TrackBuilder& t) { return !t.file_track(); }))
    file.format = 1;
  for (TrackBuilder& track : tracks) {
    if (core::call_stop()) break;
    file.tracks.push_back(track.build());
  }
  if (origin) file.extra_chunks = origin->extra_chunks;
  return file;
}

}  // namespace fcp::midi
