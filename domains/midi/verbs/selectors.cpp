// Note selectors: @track @channel @range @pitch @velocity @all @recent[:N] @not:TYPE:VALUE.
// Different types intersect; the same type repeated adds alternatives (@pitch:C4 @pitch:E4);
// @not: subtracts. An unknown type is an error, never "everything".
#include <algorithm>
#include <charconv>
#include <unordered_set>

#include "domains/midi/edit.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/pitch.hpp"
#include "domains/midi/theory/velocity.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

struct Filter {
  bool any = false;  // at least one criterion
  std::optional<std::unordered_set<EntityId>> tracks;
  std::optional<std::vector<int>> channels;
  std::optional<std::vector<std::pair<Tick, Tick>>> ranges;
  std::optional<std::vector<int>> pitches;
  std::optional<std::vector<std::pair<int, int>>> velocities;
  std::optional<std::unordered_set<EntityId>> ids;

  bool matches(const Note& n) const {
    if (tracks && !tracks->contains(n.track)) return false;
    if (channels && std::find(channels->begin(), channels->end(), n.channel) == channels->end())
      return false;
    if (ranges && std::none_of(ranges->begin(), ranges->end(), [&](const auto& r) {
          return n.tick >= r.first && n.tick < r.second;
        }))
      return false;
    if (pitches && std::find(pitches->begin(), pitches->end(), n.pitch) == pitches->end())
      return false;
    if (velocities && std::none_of(velocities->begin(), velocities->end(), [&](const auto& v) {
          return n.velocity >= v.first && n.velocity <= v.second;
        }))
      return false;
    if (ids && !ids->contains(n.id)) return false;
    return true;
  }
};

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

const std::vector<std::string>& selector_help() {
  static const std::vector<std::string> help{"@track:NAME", "@channel:1..16",   "@range:M.B-M.B",
                                             "@pitch:C4",   "@velocity:60-100", "@all",
                                             "@recent",     "@recent:N",        "@not:track:NAME"};
  return help;
}

core::Result<void> add_criterion(const OpContext& ctx, Filter& filter, const core::Selector& s) {
  const std::string& v = s.value;
  filter.any = true;
  if (s.type == "all") {
    return {};
  }
  if (s.type == "track") {
    auto id = resolve_track(ctx, v);
    if (!id) return id.error();
    if (!filter.tracks) filter.tracks.emplace();
    filter.tracks->insert(*id);
  } else if (s.type == "channel") {
    auto channel = to_int(v);
    if (!channel || *channel < 1 || *channel > 16)
      return core::make_error("invalid @channel:" + v + " — channels are 1..16");
    if (!filter.channels) filter.channels.emplace();
    filter.channels->push_back(*channel - 1);
  } else if (s.type == "range") {
    auto range = parse_range(ctx, v, true);
    if (!range) return range.error();
    if (!filter.ranges) filter.ranges.emplace();
    filter.ranges->push_back(*range);
  } else if (s.type == "pitch") {
    int pitch = 0;
    if (auto parsed = theory::parse_pitch(v)) {
      pitch = *parsed;
    } else if (auto drum = theory::drum_pitch(v)) {
      pitch = *drum;
    } else {
      return parsed.error();
    }
    if (!filter.pitches) filter.pitches.emplace();
    filter.pitches->push_back(pitch);
  } else if (s.type == "velocity") {
    const auto dash = v.find('-', 1);
    std::optional<int> lo, hi;
    if (dash == std::string::npos) {
      auto one = theory::parse_velocity(v);
      if (one) lo = hi = *one;
    } else {
      auto a = theory::parse_velocity(v.substr(0, dash));
      auto b = theory::parse_velocity(v.substr(dash + 1));
      if (a && b) {
        lo = *a;
        hi = *b;
      }
    }
    if (!lo || !hi || *lo > *hi)
      return core::make_error("invalid @velocity:" + v + " — use @velocity:LO-HI or a value",
                              {"@velocity:60-100", "@velocity:ff"});
    if (!filter.velocities) filter.velocities.emplace();
    filter.velocities->emplace_back(*lo, *hi);
  } else if (s.type == "recent") {
    std::size_t count = 1;
    if (!v.empty()) {
      auto n = to_int(v);
      if (!n || *n < 1) return core::make_error("invalid @recent:" + v + " — a count of ops");
      count = static_cast<std::size_t>(*n);
    }
    if (!filter.ids) filter.ids.emplace();
    for (const auto& event : ctx.call.log.recent(count)) {
      if (const auto* edit = dynamic_cast<const SongEdit*>(event.get())) {
        for (EntityId id : edit->touched_notes())
          filter.ids->insert(id);
      }
    }
  } else {
    return core::make_error("unknown selector @" + s.type, selector_help());
  }
  return {};
}

}  // namespace

core::Result<std::vector<EntityId>> select_notes(const OpContext& ctx) {
  if (ctx.op.selectors.empty())
    return core::make_error("no selectors: say which notes", selector_help());
  Filter positive;
  std::vector<Filter> negatives;
  for (const auto& selector : ctx.op.selectors) {
    if (selector.negated) {
      Filter negative;
      if (auto added = add_criterion(ctx, negative, selector); !added) return added.error();
      negatives.push_back(std::move(negative));
    } else if (auto added = add_criterion(ctx, positive, selector); !added) {
      return added.error();
    }
  }
  std::vector<EntityId> out;
  const Song& song = ctx.song();
  for (const auto& track : song.tracks()) {
    if (positive.tracks && !positive.tracks->contains(track.id)) continue;
    const auto& notes = song.notes().of_track(track.id);
    auto begin = notes.begin();
    auto end = notes.end();
    if (positive.ranges && positive.ranges->size() == 1) {
      begin = notes.lower_bound({positive.ranges->front().first, 0});
      end = notes.lower_bound({positive.ranges->front().second, 0});
    }
    for (auto it = begin; it != end; ++it) {
      const Note& note = *song.notes().find(it->second);
      if (!positive.matches(note)) continue;
      if (std::any_of(negatives.begin(), negatives.end(),
                      [&](const Filter& f) { return f.matches(note); }))
        continue;
      out.push_back(note.id);
    }
  }
  if (out.empty()) {
    std::string raw;
    for (const auto& selector : ctx.op.selectors)
      raw += (raw.empty() ? "" : " ") + selector.raw;
    return core::make_error("no notes match " + raw);
  }
  return out;
}

}  // namespace fcp::midi
