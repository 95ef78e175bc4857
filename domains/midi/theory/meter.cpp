#include "domains/midi/theory/meter.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace fcp::midi::theory {
namespace {

constexpr int max_numerator = 255;  // one byte in the SMF time-signature event
constexpr int max_denominator = 64;
constexpr int max_ppqn = 0x7FFF;  // 15 bits in the SMF header

bool is_power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

std::string signature_text(int numerator, int denominator) {
  return std::to_string(numerator) + "/" + std::to_string(denominator);
}

}  // namespace

MeterMap::MeterMap(int ppqn) : ppqn_(std::clamp(ppqn, 1, max_ppqn)) {
  changes_.push_back(Signature{1, 0, 4, 4});
}

core::Result<void> MeterMap::set(int bar, int numerator, int denominator) {
  if (bar < 1)
    return core::make_error("bar " + std::to_string(bar) + " does not exist: bars start at 1",
                            {"1"});
  if (numerator < 1 || numerator > max_numerator) {
    return core::make_error("time signature " + signature_text(numerator, denominator) +
                                ": the numerator must be 1..255",
                            {signature_text(4, denominator), signature_text(3, denominator)});
  }
  if (!is_power_of_two(denominator) || denominator > max_denominator) {
    return core::make_error("time signature " + signature_text(numerator, denominator) +
                                ": the denominator must be 1, 2, 4, 8, 16, 32 or 64",
                            {signature_text(numerator, 4), signature_text(numerator, 8)});
  }
  if ((4 * ppqn_) % denominator != 0) {
    return core::make_error("time signature " + signature_text(numerator, denominator) + ": a 1/" +
                                std::to_string(denominator) +
                                " beat is not a whole number of ticks at " + std::to_string(ppqn_) +
                                " PPQN",
                            {signature_text(numerator, 4)});
  }
  const auto it = std::lower_bound(changes_.begin(), changes_.end(), bar,
                                   [](const Signature& s, int b) { return s.bar < b; });
  if (it != changes_.end() && it->bar == bar) {
    it->numerator = numerator;
    it->denominator = denominator;
  } else {
    changes_.insert(it, Signature{bar, 0, numerator, denominator});
  }
  recompute_ticks();
  return {};
}

core::Result<void> MeterMap::remove(int bar) {
  if (bar <= 1) {
    return core::make_error("the time signature at bar 1 cannot be removed, only replaced",
                            {"4/4"});
  }
  const auto it = std::lower_bound(changes_.begin(), changes_.end(), bar,
                                   [](const Signature& s, int b) { return s.bar < b; });
  if (it == changes_.end() || it->bar != bar) {
    std::vector<std::string> bars;
    for (const auto& change : changes_) {
      if (change.bar > 1) bars.push_back(std::to_string(change.bar));
    }
    return core::make_error("no time-signature change at bar " + std::to_string(bar),
                            std::move(bars));
  }
  changes_.erase(it);
  recompute_ticks();
  return {};
}

void MeterMap::recompute_ticks() {
  for (std::size_t i = 1; i < changes_.size(); ++i) {
    const Signature& previous = changes_[i - 1];
    changes_[i].tick = previous.tick + static_cast<std::uint64_t>(changes_[i].bar - previous.bar) *
                                           bar_ticks_of(previous);
  }
}

MeterMap::Signature MeterMap::at_tick(std::uint64_t tick) const {
  const auto it = std::upper_bound(changes_.begin(), changes_.end(), tick,
                                   [](std::uint64_t t, const Signature& s) { return t < s.tick; });
  return *std::prev(it);  // changes_[0].tick == 0, so `it` is never begin()
}

MeterMap::Signature MeterMap::at_bar(int bar) const {
  const auto it = std::upper_bound(changes_.begin(), changes_.end(), bar,
                                   [](int b, const Signature& s) { return b < s.bar; });
  return it == changes_.begin() ? changes_.front() : *std::prev(it);
}

std::uint64_t MeterMap::bar_start(int bar) const {
  bar = std::max(bar, 1);
  const Signature s = at_bar(bar);
  return s.tick + static_cast<std::uint64_t>(bar - s.bar) * bar_ticks_of(s);
}

std::uint32_t MeterMap::beat_ticks(int bar) const {
  return beat_ticks_of(at_bar(bar));
}

std::uint32_t MeterMap::bar_ticks(int bar) const {
  return bar_ticks_of(at_bar(bar));
}

int MeterMap::bar_of(std::uint64_t tick) const {
  const Signature s = at_tick(tick);
  const std::uint64_t bars = (tick - s.tick) / bar_ticks_of(s);
  const std::uint64_t bar = static_cast<std::uint64_t>(s.bar) + bars;
  return bar > static_cast<std::uint64_t>(std::numeric_limits<int>::max())
             ? std::numeric_limits<int>::max()
             : static_cast<int>(bar);
}

std::uint32_t MeterMap::beat_ticks_of(const Signature& s) const {
  return static_cast<std::uint32_t>(4 * ppqn_ / s.denominator);
}

std::uint32_t MeterMap::bar_ticks_of(const Signature& s) const {
  return static_cast<std::uint32_t>(s.numerator) * beat_ticks_of(s);
}

}  // namespace fcp::midi::theory
