#include "domains/midi/theory/position.hpp"

#include <limits>
#include <vector>

#include "domains/midi/theory/duration.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

constexpr std::uint64_t max_bar = std::numeric_limits<int>::max();
constexpr std::uint64_t max_part = 1'000'000'000;  // beats and ticks beyond this are typos

struct BarBeat {
  std::uint64_t bar = 0;
  std::uint64_t beat = 0;
  std::uint64_t tick = 0;
  bool has_tick = false;
};

std::optional<BarBeat> split_bar_beat(std::string_view text) {
  BarBeat out;
  const auto first = text.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const auto second = text.find('.', first + 1);
  const auto bar = detail::parse_digits(text.substr(0, first));
  const auto beat = detail::parse_digits(text.substr(first + 1, second - first - 1));
  if (!bar || !beat) return std::nullopt;
  out.bar = *bar;
  out.beat = *beat;
  if (second != std::string_view::npos) {
    const auto tick = detail::parse_digits(text.substr(second + 1));
    if (!tick) return std::nullopt;
    out.tick = *tick;
    out.has_tick = true;
  }
  return out;
}

std::string signature_text(const MeterMap::Signature& s) {
  return std::to_string(s.numerator) + "/" + std::to_string(s.denominator);
}

// Where the reference's overflow arithmetic would land ("1.5" in 4/4 → "2.1"), as a hint.
std::vector<std::string> overflow_hint(const BarBeat& p, const MeterMap& meter,
                                       std::string last_valid) {
  std::vector<std::string> hints;
  if (p.beat <= max_part && p.tick <= max_part) {
    const std::uint64_t beat_ticks = meter.beat_ticks(static_cast<int>(p.bar));
    const std::uint64_t tick =
        meter.bar_start(static_cast<int>(p.bar)) + (p.beat - 1) * beat_ticks + p.tick;
    hints.push_back(format_position(tick, meter));
  }
  hints.push_back(std::move(last_valid));
  return hints;
}

core::Result<std::uint64_t> resolve_bar_beat(const BarBeat& p, const MeterMap& meter) {
  const std::string bar_text = std::to_string(p.bar);
  if (p.bar == 0) return core::make_error("bar 0 does not exist: bars start at 1", {"1.1"});
  if (p.bar > max_bar) return core::make_error("bar " + bar_text + " is too far", {"1.1"});
  if (p.beat == 0)
    return core::make_error("beat 0 does not exist: beats start at 1", {bar_text + ".1"});
  const int bar = static_cast<int>(p.bar);
  const MeterMap::Signature s = meter.at_bar(bar);
  const auto beats = static_cast<std::uint64_t>(s.numerator);
  if (p.beat > beats) {
    return core::make_error("beat " + std::to_string(p.beat) + " is outside bar " + bar_text +
                                " (" + signature_text(s) + " has " + std::to_string(beats) +
                                (beats == 1 ? " beat)" : " beats)"),
                            overflow_hint(p, meter, bar_text + "." + std::to_string(beats)));
  }
  const std::uint64_t beat_ticks = meter.beat_ticks(bar);
  const std::string beat_text = bar_text + "." + std::to_string(p.beat);
  if (p.tick >= beat_ticks) {
    return core::make_error(
        "tick " + std::to_string(p.tick) + " is outside beat " + beat_text + " (a beat of " +
            signature_text(s) + " is " + std::to_string(beat_ticks) + " ticks: 0.." +
            std::to_string(beat_ticks - 1) + ")",
        overflow_hint(p, meter, beat_text + "." + std::to_string(beat_ticks - 1)));
  }
  return meter.bar_start(bar) + (p.beat - 1) * beat_ticks + p.tick;
}

core::Result<std::uint64_t> parse_relative(std::string_view text, const MeterMap& meter,
                                           std::optional<std::uint64_t> anchor) {
  const char sign = text.front();
  // +0 (or +ticks:0) is the anchor itself: no duration says "nothing", but the position is clear.
  std::string_view amount = text.substr(1);
  if (!detail::consume_prefix(amount, "ticks:")) detail::consume_prefix(amount, "tick:");
  const bool zero = detail::parse_digits(amount) == std::uint64_t{0};
  const auto length =
      zero ? core::Result<std::uint32_t>(0u) : parse_duration(text.substr(1), meter.ppqn());
  if (!length) {
    std::vector<std::string> hints;
    for (const auto& hint : length.error().hints)
      hints.push_back(sign + hint);
    return core::make_error("position " + detail::quoted(text) + ": " + length.error().message,
                            std::move(hints));
  }
  if (!anchor) {
    return core::make_error("relative position " + detail::quoted(text) +
                                " has nothing to count from here; give an absolute position",
                            {"1.1", "tick:0", "end"});
  }
  if (sign == '+') {
    if (*anchor > std::numeric_limits<std::uint64_t>::max() - *length)
      return core::make_error("position " + detail::quoted(text) + " is too far", {"end"});
    return *anchor + *length;
  }
  if (*length > *anchor) {
    return core::make_error("position " + detail::quoted(text) + " from " +
                                format_position(*anchor, meter) +
                                " falls before the start of the song",
                            {"1.1", "-ticks:" + std::to_string(*anchor)});
  }
  return *anchor - *length;
}

core::Error unknown_position(std::string_view text) {
  if (detail::all_digits(text)) {
    return core::make_error(
        "position " + detail::quoted(text) + " needs a beat: write bar.beat, or tick:N for a tick",
        {std::string(text) + ".1", "tick:" + std::string(text)});
  }
  return core::make_error("unknown position " + detail::quoted(text) +
                              ": write bar.beat[.tick], tick:N, +DUR, -DUR or end",
                          {"1.1", "3.2.240", "tick:0", "+quarter", "end"});
}

}  // namespace

core::Result<std::uint64_t> parse_position(std::string_view text, const MeterMap& meter,
                                           std::uint64_t song_end,
                                           std::optional<std::uint64_t> anchor) {
  if (text.empty()) return core::make_error("empty position", {"1.1", "tick:0", "end"});
  if (detail::iequals(text, "end")) return song_end;
  if (text.front() == '+' || text.front() == '-') return parse_relative(text, meter, anchor);
  std::string_view rest = text;
  if (detail::consume_prefix(rest, "tick:") || detail::consume_prefix(rest, "ticks:")) {
    if (const auto tick = detail::parse_digits(rest)) return *tick;
    return core::make_error("position " + detail::quoted(text) + " needs a tick number ≥ 0",
                            {"tick:0", "tick:480"});
  }
  if (const auto bar_beat = split_bar_beat(text)) return resolve_bar_beat(*bar_beat, meter);
  return unknown_position(text);
}

std::string format_position(std::uint64_t tick, const MeterMap& meter) {
  const int bar = meter.bar_of(tick);
  const std::uint64_t offset = tick - meter.bar_start(bar);
  const std::uint64_t beat_ticks = meter.beat_ticks(bar);
  std::string out = std::to_string(bar) + "." + std::to_string(offset / beat_ticks + 1);
  if (offset % beat_ticks != 0) out += "." + std::to_string(offset % beat_ticks);
  return out;
}

}  // namespace fcp::midi::theory
