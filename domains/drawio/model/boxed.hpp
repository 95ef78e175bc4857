// An optional value kept out of line: one pointer in the owner while absent, for the fields most
// cells lack (edge end points, waypoints, label offsets, <object> wrappers).
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace fcp::drawio {

// The parts of std::optional the model uses, with value semantics (copies copy the value,
// equality compares values), but sizeof one pointer: a million cells without the field pay
// 8 bytes each instead of sizeof(T).
template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t /*none*/) {}  // NOLINT(google-explicit-constructor): like std::optional
  Boxed(T value)                     // NOLINT(google-explicit-constructor): like std::optional
      : value_(std::make_unique<T>(std::move(value))) {}
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(std::nullopt_t /*none*/) {
    value_.reset();
    return *this;
  }
  Boxed& operator=(T value) {
    if (value_) {
      *value_ = std::move(value);
    } else {
      value_ = std::make_unique<T>(std::move(value));
    }
    return *this;
  }
  ~Boxed() = default;

  template <class... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return value_ != nullptr; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  template <class U>
  T value_or(U&& fallback) const {
    return value_ ? *value_ : static_cast<T>(std::forward<U>(fallback));
  }
  // A copy as a std::optional, so code written for the std::optional fields still compiles
  // (`const std::optional<Point>& p = g.source_point` binds a copy); prefer `const auto&`.
  operator std::optional<T>() const {  // NOLINT(google-explicit-constructor)
    return value_ ? std::optional<T>(*value_) : std::optional<T>();
  }

  bool operator==(const Boxed& other) const {
    if (!value_ || !other.value_) return !value_ && !other.value_;
    return *value_ == *other.value_;
  }
  bool operator==(std::nullopt_t /*none*/) const { return !value_; }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace fcp::drawio
