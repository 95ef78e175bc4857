#include "domains/midi/selection.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <map>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/midi/theory/controllers.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/gm.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/position.hpp"
#include "domains/midi/theory/velocity.hpp"

namespace fcp::midi {
namespace {

constexpr int kDrumChannel = 9;
constexpr std::size_t kMaxTracksNamed = 3;  // in a nothing-matched answer

// One event of the scope, pointing into the song (which does not change while selecting).
struct Item {
  EventKind kind = EventKind::note;
  Tick tick = 0;
  EntityId track = 0;
  const Note* note = nullptr;
  const Control* control = nullptr;
  const std::string* text = nullptr;  // markers
};

EventKind control_kind(ControlKind kind) {
  switch (kind) {
    case ControlKind::cc:
      return EventKind::cc;
    case ControlKind::bend:
      return EventKind::bend;
    case ControlKind::program:
      return EventKind::program;
    case ControlKind::channel_pressure:
    case ControlKind::key_pressure:
      return EventKind::pressure;
  }
  return EventKind::cc;
}

}  // namespace

namespace {

// The song's events in the scope's order: notes by track and time, controls by track and time,
// then the conductor's changes after the start and its markers, by time.
class EventScope final : public core::SelectorScope {
 public:
  EventScope(const Song& song, std::string_view written, Asker asker)
      : song_(song), written_(written), asker_(asker) {
    items_.reserve(song.notes().size() + song.controls().size());
    for (const auto& track : song.tracks()) {
      for (const auto& [tick, id] : song.notes().of_track(track.id))
        items_.push_back(
            {EventKind::note, tick, track.id, song.notes().find(id), nullptr, nullptr});
    }
    for (const auto& track : song.tracks()) {
      for (const auto& [tick, id] : song.controls().of_track(track.id)) {
        const Control* control = song.controls().find(id);
        items_.push_back({control_kind(control->kind), tick, track.id, nullptr, control, nullptr});
      }
    }
    add_conductor_events(song.conductor());
  }

  const core::SelectorCatalog& catalog() const override { return selector_catalog(); }
  std::size_t size() const override { return items_.size(); }
  std::string type_of(std::size_t i) const override {
    return std::string(kind_name(items_[i].kind));
  }
  std::string key_of(std::size_t i) const override {
    const Item& item = items_[i];
    if (item.note != nullptr) return std::to_string(item.note->id);
    if (item.control != nullptr) return std::to_string(item.control->id);
    return conductor_event_key(item.kind, item.tick);
  }
  std::string describe(std::span<const std::size_t> members) const override;

  const Song& song() const { return song_; }
  std::string_view written() const { return written_; }
  Asker asker() const { return asker_; }
  const Item& item(std::size_t i) const { return items_[i]; }
  int channel(std::size_t i) const {
    const Item& it = items_[i];
    return it.note ? it.note->channel : it.control ? it.control->channel : -1;
  }

 private:
  void add_conductor_events(const Conductor& conductor) {
    std::vector<Item> conductor_items;
    for (const auto& [tick, bpm] : conductor.tempos) {
      if (tick > 0)
        conductor_items.push_back({EventKind::tempo, tick, 0, nullptr, nullptr, nullptr});
    }
    for (const auto& change : conductor.meter.changes()) {
      if (change.bar > 1)
        conductor_items.push_back({EventKind::time_sig, change.tick, 0, nullptr, nullptr, nullptr});
    }
    for (const auto& [tick, key] : conductor.keys) {
      if (tick > 0)
        conductor_items.push_back({EventKind::key_sig, tick, 0, nullptr, nullptr, nullptr});
    }
    for (const auto& [tick, text] : conductor.markers)
      conductor_items.push_back({EventKind::marker, tick, 0, nullptr, nullptr, &text});
    std::stable_sort(conductor_items.begin(), conductor_items.end(),
                     [](const Item& a, const Item& b) { return a.tick < b.tick; });
    items_.insert(items_.end(), conductor_items.begin(), conductor_items.end());
  }

  const Song& song_;
  std::string_view written_;
  Asker asker_;
  std::vector<Item> items_;
};

std::string pitch_on(const Song& song, const Note& note) {
  const Track* track = song.track(note.track);
  if (track != nullptr && track->channel == kDrumChannel) {
    if (auto name = theory::drum_name(note.pitch); !name.empty()) return std::string(name);
  }
  return theory::pitch_name(note.pitch, theory::key_accidentals(song.key_at(note.tick).sharps));
}

// "4 notes on Piano (C4–G4, 1.1–1.4), 2 cc, 1 tempo"
std::string EventScope::describe(std::span<const std::size_t> members) const {
  std::vector<const Note*> notes;
  std::map<std::string_view, std::size_t> others;
  for (std::size_t i : members) {
    if (items_[i].note != nullptr) {
      notes.push_back(items_[i].note);
    } else {
      ++others[kind_name(items_[i].kind)];
    }
  }
  std::vector<std::string> parts;
  if (!notes.empty()) {
    const auto [low, high] =
        std::minmax_element(notes.begin(), notes.end(),
                            [](const Note* a, const Note* b) { return a->pitch < b->pitch; });
    const auto [first, last] = std::minmax_element(
        notes.begin(), notes.end(), [](const Note* a, const Note* b) { return a->tick < b->tick; });
    std::string tracks;
    std::size_t named = 0;
    for (const auto& track : song_.tracks()) {
      if (std::none_of(notes.begin(), notes.end(),
                       [&](const Note* n) { return n->track == track.id; }))
        continue;
      if (named++ < kMaxTracksNamed) {
        tracks += (tracks.empty() ? "" : ", ") + track.name;
      } else if (named == kMaxTracksNamed + 1) {
        tracks += ", …";
      }
    }
    const auto& meter = song_.conductor().meter;
    std::string pitches = pitch_on(song_, **low);
    if ((*high)->pitch != (*low)->pitch) pitches += "–" + pitch_on(song_, **high);
    std::string span = theory::format_position((*first)->tick, meter);
    if ((*last)->tick != (*first)->tick)
      span += "–" + theory::format_position((*last)->tick, meter);
    parts.push_back(core::plural(notes.size(), "note") + " on " + tracks + " (" + pitches + ", " +
                    span + ")");
  }
  for (const auto& [kind, count] : others)
    parts.push_back(std::to_string(count) + " " + std::string(kind));
  std::string out;
  for (const auto& part : parts)
    out += (out.empty() ? "" : ", ") + part;
  return out;
}

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

core::Result<core::EntityTest> track_test(const EventScope& scope, std::string_view value) {
  auto id = resolve_track_name(scope.song(), value, scope.written(), scope.asker());
  if (!id) return id.error();
  return core::EntityTest([&scope, id = *id](std::size_t i) { return scope.item(i).track == id; });
}

core::Result<core::EntityTest> channel_test(const EventScope& scope, std::string_view value) {
  auto channel = to_int(value);
  if (!channel || *channel < 1 || *channel > 16)
    return core::make_error("invalid @channel:" + std::string(value) + " — channels are 1..16");
  return core::EntityTest(
      [&scope, wanted = *channel - 1](std::size_t i) { return scope.channel(i) == wanted; });
}

core::Result<core::EntityTest> range_test(const EventScope& scope, std::string_view value) {
  auto range = parse_range(scope.song(), value, true);
  if (!range) {  // the hints are ranges; the op or query with the range replaced is the try:
    core::Error error = range.error();
    std::vector<std::string> ops;
    for (const auto& hint : error.hints) {
      if (auto op = core::replace_reference(scope.written(), value, hint); !op.empty())
        ops.push_back(std::move(op));
    }
    error.hints = std::move(ops);
    return error;
  }
  return core::EntityTest([&scope, range = *range](std::size_t i) {
    return scope.item(i).tick >= range.first && scope.item(i).tick < range.second;
  });
}

core::Result<core::EntityTest> pitch_test(const EventScope& scope, std::string_view value) {
  auto span = parse_pitch_choice(value);
  if (!span) {
    // The hints are values; the op or query with the value replaced is what to try.
    core::Error error = span.error();
    std::vector<std::string> ops;
    for (const auto& hint : error.hints) {
      if (auto op = core::replace_reference(scope.written(), value, hint); !op.empty())
        ops.push_back(std::move(op));
    }
    error.hints = std::move(ops);
    return error;
  }
  return core::EntityTest([&scope, choice = *span](std::size_t i) {
    const Note* note = scope.item(i).note;
    return note != nullptr && choice.contains(note->pitch);
  });
}

core::Result<core::EntityTest> velocity_test(const EventScope& scope, std::string_view value) {
  const auto dash = value.find('-', 1);
  std::optional<int> low, high;
  if (dash == std::string_view::npos) {
    if (auto one = theory::parse_velocity(value)) low = high = *one;
  } else {
    auto a = theory::parse_velocity(value.substr(0, dash));
    auto b = theory::parse_velocity(value.substr(dash + 1));
    if (a && b) {
      low = *a;
      high = *b;
    }
  }
  if (!low || !high || *low > *high)
    return core::make_error(
        "invalid @velocity:" + std::string(value) + " — use @velocity:LO-HI or a value",
        {"@velocity:60-100", "@velocity:ff"});
  return core::EntityTest([&scope, low = *low, high = *high](std::size_t i) {
    const Note* note = scope.item(i).note;
    return note != nullptr && note->velocity >= low && note->velocity <= high;
  });
}

core::Result<core::EntityTest> cc_test(const EventScope& scope, std::string_view value) {
  std::optional<int> number;
  if (!value.empty()) {
    auto cc = theory::parse_controller(value);
    if (!cc) return cc.error();
    number = *cc;
  }
  return core::EntityTest([&scope, number](std::size_t i) {
    const Item& item = scope.item(i);
    return item.kind == EventKind::cc && (!number || item.control->number == *number);
  });
}

core::Result<core::EntityTest> marker_test(const EventScope& scope, std::string_view value) {
  return core::EntityTest([&scope, text = std::string(value)](std::size_t i) {
    const Item& item = scope.item(i);
    return item.kind == EventKind::marker && (text.empty() || *item.text == text);
  });
}

template <EventKind Kind>
core::Result<core::EntityTest> kind_test(const EventScope& scope, std::string_view) {
  return core::EntityTest([&scope](std::size_t i) { return scope.item(i).kind == Kind; });
}

// One pitch as a range's end: a note name, midi:N, or a drum name; a note name without its
// octave is refused (a drum prefix must not shadow it: "f" would be a floor tom).
core::Result<int> one_pitch(std::string_view text) {
  auto pitch = theory::parse_pitch(text);
  if (pitch || theory::parse_pitch_class(text)) return pitch;
  if (auto drum = theory::drum_pitch(text)) return *drum;
  return pitch.error();
}

}  // namespace

bool PitchChoice::contains(int pitch) const {
  if (pitch_class) return pitch % 12 == *pitch_class;
  return pitch >= low && pitch <= high;
}

core::Result<PitchChoice> parse_pitch_choice(std::string_view text) {
  struct Comparison {
    std::string_view sign;
    int low_offset, high_offset;  // from the pitch: <P is [0, P-1], >=P is [P, 127]
    bool below;
  };
  static constexpr std::array<Comparison, 4> comparisons{
      {{"<=", 0, 0, true}, {">=", 0, 0, false}, {"<", 0, -1, true}, {">", 1, 0, false}}};
  for (const auto& [sign, low_offset, high_offset, below] : comparisons) {
    if (!text.starts_with(sign)) continue;
    auto pitch = one_pitch(text.substr(sign.size()));
    if (!pitch) {
      core::Error error = pitch.error();
      for (auto& hint : error.hints)
        hint.insert(0, sign);
      return error;
    }
    const std::pair<int, int> span =
        below ? std::pair{0, *pitch + high_offset} : std::pair{*pitch + low_offset, 127};
    if (span.first > span.second)
      return core::make_error("no pitch is " + std::string(text) + " (pitches are C-1…G9)");
    return PitchChoice{span.first, span.second, std::nullopt};
  }
  auto single = theory::parse_pitch(text);
  if (single) return PitchChoice{*single, *single, std::nullopt};
  // Pitch classes before drum names: a drum prefix ("f" → floor tom) must not shadow F#.
  if (auto pc = theory::parse_pitch_class(text)) return PitchChoice{0, 127, *pc};
  if (auto drum = theory::drum_pitch(text)) return PitchChoice{*drum, *drum, std::nullopt};
  // LOW-HIGH: the dash with a pitch on either side ("C-1" has a dash of its own).
  for (auto dash = text.find('-', 1); dash != std::string_view::npos;
       dash = text.find('-', dash + 1)) {
    auto low = one_pitch(text.substr(0, dash));
    auto high = one_pitch(text.substr(dash + 1));
    if (!low || !high) continue;
    if (*low > *high) {
      const std::string swapped =
          std::string(text.substr(dash + 1)) + "-" + std::string(text.substr(0, dash));
      return core::make_error("pitch range " + std::string(text) + " goes down: write it low-high",
                              {swapped});
    }
    return PitchChoice{*low, *high, std::nullopt};
  }
  core::Error error = single.error();
  error.message += "; a range is LOW-HIGH (A0-B2, both included), <P or >P (<C3, >=G5)";
  return error;
}

std::string_view kind_name(EventKind kind) {
  static constexpr std::array<std::string_view, 9> kNames{
      "note", "cc", "bend", "program", "pressure", "tempo", "time-sig", "key-sig", "marker"};
  return kNames[static_cast<std::size_t>(kind)];
}

const core::SelectorCatalog& selector_catalog() {
  using core::scoped_compile;
  using core::SelectorValue;
  static const core::SelectorCatalog catalog{
      "event",
      "KIND",
      "the event's kind: note cc bend program pressure tempo time-sig key-sig marker",
      "note",
      {{"track", SelectorValue::required, "NAME", "events on the track", "",
        scoped_compile(&track_test)},
       {"channel", SelectorValue::required, "1-16", "notes and controls on the channel", "",
        scoped_compile(&channel_test)},
       {"range", SelectorValue::required, "M.B-M.B",
        "events starting in the range (end beat included; 7-8 = bars 7 and 8)", "",
        scoped_compile(&range_test)},
       {"pitch", SelectorValue::required, "P",
        "notes of the pitch: C4, midi:60, kick; F# in any octave; a range: A0-B2 (both "
        "included), <C3, >=G5",
        "", scoped_compile(&pitch_test)},
       {"velocity", SelectorValue::required, "LO-HI", "notes of that velocity (60-100, ff)", "",
        scoped_compile(&velocity_test)},
       {"cc", SelectorValue::optional, "NAME", "kind: control changes (of that controller)", "type",
        scoped_compile(&cc_test)},
       {"bend", SelectorValue::none, "", "kind: pitch bends", "type",
        scoped_compile(&kind_test<EventKind::bend>)},
       {"program", SelectorValue::none, "", "kind: program changes", "type",
        scoped_compile(&kind_test<EventKind::program>)},
       {"pressure", SelectorValue::none, "", "kind: aftertouch", "type",
        scoped_compile(&kind_test<EventKind::pressure>)},
       {"tempo", SelectorValue::none, "", "kind: tempo changes after the start", "type",
        scoped_compile(&kind_test<EventKind::tempo>)},
       {"time-sig", SelectorValue::none, "", "kind: meter changes after bar 1", "type",
        scoped_compile(&kind_test<EventKind::time_sig>)},
       {"key-sig", SelectorValue::none, "", "kind: key changes after the start", "type",
        scoped_compile(&kind_test<EventKind::key_sig>)},
       {"marker", SelectorValue::optional, "TEXT", "kind: markers (with that text)", "type",
        scoped_compile(&marker_test)}},
      false};
  return catalog;
}

core::Result<EventSelection> select_events(const Song& song,
                                           std::span<const core::Selector> selectors,
                                           const core::EventLog& log, std::string_view written,
                                           Asker asker) {
  const EventScope scope(song, written, asker);
  auto selection = core::select(selectors, scope, log, written);
  if (!selection) return selection.error();
  EventSelection out;
  out.events.reserve(selection->members.size());
  for (std::size_t i : selection->members) {
    const Item& item = scope.item(i);
    SongEvent event{item.kind, 0, item.track, item.tick, {}};
    if (item.note != nullptr) event.id = item.note->id;
    if (item.control != nullptr) event.id = item.control->id;
    if (item.text != nullptr) event.text = *item.text;
    out.events.push_back(std::move(event));
  }
  out.nothing_matched = std::move(selection->nothing_matched);
  return out;
}

std::string conductor_event_key(EventKind kind, Tick tick) {
  return std::string(kind_name(kind)) + "@" + std::to_string(tick);
}

namespace {

// The instrument a new track of this name most likely wants: drums for a kit word ("Drums",
// "Kit"), the GM instrument the name is or stands for ("Strings", "Bass"), else the piano.
std::string instrument_for_track_name(std::string_view name) {
  if (theory::drum_kit_program(name)) return "drums";
  const auto key = [](std::string_view text) {
    std::string out;
    for (const char c : text) {
      if (std::isalnum(static_cast<unsigned char>(c)))
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
  };
  const std::string wanted = key(name);
  for (const auto& instrument : theory::gm_instruments()) {
    if (key(instrument.name) == wanted) return std::string(instrument.name);
  }
  for (const auto& [alias, program] : theory::instrument_aliases()) {
    if (key(alias) == wanted)
      return std::string(theory::gm_instruments()[static_cast<std::size_t>(program)].name);
  }
  return "acoustic-grand-piano";
}

}  // namespace

core::Result<EntityId> resolve_track_name(const Song& song, std::string_view name,
                                          std::string_view written, Asker asker) {
  core::NameIndex<EntityId> index;
  for (const auto& track : song.tracks())
    index.add(track.name, track.id);
  std::vector<std::string> otherwise;
  if (!song.tracks().empty()) {
    auto first =
        core::replace_reference(written, name, core::quote_token(song.tracks().front().name));
    if (!first.empty()) otherwise.push_back(std::move(first));
  }
  if (asker == Asker::op)
    otherwise.push_back("track add " + core::quote_token(name) +
                        " instrument:" + instrument_for_track_name(name));
  return index.resolve(name, {"track", written, "the song has no tracks yet", otherwise});
}

namespace {

// A position error of one side of a range, with hints that are the whole range corrected.
core::Error range_side_error(core::Error error, std::string_view text, std::size_t from,
                             std::size_t length) {
  for (auto& hint : error.hints) {
    std::string range(text);
    hint = range.replace(from, length, hint);
  }
  return error;
}

}  // namespace

core::Result<std::pair<Tick, Tick>> parse_range(const Song& song, std::string_view text,
                                                bool end_inclusive) {
  // Split on the '-' that separates two positions (positions may start with '-' only when
  // relative, which ranges do not allow).
  const auto dash = text.find('-', 1);
  if (dash == std::string_view::npos) {
    // One position is the range of itself: a bar (`9`), or with the end included, a beat.
    if (!text.empty() && end_inclusive) {
      const std::string both = std::string(text) + "-" + std::string(text);
      auto range = parse_range(song, both, true);
      if (range) return range;
      core::Error error = range.error();
      for (auto& hint : error.hints)
        hint = hint.substr(0, hint.find('-', 1));
      return error;
    }
    return core::make_error("invalid range \"" + std::string(text) + "\" — use M.B-M.B",
                            {"1.1-4.4"});
  }
  const auto& meter = song.conductor().meter;
  // Whole bars, as musicians say them: `7-8` is from 7.1 to the end of bar 8.
  const auto is_bar = [](std::string_view side) {
    return !side.empty() && side.size() < 7 &&
           std::all_of(side.begin(), side.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::string_view first = text.substr(0, dash), last = text.substr(dash + 1);
  auto start = theory::parse_position(
      is_bar(first) ? std::string(first) + ".1" : std::string(first), meter, song.end_tick());
  if (!start) return range_side_error(start.error(), text, 0, dash);
  if (is_bar(last)) {
    const Tick stop = meter.bar_start(std::stoi(std::string(last)) + 1);  // where bar N ends
    if (stop <= *start)
      return core::make_error("range \"" + std::string(text) + "\" ends before it starts");
    return std::pair{*start, stop};
  }
  auto end = theory::parse_position(last, meter, song.end_tick());
  if (!end) return range_side_error(end.error(), text, dash + 1, last.size());
  Tick stop = *end;
  if (end_inclusive) stop += meter.beat_ticks(meter.bar_of(stop));
  if (stop <= *start)
    return core::make_error("range \"" + std::string(text) + "\" ends before it starts");
  return std::pair{*start, stop};
}

std::string range_text(const Song& song, Tick start, Tick stop, std::string_view separator) {
  const auto& meter = song.conductor().meter;
  const Tick last = stop > start ? stop - 1 : start;
  const int bar = meter.bar_of(last);
  const Tick bar_start = meter.bar_start(bar);
  const Tick beat = meter.beat_ticks(bar);
  const Tick last_beat = bar_start + (last - bar_start) / beat * beat;
  return theory::format_position(start, meter) + std::string(separator) +
         theory::format_position(last_beat, meter);
}

}  // namespace fcp::midi
