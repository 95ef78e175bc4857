#include "domains/midi/audio.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include "core/call_scope.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "domains/midi/render/wav_builder.hpp"
#include "domains/midi/song_io.hpp"

namespace fcp::midi {
namespace {

// What a control sets, so that only the last value before an excerpt counts: its channel, kind
// and controller (or key, for key pressure).
using ControlSlot = std::tuple<int, ControlKind, int>;

ControlSlot slot_of(const Control& control) {
  const bool numbered =
      control.kind == ControlKind::cc || control.kind == ControlKind::key_pressure;
  return {control.channel, control.kind, numbered ? control.number : 0};
}

Control shifted_control(Song& excerpt, const Control& control, Tick tick) {
  Control copy = control;
  copy.id = excerpt.allocate_id();
  copy.tick = tick;
  copy.place.reset();
  return copy;
}

// The controls of a track in the excerpt: each slot's last control before `start` at 0, in the
// order they came, then those in [start, stop) shifted.
void excerpt_controls(const Song& song, Song& excerpt, EntityId track, Tick start, Tick stop) {
  std::map<ControlSlot, const Control*> in_force;
  const auto controls = song.controls().of_track(track);
  auto it = controls.begin();
  for (; it != controls.end() && it->first < start; ++it) {
    const Control* control = song.controls().find(it->second);
    in_force[slot_of(*control)] = control;
  }
  std::vector<const Control*> carried;
  for (const auto& [slot, control] : in_force)
    carried.push_back(control);
  std::sort(carried.begin(), carried.end(), [](const Control* a, const Control* b) {
    return std::pair(a->tick, a->id) < std::pair(b->tick, b->id);
  });
  for (const Control* control : carried)
    excerpt.controls().put(shifted_control(excerpt, *control, 0));
  for (; it != controls.end() && it->first < stop; ++it) {
    const Control* control = song.controls().find(it->second);
    excerpt.controls().put(shifted_control(excerpt, *control, it->first - start));
  }
}

// The notes sounding in [start, stop), cut to it (a note held into the range starts with it).
void excerpt_notes(const Song& song, Song& excerpt, EntityId track, Tick start, Tick stop) {
  for (const auto& [tick, id] : song.notes().of_track(track)) {
    if (tick >= stop) break;
    const Note& note = *song.notes().find(id);
    const Tick end = std::min<Tick>(tick + note.duration, stop);
    if (end <= start) continue;
    Note copy = note;
    copy.id = excerpt.allocate_id();
    copy.tick = std::max(tick, start) - start;
    copy.duration = static_cast<std::uint32_t>(std::max<Tick>(1, end - std::max(tick, start)));
    copy.on_place.reset();
    copy.off_place.reset();
    copy.unreleased_end.reset();
    excerpt.put_note(copy);
  }
}

// SysEx (a GS reset, a drum part set up) before the range at 0 and within it shifted; text and
// other metas say nothing a synthesizer hears.
void excerpt_sysex(const Song& song, Song& excerpt, EntityId track, Tick start, Tick stop) {
  for (const auto& [tick, id] : song.raws().of_track(track)) {
    if (tick >= stop) break;
    const RawEvent& raw = *song.raws().find(id);
    if (!raw.event.is_sysex()) continue;
    RawEvent copy = raw;
    copy.id = excerpt.allocate_id();
    copy.tick = tick < start ? 0 : tick - start;
    copy.event.tick = copy.tick;
    copy.place.reset();
    excerpt.raws().put(copy);
  }
}

std::string one_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

}  // namespace

std::set<EntityId> silent_tracks(const Song& song, const std::set<EntityId>& only) {
  std::set<EntityId> silent;
  const bool any_solo = std::any_of(song.tracks().begin(), song.tracks().end(),
                                    [](const Track& track) { return track.solo; });
  for (const auto& track : song.tracks()) {
    const bool heard =
        only.empty() ? !track.muted && (!any_solo || track.solo) : only.contains(track.id);
    if (!heard) silent.insert(track.id);
  }
  return silent;
}

Song audible_song(const Song& song, const std::set<EntityId>& silent) {
  Song audible = song;
  for (EntityId track : silent) {
    std::vector<EntityId> notes;
    for (const auto& [tick, note] : audible.notes().of_track(track))
      notes.push_back(note);
    for (EntityId note : notes)
      audible.erase_note(note);
  }
  return audible;
}

Song song_excerpt(const Song& song, Tick start, Tick stop, const std::set<EntityId>& silent) {
  Song excerpt;
  Conductor& c = excerpt.conductor();
  const Conductor& from = song.conductor();
  c.title = from.title;
  c.ppqn = from.ppqn;
  c.division = from.division;
  c.meter = theory::MeterMap(from.ppqn);
  c.tempos = {{0, song.tempo_at(start)}};
  for (auto it = from.tempos.upper_bound(start); it != from.tempos.end() && it->first < stop; ++it)
    c.tempos[it->first - start] = it->second;
  c.markers.emplace(stop - start, "end");  // the excerpt lasts the whole range, rests included
  EntityId last_track = 0;
  for (const auto& track : song.tracks())
    last_track = std::max(last_track, track.id);
  excerpt.reserve_ids_up_to(last_track);
  for (const auto& track : song.tracks()) {
    Track copy;
    copy.id = track.id;
    copy.name = track.name;
    copy.channel = track.channel;
    excerpt.insert_track(excerpt.tracks().size(), copy);
    excerpt_sysex(song, excerpt, track.id, start, stop);
    excerpt_controls(song, excerpt, track.id, start, stop);
    if (!silent.contains(track.id)) excerpt_notes(song, excerpt, track.id, start, stop);
  }
  return excerpt;
}

std::string RenderedAudio::detail(int sample_rate) const {
  std::string upper(render::format_name(format));
  for (char& ch : upper)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const double tail = stats.seconds - stats.song_seconds;
  const std::string length =
      tail >= 0.05 ? one_decimal(stats.seconds) + " s (" + one_decimal(stats.song_seconds) +
                         " s of music, then " + one_decimal(tail) + " s of release tail)"
                   : one_decimal(stats.seconds) + " s";
  return length + ", " + size_text(bytes.size()) + " " + upper + ", " +
         std::to_string(sample_rate) + " Hz, peak " +
         one_decimal(stats.peak > 0 ? 20 * std::log10(stats.peak) : -120.0) + " dBFS, " +
         soundfont.filename().string();
}

core::Result<std::filesystem::path> soundfont_for(const MidiDocument& doc) {
  if (!doc.soundfont_path().empty()) return std::filesystem::path(doc.soundfont_path());
  if (auto found = render::default_soundfont()) return *found;
  return core::make_error(
      "no General MIDI SoundFont found: install timgm6mb-soundfont, set FCP_SOUNDFONT, or "
      "load-soundfont PATH");
}

core::Result<RenderedAudio> render_audio(const Song& song, const std::filesystem::path& soundfont,
                                         const AudioSettings& settings,
                                         const core::ProgressFn& progress) {
  render::RenderOptions options;
  options.soundfont = soundfont;
  options.sample_rate = settings.sample_rate;
  options.tail_seconds = settings.tail_seconds;
  const auto report = [&](double done, double total) {
    if (progress) progress(done, total, "rendering audio");
  };
  RenderedAudio out;
  out.format = settings.format;
  out.soundfont = soundfont;
  const std::string smf = write_song(song);
  if (auto stop = core::stop_error("audio rendering", "no audio was made")) return *stop;
  auto wav = render::render_wav(smf, options, report, nullptr, &out.stats);
  if (auto stop = core::stop_error("audio rendering", "no audio was made")) return *stop;
  if (!wav) return core::make_error("rendering failed: " + wav.error().message);
  auto encoded = render::encode_wav(*wav, settings.format);
  if (!encoded) return core::make_error("encoding failed: " + encoded.error().message);
  out.bytes = std::move(*encoded);
  return out;
}

std::size_t wav_bytes(double seconds, const AudioSettings& settings) {
  const double frames = std::ceil((seconds + settings.tail_seconds) * settings.sample_rate);
  return render::kWavHeaderSize + static_cast<std::size_t>(frames) * 4;
}

std::string size_text(std::size_t bytes) {
  constexpr double kMega = 1024.0 * 1024.0;
  if (bytes >= 1024 * 1024) {
    const double mb = static_cast<double>(bytes) / kMega;
    return (mb == std::floor(mb) ? std::to_string(static_cast<long>(mb)) : one_decimal(mb)) + " MB";
  }
  return std::to_string((bytes + 1023) / 1024) + " KB";
}

int inline_wav_seconds(int sample_rate) {
  return static_cast<int>((kMaxInlineAudioBytes - render::kWavHeaderSize) /
                          (static_cast<std::size_t>(sample_rate) * 4));
}

}  // namespace fcp::midi
