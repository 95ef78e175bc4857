// The song model: conductor data (title, tempo, meter, keys, markers) and tracks holding notes
// (one entity with a duration), controls (CC, pitch bend, program, aftertouch) and any other
// event kept verbatim. Entities have stable ids; each kind is kept per track in time order
// (entity_store.hpp), so finding, adding or removing one is O(log n) plus at most half a block.
//
// A song read from a file also remembers, in the file's own terms, what it read: where each
// event stood (FilePlace), the conductor's events with their bytes, the file's format, tracks'
// ends and extra chunks (FileOrigin). Saving writes untouched events back from that, so open →
// save gives the file back; defaults the model assumes (120 BPM, 4/4, C major) stay out of it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domains/midi/entity_store.hpp"
#include "domains/midi/smf/smf.hpp"
#include "domains/midi/theory/meter.hpp"

namespace fcp::midi {

// Where an event stood in the file the song was read from: the file track, the event's index in
// it and its tick then. Saving puts an event that still has that tick back at that index among
// the events of its tick; a moved event (or one made here, without a place) goes where fcp puts
// new events. Copies carry their original's place; the writer gives each place to one event.
struct FilePlace {
  std::uint32_t track = 0;
  std::uint32_t index = 0;
  Tick tick = 0;
  bool operator==(const FilePlace&) const = default;
};

// An event as read, with its index in its file track.
struct PlacedEvent {
  std::uint32_t index = 0;
  smf::Event event;
  bool operator==(const PlacedEvent&) const = default;
};

struct Note {
  EntityId id = 0;
  EntityId track = 0;
  Tick tick = 0;
  std::uint32_t duration = 0;
  int pitch = 60;
  int velocity = 80;
  int channel = 0;   // 0..15 (the DSL shows 1..16)
  int release = -1;  // note-off velocity; -1 = written as note-on with velocity 0
  std::optional<FilePlace> on_place, off_place;
  // The end of a note the file never released (it lasts to the end of its track): while the
  // note still ends there, no note-off is written for it.
  std::optional<Tick> unreleased_end;
  bool operator==(const Note&) const = default;
};

enum class ControlKind : std::uint8_t { cc, bend, program, channel_pressure, key_pressure };

struct Control {
  EntityId id = 0;
  EntityId track = 0;
  Tick tick = 0;
  int channel = 0;
  ControlKind kind = ControlKind::cc;
  int number = 0;  // CC number, or the key for key pressure
  int value = 0;   // CC value, bend -8192..8191, program 0..127, pressure
  std::optional<FilePlace> place;
  bool operator==(const Control&) const = default;
};

// Any other event of a track (SysEx, text, lyrics, unknown meta), kept as read.
struct RawEvent {
  EntityId id = 0;
  EntityId track = 0;
  Tick tick = 0;
  smf::Event event;
  std::optional<FilePlace> place;
  bool operator==(const RawEvent&) const = default;
};

struct Track {
  EntityId id = 0;
  std::string name;
  int channel = 0;  // the track's default channel, 0..15
  bool muted = false;
  bool solo = false;
  // As read (all empty for a track made here): the file track it came from and that track's
  // end-of-track tick, its name event as read (see naming_event), and the name fcp made up when the
  // file gave none, which saving leaves out while the track still has it.
  std::optional<std::uint32_t> file_track;
  Tick file_end = 0;
  std::optional<PlacedEvent> name_event;
  std::string made_up_name;
  bool operator==(const Track&) const = default;
};

struct KeySignature {
  int sharps = 0;  // -7..7
  bool minor = false;
  bool operator==(const KeySignature&) const = default;
};

struct Conductor {
  std::string title;
  int ppqn = 480;
  smf::Division division;                     // as read (SMPTE files keep theirs)
  std::map<Tick, double> tempos{{0, 120.0}};  // BPM by tick; always has tick 0
  theory::MeterMap meter{480};
  std::map<Tick, KeySignature> keys{{0, {}}};  // always has tick 0
  std::multimap<Tick, std::string> markers;
  bool operator==(const Conductor& other) const;
};

// What a song read from a file keeps of it besides the tracks' events, so that saving writes
// the file back as it was. Never changed by edits: the writer compares the conductor against
// conductor_events and writes those that still say what the conductor says.
struct FileOrigin {
  int format = 1;
  std::optional<std::uint32_t> conductor_track;  // the file track the conductor was read from
  Tick conductor_end = 0;                        // its end-of-track tick
  // The conductor's events in file order: title, tempo, time and key signatures and markers
  // (interpreted into Conductor), and the rest (text, SysEx, SMPTE offset…), kept as they are.
  std::vector<PlacedEvent> conductor_events;
  std::vector<smf::Chunk> extra_chunks;
  bool operator==(const FileOrigin&) const = default;
};

// Thread: owned by one session.
class Song {
 public:
  Song();

  Conductor& conductor() { return conductor_; }
  const Conductor& conductor() const { return conductor_; }
  int ppqn() const { return conductor_.ppqn; }

  const std::vector<Track>& tracks() const { return tracks_; }
  const Track* track(EntityId id) const;
  // Index of a track in tracks(), or npos.
  std::size_t track_index(EntityId id) const;
  void insert_track(std::size_t index, Track track);
  void erase_track(EntityId id);  // the track only; its entities are the caller's business
  void replace_track(const Track& track);

  const EntityStore<Note>& notes() const { return notes_; }
  // Notes change only through these, which keep the end-of-song index.
  void put_note(const Note& note);
  void erase_note(EntityId id);
  void reserve_notes(std::size_t more) { notes_.reserve(more); }
  EntityStore<Control>& controls() { return controls_; }
  const EntityStore<Control>& controls() const { return controls_; }
  EntityStore<RawEvent>& raws() { return raws_; }
  const EntityStore<RawEvent>& raws() const { return raws_; }

  // What the song keeps of the file it was read from; nullopt for a song made here.
  const std::optional<FileOrigin>& origin() const { return origin_; }
  void set_origin(FileOrigin origin) { origin_ = std::move(origin); }

  // A fresh entity id (never reused within the song's lifetime).
  EntityId allocate_id() { return next_id_++; }
  void reserve_ids_up_to(EntityId id) { next_id_ = std::max(next_id_, id + 1); }

  // The end of the last note (0 for an empty song). O(1), except after the note that ended last
  // was erased: the next call looks through every note.
  Tick end_tick() const;
  // The program in force on a track at tick 0 (its first program control), or nullopt.
  std::optional<int> program_of(EntityId track) const;
  std::pair<std::optional<int>, std::optional<int>> bank_of(EntityId track) const;
  double tempo_at(Tick tick) const;
  // Seconds from the start to `tick` through the whole tempo map (SMPTE files: their frame rate).
  double seconds_at(Tick tick) const;
  KeySignature key_at(Tick tick) const;

 private:
  Conductor conductor_;
  std::vector<Track> tracks_;
  EntityStore<Note> notes_;
  // The end of the last note while end_known_; erasing the note that ended there forgets it.
  mutable Tick end_ = 0;
  mutable bool end_known_ = true;
  EntityStore<Control> controls_;
  EntityStore<RawEvent> raws_;
  std::optional<FileOrigin> origin_;
  EntityId next_id_ = 1;
};

}  // namespace fcp::midi
