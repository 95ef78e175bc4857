// midi_query: map, tracks, events, describe, stats, find, piano-roll, tracker and instruments,
// in the reference server's formats. Each query is linear in what it reads (one track's
// indexes, or the whole song for map/stats/find) plus a sort of what it prints; nothing is
// quadratic. Output that could grow with the song (events, find, tracker) is capped.
#include "domains/midi/queries.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/tokenizer.hpp"
#include "domains/midi/conductor_view.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/song_text.hpp"
#include "domains/midi/theory/controllers.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/duration.hpp"
#include "domains/midi/theory/gm.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/position.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

constexpr int kDrumChannel = 9;
constexpr std::size_t kMaxLines = 500;        // events, find, tracker steps
constexpr std::size_t kMaxListed = 24;        // tempo/meter/key changes and markers in `map`
constexpr std::size_t kMaxRollColumns = 64;   // piano-roll width
constexpr std::size_t kMaxTrackerTracks = 4;  // multi-track tracker view

// ---- text helpers -------------------------------------------------------------------------------

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i > 0 ? std::string(separator) : std::string()) + parts[i];
  return out;
}

// Up to kMaxListed items joined with ", ", then "… N more (query: VIEW)": the view lists them all.
std::string capped_list(const std::vector<std::string>& items, ConductorView view) {
  if (items.size() <= kMaxListed) return join(items, ", ");
  std::vector<std::string> shown(items.begin(), items.begin() + kMaxListed);
  return join(shown, ", ") + ", … " + std::to_string(items.size() - kMaxListed) +
         " more (query: " + std::string(conductor_view_word(view)) + ")";
}

std::string hex_byte(int value) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%02X", value & 0xFF);
  return buffer;
}

// m:ss.cc
std::string clock_text(double seconds) {
  const long long centis = std::llround(std::max(0.0, seconds) * 100.0);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%lld:%02lld.%02lld", centis / 6000, centis % 6000 / 100,
                centis % 100);
  return buffer;
}

// ---- song helpers -------------------------------------------------------------------------------

std::string pos(const Song& song, Tick tick) {
  return position_text(song, tick);
}

bool is_drum(const Track& track) {
  return track.channel == kDrumChannel;
}

int measures(const Song& song) {
  const Tick end = song.end_tick();
  return end == 0 ? 0 : song.conductor().meter.bar_of(end - 1);
}

// "bank:1.2", or "" when the track sets no bank at tick 0.
std::string bank_text(const Song& song, EntityId track) {
  const auto [msb, lsb] = song.bank_of(track);
  if (!msb && !lsb) return "";
  return "bank:" + std::to_string(msb.value_or(0)) + "." + std::to_string(lsb.value_or(0));
}

struct ControlCounts {
  std::size_t cc = 0, bend = 0, program = 0, pressure = 0;
};

ControlCounts count_controls(const Song& song, EntityId track) {
  ControlCounts counts;
  for (const auto& [tick, id] : song.controls().of_track(track)) {
    switch (song.controls().find(id)->kind) {
      case ControlKind::cc:
        ++counts.cc;
        break;
      case ControlKind::bend:
        ++counts.bend;
        break;
      case ControlKind::program:
        ++counts.program;
        break;
      default:
        ++counts.pressure;
        break;
    }
  }
  return counts;
}

// ---- the query's words
// ---------------------------------------------------------------------------

struct Query {
  std::string verb;
  std::vector<core::Token> tokens;

  std::size_t size() const { return tokens.size(); }
  const std::string& operator[](std::size_t i) const { return tokens[i].text; }
  // The query with token `i` replaced (a pasteable hint).
  std::string with(std::size_t i, std::string_view replacement) const {
    std::string out = verb;
    for (std::size_t t = 0; t < tokens.size(); ++t)
      out += " " + (t == i ? std::string(replacement) : core::quote_token(tokens[t].text));
    return out;
  }
  // The value of the first `key:VALUE` token (unquoted), erasing it from the positionals.
  std::optional<std::string> take_param(std::string_view key) {
    const std::string prefix = std::string(key) + ":";
    for (auto it = tokens.begin(); it != tokens.end(); ++it) {
      if (!it->quoted && core::to_lower(it->text).starts_with(prefix)) {
        std::string value = it->text.substr(prefix.size());
        tokens.erase(it);
        return value;
      }
    }
    return std::nullopt;
  }
};

std::string example_track(const Song& song) {
  return song.tracks().empty() ? std::string("Piano")
                               : core::quote_token(song.tracks().front().name);
}

core::Error missing_track(const Song& song, std::string_view verb, std::string_view range) {
  const std::string name = example_track(song);
  std::vector<std::string> hints{std::string(verb) + " " + name};
  if (!range.empty()) hints.back() += " " + std::string(range);
  return core::make_error("missing track name: " + std::string(verb) + " TRACK" +
                              (range.empty() ? "" : " " + std::string(range)),
                          std::move(hints));
}

// A track by name, as ops resolve it; the errors' hints are the query corrected.
core::Result<const Track*> find_track(const Song& song, const Query& query, std::size_t index,
                                      std::string_view name) {
  auto id =
      resolve_track_name(song, name, query.with(index, core::quote_token(name)), Asker::query);
  if (!id) return id.error();
  return song.track(*id);
}

// The range of query word `index` as @range reads it (the end beat included; `7-8` is bars 7
// and 8), so every view covers the same notes; errors offer the query with a valid range.
core::Result<std::pair<Tick, Tick>> query_range(const Song& song, const Query& query,
                                                std::size_t index) {
  auto range = parse_range(song, query[index], true);
  if (!range) return core::make_error(range.error().message, {query.with(index, "1-4")});
  return range;
}

// ---- map, tracks, stats, describe ---------------------------------------------------------------

std::vector<std::string> conductor_lines(const Song& song) {
  const Conductor& c = song.conductor();
  std::vector<std::string> lines;
  std::vector<std::string> items;
  for (auto it = std::next(c.tempos.begin()); it != c.tempos.end(); ++it)
    items.push_back(bpm_text(it->second) + "@" + pos(song, it->first));
  if (!items.empty()) lines.push_back("Tempo changes: " + capped_list(items, ConductorView::tempo));
  items.clear();
  for (std::size_t i = 1; i < c.meter.changes().size(); ++i) {
    const auto& change = c.meter.changes()[i];
    items.push_back(meter_text(change.numerator, change.denominator) + "@" +
                    pos(song, change.tick));
  }
  if (!items.empty()) lines.push_back("Meter changes: " + capped_list(items, ConductorView::meter));
  items.clear();
  for (auto it = std::next(c.keys.begin()); it != c.keys.end(); ++it)
    items.push_back(key_text(it->second) + "@" + pos(song, it->first));
  if (!items.empty()) lines.push_back("Key changes: " + capped_list(items, ConductorView::key));
  items.clear();
  for (const auto& [tick, text] : c.markers)
    items.push_back(text + "@" + pos(song, tick));
  if (!items.empty()) lines.push_back("Markers: " + capped_list(items, ConductorView::markers));
  return lines;
}

// The song's counts, as stats shows them.
core::QueryData song_data(const Song& song) {
  std::size_t ccs = 0, bends = 0;
  song.controls().for_each([&](const Control& control) {
    if (control.kind == ControlKind::cc) ++ccs;
    if (control.kind == ControlKind::bend) ++bends;
  });
  core::QueryData data;
  data.counts = {{"tracks", static_cast<std::int64_t>(song.tracks().size())},
                 {"notes", static_cast<std::int64_t>(song.notes().size())},
                 {"ccs", static_cast<std::int64_t>(ccs)},
                 {"bends", static_cast<std::int64_t>(bends)},
                 {"events", static_cast<std::int64_t>(song.notes().size() + song.controls().size() +
                                                      song.raws().size())},
                 {"measures", static_cast<std::int64_t>(measures(song))}};
  return data;
}

// A track as map and describe show it: a track's reference is its name.
core::QueryItem track_item(const Song& song, const Track& track) {
  return core::QueryItem{track.name,
                         track.name,
                         is_drum(track) ? "drum track" : "track",
                         {{"channel", static_cast<std::int64_t>(track.channel + 1)},
                          {"instrument", instrument_text(song, track.id)},
                          {"notes", static_cast<std::int64_t>(song.notes().count(track.id))},
                          {"muted", track.muted},
                          {"solo", track.solo}}};
}

core::QueryAnswer query_map(const MidiDocument& doc) {
  const Song& song = doc.song();
  core::QueryData data = song_data(song);
  const auto& meter = song.conductor().meter.changes().front();
  core::ReplyText out;
  out.add("Song: " + doc.title());
  out.add("tempo:" + bpm_text(song.tempo_at(0)) + " | " +
          meter_text(meter.numerator, meter.denominator) + " | " + key_text(song.key_at(0)) +
          " | ppqn:" + std::to_string(song.ppqn()));
  out.add_all(conductor_lines(song));
  out.add("Tracks (" + std::to_string(song.tracks().size()) + "):");
  std::size_t number = 0;
  for (const auto& track : song.tracks()) {
    std::string line = "  " + std::to_string(++number) + ". " + track.name +
                       " ch:" + std::to_string(track.channel + 1) + " " +
                       instrument_text(song, track.id) + " (" +
                       core::plural(song.notes().count(track.id), "note") + ")";
    if (track.muted) line += " [M]";
    if (track.solo) line += " [S]";
    out.add(std::move(line));
    data.add(track_item(song, track));
  }
  out.add(doc.digest());
  return {out.str(), std::move(data)};
}

// midi's list: each track as the text shows it, with its cc and bend counts.
core::QueryAnswer query_tracks(const Song& song) {
  core::QueryData data = song_data(song);
  core::ReplyText out;
  out.add("Tracks (" + std::to_string(song.tracks().size()) + "):");
  std::size_t number = 0;
  for (const auto& track : song.tracks()) {
    const ControlCounts counts = count_controls(song, track.id);
    std::string line = "  " + std::to_string(++number) + ". " + track.name +
                       " (ch:" + std::to_string(track.channel + 1) + ") " +
                       instrument_text(song, track.id);
    if (auto bank = bank_text(song, track.id); !bank.empty()) line += " " + bank;
    line += " | " + core::plural(song.notes().count(track.id), "note") + ", " +
            std::to_string(counts.cc) + " cc, " + core::plural(counts.bend, "bend");
    if (counts.program > 1) line += ", " + core::plural(counts.program - 1, "program change");
    if (counts.pressure > 0) line += ", " + std::to_string(counts.pressure) + " aftertouch";
    if (auto raws = song.raws().count(track.id); raws > 0)
      line += ", " + core::plural(raws, "other event");
    if (track.muted) line += " [MUTED]";
    if (track.solo) line += " [SOLO]";
    out.add(std::move(line));
    core::QueryItem item = track_item(song, track);
    item.fields.emplace_back("ccs", static_cast<std::int64_t>(counts.cc));
    item.fields.emplace_back("bends", static_cast<std::int64_t>(counts.bend));
    data.add(std::move(item));
  }
  if (song.tracks().empty()) out.add("  (none: track add Piano instrument:acoustic-grand-piano)");
  return {out.str(), std::move(data)};
}

std::string with_changes(std::string text, std::size_t changes) {
  if (changes > 0) text += " (" + core::plural(changes, "change") + ")";
  return text;
}

core::QueryAnswer query_stats(const MidiDocument& doc) {
  const Song& song = doc.song();
  const Conductor& c = song.conductor();
  const auto& meter = c.meter.changes().front();
  std::size_t ccs = 0, bends = 0;
  song.controls().for_each([&](const Control& control) {
    if (control.kind == ControlKind::cc) ++ccs;
    if (control.kind == ControlKind::bend) ++bends;
  });
  const std::size_t others = song.controls().size() - ccs - bends;
  core::ReplyText out;
  out.add("Song: " + doc.title());
  out.add(with_changes("Tempo: " + bpm_text(song.tempo_at(0)) + " BPM", c.tempos.size() - 1));
  out.add(with_changes("Time sig: " + meter_text(meter.numerator, meter.denominator),
                       c.meter.changes().size() - 1));
  out.add(with_changes("Key: " + key_text(song.key_at(0)), c.keys.size() - 1));
  out.add("PPQN: " + std::to_string(song.ppqn()));
  out.add("Tracks: " + std::to_string(song.tracks().size()));
  out.add("Notes: " + std::to_string(song.notes().size()));
  out.add("CCs: " + std::to_string(ccs));
  out.add("Pitch bends: " + std::to_string(bends));
  if (others > 0) out.add("Programs and aftertouch: " + std::to_string(others));
  if (song.raws().size() > 0) out.add("Other events: " + std::to_string(song.raws().size()));
  if (!c.markers.empty()) out.add("Markers: " + std::to_string(c.markers.size()));
  out.add("Total events: " +
          std::to_string(song.notes().size() + song.controls().size() + song.raws().size()));
  out.add("Duration: " + clock_text(song.seconds_at(song.end_tick())));
  out.add("Measures: " + std::to_string(measures(song)));
  return {out.str(), song_data(song)};
}

std::string instrument_line(const Song& song, const Track& track) {
  const auto program = song.program_of(track.id);
  std::string text = instrument_text(song, track.id);
  if (program) text += " (program:" + std::to_string(*program) + ")";
  return text;
}

void add_note_ranges(core::ReplyText& out, const Song& song, const Track& track) {
  int low = 128, high = -1, soft = 128, loud = -1;
  Tick first = 0, last = 0, low_at = 0, high_at = 0;  // where the lowest and highest notes start
  bool any = false;
  for (const auto& [tick, id] : song.notes().of_track(track.id)) {
    const Note& note = *song.notes().find(id);
    if (note.pitch < low) std::tie(low, low_at) = std::pair(note.pitch, tick);
    if (note.pitch > high) std::tie(high, high_at) = std::pair(note.pitch, tick);
    soft = std::min(soft, note.velocity);
    loud = std::max(loud, note.velocity);
    if (!any) first = tick;
    last = std::max(last, tick + note.duration);
    any = true;
  }
  if (!any) {
    out.add("Pitch range: none");
    out.add("Velocity range: none");
    out.add("Time span: none");
    return;
  }
  out.add("Pitch range: " + pitch_text(song, track, low, low_at) + " - " +
          pitch_text(song, track, high, high_at));
  out.add("Velocity range: " + std::to_string(soft) + "-" + std::to_string(loud));
  out.add("Time span: " + pos(song, first) + " - " + pos(song, last));
}

core::Result<core::QueryAnswer> query_describe(const Song& song, const Query& query) {
  if (query.size() == 0) return missing_track(song, "describe", "");
  core::QueryData data = song_data(song);
  auto found = find_track(song, query, 0, query[0]);
  if (!found) return found.error();
  const Track& track = **found;
  const ControlCounts counts = count_controls(song, track.id);
  const std::string bank = bank_text(song, track.id);
  core::ReplyText out;
  out.add("Track: " + track.name);
  out.add("Channel: " + std::to_string(track.channel + 1) + (is_drum(track) ? " (drums)" : ""));
  out.add("Instrument: " + instrument_line(song, track));
  out.add("Bank: " + (bank.empty() ? std::string("none") : bank.substr(5)));
  if (counts.program > 1) out.add("Program changes: " + std::to_string(counts.program - 1));
  out.add("Notes: " + std::to_string(song.notes().count(track.id)));
  out.add("CCs: " + std::to_string(counts.cc));
  out.add("Pitch bends: " + std::to_string(counts.bend));
  if (counts.pressure > 0) out.add("Aftertouch: " + std::to_string(counts.pressure));
  if (auto raws = song.raws().count(track.id); raws > 0)
    out.add("Other events: " + std::to_string(raws));
  out.add(std::string("Muted: ") + (track.muted ? "yes" : "no"));
  out.add(std::string("Solo: ") + (track.solo ? "yes" : "no"));
  add_note_ranges(out, song, track);
  data.add(track_item(song, track));
  return core::QueryAnswer{out.str(), std::move(data)};
}

// ---- events -------------------------------------------------------------------------------------

std::string event_row(const Song& song, Tick tick, const std::string& body) {
  return "  " + padded(pos(song, tick), 8) + " " + body;
}

std::string channel_suffix(const Track& track, int channel) {
  return channel == track.channel ? "" : " ch:" + std::to_string(channel + 1);
}

std::string note_body(const Song& song, const Track& track, const Note& note) {
  return padded(pitch_text(song, track, note.pitch, note.tick), 4) +
         " vel:" + std::to_string(note.velocity) +
         " dur:" + duration_text(song, note.duration, note.tick) +
         channel_suffix(track, note.channel);
}

std::string control_body(const Song& song, const Track& track, const Control& control) {
  std::string body;
  switch (control.kind) {
    case ControlKind::cc: {
      const auto name = theory::controller_name(control.number);
      body = "CC " + (name.empty() ? std::to_string(control.number) : std::string(name)) + "=" +
             std::to_string(control.value);
      break;
    }
    case ControlKind::bend:
      body = "Bend=" + std::to_string(control.value);
      break;
    case ControlKind::program: {
      const auto* instrument = theory::instrument_by_program(control.value);
      const bool kit = control.channel == kDrumChannel || instrument == nullptr;
      body = "Program " + (kit ? std::string("kit") : std::string(instrument->name)) + " (" +
             std::to_string(control.value) + ")";
      break;
    }
    case ControlKind::channel_pressure:
      body = "Aftertouch=" + std::to_string(control.value);
      break;
    case ControlKind::key_pressure:
      body = "Aftertouch " + pitch_text(song, track, control.number, control.tick) + "=" +
             std::to_string(control.value);
      break;
  }
  return body + channel_suffix(track, control.channel);
}

std::string meta_label(int type) {
  switch (type) {
    case 0x01:
      return "Text";
    case 0x02:
      return "Copyright";
    case 0x03:
      return "Name";
    case 0x04:
      return "Instrument";
    case 0x05:
      return "Lyric";
    case 0x06:
      return "Marker";
    case 0x07:
      return "Cue";
    case 0x08:
      return "Program name";
    case 0x09:
      return "Device";
    default:
      return "";
  }
}

std::string raw_body(const RawEvent& raw) {
  const smf::Event& event = raw.event;
  const std::string bytes = core::plural(event.data.size(), "byte");
  if (event.is_sysex()) return std::string(event.status == 0xF7 ? "SysEx (F7) " : "SysEx ") + bytes;
  if (event.is_meta()) {
    const std::string label = meta_label(event.meta_type);
    if (!label.empty()) return label + " " + quoted_text(event.data);
    return "Meta 0x" + hex_byte(event.meta_type) + " " + bytes;
  }
  std::string body = "MIDI " + hex_byte(event.status);
  for (char c : event.data)
    body += " " + hex_byte(static_cast<unsigned char>(c));
  return body;
}

// One track's notes, controls and raw events with onsets in [start, stop), merged in time
// order (at one tick: controls, then notes, then raw events, each by creation). Calls `emit`
// with each row until it refuses one; returns the number of events not emitted.
template <class Emit>
std::size_t merge_events(const Song& song, const Track& track, Tick start, Tick stop, Emit emit) {
  const auto cs = song.controls().of_track(track.id);
  const auto ns = song.notes().of_track(track.id);
  const auto rs = song.raws().of_track(track.id);
  const std::pair<Tick, EntityId> from{start, 0};
  auto c = cs.lower_bound(from);
  auto n = ns.lower_bound(from);
  auto r = rs.lower_bound(from);
  const auto live = [&](auto it, const auto& set) { return it != set.end() && it->first < stop; };
  std::size_t refused = 0;
  bool open = true;
  const auto offer = [&](Tick tick, const auto& make_body) {
    if (open) open = emit(tick, make_body());
    if (!open) ++refused;
  };
  while (live(c, cs) || live(n, ns) || live(r, rs)) {
    const Tick tc = live(c, cs) ? c->first : stop;
    const Tick tn = live(n, ns) ? n->first : stop;
    const Tick tr = live(r, rs) ? r->first : stop;
    if (live(c, cs) && tc <= tn && tc <= tr) {
      offer(tc, [&] { return control_body(song, track, *song.controls().find(c->second)); });
      ++c;
    } else if (live(n, ns) && tn <= tr) {
      offer(tn, [&] { return note_body(song, track, *song.notes().find(n->second)); });
      ++n;
    } else {
      offer(tr, [&] { return raw_body(*song.raws().find(r->second)); });
      ++r;
    }
  }
  return refused;
}

// `events @track:Bass @range:1-4` reads as `events Bass 1-4`: the selectors agents write for the
// track and the range elsewhere.
Query without_selector_prefixes(Query query) {
  for (std::size_t i = 0; i < query.size() && i < 2; ++i) {
    const std::string_view prefix = i == 0 ? "@track:" : "@range:";
    auto& token = query.tokens[i];
    if (token.quoted || token.text.size() <= prefix.size()) continue;
    if (core::to_lower(std::string_view(token.text).substr(0, prefix.size())) == prefix)
      token.text.erase(0, prefix.size());
  }
  return query;
}

core::Result<std::string> query_events(const Song& song, const Query& written) {
  const Query query = without_selector_prefixes(written);
  if (query.size() == 0) return missing_track(song, "events", "");
  std::vector<const Track*> tracks;
  const bool all = query[0] == "*" || core::to_lower(query[0]) == "all";
  if (all) {
    for (const auto& track : song.tracks())
      tracks.push_back(&track);
  } else {
    auto found = find_track(song, query, 0, query[0]);
    // `events tempo 1-4`: the conductor is no track; its view answers.
    const auto view = conductor_view_named(query[0]);
    if (!found && view && !query.tokens[0].quoted)
      return query_conductor(song, *view, std::span(query.tokens).subspan(1));
    if (!found) return found.error();
    tracks.push_back(*found);
  }
  Tick start = 0, stop = std::numeric_limits<Tick>::max();
  std::string range;
  if (query.size() > 1) {
    auto span = query_range(song, query, 1);
    if (!span) return span.error();
    std::tie(start, stop) = *span;
    range = " in " + query[1];
  }
  core::ReplyText out;
  out.add(all ? "Events on " + core::plural(tracks.size(), "track") + range + ":"
              : "Events on " + tracks.front()->name + range + ":");
  std::size_t lines = 0, hidden = 0;
  for (const Track* track : tracks) {
    if (all && lines < kMaxLines) out.add("--- " + track->name + " ---");
    std::size_t shown = 0;
    hidden += merge_events(song, *track, start, stop, [&](Tick tick, const std::string& body) {
      if (lines >= kMaxLines) return false;
      out.add(event_row(song, tick, body));
      ++lines;
      ++shown;
      return true;
    });
    if (shown == 0 && lines < kMaxLines) out.add("  (no events)");
  }
  if (hidden > 0) {
    out.add("… " + std::to_string(hidden) + " more events (narrow the range: events " +
            core::quote_token(tracks.front()->name) + " 1.1-4.4)");
  }
  return out.str();
}

// ---- find ---------------------------------------------------------------------------------------

struct PitchQuery {
  std::optional<int> pitch;        // an exact note number
  std::optional<int> pitch_class;  // any octave
};

core::Result<PitchQuery> parse_find_pitch(std::string_view text) {
  if (auto pitch = theory::parse_pitch(text)) return PitchQuery{*pitch, std::nullopt};
  // Pitch classes before drum names: drum prefixes ("e" → electric-snare) must not shadow them.
  if (auto pc = theory::parse_pitch_class(text)) return PitchQuery{std::nullopt, *pc};
  if (auto drum = theory::drum_pitch(text)) return PitchQuery{*drum, std::nullopt};
  return core::make_error("unknown pitch \"" + std::string(text) +
                              "\": use C4, F#3, midi:60, a drum name or a pitch class (C#)",
                          {"find C4", "find kick", "find F#"});
}

// One row of `find @SELECTOR…`: position, track (or "conductor") and the event.
std::string found_row(const Song& song, const SongEvent& event) {
  const Conductor& c = song.conductor();
  std::string body;
  const Track* track = song.track(event.track);
  if (event.kind == EventKind::note) {
    body = note_body(song, *track, *song.notes().find(event.id));
  } else if (track != nullptr) {
    body = control_body(song, *track, *song.controls().find(event.id));
  } else if (event.kind == EventKind::tempo) {
    body = "Tempo " + bpm_text(c.tempos.at(event.tick));
  } else if (event.kind == EventKind::key_sig) {
    body = "Key " + key_text(c.keys.at(event.tick));
  } else if (event.kind == EventKind::time_sig) {
    const auto meter = c.meter.at_tick(event.tick);
    body = "Time sig " + meter_text(meter.numerator, meter.denominator);
  } else {
    body = "Marker " + quoted_text(event.text);
  }
  return event_row(song, event.tick, padded(track ? track->name : "conductor", 10) + " " + body);
}

// find @SELECTOR…: the events the selectors choose (core's engine, as the verbs), in time order.
core::Result<std::string> find_selected(const Song& song, const Query& query,
                                        const core::EventLog& log) {
  std::vector<core::Selector> selectors;
  std::string written = "find";
  for (std::size_t i = 0; i < query.size(); ++i) {
    if (query.tokens[i].quoted || !query[i].starts_with('@')) {
      return core::make_error("find takes a pitch or selectors, not both",
                              {query.with(i, "@pitch:" + core::quote_token(query[i]))});
    }
    core::append_selectors(selectors, query[i], query.tokens[i].value_quoted);
    written += " " + query[i];
  }
  auto selection = select_events(song, selectors, log, written, Asker::query);
  if (!selection) return selection.error();
  if (selection->events.empty()) {
    std::string answer = selection->nothing_matched;
    answer.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(answer.front())));
    return answer;
  }
  auto& events = selection->events;
  std::unordered_map<EntityId, std::size_t> order;  // conductor (track 0) first
  for (std::size_t i = 0; i < song.tracks().size(); ++i)
    order[song.tracks()[i].id] = i + 1;
  std::stable_sort(events.begin(), events.end(), [&](const SongEvent& a, const SongEvent& b) {
    return std::tuple(a.tick, order[a.track]) < std::tuple(b.tick, order[b.track]);
  });
  const bool notes = std::all_of(events.begin(), events.end(),
                                 [](const SongEvent& e) { return e.kind == EventKind::note; });
  core::ReplyText out;
  out.add("Found " + core::plural(events.size(), notes ? "note" : "event") + " matching " +
          written.substr(5) + ":");
  for (std::size_t i = 0; i < events.size() && i < kMaxLines; ++i)
    out.add(found_row(song, events[i]));
  if (events.size() > kMaxLines)
    out.add("… " + std::to_string(events.size() - kMaxLines) + " more");
  return out.str();
}

core::Result<std::string> query_find(const Song& song, const Query& query,
                                     const core::EventLog& log) {
  if (query.size() == 0) return core::make_error("missing pitch: find PITCH", {"find C4"});
  for (const auto& token : query.tokens) {
    if (!token.quoted && token.text.starts_with('@')) return find_selected(song, query, log);
  }
  auto wanted = parse_find_pitch(query[0]);
  if (!wanted && parse_pitch_choice(query[0])) {  // find A0-B2, find <C3: the @pitch selector's
    Query selected = query;
    selected.tokens[0] = core::Token{"@pitch:" + query[0], false, false};
    return find_selected(song, selected, log);
  }
  if (!wanted) return wanted.error();
  std::unordered_map<EntityId, std::size_t> order;
  for (std::size_t i = 0; i < song.tracks().size(); ++i)
    order[song.tracks()[i].id] = i;
  std::vector<const Note*> found;
  song.notes().for_each([&](const Note& note) {
    const bool hit =
        wanted->pitch ? note.pitch == *wanted->pitch : note.pitch % 12 == *wanted->pitch_class;
    if (hit && order.contains(note.track)) found.push_back(&note);
  });
  std::sort(found.begin(), found.end(), [&](const Note* a, const Note* b) {
    return std::tuple(a->tick, order[a->track], a->pitch, a->id) <
           std::tuple(b->tick, order[b->track], b->pitch, b->id);
  });
  core::ReplyText out;
  out.add("Found " + std::to_string(found.size()) + " note(s) matching " + query[0] +
          (wanted->pitch_class ? " (any octave)" : "") + ":");
  for (std::size_t i = 0; i < found.size() && i < kMaxLines; ++i) {
    const Note& note = *found[i];
    const Track& track = song.tracks()[order[note.track]];
    std::string line = "  " + pos(song, note.tick) + "  " + track.name + "  ";
    if (wanted->pitch_class) line += pitch_text(song, track, note.pitch, note.tick) + "  ";
    out.add(line + "vel:" + std::to_string(note.velocity));
  }
  if (found.size() > kMaxLines) out.add("… " + std::to_string(found.size() - kMaxLines) + " more");
  return out.str();
}

// ---- piano-roll ---------------------------------------------------------------------------------

// The finest of 16th, 8th and beat whose columns fit kMaxRollColumns, else beats (truncated).
std::uint32_t roll_column_ticks(const Song& song, Tick start, Tick stop) {
  const auto ppqn = static_cast<std::uint32_t>(std::max(1, song.ppqn()));
  for (std::uint32_t ticks : {std::max(1u, ppqn / 4), std::max(1u, ppqn / 2), ppqn}) {
    if ((stop - start + ticks - 1) / ticks <= kMaxRollColumns) return ticks;
  }
  return ppqn;
}

std::string column_name(std::uint32_t ticks, int ppqn) {
  if (ticks * 4 == static_cast<std::uint32_t>(ppqn)) return "16th";
  if (ticks * 2 == static_cast<std::uint32_t>(ppqn)) return "8th";
  return theory::duration_name(ticks, ppqn);
}

core::Result<std::string> query_piano_roll(const Song& song, const Query& query) {
  const std::string usage = "piano-roll " + example_track(song) + " 1-4";
  if (query.size() < 2)
    return core::make_error("usage: piano-roll TRACK M.B-M.B (end beat included) or BARS-BARS",
                            {usage});
  auto found = find_track(song, query, 0, query[0]);
  if (!found) return found.error();
  const Track& track = **found;
  auto span = query_range(song, query, 1);
  if (!span) return span.error();
  const auto [start, stop] = *span;
  const std::uint32_t step = roll_column_ticks(song, start, stop);
  const std::size_t columns = std::min<Tick>((stop - start + step - 1) / step, kMaxRollColumns);
  const Tick shown_stop = std::min<Tick>(stop, start + columns * step);
  std::array<std::string, 128> rows;
  int low = 128, high = -1;
  for (const auto& [tick, id] : song.notes().of_track(track.id)) {
    if (tick >= shown_stop) break;
    const Note& note = *song.notes().find(id);
    const Tick end = tick + std::max<std::uint32_t>(note.duration, 1);
    if (end <= start) continue;
    std::string& row = rows[static_cast<std::size_t>(note.pitch)];
    if (row.empty()) row.assign(columns, '.');
    const Tick first = tick <= start ? 0 : (tick - start) / step;
    const Tick last =
        std::min<Tick>((std::min(end, shown_stop) - start + step - 1) / step, columns);
    for (Tick c = first; c < last; ++c)
      row[c] = '#';
    low = std::min(low, note.pitch);
    high = std::max(high, note.pitch);
  }
  core::ReplyText out;
  std::string header = "Piano roll: " + track.name + " (" + range_text(song, start, stop, " - ") +
                       ", 1 column = " + column_name(step, song.ppqn());
  if (shown_stop < stop) header += ", first " + std::to_string(columns) + " columns";
  out.add(header + ")");
  if (high < 0) {
    out.add("  (no notes in range)");
    return out.str();
  }
  low = std::max(0, low - 1);
  high = std::min(127, high + 1);
  std::size_t width = 4;
  const theory::Accidentals accidentals = accidentals_at(song, start);  // the key at the start
  for (int p = low; p <= high; ++p)
    width = std::max(width, pitch_text(track, p, accidentals).size());
  for (int p = high; p >= low; --p) {
    const std::string& row = rows[static_cast<std::size_t>(p)];
    out.add(padded(pitch_text(track, p, accidentals), width + 1) + "|" +
            (row.empty() ? std::string(columns, '.') : row) + "|");
  }
  return out.str();
}

// ---- tracker ------------------------------------------------------------------------------------

struct Resolution {
  std::string_view name;
  std::uint32_t ticks;
};

std::vector<Resolution> resolutions(int ppqn) {
  const auto q = static_cast<std::uint32_t>(std::max(1, ppqn));
  return {{"quarter", q},
          {"8th", std::max(1u, q / 2)},
          {"16th", std::max(1u, q / 4)},
          {"32nd", std::max(1u, q / 8)}};
}

core::Result<Resolution> named_resolution(const Song& song, std::string_view text,
                                          const std::string& query) {
  const std::string name = core::to_lower(text);
  const auto all = resolutions(song.ppqn());
  if (name == "quarter" || name == "4n" || name == "4th") return all[0];
  if (name == "8th" || name == "8n" || name == "eighth") return all[1];
  if (name == "16th" || name == "16n" || name == "sixteenth") return all[2];
  if (name == "32nd" || name == "32n") return all[3];
  return core::make_error("invalid res:" + std::string(text) + " (quarter, 8th, 16th or 32nd)",
                          {query + " res:16th"});
}

struct StepNote {
  std::size_t track = 0;  // index into the view's tracks
  const Track* owner = nullptr;
  Tick tick = 0;
  const Note* note = nullptr;
};

// Signed distance of a note's start from the view's start (a note may start just before it).
long long offset_of(const StepNote& n, Tick start) {
  return static_cast<long long>(n.tick) - static_cast<long long>(start);
}

bool fits(long long offset, std::uint32_t step) {
  const long long rest = ((offset % step) + step) % step;
  return rest <= 1 || step - rest <= 1;
}

// The step a note is shown on: the nearest one, 0 for the view's start (negative before it).
long long nearest_step(const StepNote& n, Tick start, std::uint32_t step) {
  const long long offset = offset_of(n, start) + step / 2;
  return offset >= 0 ? offset / step : -((-offset + step - 1) / step);
}

// Whether the note's nearest step on a grid of `step` ticks lies in [start, stop).
bool shown_on_grid(const StepNote& n, Tick start, Tick stop, std::uint32_t step) {
  const long long k = nearest_step(n, start, step);
  return k >= 0 && start + static_cast<Tick>(k) * step < stop;
}

// The coarsest grid on which every start and end of the notes it shows fits within ±1 tick;
// 16th when none does.
Resolution detect_resolution(const Song& song, const std::vector<StepNote>& notes, Tick start,
                             Tick stop) {
  const auto all = resolutions(song.ppqn());
  for (const auto& res : all) {
    const bool ok = std::all_of(notes.begin(), notes.end(), [&](const StepNote& n) {
      return !shown_on_grid(n, start, stop, res.ticks) ||
             (fits(offset_of(n, start), res.ticks) &&
              fits(offset_of(n, start) + n.note->duration, res.ticks));
    });
    if (ok) return res;
  }
  return all[2];
}

// PITCH_vVEL_STEPS (the view wraps it in brackets): drum names on drum tracks, else spelled by
// the key where the note starts; the names every other view shows.
std::string step_token(const Song& song, const StepNote& n, std::uint32_t step) {
  const Tick steps = std::max<Tick>(1, (n.note->duration + step / 2) / step);
  return pitch_text(song, *n.owner, n.note->pitch, n.tick) + "_v" +
         std::to_string(n.note->velocity) + "_" + std::to_string(steps);
}

// The notes that may be shown on a step of [start, stop): those starting in it, and those up to
// half a quarter before it (the coarsest step's tolerance; keep_shown drops the rest).
void collect_steps(const Song& song, const Track& track, std::size_t index, Tick start, Tick stop,
                   std::vector<StepNote>& out) {
  const Tick early = std::min<Tick>(start, static_cast<Tick>(std::max(1, song.ppqn())) / 2);
  const auto set = song.notes().of_track(track.id);
  for (auto it = set.lower_bound({start - early, 0}); it != set.end() && it->first < stop; ++it)
    out.push_back({index, &track, it->first, song.notes().find(it->second)});
}

// Keeps the notes whose nearest step lies in [start, stop): a note humanized a few ticks before
// a step is shown on it, one nearer the step after the range is left to the next range.
void keep_shown(std::vector<StepNote>& notes, Tick start, Tick stop, std::uint32_t step) {
  std::erase_if(notes, [&](const StepNote& n) { return !shown_on_grid(n, start, stop, step); });
}

// Rows "Step NN: …" for notes sorted by (step, track, pitch); `render` makes one row's body.
template <class Render>
void add_step_rows(core::ReplyText& out, std::vector<StepNote>& notes, Tick start,
                   std::uint32_t step, Render render) {
  const auto step_of = [&](const StepNote& n) {
    return static_cast<Tick>(nearest_step(n, start, step)) + 1;
  };
  std::sort(notes.begin(), notes.end(), [&](const StepNote& a, const StepNote& b) {
    return std::tuple(step_of(a), a.track, a.note->pitch, a.note->id) <
           std::tuple(step_of(b), b.track, b.note->pitch, b.note->id);
  });
  const std::size_t digits =
      notes.empty() ? 2 : std::max<std::size_t>(2, std::to_string(step_of(notes.back())).size());
  std::size_t rows = 0, i = 0;
  while (i < notes.size()) {
    std::size_t j = i;
    while (j < notes.size() && step_of(notes[j]) == step_of(notes[i]))
      ++j;
    if (rows++ < kMaxLines) {
      std::string number = std::to_string(step_of(notes[i]));
      number.insert(0, digits - std::min(digits, number.size()), '0');
      out.add("Step " + number + ": " + render(notes, i, j));
    }
    i = j;
  }
  if (rows > kMaxLines) out.add("… " + std::to_string(rows - kMaxLines) + " more steps");
  if (rows == 0) out.add("(no notes start in this range)");
}

// `res` when given (`query` is the view's query without it, for the hint), else detected.
core::Result<Resolution> pick_resolution(const Song& song, const std::optional<std::string>& res,
                                         const std::string& query,
                                         const std::vector<StepNote>& notes, Tick start,
                                         Tick stop) {
  if (res) return named_resolution(song, *res, query);
  return detect_resolution(song, notes, start, stop);
}

core::Result<std::string> tracker_single(const Song& song, const std::string& query,
                                         const Track& track, Tick start, Tick stop,
                                         const std::optional<std::string>& res) {
  std::vector<StepNote> notes;
  collect_steps(song, track, 0, start, stop, notes);
  auto resolution = pick_resolution(song, res, query, notes, start, stop);
  if (!resolution) return resolution.error();
  const std::uint32_t step = resolution->ticks;
  keep_shown(notes, start, stop, step);
  core::ReplyText out;
  out.add("[Resolution: " + std::string(resolution->name) + "]");
  out.add("[Track: " + track.name + " (" + instrument_text(song, track.id) +
          ") | Range: " + range_text(song, start, stop, "-") + "]");
  add_step_rows(out, notes, start, step, [&](const auto& all, std::size_t i, std::size_t j) {
    std::vector<std::string> tokens;
    for (std::size_t k = i; k < j; ++k)
      tokens.push_back("[" + step_token(song, all[k], step) + "]");
    return join(tokens, ", ");
  });
  return out.str();
}

core::Result<std::string> tracker_multi(const Song& song, const std::string& query,
                                        std::vector<const Track*> tracks,
                                        const std::vector<std::string>& missing, Tick start,
                                        Tick stop, const std::optional<std::string>& res) {
  const std::size_t omitted =
      tracks.size() > kMaxTrackerTracks ? tracks.size() - kMaxTrackerTracks : 0;
  tracks.resize(std::min(tracks.size(), kMaxTrackerTracks));
  std::vector<StepNote> notes;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    collect_steps(song, *tracks[i], i, start, stop, notes);
    names.push_back(tracks[i]->name);
  }
  auto resolution = pick_resolution(song, res, query, notes, start, stop);
  if (!resolution) return resolution.error();
  const std::uint32_t step = resolution->ticks;
  keep_shown(notes, start, stop, step);
  core::ReplyText out;
  out.add("[Resolution: " + std::string(resolution->name) + "]");
  out.add("[Tracks: " + join(names, ", ") + " | Range: " + range_text(song, start, stop, "-") +
          "]");
  add_step_rows(out, notes, start, step, [&](const auto& all, std::size_t i, std::size_t j) {
    std::string row;
    for (std::size_t k = i; k < j;) {
      const std::size_t t = all[k].track;
      std::vector<std::string> tokens;
      for (; k < j && all[k].track == t; ++k)
        tokens.push_back(step_token(song, all[k], step));
      row += (row.empty() ? "" : " ") + names[t] + "[" + join(tokens, ", ") + "]";
    }
    return row;
  });
  if (omitted > 0) out.add("(+" + std::to_string(omitted) + " more tracks omitted)");
  if (!missing.empty()) {
    std::vector<std::string> all_names;
    for (const auto& track : song.tracks())
      all_names.push_back(track.name);
    std::string line = "? Tracks not found: " + join(missing, ", ");
    std::vector<std::string> close;
    for (const auto& name : missing) {
      for (auto& c : core::closest_matches(name, all_names, 1))
        close.push_back(std::move(c));
    }
    if (!close.empty()) line += " (did you mean " + join(close, ", ") + "?)";
    out.add(line);
  }
  return out.str();
}

std::vector<std::string> split_names(std::string_view text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= text.size()) {
    const auto comma = std::min(text.find(',', from), text.size());
    std::string_view name = core::trim(text.substr(from, comma - from));
    if (!name.empty()) out.emplace_back(name);
    from = comma + 1;
  }
  return out;
}

core::Result<std::string> query_tracker(const Song& song, Query query) {
  const std::optional<std::string> res = query.take_param("res");
  const std::string usage = "tracker " + example_track(song) + " 1-4";
  if (query.size() < 2) {
    return core::make_error(
        "usage: tracker TRACK M.B-M.B [res:quarter|8th|16th|32nd] or tracker A,B|* M.B-M.B",
        {usage});
  }
  auto span = query_range(song, query, 1);
  if (!span) return span.error();
  const bool all = query[0] == "*";
  const std::vector<std::string> names = split_names(query[0]);
  if (!all && names.size() == 1 && !query.tokens[0].text.ends_with(',')) {
    auto found = find_track(song, query, 0, names.front());
    if (!found) return found.error();
    return tracker_single(song, query.with(query.size(), ""), **found, span->first, span->second,
                          res);
  }
  std::vector<const Track*> tracks;
  std::vector<std::string> missing;
  if (all) {
    for (const auto& track : song.tracks())
      tracks.push_back(&track);
  }
  for (const auto& name : all ? std::vector<std::string>{} : names) {
    auto found = find_track(song, query, 0, name);
    if (found) {
      tracks.push_back(*found);
    } else {
      missing.push_back(name);
    }
  }
  if (tracks.empty()) {
    if (all) return core::make_error("the song has no tracks", {"track add Piano"});
    auto first = find_track(song, query, 0, names.empty() ? query[0] : names.front());
    return first.error();
  }
  return tracker_multi(song, query.with(query.size(), ""), std::move(tracks), missing, span->first,
                       span->second, res);
}

// ---- drums --------------------------------------------------------------------------------------

// Every drum note with the name views show and the other names accepted; a filter keeps the
// notes one of whose names contains it.
core::Result<std::string> query_drums(const Query& query) {
  const std::string filter = query.size() > 0 ? core::to_lower(query[0]) : "";
  const auto matches = [&](std::string_view name) {
    return filter.empty() || std::string(name).find(filter) != std::string::npos;
  };
  std::vector<std::string> lines;
  for (const auto& drum : theory::drum_notes()) {
    std::vector<std::string> others;
    bool hit = matches(drum.name);
    if (drum.gm_name != drum.name) others.emplace_back(drum.gm_name);
    for (const auto& [alias, pitch] : theory::drum_aliases()) {
      if (pitch == drum.pitch) others.emplace_back(alias);
    }
    for (const auto& other : others)
      hit = hit || matches(other);
    if (!hit) continue;
    std::string line = "  " + std::to_string(drum.pitch) + " " + std::string(drum.name);
    if (!others.empty()) line += " (also " + join(others, ", ") + ")";
    lines.push_back(std::move(line));
  }
  if (lines.empty()) {
    return core::make_error("no drum name contains \"" + filter + "\"",
                            {"drums", "drums tom", "drums hat"});
  }
  core::ReplyText out;
  out.add("Drum names on channel 10 (" + std::to_string(lines.size()) +
          "; views show the first, every name is accepted):");
  out.add_all(std::move(lines));
  if (filter.empty()) {
    std::vector<std::string> kits;  // the first name of each program, its others in brackets
    std::vector<std::string> others;
    int program = -1;
    const auto flush = [&] {
      if (!others.empty()) kits.back() += "; also " + join(others, ", ");
      if (!kits.empty()) kits.back() += ")";
      others.clear();
    };
    for (const auto& [kit, number] : theory::drum_kits()) {
      if (number == program) {
        others.emplace_back(kit);
        continue;
      }
      flush();
      program = number;
      kits.push_back(std::string(kit) + " (program:" + std::to_string(number));
    }
    flush();
    out.add("Kits (instrument: of a drum track): " + join(kits, ", "));
  }
  return out.str();
}

// ---- instruments --------------------------------------------------------------------------------

// Whether an alias of the program ("vibes", "rhodes") contains `filter`.
bool alias_matches(int program, std::string_view filter) {
  const auto& aliases = theory::instrument_aliases();
  return std::any_of(aliases.begin(), aliases.end(), [&](const auto& alias) {
    return alias.second == program && alias.first.find(filter) != std::string_view::npos;
  });
}

core::Result<std::string> query_instruments(const MidiDocument& doc, Query query) {
  const std::optional<std::string> source = query.take_param("source");
  if (source && *source != "gm" && *source != "soundfont") {
    return core::make_error("invalid source:" + *source + " (gm or soundfont)",
                            {"instruments source:gm", "instruments source:soundfont"});
  }
  const std::string filter = query.size() > 0 ? core::to_lower(query[0]) : "";
  const auto& presets = doc.soundfont_presets();
  if (source == "soundfont" && presets.empty()) {
    return core::make_error("no SoundFont loaded",
                            {"load-soundfont ./GeneralUser.sf2", "instruments source:gm"});
  }
  std::vector<std::string> lines;
  if (source != "soundfont") {
    for (const auto& instrument : theory::gm_instruments()) {
      if (!filter.empty() && instrument.name.find(filter) == std::string_view::npos &&
          instrument.family.find(filter) == std::string_view::npos &&
          !alias_matches(instrument.program, filter))
        continue;
      lines.push_back("  " + std::string(instrument.name) +
                      "  program:" + std::to_string(instrument.program));
    }
  }
  if (source != "gm") {
    for (const auto& preset : presets) {
      if (!filter.empty() && core::to_lower(preset.name).find(filter) == std::string::npos)
        continue;
      lines.push_back("  " + preset.name + "  program:" + std::to_string(preset.program) +
                      " [soundfont] bank:" + std::to_string(preset.bank) + ".0");
    }
  }
  if (lines.empty()) {
    std::vector<std::string> names, hints;
    for (const auto& instrument : theory::gm_instruments())
      names.emplace_back(instrument.name);
    for (const auto& close : core::closest_matches(filter, names, 3))
      hints.push_back("instruments " + close);
    if (hints.empty()) hints.emplace_back("instruments");
    return core::make_error("no instrument matches \"" + filter + "\"", std::move(hints));
  }
  core::ReplyText out;
  out.add("Instruments (" + std::to_string(lines.size()) + "):");
  out.add_all(std::move(lines));
  return out.str();
}

}  // namespace

std::optional<core::Result<core::QueryAnswer>> run_query(const MidiDocument& doc,
                                                         std::string_view verb,
                                                         std::string_view args,
                                                         const core::CallContext& ctx) {
  using Answer = core::Result<core::QueryAnswer>;
  static const std::array<std::string_view, 10> known = {
      "map",  "tracks",     "events",  "describe",    "stats",
      "find", "piano-roll", "tracker", "instruments", "drums"};
  const auto view = conductor_view_named(verb);
  if (!view && std::find(known.begin(), known.end(), verb) == known.end()) return std::nullopt;
  auto tokens = core::tokenize(args);
  if (!tokens) return Answer(tokens.error());
  if (view) return core::text_only(query_conductor(doc.song(), *view, *tokens));
  Query query{std::string(verb), std::move(*tokens)};
  const Song& song = doc.song();
  if (verb == "map") return Answer(query_map(doc));
  if (verb == "tracks") return Answer(query_tracks(song));
  if (verb == "stats") return Answer(query_stats(doc));
  if (verb == "events") return core::text_only(query_events(song, query));
  if (verb == "describe") return query_describe(song, query);
  if (verb == "find") return core::text_only(query_find(song, query, ctx.log));
  if (verb == "piano-roll") return core::text_only(query_piano_roll(song, query));
  if (verb == "tracker") return core::text_only(query_tracker(song, std::move(query)));
  if (verb == "drums") return core::text_only(query_drums(query));
  return core::text_only(query_instruments(doc, std::move(query)));
}

std::vector<core::VerbSpec> query_specs() {
  using core::VerbSpec;
  std::vector<VerbSpec> specs{
      VerbSpec{"map", "", "queries",
               "overview: title, tempo|meter|key|ppqn, tempo/meter/key changes, markers, tracks, "
               "digest"}
          .with_structured_answer(),
      VerbSpec{"tracks", "", "queries",
               "each track: channel, instrument, bank, note/cc/bend counts, program changes, "
               "mute/solo"}
          .with_structured_answer(),
      VerbSpec{"events", "TRACK|@track:T|*|all [M.B-M.B|@range:R]", "queries",
               "a track's notes, CCs, bends, programs, text and SysEx in time order (end beat "
               "included; first 500)"}
          .example("events Keys 1-2"),
      VerbSpec{"describe", "TRACK", "queries",
               "channel, instrument, bank, counts, mute/solo, pitch and velocity ranges, time span"}
          .with_structured_answer()
          .example("describe Drums"),
      VerbSpec{"stats", "", "queries",
               "tempo, meter, key, ppqn, counts, duration m:ss.cc over the tempo map, measures"}
          .with_structured_answer(),
      VerbSpec{"find", "PITCH | @SELECTOR…", "queries",
               "notes at a pitch (C4, midi:60, a drum name) or pitch class (F#), or the events "
               "the selectors choose (as verbs do), in time order"}
          .example("find @track:Bass @pitch:<C2"),
      VerbSpec{"piano-roll", "TRACK M.B-M.B", "queries",
               "ASCII grid, rows high→low, '#' sounding; 16th/8th/beat columns (max 64), end "
               "beat included"}
          .example("piano-roll Keys 1-2"),
      VerbSpec{"tracker", "TRACK|A,B,C|* M.B-M.B", "queries",
               "step view: Step NN: [PITCH_vVEL_STEPS] (pasteable into a tracker import); "
               "resolution auto-detected; end beat included; multi-track view shows up to 4 "
               "tracks"}
          .with(core::key("res", "quarter|8th|16th|32nd"))
          .example("tracker Drums 1-2")
          .example("tracker * 1.1-1.4 res:16th"),
      VerbSpec{"instruments", "[FILTER]", "queries",
               "GM programs and loaded SoundFont presets, filtered by name or family"}
          .with(core::choice_key("source", {"gm", "soundfont"}))
          .example("instruments piano"),
      VerbSpec{"drums", "[FILTER]", "queries",
               "every drum note (35-81) with the name views show and the other names accepted, "
               "and the kit names"}
          .example("drums tom"),
  };
  // The conductor's views after `map`, which overviews them.
  auto conductor = conductor_query_specs();
  specs.insert(specs.begin() + 1, conductor.begin(), conductor.end());
  return specs;
}

}  // namespace fcp::midi
