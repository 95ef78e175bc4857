// Note verbs: note and chord (octave, inversion, voicing, strum).
#include <algorithm>

#include "domains/midi/theory/chords.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {

core::Result<void> verb_note(OpContext& ctx) {
  const auto& op = ctx.op;
  if (op.positionals.size() < 2)
    return core::make_error(
        "note requires TRACK and PITCH",
        song_hints(ctx, {"note Piano C4 at:1.1 dur:quarter", "note Drums kick at:1.1"}));
  auto track_id = resolve_track(ctx, op.positionals[0]);
  if (!track_id) return track_id.error();
  const Track& track = track_of(ctx, *track_id);
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  auto duration = duration_param(ctx, "dur", "quarter", *tick);
  if (!duration) return duration.error();
  auto velocity = velocity_param(ctx, "vel", 80);
  if (!velocity) return velocity.error();
  auto channel = channel_param(ctx, track);
  if (!channel) return channel.error();
  std::vector<std::pair<int, theory::Accidentals>> pitches;  // and how to echo each
  for (std::size_t i = 1; i < op.positionals.size(); ++i) {
    auto pitch = parse_pitch_for(ctx, track, op.positionals[i]);
    if (!pitch) return pitch.error();
    pitches.emplace_back(*pitch, echo_accidentals(ctx.song(), *tick, op.positionals[i]));
  }
  for (const auto& [pitch, accidentals] : pitches) {
    Note note;
    note.id = ctx.edit.song().allocate_id();
    note.track = track.id;
    note.tick = *tick;
    note.duration = *duration;
    note.pitch = pitch;
    note.velocity = *velocity;
    note.channel = *channel;
    ctx.edit.put_note(note);
    ctx.lines.push_back(core::created("Note " + pitch_text(track, pitch, accidentals) + " at " +
                                      position_text(ctx.song(), note.tick) + " on " + track.name +
                                      " (vel:" + std::to_string(note.velocity) + " dur:" +
                                      duration_text(ctx.song(), note.duration, note.tick) + ")"));
  }
  ctx.doc.set_anchor(*tick + *duration);
  return {};
}

core::Result<void> verb_chord(OpContext& ctx) {
  const auto& op = ctx.op;
  if (op.positionals.size() != 2)
    return core::make_error(
        "chord requires TRACK and one SYMBOL",
        song_hints(ctx, {"chord Piano Cmaj7 at:1.1 dur:whole",
                         "chord Piano Am/E at:2.1 octave:3 inv:1 voicing:open"}));
  auto track_id = resolve_track(ctx, op.positionals[0]);
  if (!track_id) return track_id.error();
  const Track& track = track_of(ctx, *track_id);
  auto chord = theory::parse_chord(op.positionals[1]);
  if (!chord) return hints_as_ops(ctx, chord.error(), op.positionals[1]);
  int octave = 4, inversion = 0;
  if (auto chosen = op.integer("octave")) octave = static_cast<int>(*chosen);
  if (const std::string* text = op.param("inv")) {
    inversion = std::atoi(text->c_str());
    if (inversion < 0 || inversion >= static_cast<int>(chord->intervals.size()))
      return core::make_error("invalid inv:" + *text + " — 0.." +
                              std::to_string(chord->intervals.size() - 1) + " for " +
                              chord->symbol);
  }
  theory::Voicing voicing = theory::Voicing::close;
  if (const std::string* text = op.param("voicing")) {
    auto parsed = theory::parse_voicing(*text);
    if (!parsed)
      return core::make_error("unknown voicing:" + *text + " — close, open, drop2, drop3, spread");
    voicing = *parsed;
  }
  auto pitches = theory::voice_chord(*chord, octave, inversion, voicing);
  if (!pitches) return pitches.error();
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  auto duration = duration_param(ctx, "dur", "quarter", *tick);
  if (!duration) return duration.error();
  auto velocity = velocity_param(ctx, "vel", 80);
  if (!velocity) return velocity.error();
  auto channel = channel_param(ctx, track);
  if (!channel) return channel.error();
  std::uint32_t strum = 0;
  if (op.has_param("strum")) {
    auto ticks = duration_param(ctx, "strum", "ticks:0", *tick);
    if (!ticks) return ticks.error();
    strum = *ticks;
    if (strum * pitches->size() >= *duration)
      return core::make_error("strum:" + *op.param("strum") + " is too long for the chord's " +
                              duration_text(ctx.song(), *duration));
  }
  std::uint32_t offset = 0;
  for (int pitch : *pitches) {
    Note note;
    note.id = ctx.edit.song().allocate_id();
    note.track = track.id;
    note.tick = *tick + offset;
    note.duration = *duration - offset;
    note.pitch = pitch;
    note.velocity = *velocity;
    note.channel = *channel;
    ctx.edit.put_note(note);
    offset += strum;
  }
  // The key's spelling, or a flat chord's ("Ebmaj7", "C/Bb") where the key has no accidentals.
  const std::string& symbol = op.positionals[1];
  const auto slash = symbol.find('/');
  const bool natural_root = !theory::written_accidentals(symbol).has_value();
  const theory::Accidentals accidentals = echo_accidentals(
      ctx.song(), *tick,
      natural_root && slash != std::string::npos ? symbol.substr(slash + 1) : symbol);
  std::string names;
  for (int pitch : *pitches)
    names += (names.empty() ? "" : " ") + pitch_text(track, pitch, accidentals);
  ctx.lines.push_back(core::created("Chord " + chord->symbol + " (" +
                                    std::to_string(pitches->size()) + " notes: " + names + ") at " +
                                    position_text(ctx.song(), *tick) + " on " + track.name));
  ctx.doc.set_anchor(*tick + *duration);
  return {};
}

}  // namespace fcp::midi
