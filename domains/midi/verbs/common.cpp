// Helpers shared by the midi verbs: tracks, params, positions, text.
#include <algorithm>
#include <charconv>

#include "core/resolve.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/duration.hpp"
#include "domains/midi/theory/gm.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/position.hpp"
#include "domains/midi/theory/velocity.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

constexpr int kDrumChannel = 9;

std::string replace_token(const std::string& raw, std::string_view from, const std::string& to) {
  std::string out = raw;
  if (auto at = out.find(from); at != std::string::npos && !from.empty())
    out.replace(at, from.size(), to);
  return out;
}

std::string as_token(std::string_view text) {
  for (char c : text) {
    if (c == ' ' || c == ':' || c == '"') {
      std::string out = "\"";
      for (char d : text) {
        if (d == '"' || d == '\\') out += '\\';
        out += d;
      }
      return out + "\"";
    }
  }
  return std::string(text);
}

}  // namespace

core::Result<EntityId> resolve_track(const OpContext& ctx, std::string_view name) {
  const auto& tracks = ctx.song().tracks();
  core::NameIndex<EntityId> index;
  for (const auto& track : tracks)
    index.add(track.name, track.id);
  auto found = index.lookup(name);
  if (found.ids.size() == 1) return found.ids.front();
  std::vector<std::string> hints;
  if (found.ids.size() > 1) {
    std::string list;
    for (EntityId id : found.ids) {
      const std::string& candidate = ctx.song().track(id)->name;
      list += (list.empty() ? "" : ", ") + candidate;
      hints.push_back(replace_token(ctx.op.raw, name, as_token(candidate)));
    }
    return core::make_error("track \"" + std::string(name) + "\" is ambiguous: " + list,
                            std::move(hints));
  }
  std::vector<std::string> names;
  for (const auto& track : tracks)
    names.push_back(track.name);
  for (const auto& close : core::closest_matches(name, names, 2))
    hints.push_back(replace_token(ctx.op.raw, name, as_token(close)));
  hints.push_back("track add " + as_token(name) + " instrument:acoustic-grand-piano");
  std::string message = "track \"" + std::string(name) + "\" not found";
  if (names.empty()) {
    message += ": the song has no tracks yet";
  } else {
    std::string list;
    for (const auto& n : names)
      list += (list.empty() ? "" : ", ") + n;
    message += " (tracks: " + list + ")";
  }
  return core::make_error(std::move(message), std::move(hints));
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

core::Result<Tick> position_param(const OpContext& ctx, std::string_view key,
                                  std::string_view fallback) {
  const std::string* text = ctx.op.param(key);
  auto tick = parse_position_text(ctx, text ? std::string_view(*text) : fallback);
  if (!tick) {
    core::Error error = tick.error();
    error.message = "invalid " + std::string(key) + ": " + error.message;
    return error;
  }
  return tick;
}

core::Result<std::uint32_t> duration_param(const OpContext& ctx, std::string_view key,
                                           std::string_view fallback) {
  const std::string* text = ctx.op.param(key);
  auto ticks = theory::parse_duration(text ? std::string_view(*text) : fallback, ctx.song().ppqn());
  if (!ticks) {
    core::Error error = ticks.error();
    error.message = "invalid " + std::string(key) + ": " + error.message;
    return error;
  }
  if (*ticks == 0) return core::make_error("invalid " + std::string(key) + ": zero length");
  return ticks;
}

core::Result<int> velocity_param(const OpContext& ctx, std::string_view key, int fallback) {
  const std::string* text = ctx.op.param(key);
  if (text == nullptr) return fallback;
  auto velocity = theory::parse_velocity(*text);
  if (!velocity) return velocity.error();
  if (*velocity < 1 || *velocity > 127)
    return core::make_error("velocity " + *text + " is outside 1..127 (0 would be silent)");
  return velocity;
}

core::Result<int> channel_param(const OpContext& ctx, const Track& track) {
  const std::string* text = ctx.op.param("ch");
  if (text == nullptr) return track.channel;
  int channel = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), channel);
  if (ec != std::errc() || ptr != text->data() + text->size() || channel < 1 || channel > 16)
    return core::make_error("invalid ch:" + *text + " — channels are 1..16 (10 is drums)");
  return channel - 1;
}

core::Result<int> parse_pitch_for(const OpContext& ctx, const Track& track, std::string_view text) {
  (void)ctx;
  if (track.channel == kDrumChannel) {
    if (auto drum = theory::drum_pitch(text)) return *drum;
  }
  auto pitch = theory::parse_pitch(text);
  if (pitch) return pitch;
  if (auto drum = theory::drum_pitch(text)) {
    return core::make_error("\"" + std::string(text) + "\" is a drum name; track '" + track.name +
                            "' is not a drum track (channel 10)");
  }
  return pitch.error();
}

std::string position_text(const Song& song, Tick tick) {
  return theory::format_position(tick, song.conductor().meter);
}

std::string duration_text(const Song& song, std::uint32_t ticks) {
  return theory::duration_name(ticks, song.ppqn());
}

std::string pitch_text(const Track& track, int pitch) {
  if (track.channel == kDrumChannel) {
    auto name = theory::drum_name(pitch);
    if (!name.empty()) return std::string(name);
  }
  return theory::pitch_name(pitch);
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

core::Result<std::pair<Tick, Tick>> parse_range(const OpContext& ctx, std::string_view text,
                                                bool end_inclusive) {
  // Split on the '-' that separates two positions (positions may start with '-' only when
  // relative, which ranges do not allow).
  const auto dash = text.find('-', 1);
  if (dash == std::string_view::npos)
    return core::make_error("invalid range \"" + std::string(text) + "\" — use M.B-M.B",
                            {"@range:1.1-4.4"});
  auto start = theory::parse_position(text.substr(0, dash), ctx.song().conductor().meter,
                                      ctx.song().end_tick());
  if (!start) return start.error();
  auto end = theory::parse_position(text.substr(dash + 1), ctx.song().conductor().meter,
                                    ctx.song().end_tick());
  if (!end) return end.error();
  Tick stop = *end;
  if (end_inclusive) {
    const auto& meter = ctx.song().conductor().meter;
    stop += meter.beat_ticks(meter.bar_of(stop));
  }
  if (stop <= *start)
    return core::make_error("range \"" + std::string(text) + "\" ends before it starts");
  return std::pair{*start, stop};
}

}  // namespace fcp::midi
