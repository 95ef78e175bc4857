// midi's selectors for core's selector engine. What they choose from: the song's events —
// notes, controls (cc, bend, program, pressure) and the conductor's changes after the start
// (tempo, time-sig, key-sig) and markers; their @type: is that kind. Typed predicates: @track
// @channel @range @pitch @velocity, and the kind selectors @cc[:NAME] @bend @program @pressure
// @tempo @time-sig @key-sig @marker[:TEXT], alternatives of @type:. Without a kind, selectors
// choose notes. Verbs and queries both choose through select_events.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/selector.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

enum class EventKind : std::uint8_t {
  note,
  cc,
  bend,
  program,
  pressure,
  tempo,
  time_sig,
  key_sig,
  marker
};
std::string_view kind_name(EventKind kind);  // "note", "cc", …, "time-sig"

// One event selectors chose. Notes and controls have ids; conductor events are found by kind
// and tick (markers by text too).
struct SongEvent {
  EventKind kind = EventKind::note;
  EntityId id = 0;     // notes and controls
  EntityId track = 0;  // 0 for conductor events
  Tick tick = 0;
  std::string text;  // a marker's text
};

struct EventSelection {
  std::vector<SongEvent> events;  // notes by track and time, then controls, then conductor events
  std::string nothing_matched;    // set when events is empty: what was asked and what exists
};

const core::SelectorCatalog& selector_catalog();

// Who asks for a track or for events: an op may be offered `track add NAME` when a name is
// unknown; a query is offered only queries (a hint is pasted into the tool that failed).
enum class Asker { op, query };

// Chooses events of `song` with core's engine; `written` is the op or query as written (hints).
core::Result<EventSelection> select_events(const Song& song,
                                           std::span<const core::Selector> selectors,
                                           const core::EventLog& log, std::string_view written,
                                           Asker asker = Asker::op);

// The key a conductor event has for @recent (SongEdit::touched_entities): "tempo@960".
std::string conductor_event_key(EventKind kind, Tick tick);

// A track by name through the engine's cascade. Errors list the tracks and offer `written` with
// the closest names in place of `name`, else with the first track, or (to an op) `track add NAME`.
core::Result<EntityId> resolve_track_name(const Song& song, std::string_view name,
                                          std::string_view written, Asker asker = Asker::op);

// [start, stop) from "M.B-M.B" (absolute positions or `end`); with `end_inclusive` the stop is
// extended by the end position's beat, as @range does, and one position is the range of itself
// (`9` bar 9, `9.1` that beat). Errors' hints are ranges.
core::Result<std::pair<Tick, Tick>> parse_range(const Song& song, std::string_view text,
                                                bool end_inclusive);

// The pitches @pitch:VALUE chooses: one pitch (C4, midi:60, a drum name), a pitch class in any
// octave (F#), LOW-HIGH with both ends included (A0-B2, midi:21-47), or a comparison (<C3, <=C3,
// >G5, >=G5). Errors name the forms; a range written high-low is offered low-high.
struct PitchChoice {
  int low = 0, high = 127;
  std::optional<int> pitch_class;  // 0..11: every octave of it
  bool contains(int pitch) const;
};
core::Result<PitchChoice> parse_pitch_choice(std::string_view text);

// [start, stop) as a range is written: the start and the last beat it includes ("1.1-4.4"),
// which parse_range with `end_inclusive` reads back as [start, stop) when stop is on a beat.
std::string range_text(const Song& song, Tick start, Tick stop, std::string_view separator = "-");

}  // namespace fcp::midi
