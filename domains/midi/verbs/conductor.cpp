// Conductor verbs: tempo (one tempo, or scale:/set: over a range), time-sig, key-sig, marker,
// title.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/song_text.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

// A tempo, time or key signature where one was (always so at 1.1) changes it; elsewhere it adds
// a change the song did not have.
std::string conductor_line(bool replaces, std::string_view text) {
  return replaces ? core::property_changed(text) : core::created(text);
}

constexpr double kMinBpm = 10, kMaxBpm = 1000;

// `raw` without the token `token`; "" when it has no such token.
std::string without_token(std::string_view raw, std::string_view token) {
  std::string out = core::replace_reference(raw, token, "");
  for (auto at = out.find("  "); at != std::string::npos; at = out.find("  "))
    out.erase(at, 1);
  while (out.ends_with(' '))
    out.pop_back();
  return out;
}

// The last tick at which anything of the song happens or ends: a note's end, a control, another
// event, a conductor event, or a track's end as read.
Tick content_end(const Song& song) {
  const Conductor& c = song.conductor();
  Tick end = std::max<Tick>(song.end_tick(), c.meter.changes().back().tick);
  end = std::max(end, c.tempos.rbegin()->first);
  end = std::max(end, c.keys.rbegin()->first);
  if (!c.markers.empty()) end = std::max(end, c.markers.rbegin()->first);
  if (song.origin()) end = std::max(end, song.origin()->conductor_end);
  for (const auto& track : song.tracks()) {
    end = std::max(end, track.file_end);
    if (const auto controls = song.controls().of_track(track.id); !controls.empty())
      end = std::max(end, controls.last().tick);
    if (const auto raws = song.raws().of_track(track.id); !raws.empty())
      end = std::max(end, raws.last().tick);
  }
  return end;
}

// The range of `tempo scale:/set:` from its one @range: selector; the whole song without one.
struct TempoRange {
  Tick start = 0, stop = std::numeric_limits<Tick>::max();
  bool given = false;
};

core::Result<TempoRange> tempo_range(const OpContext& ctx) {
  const auto& selectors = ctx.op.selectors;
  const bool only_range =
      selectors.size() == 1 && selectors.front().type == "range" && !selectors.front().negated;
  if (!selectors.empty() && !only_range) {
    std::string kept = ctx.op.raw;
    bool range_kept = false;
    for (const auto& selector : selectors) {
      if (selector.type == "range" && !selector.negated && !range_kept) {
        range_kept = true;
        continue;
      }
      if (auto without = without_token(kept, selector.raw); !without.empty()) kept = without;
    }
    std::vector<std::string> hints;
    if (kept != ctx.op.raw) hints.push_back(kept);
    return core::make_error(
        "tempo scale:/set: take one @range:M.B-M.B (or none: the whole song); the tempo map "
        "belongs to no track",
        std::move(hints));
  }
  if (selectors.empty()) return TempoRange{};
  auto range = parse_range(ctx.song(), selectors.front().value, true);
  if (!range) {
    core::Error error = range.error();
    error.hints = {core::replace_reference(ctx.op.raw, selectors.front().raw, "@range:1-4")};
    return error;
  }
  return TempoRange{range->first, range->second, true};
}

std::string factor_text(double factor) {
  std::string text = std::to_string(factor);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.ends_with('.')) text.pop_back();
  return text;
}

// Scales or sets every tempo of [start, stop) in `tempos`, adding one at `start` when the range
// starts between tempo events. Returns how many events it changed (besides the one it added) and
// removed.
struct TempoEdit {
  std::size_t changed = 0, removed = 0;
  std::optional<double> added_from;  // the tempo in force at the start, when one was added
};

TempoEdit edit_tempos(std::map<Tick, double>& tempos, const TempoRange& range,
                      std::optional<double> factor, std::optional<double> bpm) {
  TempoEdit edit;
  if (!tempos.contains(range.start)) {
    const double held = std::prev(tempos.upper_bound(range.start))->second;
    tempos[range.start] = held;
    edit.added_from = held;
  }
  auto it = tempos.find(range.start);
  const std::size_t added = edit.added_from ? 1 : 0;
  if (bpm) {
    it->second = *bpm;
    edit.changed = 1 - added;
    for (++it; it != tempos.end() && it->first < range.stop; ++edit.removed)
      it = tempos.erase(it);
    return edit;
  }
  for (; it != tempos.end() && it->first < range.stop; ++it, ++edit.changed)
    it->second *= *factor;
  edit.changed -= added;
  return edit;
}

// An error when a scaled tempo would leave kMinBpm..kMaxBpm, offering the factor that fits.
core::Result<void> check_scaled(const OpContext& ctx, const std::map<Tick, double>& before,
                                const std::map<Tick, double>& after, const TempoRange& range,
                                double factor) {
  for (auto it = after.lower_bound(range.start); it != after.end() && it->first < range.stop;
       ++it) {
    if (it->second >= kMinBpm && it->second <= kMaxBpm) continue;
    const double original = before.contains(it->first)
                                ? before.at(it->first)
                                : std::prev(before.upper_bound(it->first))->second;
    const double fits = it->second > kMaxBpm ? std::floor(kMaxBpm / original * 100) / 100
                                             : std::ceil(kMinBpm / original * 100) / 100;
    return core::make_error(
        "tempo scale:" + factor_text(factor) + " would make the " + factor_text(original) +
            " BPM at " + position_text(ctx.song(), it->first) + " " + factor_text(it->second) +
            " BPM; tempos are 10..1000 BPM",
        {core::replace_param_token(ctx.op.raw, "scale", "scale:" + factor_text(fits))});
  }
  return {};
}

// tempo scale:F|set:BPM [@range:…]: one op over the range's tempo map; the tempo after the range
// stays what it was.
core::Result<void> tempo_over_range(OpContext& ctx) {
  const std::optional<double> factor = ctx.op.number("scale");
  const std::optional<double> bpm = ctx.op.number("set");
  if (!ctx.op.positionals.empty()) {
    const std::string key = factor ? "scale" : "set";
    return core::make_error("tempo " + key + ": takes no BPM word: tempo " + key + ":" +
                                (factor ? "F" : "BPM") + " @range:M.B-M.B",
                            {without_token(ctx.op.raw, ctx.op.positionals[0])});
  }
  auto range = tempo_range(ctx);
  if (!range) return range.error();
  const Song& song = ctx.song();
  const std::map<Tick, double> before = song.conductor().tempos;
  std::map<Tick, double> after = before;
  const double held_at_stop = song.tempo_at(range->stop);
  const TempoEdit edit = edit_tempos(after, *range, factor, bpm);
  if (factor) {
    if (auto fits = check_scaled(ctx, before, after, *range, *factor); !fits) return fits.error();
  }
  // The tempo after the range, as it was: restored where the range ends, unless an event is
  // there already, nothing changed, or nothing of the song follows the range (a tempo event
  // there would lengthen the file).
  const bool other_at_stop = !range->given || after.contains(range->stop) ||
                             std::prev(after.upper_bound(range->stop))->second == held_at_stop;
  const bool follows = range->given && range->stop <= content_end(song);
  if (!other_at_stop && follows) after[range->stop] = held_at_stop;
  const std::string over =
      range->given ? "over " + range_text(song, range->start, range->stop) : "over the whole song";
  const std::string what =
      "tempo " + (factor ? "×" + factor_text(*factor) : bpm_text(*bpm) + " BPM") + " " + over;
  if (after == before) {
    ctx.lines.push_back(core::warning_line(what + " changes nothing"));
    return {};
  }
  ctx.edit.update_conductor([&](Conductor& c) { c.tempos = after; });

  std::string line = "T" + what.substr(1) + ": " + core::plural(edit.changed, "tempo event") + " " +
                     (factor ? "scaled" : "set");
  if (edit.removed > 0) line += ", " + std::to_string(edit.removed) + " removed";
  ctx.lines.push_back(core::property_changed(line));
  if (edit.added_from) {
    ctx.lines.push_back(core::created("Tempo " + bpm_text(after.at(range->start)) + " BPM at " +
                                      position_text(song, range->start) + " (" +
                                      bpm_text(*edit.added_from) + " BPM was in force there)"));
  }
  if (!other_at_stop && follows) {
    ctx.lines.push_back(core::created("Tempo " + bpm_text(held_at_stop) + " BPM at " +
                                      position_text(song, range->stop) +
                                      " (the tempo after the range, as before)"));
  } else if (!other_at_stop) {
    ctx.lines.push_back(core::warning_line(
        "nothing follows the range yet, so no tempo is restored after it; to keep " +
        bpm_text(held_at_stop) + " BPM from there: tempo " + bpm_text(held_at_stop) +
        " at:" + position_text(song, range->stop)));
  }
  return {};
}

}  // namespace

core::Result<void> verb_tempo(OpContext& ctx) {
  if (ctx.op.has_param("scale") || ctx.op.has_param("set")) return tempo_over_range(ctx);
  if (!ctx.op.selectors.empty()) {
    const std::string bpm = ctx.op.positionals.empty() ? "120" : ctx.op.positionals[0];
    std::string hint = "tempo set:" + bpm;
    for (const auto& selector : ctx.op.selectors)
      hint += " " + selector.raw;
    return core::make_error(
        "tempo BPM sets one tempo at at:; a range takes tempo set:BPM or scale:F @range:M.B-M.B",
        {hint});
  }
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
