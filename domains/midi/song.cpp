#include "domains/midi/song.hpp"

#include <algorithm>

namespace fcp::midi {

bool Conductor::operator==(const Conductor& o) const {
  return title == o.title && ppqn == o.ppqn && division == o.division && tempos == o.tempos &&
         keys == o.keys && markers == o.markers &&
         meter.changes().size() == o.meter.changes().size() &&
         std::equal(meter.changes().begin(), meter.changes().end(), o.meter.changes().begin(),
                    [](const auto& a, const auto& b) {
                      return a.bar == b.bar && a.numerator == b.numerator &&
                             a.denominator == b.denominator;
                    });
}

Song::Song() = default;

const Track* Song::track(EntityId id) const {
  for (const auto& t : tracks_) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

std::size_t Song::track_index(EntityId id) const {
  for (std::size_t i = 0; i < tracks_.size(); ++i) {
    if (tracks_[i].id == id) return i;
  }
  return static_cast<std::size_t>(-1);
}

void Song::insert_track(std::size_t index, Track track) {
  reserve_ids_up_to(track.id);
  tracks_.insert(tracks_.begin() + static_cast<std::ptrdiff_t>(std::min(index, tracks_.size())),
                 std::move(track));
}

void Song::erase_track(EntityId id) {
  std::erase_if(tracks_, [&](const Track& t) { return t.id == id; });
}

void Song::replace_track(const Track& track) {
  for (auto& t : tracks_) {
    if (t.id == track.id) t = track;
  }
}

void Song::put_note(const Note& note) {
  erase_note(note.id);
  notes_.put(note);
  if (end_known_) end_ = std::max<Tick>(end_, note.tick + note.duration);
  reserve_ids_up_to(note.id);
}

void Song::erase_note(EntityId id) {
  if (const Note* old = notes_.find(id)) {
    if (old->tick + old->duration == end_) end_known_ = false;
    notes_.erase(id);
  }
}

Tick Song::end_tick() const {
  if (!end_known_) {
    end_ = 0;
    notes_.for_each(
        [&](const Note& note) { end_ = std::max<Tick>(end_, note.tick + note.duration); });
    end_known_ = true;
  }
  return end_;
}

std::optional<int> Song::program_of(EntityId track) const {
  for (const auto& [tick, id] : controls_.of_track(track)) {
    const Control* control = controls_.find(id);
    if (control->kind == ControlKind::program) return control->value;
  }
  return std::nullopt;
}

std::pair<std::optional<int>, std::optional<int>> Song::bank_of(EntityId track) const {
  std::optional<int> msb, lsb;
  for (const auto& [tick, id] : controls_.of_track(track)) {
    if (tick > 0) break;
    const Control* control = controls_.find(id);
    if (control->kind != ControlKind::cc) continue;
    if (control->number == 0) msb = control->value;
    if (control->number == 32) lsb = control->value;
  }
  return {msb, lsb};
}

double Song::tempo_at(Tick tick) const {
  auto it = conductor_.tempos.upper_bound(tick);
  return it == conductor_.tempos.begin() ? 120.0 : std::prev(it)->second;
}

double Song::seconds_at(Tick tick) const {
  const smf::Division& division = conductor_.division;
  if (division.smpte && division.ticks_per_frame > 0 && division.frames_per_second > 0) {
    const double fps =
        division.frames_per_second == 29 ? 30000.0 / 1001.0 : division.frames_per_second;
    return static_cast<double>(tick) / (fps * division.ticks_per_frame);
  }
  const double ppqn = std::max(1, conductor_.ppqn);
  double seconds = 0, bpm = 120;
  Tick from = 0;
  for (const auto& [at, tempo] : conductor_.tempos) {
    if (at >= tick) break;
    seconds += static_cast<double>(at - from) * 60.0 / (bpm * ppqn);
    from = at;
    if (tempo > 0) bpm = tempo;
  }
  return seconds + static_cast<double>(tick - from) * 60.0 / (bpm * ppqn);
}

KeySignature Song::key_at(Tick tick) const {
  auto it = conductor_.keys.upper_bound(tick);
  return it == conductor_.keys.begin() ? KeySignature{} : std::prev(it)->second;
}

}  // namespace fcp::midi
