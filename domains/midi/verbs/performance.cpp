// Performance verbs over selections: arpeggiate/strum, swing, humanize (seeded), legato,
// staccato.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

std::vector<Note> selected(const OpContext& ctx, const std::vector<EntityId>& ids) {
  std::vector<Note> notes;
  for (EntityId id : ids)
    notes.push_back(*ctx.song().notes().find(id));
  return notes;
}

// Where the earliest of the notes starts (where a bar-long step: or grid: is measured from).
Tick first_tick(const OpContext& ctx, const std::vector<EntityId>& ids) {
  Tick first = std::numeric_limits<Tick>::max();
  for (EntityId id : ids)
    first = std::min(first, ctx.song().notes().find(id)->tick);
  return first;
}

}  // namespace

core::Result<void> verb_arpeggiate(OpContext& ctx) {
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto step = duration_param(ctx, "step", "sixteenth", first_tick(ctx, *ids));
  if (!step) return step.error();
  const std::string mode = ctx.op.param_or("mode", "up");
  if (mode != "up" && mode != "down" && mode != "updown")
    return core::make_error("invalid mode:" + mode + " — up, down or updown");
  // Notes that start together (per track) become an arpeggio.
  std::map<std::pair<EntityId, Tick>, std::vector<Note>> stacks;
  for (const Note& n : selected(ctx, *ids))
    stacks[{n.track, n.tick}].push_back(n);
  std::size_t changed = 0;
  for (auto& [key, notes] : stacks) {
    std::sort(notes.begin(), notes.end(), [&](const Note& a, const Note& b) {
      return mode == "down" ? a.pitch > b.pitch : a.pitch < b.pitch;
    });
    if (mode == "updown" && notes.size() >= 3) {
      // Back down through the inner notes: C E G → C E G E.
      for (std::size_t i = notes.size() - 2; i >= 1; --i) {
        Note copy = notes[i];
        copy.id = 0;  // a new note
        notes.push_back(copy);
        if (i == 1) break;
      }
    }
    for (std::size_t i = 0; i < notes.size(); ++i) {
      Note n = notes[i];
      const Tick offset = static_cast<Tick>(i) * *step;
      if (n.id == 0) n.id = ctx.edit.song().allocate_id();
      if (mode == "updown") {
        n.duration = *step;  // a running figure: each note gives way to the next
      } else if (offset >= n.duration) {
        n.duration = std::max<std::uint32_t>(1, *step);
      } else {
        n.duration -= static_cast<std::uint32_t>(offset);
      }
      n.tick += offset;
      ctx.edit.put_note(n);
      ++changed;
    }
  }
  ctx.lines.push_back(core::bulk("Arpeggiated " + core::plural(stacks.size(), "chord") + " (" +
                                 core::plural(changed, "note") + ", " + mode + ", step " +
                                 duration_text(ctx.song(), *step) + ")"));
  return {};
}

core::Result<void> verb_swing(OpContext& ctx) {
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto grid = duration_param(ctx, "grid", "eighth", first_tick(ctx, *ids));
  if (!grid) return grid.error();
  const long long amount = ctx.op.integer("amount").value_or(60);
  // Notes on the off-beat of each pair of grid steps move later by (amount-50)% of two steps.
  const double shift = (static_cast<double>(amount) - 50.0) / 100.0 * 2.0 * *grid;
  std::size_t moved = 0;
  for (Note n : selected(ctx, *ids)) {
    if (n.tick % *grid != 0 || (n.tick / *grid) % 2 == 0) continue;
    const auto delta = static_cast<Tick>(std::lround(shift));
    n.tick += delta;
    if (n.duration > delta + 1) n.duration -= static_cast<std::uint32_t>(delta);
    ctx.edit.put_note(n);
    ++moved;
  }
  ctx.lines.push_back(core::bulk("Swung " + core::plural(moved, "off-beat note") + " (" +
                                 std::to_string(amount) + "% on " +
                                 duration_text(ctx.song(), *grid) + ")"));
  return {};
}

namespace {

// One note of a track's (channel, pitch) line, in time order, and where humanize puts it.
struct LineNote {
  Note note;
  bool chosen = false;
  Tick tick = 0;           // the new onset
  std::uint32_t duration;  // the new length
};

using Lines = std::map<std::tuple<EntityId, int, int>, std::vector<LineNote>>;

// Every note sharing a track, channel and pitch with a chosen one, in time order: the notes a
// chosen note must stay clear of.
Lines lines_of(const OpContext& ctx, const std::vector<Note>& chosen) {
  std::set<EntityId> ids;
  std::set<EntityId> tracks;
  for (const Note& n : chosen) {
    ids.insert(n.id);
    tracks.insert(n.track);
  }
  std::set<std::tuple<EntityId, int, int>> keys;
  for (const Note& n : chosen)
    keys.insert({n.track, n.channel, n.pitch});
  Lines lines;
  for (EntityId track : tracks) {
    for (const auto& [tick, id] : ctx.song().notes().of_track(track)) {
      const Note& n = *ctx.song().notes().find(id);
      const std::tuple key{n.track, n.channel, n.pitch};
      if (keys.contains(key)) lines[key].push_back({n, ids.contains(n.id), n.tick, n.duration});
    }
  }
  return lines;
}

// Moves the chosen notes of one line by their jitter and keeps the line as it was: no note starts
// before the one before it, none sounds into the next where it did not, and none ends after the
// song's end (`song_end`; a note that ended the song still does). Returns the notes shortened.
std::size_t place_line(std::vector<LineNote>& line, const std::vector<long>& jitter,
                       Tick song_end) {
  std::size_t shortened = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    LineNote& n = line[i];
    if (!n.chosen) continue;
    long low = 0, high = static_cast<long>(song_end) - 1;
    if (i > 0) {
      const LineNote& before = line[i - 1];
      const bool clear = before.note.tick + before.note.duration <= n.note.tick;
      // A note not chosen keeps its end, which this one must not start before.
      const Tick bound = before.chosen || !clear ? before.tick + (before.note.tick < n.note.tick)
                                                 : before.tick + before.duration;
      low = std::max(low, static_cast<long>(bound));
    }
    if (i + 1 < line.size() && !line[i + 1].chosen && line[i + 1].note.tick > n.note.tick)
      high = std::min(high, static_cast<long>(line[i + 1].tick) - 1);
    n.tick = static_cast<Tick>(
        std::clamp(static_cast<long>(n.note.tick) + jitter[i], low, std::max(low, high)));
  }
  for (std::size_t i = 0; i < line.size(); ++i) {
    LineNote& n = line[i];
    if (!n.chosen) continue;
    Tick end = n.tick + n.note.duration;
    const Tick old_end = n.note.tick + n.note.duration;
    if (old_end == song_end || end > song_end) end = song_end;
    if (i + 1 < line.size() && old_end <= line[i + 1].note.tick)
      end = std::min(end, line[i + 1].tick);
    end = std::max(end, n.tick + 1);
    n.duration = static_cast<std::uint32_t>(end - n.tick);
    if (n.duration < n.note.duration) ++shortened;
  }
  return shortened;
}

}  // namespace

// humanize: seeded timing and velocity jitter that keeps the song as long as it was (no note ends
// later than the song did; the notes that ended it still do) and creates no overlap of one pitch
// on one channel (a note that was clear of the next one of its pitch stays clear of it).
core::Result<void> verb_humanize(OpContext& ctx) {
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  const long timing = static_cast<long>(ctx.op.integer("timing").value_or(10));
  const long velocity = static_cast<long>(ctx.op.integer("vel").value_or(8));
  const auto seed = ctx.op.integer("seed").value_or(1);
  if (timing < 0 || timing > ctx.song().ppqn())
    return core::make_error("humanize timing:" + std::to_string(timing) + ": takes 0.." +
                            std::to_string(ctx.song().ppqn()) + " ticks (a quarter note)");
  // Reproducible: the same seed and selection give the same result, drawn in selection order.
  std::mt19937 random(static_cast<std::uint32_t>(seed));
  std::uniform_int_distribution<long> jitter(-timing, timing);
  std::uniform_int_distribution<long> accent(-velocity, velocity);
  const std::vector<Note> chosen = selected(ctx, *ids);
  std::map<EntityId, std::pair<long, long>> drawn;  // id → (timing, velocity)
  for (const Note& n : chosen) {
    const long shift = jitter(random);
    drawn[n.id] = {shift, accent(random)};
  }
  const Tick song_end = ctx.song().end_tick();
  std::size_t shortened = 0;
  for (auto& [key, line] : lines_of(ctx, chosen)) {
    std::vector<long> shifts;
    for (const LineNote& n : line)
      shifts.push_back(n.chosen ? drawn[n.note.id].first : 0);
    shortened += place_line(line, shifts, song_end);
    for (const LineNote& n : line) {
      if (!n.chosen) continue;
      Note note = n.note;
      note.tick = n.tick;
      note.duration = n.duration;
      note.velocity = static_cast<int>(std::clamp(note.velocity + drawn[note.id].second, 1L, 127L));
      ctx.edit.put_note(note);
    }
  }
  std::string line = "Humanized " + core::plural(ids->size(), "note") + " (timing ±" +
                     std::to_string(timing) + " ticks, vel ±" + std::to_string(velocity) +
                     ", seed " + std::to_string(seed);
  if (shortened > 0)
    line += "; " + core::plural(shortened, "note") +
            " shortened so that none overlaps the next of its pitch or ends after the song";
  ctx.lines.push_back(core::bulk(line + ")"));
  return {};
}

core::Result<void> verb_legato(OpContext& ctx) {
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto notes = selected(ctx, *ids);
  std::sort(notes.begin(), notes.end(), [](const Note& a, const Note& b) {
    return a.track != b.track ? a.track < b.track : a.tick < b.tick;
  });
  std::size_t changed = 0;
  for (std::size_t i = 0; i < notes.size(); ++i) {
    // The next later onset on the same track.
    std::size_t j = i + 1;
    while (j < notes.size() && notes[j].track == notes[i].track && notes[j].tick == notes[i].tick)
      ++j;
    if (j >= notes.size() || notes[j].track != notes[i].track) continue;
    Note n = notes[i];
    n.duration = static_cast<std::uint32_t>(notes[j].tick - n.tick);
    if (n.duration != notes[i].duration) {
      ctx.edit.put_note(n);
      ++changed;
    }
  }
  ctx.lines.push_back(core::property_changed("Legato: " + core::plural(changed, "note") +
                                             " extended to the next note"));
  return {};
}

core::Result<void> verb_staccato(OpContext& ctx) {
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  const long long amount = ctx.op.integer("amount").value_or(50);
  for (Note n : selected(ctx, *ids)) {
    n.duration = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::lround(n.duration * static_cast<double>(amount) / 100)));
    ctx.edit.put_note(n);
  }
  ctx.lines.push_back(core::property_changed("Staccato: " + core::plural(ids->size(), "note") +
                                             " shortened to " + std::to_string(amount) + "%"));
  return {};
}

}  // namespace fcp::midi
