#include "domains/midi/edit.hpp"

#include <algorithm>

#include "domains/midi/selection.hpp"

namespace fcp::midi {
namespace {

template <class T>
void apply_entity(Song& song, const EntityChange<T>& change, bool forward) {
  const auto& target = forward ? change.after : change.before;
  if constexpr (std::is_same_v<T, Note>) {
    if (target) {
      song.put_note(*target);
    } else {
      song.erase_note(change.id);
    }
  } else if constexpr (std::is_same_v<T, Control>) {
    if (target) {
      song.controls().put(*target);
    } else {
      song.controls().erase(change.id);
    }
  } else {
    if (target) {
      song.raws().put(*target);
    } else {
      song.raws().erase(change.id);
    }
  }
}

// Keys of the conductor events `after` has that `before` does not have in the same form.
void add_conductor_keys(const Conductor& before, const Conductor& after,
                        std::vector<std::string>& keys) {
  for (const auto& [tick, bpm] : after.tempos) {
    auto it = before.tempos.find(tick);
    if (it == before.tempos.end() || it->second != bpm)
      keys.push_back(conductor_event_key(EventKind::tempo, tick));
  }
  for (const auto& [tick, key] : after.keys) {
    auto it = before.keys.find(tick);
    if (it == before.keys.end() || !(it->second == key))
      keys.push_back(conductor_event_key(EventKind::key_sig, tick));
  }
  const auto& old_meter = before.meter.changes();
  for (const auto& change : after.meter.changes()) {
    const bool kept = std::any_of(old_meter.begin(), old_meter.end(), [&](const auto& old) {
      return old.tick == change.tick && old.numerator == change.numerator &&
             old.denominator == change.denominator;
    });
    if (!kept) keys.push_back(conductor_event_key(EventKind::time_sig, change.tick));
  }
  for (const auto& marker : after.markers) {
    const auto [begin, end] = before.markers.equal_range(marker.first);
    if (std::none_of(begin, end, [&](const auto& m) { return m.second == marker.second; }))
      keys.push_back(conductor_event_key(EventKind::marker, marker.first));
  }
}

}  // namespace

std::vector<std::string> SongChanges::touched(const std::vector<SongChange>& changes) {
  std::vector<std::string> keys;
  for (const auto& change : changes) {
    if (const auto* note = std::get_if<EntityChange<Note>>(&change); note && note->after)
      keys.push_back(std::to_string(note->id));
    if (const auto* control = std::get_if<EntityChange<Control>>(&change);
        control && control->after)
      keys.push_back(std::to_string(control->id));
    if (const auto* conductor = std::get_if<ConductorChange>(&change))
      add_conductor_keys(conductor->before, conductor->after, keys);
  }
  return keys;
}

void SongChanges::apply(Song& song, const SongChange& change, bool forward) {
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, TrackChange>) {
          const auto& source = forward ? c.before : c.after;
          const auto& target = forward ? c.after : c.before;
          if (source && !target) {
            song.erase_track(source->id);
          } else if (!source && target) {
            song.insert_track(c.index, *target);
          } else if (target) {
            song.replace_track(*target);
          }
        } else if constexpr (std::is_same_v<C, ConductorChange>) {
          song.conductor() = forward ? c.after : c.before;
        } else {
          apply_entity(song, c, forward);
        }
      },
      change);
}

template <class T>
EntityChange<T>& SongTransaction::touch(EntityId id, const EntityStore<T>& store, int kind) {
  const std::uint64_t key = (static_cast<std::uint64_t>(kind) << 60) ^ id;
  auto& change = transaction_.touch(key, [&] {
    EntityChange<T> first;
    first.id = id;
    if (const T* current = store.find(id)) first.before = *current;
    return SongChange(std::move(first));
  });
  return std::get<EntityChange<T>>(change);
}

void SongTransaction::put_note(const Note& note) {
  touch(note.id, song_.notes(), 1);
  song_.put_note(note);
}

void SongTransaction::erase_note(EntityId id) {
  if (song_.notes().find(id) == nullptr) return;
  touch(id, song_.notes(), 1);
  song_.erase_note(id);
}

void SongTransaction::put_control(const Control& control) {
  touch(control.id, song_.controls(), 2);
  song_.controls().put(control);
  song_.reserve_ids_up_to(control.id);
}

void SongTransaction::erase_control(EntityId id) {
  if (song_.controls().find(id) == nullptr) return;
  touch(id, song_.controls(), 2);
  song_.controls().erase(id);
}

void SongTransaction::put_raw(const RawEvent& raw) {
  touch(raw.id, song_.raws(), 3);
  song_.raws().put(raw);
  song_.reserve_ids_up_to(raw.id);
}

void SongTransaction::erase_raw(EntityId id) {
  if (song_.raws().find(id) == nullptr) return;
  touch(id, song_.raws(), 3);
  song_.raws().erase(id);
}

void SongTransaction::insert_track(std::size_t index, Track track) {
  TrackChange change;
  change.index = std::min(index, song_.tracks().size());
  change.after = track;
  song_.insert_track(change.index, std::move(track));
  transaction_.record(std::move(change));
}

void SongTransaction::update_track(const Track& track) {
  const Track* current = song_.track(track.id);
  if (current == nullptr || *current == track) return;
  TrackChange change;
  change.index = song_.track_index(track.id);
  change.before = *current;
  change.after = track;
  song_.replace_track(track);
  transaction_.record(std::move(change));
}

void SongTransaction::erase_track(EntityId id) {
  const Track* current = song_.track(id);
  if (current == nullptr) return;
  std::vector<EntityId> ids;
  for (const auto& [tick, note] : song_.notes().of_track(id))
    ids.push_back(note);
  for (EntityId note : ids)
    erase_note(note);
  ids.clear();
  for (const auto& [tick, control] : song_.controls().of_track(id))
    ids.push_back(control);
  for (EntityId control : ids)
    erase_control(control);
  ids.clear();
  for (const auto& [tick, raw] : song_.raws().of_track(id))
    ids.push_back(raw);
  for (EntityId raw : ids)
    erase_raw(raw);
  TrackChange change;
  change.index = song_.track_index(id);
  change.before = *current;
  song_.erase_track(id);
  transaction_.record(std::move(change));
}

void SongTransaction::update_conductor(const std::function<void(Conductor&)>& change) {
  Conductor before = song_.conductor();
  change(song_.conductor());
  if (song_.conductor() == before) return;
  transaction_.record(ConductorChange{std::move(before), song_.conductor()});
}

core::EventPtr SongTransaction::commit(std::string summary) {
  return transaction_.commit(std::move(summary), [&](SongChange& change) {
    bool keep = true;
    std::visit(
        [&](auto& c) {
          using C = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<C, EntityChange<Note>>) {
            if (const Note* now = song_.notes().find(c.id)) c.after = *now;
            keep = c.before != c.after;
          } else if constexpr (std::is_same_v<C, EntityChange<Control>>) {
            if (const Control* now = song_.controls().find(c.id)) c.after = *now;
            keep = c.before != c.after;
          } else if constexpr (std::is_same_v<C, EntityChange<RawEvent>>) {
            if (const RawEvent* now = song_.raws().find(c.id)) c.after = *now;
            keep = c.before != c.after;
          }
        },
        change);
    return keep;
  });
}

}  // namespace fcp::midi
