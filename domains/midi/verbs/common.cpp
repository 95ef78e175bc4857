// Helpers shared by the midi verbs: tracks, params, positions, text.
#include <algorithm>
#include <charconv>
#include <map>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "core/selector.hpp"
#include "core/tokenizer.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/theory/bars.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/duration.hpp"
#include "domains/midi/theory/gm.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/position.hpp"
#include "domains/midi/theory/velocity.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

constexpr int kDrumChannel = 9;

// `raw` with `from` (after the verb) replaced by `to`: a whole token first, else the first
// occurrence inside one (a pitch in a step line's [C4_v80_1]); nullopt when `from` is absent.
std::optional<std::string> replace_written(std::string_view raw, std::string_view from,
                                           std::string_view to) {
  const std::size_t verb_end = raw.find(' ');
  if (verb_end == std::string_view::npos || from.empty()) return std::nullopt;
  const auto replaced = [&](std::size_t at) {
    return std::string(raw.substr(0, at)) + std::string(to) +
           std::string(raw.substr(at + from.size()));
  };
  for (std::size_t at = raw.find(from, verb_end); at != std::string_view::npos;
       at = raw.find(from, at + 1)) {
    const std::size_t end = at + from.size();
    const bool starts = raw[at - 1] == ' ' || raw[at - 1] == '\t';
    const bool ends = end == raw.size() || raw[end] == ' ' || raw[end] == '\t';
    if (starts && ends) return replaced(at);
  }
  if (const std::size_t at = raw.find(from, verb_end); at != std::string_view::npos)
    return replaced(at);
  return std::nullopt;
}

}  // namespace

core::Error hints_as_ops(const OpContext& ctx, core::Error error, std::string_view written,
                         std::string_view key) {
  std::vector<std::string> ops;
  for (const auto& hint : error.hints) {
    const bool whole_token = hint.find(':') != std::string::npos;  // program:4, ch:10
    if (!key.empty()) {
      ops.push_back(core::replace_param_token(
          ctx.op.raw, key, whole_token ? hint : std::string(key) + ":" + core::quote_token(hint)));
    } else if (auto op = replace_written(ctx.op.raw, written,
                                         whole_token ? hint : core::quote_token(hint))) {
      ops.push_back(std::move(*op));
    }
  }
  error.hints = std::move(ops);
  return error;
}

core::Result<EntityId> resolve_track(const OpContext& ctx, std::string_view name) {
  return resolve_track_name(ctx.song(), name, ctx.op.raw);
}

std::optional<std::string> track_words_as_selectors(const OpContext& ctx) {
  std::string raw = ctx.op.raw;
  bool changed = false;
  for (std::size_t i = 0; i < ctx.op.positionals.size(); ++i) {
    const std::string& word = ctx.op.positionals[i];
    const Track* named = nullptr;
    for (const auto& track : ctx.song().tracks()) {
      if (core::to_lower(track.name) == core::to_lower(word)) named = &track;
    }
    if (named == nullptr) continue;
    const std::string written = ctx.op.is_quoted(i) ? "\"" + word + "\"" : word;
    const auto at = raw.find(" " + written);
    if (at == std::string::npos) continue;
    raw.replace(at + 1, written.size(), "@track:" + core::quote_token(named->name));
    changed = true;
  }
  if (!changed) return std::nullopt;
  return raw;
}

namespace {

bool song_has_track(const Song& song, std::string_view name) {
  return std::any_of(song.tracks().begin(), song.tracks().end(), [&](const Track& track) {
    return core::to_lower(track.name) == core::to_lower(name);
  });
}

// Whether every track a hint names (its @track: selectors, the first word of a verb that takes a
// track first) is one the song has.
bool names_only_song_tracks(const Song& song, std::string_view hint) {
  auto op = core::parse_op(hint);
  if (!op) return false;
  for (const auto& selector : op->selectors) {
    if (selector.type == "track" && !selector.negated && !song_has_track(song, selector.value))
      return false;
  }
  static constexpr std::string_view track_first[] = {"note",    "chord", "cc",  "bend",
                                                     "program", "mute",  "solo"};
  const bool takes_track =
      std::find(std::begin(track_first), std::end(track_first), op->verb) != std::end(track_first);
  return !takes_track || op->positionals.empty() || song_has_track(song, op->positionals[0]);
}

}  // namespace

std::vector<std::string> song_hints(const OpContext& ctx, std::vector<std::string> hints) {
  const auto& tracks = ctx.song().tracks();
  if (tracks.empty()) return {"track add Piano instrument:acoustic-grand-piano"};
  if (!song_has_track(ctx.song(), "Piano")) {
    const std::string name = core::quote_token(tracks.front().name);
    for (auto& hint : hints) {
      for (auto at = hint.find("Piano"); at != std::string::npos; at = hint.find("Piano", at)) {
        hint.replace(at, 5, name);
        at += name.size();
      }
    }
  }
  std::erase_if(hints,
                [&](const std::string& hint) { return !names_only_song_tracks(ctx.song(), hint); });
  return hints;
}

std::string op_with_positionals(const OpContext& ctx, const std::vector<std::string>& positionals,
                                const std::vector<std::string>& more_selectors) {
  std::string out = ctx.op.verb;
  for (const auto& selector : ctx.op.selectors)
    out += " " + selector.raw;
  for (const auto& selector : more_selectors)
    out += " " + selector;
  for (const auto& word : positionals)
    out += " " + word;
  for (const auto& param : ctx.op.params)
    out += " " + param.key + ":" + core::param_token_value(ctx.op.raw, param.key);
  return out;
}

core::Result<std::vector<EntityId>> notes_to_change(OpContext& ctx) {
  if (ctx.op.selectors.empty()) {
    std::vector<std::string> hints;
    if (auto fixed = track_words_as_selectors(ctx)) {
      hints.push_back(*fixed);
    } else if (!ctx.song().tracks().empty()) {
      hints.push_back(ctx.op.raw +
                      " @track:" + core::quote_token(ctx.song().tracks().front().name));
    }
    return core::make_error(
        "no selectors: say which notes (" + ctx.op.verb + " @SELECTOR…, see the card's SELECTORS)",
        std::move(hints));
  }
  auto selection = select_events(ctx.song(), ctx.op.selectors, ctx.call.log, ctx.op.raw);
  if (!selection) return selection.error();
  std::vector<EntityId> notes;
  std::map<std::string_view, std::size_t> others;
  for (const auto& event : selection->events) {
    if (event.kind == EventKind::note) {
      notes.push_back(event.id);
    } else {
      ++others[kind_name(event.kind)];
    }
  }
  if (!others.empty()) {
    std::string listed;
    for (const auto& [kind, count] : others)
      listed += (listed.empty() ? "" : ", ") + std::to_string(count) + " " + std::string(kind);
    return core::make_error(ctx.op.verb + " changes notes; the selectors also choose " + listed +
                            " (remove takes every kind)");
  }
  if (notes.empty())
    ctx.lines.push_back(core::nothing_matched_warning(selection->nothing_matched, ctx.op.verb));
  return notes;
}

core::Result<EntityId> track_positional(const OpContext& ctx, std::string_view usage) {
  if (ctx.op.positionals.empty())
    return core::make_error("missing track name", {std::string(usage)});
  return resolve_track(ctx, ctx.op.positionals.front());
}

const Track& track_of(const OpContext& ctx, EntityId id) {
  return *ctx.song().track(id);
}

core::Result<Tick> parse_position_text(const OpContext& ctx, std::string_view text) {
  return theory::parse_position(text, ctx.song().conductor().meter, ctx.song().end_tick(),
                                ctx.doc.anchor());
}

core::Error with_op_hints(const OpContext& ctx, std::string_view key, core::Error error) {
  if (!ctx.op.has_param(key)) return error;
  for (auto& hint : error.hints) {
    const bool bare_value = hint.find(' ') == std::string::npos;
    if (bare_value) {
      const std::string value =
          hint.starts_with(std::string(key) + ":") ? hint.substr(key.size() + 1) : hint;
      hint = core::replace_param_token(ctx.op.raw, key, std::string(key) + ":" + value);
    }
  }
  return error;
}

core::Result<Tick> position_param(const OpContext& ctx, std::string_view key,
                                  std::string_view fallback) {
  const std::string* text = ctx.op.param(key);
  auto tick = parse_position_text(ctx, text ? std::string_view(*text) : fallback);
  if (!tick) {
    core::Error error = tick.error();
    error.message = "invalid " + std::string(key) + ": " + error.message;
    return with_op_hints(ctx, key, std::move(error));
  }
  return tick;
}

core::Result<std::uint32_t> duration_param(const OpContext& ctx, std::string_view key,
                                           std::string_view fallback, Tick at) {
  const std::string* text = ctx.op.param(key);
  const std::string_view written = text ? std::string_view(*text) : fallback;
  auto ticks = theory::parse_bar_duration(written, ctx.song().conductor().meter, at)
                   .value_or(theory::parse_duration(written, ctx.song().ppqn()));
  if (!ticks) {
    core::Error error = ticks.error();
    error.message = "invalid " + std::string(key) + ": " + error.message;
    return with_op_hints(ctx, key, std::move(error));
  }
  if (*ticks == 0) return core::make_error("invalid " + std::string(key) + ": zero length");
  return ticks;
}

core::Result<int> velocity_param(const OpContext& ctx, std::string_view key, int fallback) {
  const std::string* text = ctx.op.param(key);
  if (text == nullptr) return fallback;
  auto velocity = theory::parse_velocity(*text);
  if (!velocity) return with_op_hints(ctx, key, velocity.error());
  if (*velocity < 1 || *velocity > 127)
    return core::make_error("velocity " + *text + " is outside 1..127 (0 would be silent)");
  return velocity;
}

core::Result<int> channel_param(const OpContext& ctx, const Track& track) {
  const auto channel = ctx.op.integer("ch");
  return channel ? static_cast<int>(*channel) - 1 : track.channel;
}

core::Result<int> parse_pitch_for(const OpContext& ctx, const Track& track, std::string_view text) {
  if (track.channel == kDrumChannel) {
    if (auto drum = theory::drum_pitch(text)) return *drum;
  }
  auto pitch = theory::parse_pitch(text);
  if (pitch) return pitch;
  if (track.channel == kDrumChannel) {  // a drum track: the closest drum names, not note names
    auto drum = theory::find_drum(text);
    return hints_as_ops(ctx, drum.error(), text);
  }
  if (auto drum = theory::drum_pitch(text)) {
    return core::make_error("\"" + std::string(text) + "\" is a drum name; track '" + track.name +
                            "' is not a drum track (channel 10)");
  }
  return hints_as_ops(ctx, pitch.error(), text);
}

std::string position_text(const Song& song, Tick tick) {
  return theory::format_position(tick, song.conductor().meter);
}

std::string duration_text(const Song& song, std::uint32_t ticks) {
  return theory::duration_name(ticks, song.ppqn());
}

std::string duration_text(const Song& song, std::uint32_t ticks, Tick at) {
  std::string name = theory::duration_name(ticks, song.ppqn());
  if (!name.starts_with("ticks:")) return name;
  return theory::bar_duration_name(ticks, song.conductor().meter, at).value_or(std::move(name));
}

theory::Accidentals accidentals_at(const Song& song, Tick at) {
  return theory::key_accidentals(song.key_at(at).sharps);
}

std::string pitch_text(const Track& track, int pitch, theory::Accidentals accidentals) {
  if (track.channel == kDrumChannel) {
    auto name = theory::drum_name(pitch);
    if (!name.empty()) return std::string(name);
  }
  return theory::pitch_name(pitch, accidentals);
}

std::string pitch_text(const Song& song, const Track& track, int pitch, Tick at) {
  return pitch_text(track, pitch, accidentals_at(song, at));
}

theory::Accidentals echo_accidentals(const Song& song, Tick at, std::string_view written) {
  if (song.key_at(at).sharps != 0) return accidentals_at(song, at);
  return theory::written_accidentals(written).value_or(theory::Accidentals::sharps);
}

std::string instrument_text(const Song& song, EntityId track) {
  const Track* t = song.track(track);
  if (t != nullptr && t->channel == kDrumChannel) return "drums";
  auto program = song.program_of(track);
  if (!program) return "no program";
  return std::string(theory::gm_instruments()[static_cast<std::size_t>(*program)].name);
}

std::string quote_name(std::string_view name) {
  return "'" + std::string(name) + "'";
}

}  // namespace fcp::midi
