// An optional double in 8 bytes (std::optional<double> takes 16).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>

namespace fcp::drawio {

// Absent is one signalling-NaN bit pattern that no arithmetic produces (NaN results are quiet)
// and that a value given is never stored as (it becomes a quiet NaN), so every double, NaN
// included, stays representable. The interface is std::optional<double>'s, so the geometry's
// fields read and assign as before.
class OptDouble {
 public:
  OptDouble() = default;
  OptDouble(std::nullopt_t /*none*/) {}  // NOLINT(google-explicit-constructor): like std::optional
  OptDouble(double value) : bits_(store(value)) {}  // NOLINT(google-explicit-constructor)
  OptDouble(const std::optional<double>& value)     // NOLINT(google-explicit-constructor)
      : bits_(value ? store(*value) : kAbsent) {}

  bool has_value() const { return bits_ != kAbsent; }
  explicit operator bool() const { return has_value(); }
  double operator*() const { return std::bit_cast<double>(bits_); }
  double value() const {
    if (!has_value()) throw std::bad_optional_access();
    return **this;
  }
  double value_or(double fallback) const { return has_value() ? **this : fallback; }
  void reset() { bits_ = kAbsent; }
  double emplace(double value) {
    bits_ = store(value);
    return value;
  }
  operator std::optional<double>() const {  // NOLINT(google-explicit-constructor)
    return has_value() ? std::optional<double>(**this) : std::nullopt;
  }

  // As std::optional<double>: both absent, or both present with equal values (NaN ≠ NaN).
  friend bool operator==(const OptDouble& a, const OptDouble& b) {
    if (!a.has_value() || !b.has_value()) return a.has_value() == b.has_value();
    return *a == *b;
  }
  friend bool operator==(const OptDouble& a, std::nullopt_t /*none*/) { return !a.has_value(); }
  friend bool operator==(const OptDouble& a, double b) { return a.has_value() && *a == b; }
  friend bool operator==(const OptDouble& a, const std::optional<double>& b) {
    return a == OptDouble(b);
  }

 private:
  static constexpr std::uint64_t kAbsent = 0x7FF4'0000'A65E'7D0BULL;  // a signalling NaN
  static std::uint64_t store(double value) {
    const auto bits = std::bit_cast<std::uint64_t>(value);
    return bits == kAbsent ? std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN())
                           : bits;
  }

  std::uint64_t bits_ = kAbsent;
};

}  // namespace fcp::drawio
