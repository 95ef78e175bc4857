// Events of the midi domain: each op records before/after snapshots of the notes, controls,
// raw events, tracks and conductor data it changed, so undo and redo cost what the op touched,
// independent of the song's size.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/transaction.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

template <class T>
struct EntityChange {
  EntityId id = 0;
  std::optional<T> before, after;
};

struct TrackChange {
  std::size_t index = 0;  // position in the track list (before, or after when inserted)
  std::optional<Track> before, after;
};

struct ConductorChange {
  Conductor before, after;
};

using SongChange = std::variant<EntityChange<Note>, EntityChange<Control>, EntityChange<RawEvent>,
                                TrackChange, ConductorChange>;

// How one change applies to a song, for core's transaction and event scaffold.
struct SongChanges {
  using Model = Song;
  using Change = SongChange;
  // Forward sets the change's `after`, backward its `before`.
  static void apply(Song& song, const SongChange& change, bool forward);
  // The notes and controls the changes created or changed (their ids), and the conductor events
  // they added or changed (selection.hpp's conductor_event_key): what @recent chooses.
  static std::vector<std::string> touched(const std::vector<SongChange>& changes);
};

// One op's changes to a song: the event the log keeps.
using SongEdit = core::ChangeEvent<SongChanges>;

// The changes of one op, applied at once and recorded; rolled back by the destructor unless
// committed (strong guarantee for ops that fail half way).
class SongTransaction {
 public:
  explicit SongTransaction(Song& song) : song_(song), transaction_(song) {}
  SongTransaction(const SongTransaction&) = delete;
  SongTransaction& operator=(const SongTransaction&) = delete;

  Song& song() { return song_; }
  const Song& song() const { return song_; }

  void put_note(const Note& note);
  void erase_note(EntityId id);
  void put_control(const Control& control);
  void erase_control(EntityId id);
  void put_raw(const RawEvent& raw);
  void erase_raw(EntityId id);
  void insert_track(std::size_t index, Track track);
  void update_track(const Track& track);
  // Removes the track and everything on it.
  void erase_track(EntityId id);
  void update_conductor(const std::function<void(Conductor&)>& change);

  bool empty() const { return transaction_.empty(); }
  core::EventPtr commit(std::string summary);

 private:
  template <class T>
  EntityChange<T>& touch(EntityId id, const EntityStore<T>& store, int kind);

  Song& song_;
  core::Transaction<SongChanges, std::uint64_t> transaction_;  // entities keyed by (kind, id)
};

}  // namespace fcp::midi
