#include "domains/midi/theory/bars.hpp"

#include <algorithm>
#include <limits>

#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

constexpr std::uint64_t kMaxBars = 10000;

// N bars from `start`: to the same offset into bar b+N, at most to that bar's end.
std::uint64_t bars_from(std::uint64_t bars, const MeterMap& meter, std::uint64_t start) {
  const int bar = meter.bar_of(start);
  const std::uint64_t offset = start - meter.bar_start(bar);
  const int target = bar + static_cast<int>(bars);
  const std::uint64_t end = std::min(meter.bar_start(target) + offset, meter.bar_start(target + 1));
  return end - start;
}

// The count of "bar", "2bars", "3-bars", "measure", …; nullopt when `text` is no such word.
std::optional<std::string_view> bar_count(std::string_view text) {
  for (std::string_view word : {"bars", "bar", "measures", "measure"}) {
    if (!text.ends_with(word)) continue;
    std::string_view count = text.substr(0, text.size() - word.size());
    detail::consume_suffix(count, "-");
    if (count.empty() && (word == "bar" || word == "measure")) return "1";
    if (count.empty() || detail::all_digits(count)) return count;  // "bars": how many?
    return std::nullopt;
  }
  return std::nullopt;
}

core::Result<std::uint32_t> checked_ticks(std::string_view text, std::uint64_t ticks) {
  if (ticks == 0 || ticks > std::numeric_limits<std::uint32_t>::max())
    return core::make_error("duration " + detail::quoted(text) +
                            " is not 1 to 4294967295 ticks here");
  return static_cast<std::uint32_t>(ticks);
}

}  // namespace

std::optional<core::Result<std::uint32_t>> parse_bar_duration(std::string_view text,
                                                              const MeterMap& meter,
                                                              std::uint64_t start) {
  std::string word = detail::lower(text);
  std::replace(word.begin(), word.end(), '_', '-');
  if (word == "half-bar" || word == "half-measure" || word == "halfbar") {
    const std::uint32_t bar = meter.bar_ticks(meter.bar_of(start));
    if (bar % 2 != 0) {
      return core::make_error("duration " + detail::quoted(text) + ": half of this bar (" +
                                  std::to_string(bar) + " ticks) is not a whole number of ticks",
                              {"ticks:" + std::to_string(bar / 2)});
    }
    return checked_ticks(text, bar / 2);
  }
  const auto count = bar_count(word);
  if (!count) return std::nullopt;
  const auto bars = detail::parse_digits(*count);
  if (!bars || *bars == 0 || *bars > kMaxBars) {
    return core::make_error(
        "duration " + detail::quoted(text) + " needs 1 to " + std::to_string(kMaxBars) + " bars",
        {"bar", "2bars"});
  }
  return checked_ticks(text, bars_from(*bars, meter, start));
}

std::optional<std::string> bar_duration_name(std::uint32_t ticks, const MeterMap& meter,
                                             std::uint64_t start) {
  if (ticks == meter.bar_ticks(meter.bar_of(start)) / 2 &&
      meter.bar_ticks(meter.bar_of(start)) % 2 == 0)
    return "half-bar";
  for (std::uint64_t bars = 1; bars <= kMaxBars; ++bars) {
    const std::uint64_t length = bars_from(bars, meter, start);
    if (length == ticks) return bars == 1 ? std::string("bar") : std::to_string(bars) + "bars";
    if (length > ticks) break;
  }
  return std::nullopt;
}

}  // namespace fcp::midi::theory
