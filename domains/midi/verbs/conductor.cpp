// Conductor verbs: tempo, time-sig, key-sig, marker, title.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "domains/midi/theory/keys.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

// A tempo, time or key signature where one was (always so at 1.1) changes it; elsewhere it adds
// a change the song did not have.
std::string conductor_line(bool replaces, std::string_view text) {
  return replaces ? core::property_changed(text) : core::created(text);
}

}  // namespace

core::Result<void> verb_tempo(OpContext& ctx) {
  if (ctx.op.positionals.size() != 1)
    return core::make_error("tempo requires BPM", {"tempo 120", "tempo 174 at:9.1"});
  const std::string& text = ctx.op.positionals[0];
  double bpm = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), bpm);
  if (ec != std::errc() || ptr != text.data() + text.size() || !(bpm >= 10 && bpm <= 1000))
    return core::make_error("invalid tempo \"" + text + "\" — BPM from 10 to 1000");
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  const bool replaces = ctx.song().conductor().tempos.contains(*tick);
  ctx.edit.update_conductor([&](Conductor& c) { c.tempos[*tick] = bpm; });
  ctx.lines.push_back(
      conductor_line(replaces, "Tempo " + text + " BPM at " + position_text(ctx.song(), *tick)));
  return {};
}

core::Result<void> verb_time_sig(OpContext& ctx) {
  const std::string text = ctx.op.positionals.empty() ? "" : ctx.op.positionals[0];
  const auto slash = text.find('/');
  int numerator = 0, denominator = 0;
  if (slash != std::string::npos) {
    std::from_chars(text.data(), text.data() + slash, numerator);
    std::from_chars(text.data() + slash + 1, text.data() + text.size(), denominator);
  }
  if (numerator < 1 || numerator > 32 || denominator < 1 || denominator > 64 ||
      (denominator & (denominator - 1)) != 0)
    return core::make_error(
        "invalid time signature \"" + text + "\" — N/D with N 1..32 and D a power of two",
        {"time-sig 3/4", "time-sig 7/8 at:9.1"});
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  const auto& meter = ctx.song().conductor().meter;
  const int bar = meter.bar_of(*tick);
  if (meter.bar_start(bar) != *tick)
    return core::make_error("a time signature starts a bar; " + position_text(ctx.song(), *tick) +
                                " is inside bar " + std::to_string(bar),
                            {"time-sig " + text + " at:" + std::to_string(bar + 1) + ".1"});
  const bool replaces = std::any_of(meter.changes().begin(), meter.changes().end(),
                                    [&](const auto& change) { return change.bar == bar; });
  core::Result<void> set;
  ctx.edit.update_conductor([&](Conductor& c) { set = c.meter.set(bar, numerator, denominator); });
  if (!set) return set.error();
  ctx.lines.push_back(
      conductor_line(replaces, "Time signature " + text + " at bar " + std::to_string(bar)));
  return {};
}

core::Result<void> verb_key_sig(OpContext& ctx) {
  if (ctx.op.positionals.empty())
    return core::make_error("missing key signature",
                            {"key-sig C", "key-sig Em", "key-sig Bb-major"});
  std::string text;
  for (const auto& word : ctx.op.positionals)
    text += (text.empty() ? "" : " ") + word;
  auto key = theory::parse_key(text);
  if (!key) return hints_as_ops(ctx, key.error(), text);
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  const bool replaces = ctx.song().conductor().keys.contains(*tick);
  ctx.edit.update_conductor([&](Conductor& c) {
    c.keys[*tick] = KeySignature{key->sharps, key->minor};
  });
  ctx.lines.push_back(conductor_line(
      replaces, "Key signature " + key->name + " at " + position_text(ctx.song(), *tick)));
  return {};
}

core::Result<void> verb_marker(OpContext& ctx) {
  if (ctx.op.positionals.size() != 1 || ctx.op.positionals[0].empty())
    return core::make_error("marker requires one text (quote it)", {"marker \"Chorus\" at:9.1"});
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  const std::string text = ctx.op.positionals[0];
  ctx.edit.update_conductor([&](Conductor& c) { c.markers.emplace(*tick, text); });
  ctx.lines.push_back(
      core::created("Marker " + quote_name(text) + " at " + position_text(ctx.song(), *tick)));
  return {};
}

core::Result<void> verb_title(OpContext& ctx) {
  if (ctx.op.positionals.size() != 1 || ctx.op.positionals[0].empty())
    return core::make_error("title requires one text (quote it)", {"title \"My Song\""});
  const std::string text = ctx.op.positionals[0];
  ctx.edit.update_conductor([&](Conductor& c) { c.title = text; });
  ctx.lines.push_back(core::property_changed("Title set to " + quote_name(text)));
  return {};
}

}  // namespace fcp::midi
