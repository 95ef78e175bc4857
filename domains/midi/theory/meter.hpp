// The time-signature map of a song: which signature holds in which bar, and bar ⇄ tick arithmetic.
#pragma once

#include <cstdint>
#include <vector>

#include "core/result.hpp"

namespace fcp::midi::theory {

// Time signatures by bar. A change always starts at a bar line; bars after the last change keep
// its signature forever. A beat is one denominator note (ppqn*4/den ticks): 6/8 has 6 beats of an
// eighth each. All lookups are O(log n) in the number of changes; set/remove are O(n).
// Value type; not thread-safe (single owner).
class MeterMap {
 public:
  // 4/4 from bar 1. `ppqn` is clamped to 1..32767 (the SMF header's range).
  explicit MeterMap(int ppqn);

  // Sets the signature from `bar` (1-based) on, replacing any change at that bar. Numerator
  // 1..255, denominator a power of two 1..64 that divides 4*ppqn (so beats are whole ticks).
  core::Result<void> set(int bar, int numerator, int denominator);
  // Removes the change at `bar` (> 1); the previous signature then continues.
  core::Result<void> remove(int bar);

  struct Signature {
    int bar;             // 1-based bar where it starts
    std::uint64_t tick;  // tick of that bar line
    int numerator, denominator;
    friend bool operator==(const Signature&, const Signature&) = default;
  };
  const std::vector<Signature>& changes() const { return changes_; }  // sorted, first at bar 1

  Signature at_tick(std::uint64_t tick) const;  // the signature in force at `tick`
  Signature at_bar(int bar) const;              // … in bar `bar` (bars below 1 read as 1)
  std::uint64_t bar_start(int bar) const;       // tick of bar N (bars below 1 read as 1)
  std::uint32_t beat_ticks(int bar) const;      // ppqn*4/den
  std::uint32_t bar_ticks(int bar) const;       // numerator * beat_ticks
  int bar_of(std::uint64_t tick) const;         // 1-based bar containing `tick`
  int ppqn() const { return ppqn_; }

 private:
  std::uint32_t beat_ticks_of(const Signature& s) const;
  std::uint32_t bar_ticks_of(const Signature& s) const;
  void recompute_ticks();

  int ppqn_;
  std::vector<Signature> changes_;
};

}  // namespace fcp::midi::theory
