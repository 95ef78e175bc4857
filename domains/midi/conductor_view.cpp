#include "domains/midi/conductor_view.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/midi/conductor_meta.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/song_text.hpp"
#include "domains/midi/theory/position.hpp"

namespace fcp::midi {
namespace {

constexpr std::size_t kMaxRows = 500;  // one page

struct ViewWord {
  std::string_view word;
  ConductorView view;
};
constexpr std::array<ViewWord, 11> kViewWords{{{"conductor", ConductorView::all},
                                               {"tempo", ConductorView::tempo},
                                               {"meter", ConductorView::meter},
                                               {"key", ConductorView::key},
                                               {"markers", ConductorView::markers},
                                               {"tempo-map", ConductorView::tempo},
                                               {"tempos", ConductorView::tempo},
                                               {"time-sig", ConductorView::meter},
                                               {"key-sig", ConductorView::key},
                                               {"keys", ConductorView::key},
                                               {"marker", ConductorView::markers}}};

// One conductor event: its kind and the value it sets.
struct Row {
  Tick tick = 0;
  ConductorView kind = ConductorView::tempo;
  double bpm = 0;
  Meter meter;
  KeySignature key;
  const std::string* text = nullptr;  // markers
};

std::string pos(const Song& song, Tick tick) {
  return theory::format_position(tick, song.conductor().meter);
}

// Whether the value at tick 0 is one the model assumes and the file it was read from does not
// set (saving leaves it out, as it was).
bool unwritten_default(const Song& song, ConductorView kind) {
  const auto& origin = song.origin();
  if (!origin) return false;
  const int ppqn = song.ppqn();
  const bool read = std::any_of(origin->conductor_events.begin(), origin->conductor_events.end(),
                                [&](const auto& placed) {
                                  const smf::Event& e = placed.event;
                                  if (e.tick != 0) return false;
                                  if (kind == ConductorView::tempo) return bpm_of(e).has_value();
                                  if (kind == ConductorView::meter)
                                    return meter_of(e, ppqn).has_value();
                                  return key_of(e).has_value();
                                });
  if (read) return false;
  const Conductor& c = song.conductor();
  if (kind == ConductorView::tempo) return c.tempos.at(0) == 120.0;
  if (kind == ConductorView::meter) {
    const auto& first = c.meter.changes().front();
    return Meter{first.numerator, first.denominator} == Meter{};
  }
  return c.keys.at(0) == KeySignature{};
}

std::string value_text(const Song& song, const Row& row) {
  std::string text;
  switch (row.kind) {
    case ConductorView::tempo:
      text = bpm_text(row.bpm) + " BPM";
      break;
    case ConductorView::meter:
      text = meter_text(row.meter.numerator, row.meter.denominator);
      break;
    case ConductorView::key:
      text = key_text(row.key);
      break;
    default:
      return quoted_text(*row.text);
  }
  if (row.tick == 0 && unwritten_default(song, row.kind)) text += " (assumed: the file sets none)";
  return text;
}

bool shows(ConductorView view, ConductorView kind) {
  return view == ConductorView::all || view == kind;
}

// The view's events in [start, stop), in time order (at one tick: tempo, meter, key, markers).
std::vector<Row> rows_of(const Song& song, ConductorView view, Tick start, Tick stop) {
  const Conductor& c = song.conductor();
  std::vector<Row> rows;
  if (shows(view, ConductorView::tempo)) {
    for (auto it = c.tempos.lower_bound(start); it != c.tempos.end() && it->first < stop; ++it)
      rows.push_back({it->first, ConductorView::tempo, it->second, {}, {}, nullptr});
  }
  if (shows(view, ConductorView::meter)) {
    for (const auto& change : c.meter.changes()) {
      if (change.tick >= start && change.tick < stop)
        rows.push_back({change.tick,
                        ConductorView::meter,
                        0,
                        Meter{change.numerator, change.denominator},
                        {},
                        nullptr});
    }
  }
  if (shows(view, ConductorView::key)) {
    for (auto it = c.keys.lower_bound(start); it != c.keys.end() && it->first < stop; ++it)
      rows.push_back({it->first, ConductorView::key, 0, {}, it->second, nullptr});
  }
  if (shows(view, ConductorView::markers)) {
    for (auto it = c.markers.lower_bound(start); it != c.markers.end() && it->first < stop; ++it)
      rows.push_back({it->first, ConductorView::markers, 0, {}, {}, &it->second});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.tick != b.tick ? a.tick < b.tick : a.kind < b.kind;
  });
  return rows;
}

// What holds at `start` for the kinds of the view that have no event there: "140 BPM from 1.1".
std::vector<std::string> in_force(const Song& song, ConductorView view, Tick start) {
  const Conductor& c = song.conductor();
  std::vector<std::string> items;
  if (shows(view, ConductorView::tempo) && !c.tempos.contains(start)) {
    const auto it = std::prev(c.tempos.upper_bound(start));
    items.push_back(bpm_text(it->second) + " BPM from " + pos(song, it->first));
  }
  if (shows(view, ConductorView::meter)) {
    const auto signature = c.meter.at_tick(start);
    if (signature.tick != start)
      items.push_back(meter_text(signature.numerator, signature.denominator) + " from " +
                      pos(song, signature.tick));
  }
  if (shows(view, ConductorView::key) && !c.keys.contains(start)) {
    const auto it = std::prev(c.keys.upper_bound(start));
    items.push_back(key_text(it->second) + " from " + pos(song, it->first));
  }
  return items;
}

std::string_view noun_of(ConductorView view) {
  switch (view) {
    case ConductorView::all:
      return "conductor event";
    case ConductorView::tempo:
      return "tempo event";
    case ConductorView::meter:
      return "time signature";
    case ConductorView::key:
      return "key signature";
    case ConductorView::markers:
      break;
  }
  return "marker";
}

std::string_view kind_word(ConductorView kind) {
  return kind == ConductorView::markers ? "marker" : conductor_view_word(kind);
}

// The rows that fit one page: kMaxRows, less the events of a tick the page would cut (a page
// never splits a tick, so the next page can start at one); a tick with more events than a page
// is shown whole.
std::size_t page_size(const std::vector<Row>& rows) {
  if (rows.size() <= kMaxRows) return rows.size();
  std::size_t cut = kMaxRows;
  while (cut > 0 && rows[cut].tick == rows[cut - 1].tick)
    --cut;
  if (cut > 0) return cut;
  while (cut < rows.size() && rows[cut].tick == rows.front().tick)
    ++cut;
  return cut;
}

std::string without_range_prefix(std::string text) {
  if (text.starts_with("@range:")) text.erase(0, 7);
  return text;
}

// The range word of the query: nothing, one range, or @range:RANGE as ops write it. More words
// are refused with the query and the first word that is a range.
core::Result<std::optional<std::string>> range_word(const Song& song, std::string_view verb,
                                                    std::span<const core::Token> words) {
  if (words.empty()) return std::optional<std::string>();
  if (words.size() == 1) return std::optional<std::string>(without_range_prefix(words[0].text));
  std::string hint = std::string(verb) + " 1-4";
  for (const auto& word : words) {
    const std::string text = without_range_prefix(word.text);
    if (parse_range(song, text, true)) {
      hint = std::string(verb) + " " + text;
      break;
    }
  }
  return core::make_error(
      std::string(verb) + " takes one range: " + std::string(verb) + " [M.B-M.B] or bars 5-8",
      {hint});
}

}  // namespace

std::optional<ConductorView> conductor_view_named(std::string_view word) {
  const std::string lower = core::to_lower(word);
  for (const auto& [name, view] : kViewWords) {
    if (name == lower) return view;
  }
  return std::nullopt;
}

std::string_view conductor_view_word(ConductorView view) {
  for (const auto& [name, named] : kViewWords) {
    if (named == view) return name;
  }
  return "conductor";
}

core::Result<std::string> query_conductor(const Song& song, ConductorView view,
                                          std::span<const core::Token> words) {
  const std::string verb(conductor_view_word(view));
  auto written = range_word(song, verb, words);
  if (!written) return written.error();
  Tick start = 0, stop = std::numeric_limits<Tick>::max();
  if (*written) {
    auto range = parse_range(song, **written, true);
    if (!range) return core::make_error(range.error().message, {verb + " 1-4"});
    std::tie(start, stop) = *range;
  }
  const std::vector<Row> rows = rows_of(song, view, start, stop);
  std::string header = core::plural(rows.size(), noun_of(view));
  if (*written) header += " in " + **written;
  if (const auto held = in_force(song, view, start); !held.empty()) {
    std::string list;
    for (const auto& item : held)
      list += (list.empty() ? "" : ", ") + item;
    header += " (in force at " + pos(song, start) + ": " + list + ")";
  }
  core::ReplyText out;
  out.add(header + (rows.empty() ? "" : ":"));
  const std::size_t shown = page_size(rows);
  for (std::size_t i = 0; i < shown; ++i) {
    std::string line = "  " + pos(song, rows[i].tick);
    if (line.size() < 10) line.append(10 - line.size(), ' ');
    line += " ";
    if (view == ConductorView::all) {
      std::string kind(kind_word(rows[i].kind));
      kind.resize(std::max<std::size_t>(kind.size(), 6), ' ');
      line += kind + " ";
    }
    out.add(line + value_text(song, rows[i]));
  }
  if (shown < rows.size()) {
    // The next page: from the first event not shown to the end of this query's range.
    std::string end = pos(song, rows.back().tick);
    if (*written) end = (*written)->substr((*written)->find('-', 1) + 1);
    out.add("… " + std::to_string(rows.size() - shown) + " more; next page: " + verb + " " +
            pos(song, rows[shown].tick) + "-" + end);
  }
  return out.str();
}

std::vector<core::VerbSpec> conductor_query_specs() {
  using core::VerbSpec;
  return {
      VerbSpec{"conductor", "[M.B-M.B]", "queries",
               "every tempo, time signature, key signature and marker with its position and "
               "value, in time order, and what is in force where the range starts (end beat "
               "included; pages of 500 end with the query for the next)"},
      VerbSpec{"tempo", "[M.B-M.B]", "queries", "the tempo map: each tempo event and its BPM"}
          .example("tempo 5-12"),
      VerbSpec{"meter", "[M.B-M.B]", "queries", "time signatures (also: time-sig)"},
      VerbSpec{"key", "[M.B-M.B]", "queries", "key signatures (also: key-sig)"},
      VerbSpec{"markers", "[M.B-M.B]", "queries", "markers and their text"},
  };
}

}  // namespace fcp::midi
