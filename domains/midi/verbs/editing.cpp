// Editing verbs over selections: remove (notes, or controls and conductor events by kind),
// move, copy, transpose, velocity, quantize, modify, repeat, crescendo/decrescendo.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>

#include "core/resolve.hpp"
#include "core/selector.hpp"
#include "core/tokenizer.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/velocity.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

std::vector<Note> notes_of(const OpContext& ctx, const std::vector<EntityId>& ids) {
  std::vector<Note> notes;
  notes.reserve(ids.size());
  for (EntityId id : ids)
    notes.push_back(*ctx.song().notes().find(id));
  return notes;
}

Tick earliest(const std::vector<Note>& notes) {
  Tick first = notes.front().tick;
  for (const auto& n : notes)
    first = std::min(first, n.tick);
  return first;
}

Tick latest_end(const std::vector<Note>& notes) {
  Tick last = 0;
  for (const auto& n : notes)
    last = std::max(last, n.tick + n.duration);
  return last;
}

std::string count_notes(std::size_t n) {
  return core::plural(n, "note");
}

// Removes the chosen conductor events; the initial tempo, meter and key are not among them.
void remove_conductor_events(OpContext& ctx, const std::vector<const SongEvent*>& events) {
  ctx.edit.update_conductor([&](Conductor& c) {
    std::vector<int> bars;  // taken before any meter change moves the bar lines
    for (const SongEvent* event : events) {
      if (event->kind == EventKind::time_sig) bars.push_back(c.meter.bar_of(event->tick));
    }
    for (int bar : bars)
      (void)c.meter.remove(bar);
    for (const SongEvent* event : events) {
      if (event->kind == EventKind::tempo) c.tempos.erase(event->tick);
      if (event->kind == EventKind::key_sig) c.keys.erase(event->tick);
      if (event->kind != EventKind::marker) continue;
      const auto [begin, end] = c.markers.equal_range(event->tick);
      const auto marker =
          std::find_if(begin, end, [&](const auto& m) { return m.second == event->text; });
      if (marker != end) c.markers.erase(marker);
    }
  });
}

}  // namespace

// remove @SELECTORS…: notes, or with @type:KIND or a kind selector (@cc @bend @program
// @pressure @tempo @time-sig @key-sig @marker) those events.
core::Result<void> verb_remove(OpContext& ctx) {
  const auto& words = ctx.op.positionals;
  if (words.size() == 2 && core::to_lower(words.front()) == "track") {
    const std::string& raw = ctx.op.raw;
    const auto after = raw.find(words.front(), raw.find(' ')) + words.front().size();
    return core::make_error("remove takes selectors; a track goes with track remove NAME",
                            {"track remove" + raw.substr(after)});
  }
  if (ctx.op.selectors.empty())
    return core::make_error(
        "no selectors: say which events (remove @SELECTOR…)",
        song_hints(ctx, {"remove @track:Piano @range:1.1-1.4", "remove @tempo @range:9.1-9.4"}));
  auto selection = select_events(ctx.song(), ctx.op.selectors, ctx.call.log, ctx.op.raw);
  if (!selection) return selection.error();
  if (selection->events.empty()) {
    ctx.lines.push_back(core::nothing_matched_warning(selection->nothing_matched, "remove"));
    return {};
  }
  std::size_t notes = 0, cc = 0, bends = 0, programs = 0, pressure = 0;
  std::vector<const SongEvent*> conductor;
  for (const auto& event : selection->events) {
    if (event.kind == EventKind::note) {
      ctx.edit.erase_note(event.id);
      ++notes;
    } else if (event.track != 0) {
      ctx.edit.erase_control(event.id);
      ++(event.kind == EventKind::cc        ? cc
         : event.kind == EventKind::bend    ? bends
         : event.kind == EventKind::program ? programs
                                            : pressure);
    } else {
      conductor.push_back(&event);
    }
  }
  if (!conductor.empty()) remove_conductor_events(ctx, conductor);
  std::vector<std::string> parts;
  if (notes) parts.push_back(count_notes(notes));
  if (cc) parts.push_back(core::plural(cc, "controller change"));
  if (programs) parts.push_back(core::plural(programs, "program change"));
  if (bends) parts.push_back(core::plural(bends, "pitch bend"));
  if (pressure) parts.push_back(std::to_string(pressure) + " aftertouch");
  if (!conductor.empty()) parts.push_back(core::plural(conductor.size(), "conductor event"));
  std::string text = "Removed ";
  for (std::size_t i = 0; i < parts.size(); ++i)
    text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  if (!conductor.empty()) text += " (the initial tempo, meter and key stay)";
  ctx.lines.push_back(core::deleted(text));
  return {};
}

namespace {

// Moves or copies the selection so its earliest note starts at to:, optionally onto track:.
core::Result<void> place_selection(OpContext& ctx, bool copy) {
  const std::string verb = copy ? "copy" : "move";
  if (!ctx.op.has_param("to") && !ctx.op.has_param("track"))
    return core::make_error("missing to: parameter",
                            song_hints(ctx, {verb + " @track:Piano @range:1.1-2.4 to:5.1"}));
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  if (copy) {
    if (auto fits = core::check_creation(ctx.call, ids->size(), "notes"); !fits)
      return fits.error();
  }
  auto notes = notes_of(ctx, *ids);
  const Tick first = earliest(notes);
  Tick target = first;
  if (ctx.op.has_param("to")) {
    auto tick = position_param(ctx, "to", "1.1");
    if (!tick) return tick.error();
    target = *tick;
  }
  std::optional<EntityId> track;
  if (const std::string* name = ctx.op.param("track")) {
    auto id = resolve_track(ctx, *name);
    if (!id) return id.error();
    track = *id;
  }
  for (Note note : notes) {
    if (copy) note.id = ctx.edit.song().allocate_id();
    note.tick = note.tick - first + target;
    if (track) {
      note.track = *track;
      note.channel = track_of(ctx, *track).channel;
    }
    ctx.edit.put_note(note);
  }
  const std::string text = count_notes(notes.size()) + " to " + position_text(ctx.song(), target) +
                           (track ? " on " + track_of(ctx, *track).name : std::string());
  ctx.lines.push_back(copy ? core::created("Copied " + text) : core::bulk("Moved " + text));
  return {};
}

}  // namespace

core::Result<void> verb_move(OpContext& ctx) {
  return place_selection(ctx, false);
}
core::Result<void> verb_copy(OpContext& ctx) {
  return place_selection(ctx, true);
}

namespace {

// Semitones said in words: "up 2", "down 1 octave", "2st", "-1 octave"; nullopt otherwise.
std::optional<long long> spoken_semitones(std::vector<std::string> words) {
  long long sign = 1;
  bool worded = false;  // up/down or a unit: more than the plain number transpose takes
  if (!words.empty()) {
    const std::string first = core::to_lower(words.front());
    if (first == "up" || first == "down") {
      sign = first == "down" ? -1 : 1;
      worded = true;
      words.erase(words.begin());
    }
  }
  if (words.empty() || words.size() > 2) return std::nullopt;
  std::string number = core::to_lower(words[0]);
  std::string unit = words.size() == 2 ? core::to_lower(words[1]) : "";
  for (std::string_view suffix : {"semitones", "semitone", "st", "octaves", "octave", "oct"}) {
    if (unit.empty() && number.size() > suffix.size() && number.ends_with(suffix)) {
      unit = suffix;
      number.resize(number.size() - suffix.size());
    }
  }
  const auto count = core::to_integer(number);
  if (!count) return std::nullopt;
  if (unit.starts_with("oct")) return sign * *count * 12;
  if (!unit.empty() && !unit.starts_with("semitone") && unit != "st") return std::nullopt;
  if (!worded && unit.empty()) return std::nullopt;  // a plain number: not what failed
  return sign * *count;
}

std::string signed_text(long long value) {
  return (value >= 0 ? "+" : "") + std::to_string(value);
}

// The transpose the op meant: its selectors (tracks named as bare words become @track:), and
// the semitones it said in words, or -12 as an example.
std::string transpose_hint(const OpContext& ctx) {
  std::vector<std::string> words, tracks;
  for (const auto& word : ctx.op.positionals) {
    const Track* named = nullptr;
    for (const auto& track : ctx.song().tracks()) {
      if (core::to_lower(track.name) == core::to_lower(word)) named = &track;
    }
    if (named != nullptr) {
      tracks.push_back("@track:" + core::quote_token(named->name));
    } else {
      words.push_back(word);
    }
  }
  const auto semitones = spoken_semitones(words);
  if (ctx.op.selectors.empty() && tracks.empty()) {
    const std::string value = semitones ? signed_text(*semitones) : "-12";
    auto hints = song_hints(ctx, {"transpose @track:Piano " + value});
    return hints.empty() ? std::string() : hints.front();
  }
  if (semitones) return op_with_positionals(ctx, {signed_text(*semitones)}, tracks);
  if (const auto given = words.size() == 1 ? core::to_integer(words[0]) : std::nullopt;
      given && std::abs(*given) <= 127)
    return op_with_positionals(ctx, words, tracks);
  return op_with_positionals(ctx, {"-12"}, tracks);
}

}  // namespace

core::Result<void> verb_transpose(OpContext& ctx) {
  const auto& words = ctx.op.positionals;
  const auto count = words.size() == 1 ? core::to_integer(words[0]) : std::nullopt;
  if (!count || std::abs(*count) > 127) {
    std::string message = words.empty() ? "missing semitone count"
                          : words.size() == 1
                              ? "invalid semitone count \"" + words[0] + "\""
                              : "transpose takes one signed semitone count (+2 up, -12 down)";
    if (ctx.op.selectors.empty() && !words.empty() && track_words_as_selectors(ctx))
      message = "transpose takes notes by selector: a track is @track:NAME";
    if (count) message = "a transposition of " + words[0] + " semitones leaves the MIDI range";
    if (!ctx.op.selectors.empty()) {  // selectors that fail say so first, with their own fixes
      auto selection = select_events(ctx.song(), ctx.op.selectors, ctx.call.log, ctx.op.raw);
      if (!selection) return selection.error();
    }
    std::vector<std::string> hints;
    if (auto hint = transpose_hint(ctx); !hint.empty()) hints.push_back(std::move(hint));
    return core::make_error(message, std::move(hints));
  }
  const auto& semitones = count;
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto notes = notes_of(ctx, *ids);
  for (const auto& n : notes) {
    const long pitch = n.pitch + *semitones;
    if (pitch < 0 || pitch > 127)
      return core::make_error(pitch_text(ctx.song(), track_of(ctx, n.track), n.pitch, n.tick) +
                              " at " + position_text(ctx.song(), n.tick) +
                              " would leave the MIDI range "
                              "(C-1..G9); nothing was transposed");
  }
  for (Note n : notes) {
    n.pitch += static_cast<int>(*semitones);
    ctx.edit.put_note(n);
  }
  ctx.lines.push_back(core::property_changed(
      "Transposed " + count_notes(notes.size()) + " " + (*semitones >= 0 ? "up " : "down ") +
      core::plural(static_cast<std::size_t>(std::abs(*semitones)), "semitone")));
  return {};
}

core::Result<void> verb_velocity(OpContext& ctx) {
  if (ctx.op.positionals.size() != 1) {
    if (auto fixed = track_words_as_selectors(ctx))
      return core::make_error("velocity takes notes by selector: a track is @track:NAME", {*fixed});
  }
  if (ctx.op.positionals.size() != 1)
    return core::make_error(
        "missing velocity change (+N, -N or =V)",
        song_hints(ctx, {"velocity @track:Piano +10", "velocity @track:Piano =mf"}));
  const std::string& text = ctx.op.positionals[0];
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  std::optional<int> absolute;
  long delta = 0;
  if (text.starts_with('=')) {
    auto v = theory::parse_velocity(text.substr(1));
    if (!v || *v < 1) return core::make_error("invalid velocity \"" + text + "\"");
    absolute = *v;
  } else {
    auto d = core::to_integer(text);
    if (!d) return core::make_error("invalid velocity change \"" + text + "\" — +N, -N or =V");
    delta = *d;
  }
  for (Note n : notes_of(ctx, *ids)) {
    n.velocity =
        absolute ? *absolute : static_cast<int>(std::clamp<long>(n.velocity + delta, 1, 127));
    ctx.edit.put_note(n);
  }
  ctx.lines.push_back(core::property_changed(
      "Adjusted velocity of " + count_notes(ids->size()) + " " +
      (absolute ? "to " + std::to_string(*absolute)
                : std::string("by ") + (delta >= 0 ? "+" : "") + std::to_string(delta))));
  return {};
}

core::Result<void> verb_quantize(OpContext& ctx) {
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto grid = duration_param(ctx, "grid", "sixteenth", earliest(notes_of(ctx, *ids)));
  if (!grid) return grid.error();
  double strength = 1.0;
  if (auto percent = ctx.op.integer("strength")) strength = static_cast<double>(*percent) / 100.0;
  const std::string ends_text = core::to_lower(ctx.op.param_or("ends", "false"));
  const bool ends =
      ends_text == "true" || ends_text == "yes" || ends_text == "on" || ends_text == "1";
  std::size_t moved = 0;
  for (Note n : notes_of(ctx, *ids)) {
    const double snapped = std::round(static_cast<double>(n.tick) / *grid) * *grid;
    const Tick tick = static_cast<Tick>(std::llround(n.tick + (snapped - n.tick) * strength));
    Tick end = n.tick + n.duration;
    if (ends) {
      const double end_snap = std::round(static_cast<double>(end) / *grid) * *grid;
      end = static_cast<Tick>(std::llround(end + (end_snap - end) * strength));
    }
    if (end <= tick) end = tick + std::max<std::uint32_t>(1, *grid / 4);
    if (tick != n.tick || end != n.tick + n.duration) ++moved;
    n.duration = static_cast<std::uint32_t>(end - tick);
    n.tick = tick;
    ctx.edit.put_note(n);
  }
  ctx.lines.push_back(core::bulk("Quantized " + count_notes(ids->size()) + " to " +
                                 duration_text(ctx.song(), *grid) + " (" + std::to_string(moved) +
                                 " moved)"));
  return {};
}

core::Result<void> verb_modify(OpContext& ctx) {
  const auto& op = ctx.op;
  if (!op.has_param("pitch") && !op.has_param("vel") && !op.has_param("dur") &&
      !op.has_param("at") && !op.has_param("ch"))
    return core::make_error("no modification specified",
                            song_hints(ctx, {"modify @track:Piano @pitch:C4 vel:100 dur:half"}));
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto notes = notes_of(ctx, *ids);
  std::optional<int> pitch, velocity, channel;
  std::optional<Tick> at;
  if (const std::string* text = op.param("pitch")) {
    auto p = theory::parse_pitch(*text);
    if (!p) return p.error();
    pitch = *p;
  }
  if (op.has_param("vel")) {
    auto v = velocity_param(ctx, "vel", 80);
    if (!v) return v.error();
    velocity = *v;
  }
  if (op.has_param("at")) {
    auto t = position_param(ctx, "at", "1.1");
    if (!t) return t.error();
    at = *t;
  }
  if (op.has_param("ch")) {
    auto c = channel_param(ctx, track_of(ctx, notes.front().track));
    if (!c) return c.error();
    channel = *c;
  }
  // at: moves the selection as a group (its earliest note to at:), keeping the rhythm.
  const Tick first = earliest(notes);
  for (Note n : notes) {
    if (pitch) n.pitch = *pitch;
    if (velocity) n.velocity = *velocity;
    if (channel) n.channel = *channel;
    if (at) n.tick = n.tick - first + *at;
    if (op.has_param("dur")) {  // per note: bar durations follow the meter where each one starts
      auto d = duration_param(ctx, "dur", "quarter", n.tick);
      if (!d) return d.error();
      n.duration = *d;
    }
    ctx.edit.put_note(n);
  }
  ctx.lines.push_back(core::property_changed("Modified " + count_notes(notes.size())));
  return {};
}

core::Result<void> verb_repeat(OpContext& ctx) {
  const long long count = ctx.op.integer("count").value_or(1);
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  if (auto fits =
          core::check_creation(ctx.call, ids->size() * static_cast<std::size_t>(count), "notes");
      !fits)
    return fits.error();
  auto notes = notes_of(ctx, *ids);
  const Tick first = earliest(notes);
  // The period: every: if given, else whole bars covering the selection.
  Tick period = 0;
  if (ctx.op.has_param("every")) {
    auto every = duration_param(ctx, "every", "whole", first);
    if (!every) return every.error();
    period = *every;
  } else {
    const auto& meter = ctx.song().conductor().meter;
    const int first_bar = meter.bar_of(first);
    const Tick end = latest_end(notes);
    const int last_bar = meter.bar_of(end > 0 ? end - 1 : 0);
    period = meter.bar_start(last_bar + 1) - meter.bar_start(first_bar);
  }
  Tick start = first + period;
  if (ctx.op.has_param("to")) {
    auto to = position_param(ctx, "to", "1.1");
    if (!to) return to.error();
    start = *to;
  }
  std::size_t added = 0;
  for (long long i = 0; i < count; ++i) {
    for (Note n : notes) {
      n.id = ctx.edit.song().allocate_id();
      n.tick = n.tick - first + start + static_cast<Tick>(i) * period;
      ctx.edit.put_note(n);
      ++added;
    }
  }
  ctx.lines.push_back(core::created("Repeated " + count_notes(notes.size()) + " x" +
                                    std::to_string(count) + " (" + std::to_string(added) +
                                    " added)"));
  return {};
}

// The ramp's top when scaling or shifting would take some velocities past 127: above kKnee they
// are eased towards 127 (strictly increasing), so the loudest accents stay louder than the notes
// around them instead of all landing on 127.
constexpr double kKnee = 112;
double ease_under_ceiling(double velocity) {
  if (velocity <= kKnee) return velocity;
  constexpr double room = 127 - kKnee;
  return kKnee + room * (1 - std::exp(-(velocity - kKnee) / room));
}

// crescendo/decrescendo [from:V] to:V: the level of the chosen notes follows a ramp over time.
// mode:scale (default) multiplies each velocity by ramp / the notes' mean, so accents keep their
// proportions; mode:shift adds ramp - mean, so they keep their distance; mode:set sets every
// velocity on the ramp. Without from: the ramp starts at the notes' present level (their mean).
// Notes sounding together are on the same point of the ramp.
core::Result<void> verb_crescendo(OpContext& ctx) {
  const bool down = ctx.op.verb == "decrescendo";
  const std::string* from_text = ctx.op.param("from");
  const std::string* to_text = ctx.op.param("to");
  if (to_text == nullptr)
    return core::make_error(
        "missing to: velocity",
        song_hints(ctx, {ctx.op.verb + " @track:Piano @range:1.1-4.4 to:" + (down ? "p" : "ff")}));
  std::optional<int> from;
  if (from_text != nullptr) {
    auto parsed = theory::parse_velocity(*from_text);
    if (!parsed) return with_op_hints(ctx, "from", parsed.error());
    from = *parsed;
  }
  auto to = theory::parse_velocity(*to_text);
  if (!to) return with_op_hints(ctx, "to", to.error());
  if ((from && *from < 1) || *to < 1) return core::make_error("velocities must be 1..127");
  const std::string mode = core::to_lower(ctx.op.param_or("mode", "scale"));
  auto ids = notes_to_change(ctx);
  if (!ids) return ids.error();
  if (ids->empty()) return {};
  auto notes = notes_of(ctx, *ids);
  const Tick first = earliest(notes);
  Tick last = first;
  double mean = 0;
  for (const auto& n : notes) {
    last = std::max(last, n.tick);
    mean += n.velocity;
  }
  mean /= static_cast<double>(notes.size());
  const double start = from ? static_cast<double>(*from) : mean;
  std::vector<double> wanted;
  wanted.reserve(notes.size());
  bool over_ceiling = false;
  for (const Note& n : notes) {
    const double t = last == first
                         ? 1.0
                         : static_cast<double>(n.tick - first) / static_cast<double>(last - first);
    const double level = start + (*to - start) * t;
    double velocity = level;
    if (mode == "scale") velocity = n.velocity * level / mean;
    if (mode == "shift") velocity = n.velocity + level - mean;
    over_ceiling = over_ceiling || std::lround(velocity) > 127;
    wanted.push_back(velocity);
  }
  const bool ease = over_ceiling && mode != "set";
  std::size_t eased = 0, held = 0;
  for (std::size_t i = 0; i < notes.size(); ++i) {
    Note n = notes[i];
    double velocity = wanted[i];
    if (ease && velocity > kKnee) {
      velocity = ease_under_ceiling(velocity);
      ++eased;
    }
    const long rounded = std::lround(velocity);
    if (rounded < 1 || rounded > 127) ++held;
    n.velocity = static_cast<int>(std::clamp(rounded, 1L, 127L));
    ctx.edit.put_note(n);
  }
  std::string how = mode == "set"     ? "set on the ramp"
                    : mode == "shift" ? "shifted with the ramp, accents kept"
                                      : "scaled with the ramp, accents kept";
  if (eased > 0)
    how += "; the loudest " + core::plural(eased, "note") + " eased under 127 to keep their order";
  if (held > 0) how += "; " + core::plural(held, "note") + " held within 1..127";
  const std::string from_shown =
      from_text != nullptr ? *from_text : "present level " + std::to_string(std::lround(mean));
  ctx.lines.push_back(core::property_changed(std::string(down ? "Decrescendo" : "Crescendo") +
                                             " applied to " + count_notes(notes.size()) + " (" +
                                             from_shown + " -> " + *to_text + ", " + how + ")"));
  // A ramp that starts against its own direction (a crescendo from below the notes' level
  // first makes them quieter) is what from: said, but rarely what was meant.
  if (from && mode != "set") {
    const bool dips = down ? *from > mean * 1.15 : *from < mean * 0.85;
    if (dips) {
      ctx.lines.push_back(core::warning_line(
          std::string("the ramp starts at ") + *from_text + " (" + std::to_string(*from) + "), " +
          (down ? "above" : "below") + " the notes' present level (" +
          std::to_string(std::lround(mean)) + "): the first notes get " +
          (down ? "louder before it falls" : "quieter before it builds") +
          "; leave out from: to start from their level"));
    }
  }
  return {};
}

}  // namespace fcp::midi
