// MidiDocument's reports to the engine: status lines, the runtime section of the reference card
// (tracks, loaded SoundFont presets) and structural warnings after a batch (long gaps, notes
// outside the instrument's range, overlapping identical notes). Warnings look only at the tracks
// the batch touched and cost O(k) for a touched track of k notes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/response.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/song_text.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

constexpr int kDrumChannel = 9;
constexpr std::size_t kMaxWarnings = 10;
constexpr std::size_t kMaxStatusTracks = 20;
constexpr std::size_t kMaxCardPresets = 40;
constexpr std::size_t kMaxPositions = 3;  // positions named per warning
constexpr int kMinGapBars = 2;

// A playable range per GM family (program / 8), generous enough that only clear mistakes warn.
// nullopt: no meaningful range (synth effects, percussive, sound effects).
struct PitchRange {
  int low, high;
};
constexpr std::array<std::optional<PitchRange>, 16> kFamilyRanges = {{
    PitchRange{21, 108},  // piano: A0..C8
    PitchRange{36, 108},  // chromatic percussion: C2..C8
    PitchRange{24, 108},  // organ: C1..C8 (pedals included)
    PitchRange{40, 88},   // guitar: E2..E6
    PitchRange{28, 67},   // bass: E1..G4
    PitchRange{24, 108},  // strings (contrabass to violin, harp, timpani): C1..C8
    PitchRange{28, 108},  // ensemble: E1..C8
    PitchRange{26, 89},   // brass: D1..F6
    PitchRange{34, 96},   // reed: A#1..C7
    PitchRange{55, 108},  // pipe: G3..C8
    PitchRange{24, 108},  // synth lead: C1..C8
    PitchRange{24, 108},  // synth pad: C1..C8
    std::nullopt,         // synth effects
    PitchRange{36, 96},   // ethnic: C2..C7
    std::nullopt,         // percussive
    std::nullopt,         // sound effects
}};

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts)
    out += (out.empty() ? "" : ", ") + part;
  return out;
}

// "2.1 (C4), 3.1 (E4) and 5 more"
std::string positions_text(const std::vector<std::string>& items, std::size_t total) {
  std::string out = join(items);
  if (total > items.size()) out += " and " + std::to_string(total - items.size()) + " more";
  return out;
}

// The tracks a batch's SongEdit events touched, in song order, that still exist.
std::vector<const Track*> touched_tracks(const Song& song, std::span<const core::EventPtr> batch) {
  std::unordered_set<EntityId> ids;
  const auto note_tracks = [&](const auto& before, const auto& after) {
    if (before) ids.insert(before->track);
    if (after) ids.insert(after->track);
  };
  for (const auto& event : batch) {
    const auto* edit = dynamic_cast<const SongEdit*>(event.get());
    if (edit == nullptr) continue;
    for (const auto& change : edit->changes()) {
      if (const auto* n = std::get_if<EntityChange<Note>>(&change)) {
        note_tracks(n->before, n->after);
      } else if (const auto* c = std::get_if<EntityChange<Control>>(&change)) {
        note_tracks(c->before, c->after);
      } else if (const auto* t = std::get_if<TrackChange>(&change)) {
        // A track there after the call: made by a batch, or brought back by an undo.
        if (t->after) ids.insert(t->after->id);
        if (t->before) ids.insert(t->before->id);
      }
    }
  }
  std::vector<const Track*> out;
  for (const auto& track : song.tracks()) {
    if (ids.contains(track.id)) out.push_back(&track);
  }
  return out;
}

// Runs of ≥ kMinGapBars whole bars without a sounding note between two notes of the track.
std::optional<std::string> gap_warning(const Song& song, const Track& track) {
  const auto& meter = song.conductor().meter;
  std::vector<std::string> gaps;
  std::optional<Tick> sounding_until;
  for (const auto& [tick, id] : song.notes().of_track(track.id)) {
    const Note& note = *song.notes().find(id);
    if (sounding_until && tick > *sounding_until) {
      int first = meter.bar_of(*sounding_until);
      if (meter.bar_start(first) < *sounding_until) ++first;
      const int last = meter.bar_of(tick) - 1;
      if (last - first + 1 >= kMinGapBars)
        gaps.push_back(std::to_string(first) + "-" + std::to_string(last));
    }
    sounding_until = std::max(sounding_until.value_or(0), tick + note.duration);
  }
  if (gaps.empty()) return std::nullopt;
  return track.name + ": empty at measures " + join(gaps);
}

std::optional<std::string> range_warning(const Song& song, const Track& track) {
  if (track.channel == kDrumChannel) return std::nullopt;
  const auto program = song.program_of(track.id);
  if (!program || *program < 0 || *program > 127) return std::nullopt;
  const auto& range = kFamilyRanges[static_cast<std::size_t>(*program / 8)];
  if (!range) return std::nullopt;
  std::size_t outside = 0;
  for (const auto& [tick, id] : song.notes().of_track(track.id)) {
    const Note& note = *song.notes().find(id);
    if (note.channel == kDrumChannel) continue;
    if (note.pitch < range->low || note.pitch > range->high) ++outside;
  }
  if (outside == 0) return std::nullopt;
  return track.name + ": " + core::plural(outside, "note") + " outside the instrument's range (" +
         pitch_text(track, range->low, accidentals_at(song, 0)) + ".." +
         pitch_text(track, range->high, accidentals_at(song, 0)) + ")";
}

// Two notes of one pitch and channel sounding at once (the second starts before the first ends):
// the first note-off would cut both.
std::optional<std::string> overlap_warning(const Song& song, const Track& track) {
  constexpr std::size_t kSlots = std::size_t{16} * 128;  // channel × pitch
  std::vector<Tick> ends(kSlots, 0);
  std::vector<bool> seen(kSlots, false);
  std::vector<std::string> items;
  std::size_t total = 0;
  for (const auto& [tick, id] : song.notes().of_track(track.id)) {
    const Note& note = *song.notes().find(id);
    const std::size_t slot = static_cast<std::size_t>(note.channel & 15) * 128 +
                             static_cast<std::size_t>(note.pitch & 127);
    if (seen[slot] && tick < ends[slot]) {
      if (++total <= kMaxPositions)
        items.push_back(position_text(song, tick) + " (" +
                        pitch_text(song, track, note.pitch, tick) + ")");
    }
    ends[slot] = seen[slot] ? std::max(ends[slot], tick + note.duration) : tick + note.duration;
    seen[slot] = true;
  }
  if (total == 0) return std::nullopt;
  return track.name + ": overlapping identical notes at " + positions_text(items, total);
}

}  // namespace

std::vector<std::string> MidiDocument::status_lines() const {
  const Conductor& c = song_.conductor();
  const auto& meter = c.meter.changes().front();
  std::vector<std::string> lines;
  lines.push_back("song: \"" + title() + "\" | tempo:" + bpm_text(song_.tempo_at(0)) + " | " +
                  std::to_string(meter.numerator) + "/" + std::to_string(meter.denominator) +
                  " | " + key_text(song_.key_at(0)) + " | ppqn:" + std::to_string(song_.ppqn()));
  std::vector<std::string> tracks;
  for (const auto& track : song_.tracks()) {
    if (tracks.size() == kMaxStatusTracks) {
      tracks.push_back("… " + std::to_string(song_.tracks().size() - kMaxStatusTracks) + " more");
      break;
    }
    tracks.push_back(track.name + " (ch:" + std::to_string(track.channel + 1) + ", " +
                     core::plural(song_.notes().count(track.id), "note") + ")");
  }
  lines.push_back("tracks (" + std::to_string(song_.tracks().size()) +
                  "): " + (tracks.empty() ? std::string("none") : join(tracks)));
  if (!soundfont_.empty()) {
    lines.push_back("soundfont: " + soundfont_ + " (" + core::plural(presets_.size(), "preset") +
                    ", loaded; export renders with it)");
  } else if (!last_render_soundfont_.empty()) {
    lines.push_back("soundfont: " + last_render_soundfont_ +
                    " (the default GM SoundFont, which the last render, " + last_render_ +
                    ", used; load-soundfont PATH for another)");
  } else {
    lines.emplace_back(
        "soundfont: the default GM SoundFont when exporting (none loaded; load-soundfont PATH "
        "for another)");
  }
  return lines;
}

std::string MidiDocument::help_additions() const {
  if (song_.tracks().empty() && presets_.empty()) return "";
  std::string out = "### RUNTIME\n";
  if (!song_.tracks().empty()) {
    out += "Tracks (" + std::to_string(song_.tracks().size()) + "):\n";
    for (const auto& track : song_.tracks()) {
      out += "  " + track.name + "  ch:" + std::to_string(track.channel + 1) + "  " +
             instrument_text(song_, track.id) +
             (track.channel == kDrumChannel ? " (drum names: kick snare closed-hat crash …)" : "") +
             "\n";
    }
  }
  if (!presets_.empty()) {
    out +=
        "SoundFont presets (" + std::to_string(presets_.size()) + ", from " + soundfont_ + "):\n";
    for (std::size_t i = 0; i < presets_.size() && i < kMaxCardPresets; ++i) {
      out += "  " + presets_[i].name + "  bank:" + std::to_string(presets_[i].bank) +
             " program:" + std::to_string(presets_[i].program) + "\n";
    }
    if (presets_.size() > kMaxCardPresets) {
      out += "  … and " + std::to_string(presets_.size() - kMaxCardPresets) +
             " more (midi_query 'instruments source:soundfont')\n";
    }
  }
  out.pop_back();  // no trailing newline
  return out;
}

std::vector<std::string> MidiDocument::warnings(std::span<const core::EventPtr> batch,
                                                core::Applied applied) const {
  (void)applied;  // the tracks an event touched, in either direction, are checked as they are
  std::vector<std::string> out;
  for (const Track* track : touched_tracks(song_, batch)) {
    if (song_.notes().count(track->id) == 0) continue;
    for (auto warning : {gap_warning(song_, *track), range_warning(song_, *track),
                         overlap_warning(song_, *track)}) {
      if (warning) out.push_back(std::move(*warning));
    }
  }
  if (out.size() > kMaxWarnings) {
    const std::size_t more = out.size() - kMaxWarnings;
    out.resize(kMaxWarnings);
    out.push_back("… and " + core::plural(more, "more warning"));
  }
  return out;
}

}  // namespace fcp::midi
