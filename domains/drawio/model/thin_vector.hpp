// A vector that costs one pointer while empty: for lists nearly every cell leaves empty.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace fcp::drawio {

// A std::vector kept out of line: 8 bytes in its owner instead of 24, allocated at the first
// element. Most cells and geometries have no extra attributes or children, and a 1 M-cell page
// holds four such lists a cell. Equality compares the elements (an emptied list, still
// allocated, equals one that never had any). Reads see a std::vector (view()), so functions
// taking `const std::vector<T>&` take it as one.
template <class T>
class ThinVector {
 public:
  using value_type = T;
  // Pointers: iterating (also a mutable list) never allocates.
  using iterator = T*;              // NOLINT(readability-identifier-naming)
  using const_iterator = const T*;  // NOLINT(readability-identifier-naming)

  ThinVector() = default;
  ThinVector(std::initializer_list<T> items) {
    if (items.size() > 0) items_ = std::make_unique<std::vector<T>>(items);
  }
  explicit ThinVector(std::vector<T> items) {
    if (!items.empty()) items_ = std::make_unique<std::vector<T>>(std::move(items));
  }
  ThinVector(const ThinVector& other)
      : items_(other.empty() ? nullptr : std::make_unique<std::vector<T>>(*other.items_)) {}
  ThinVector(ThinVector&&) noexcept = default;
  ThinVector& operator=(const ThinVector& other) {
    if (this != &other) *this = ThinVector(other);
    return *this;
  }
  ThinVector& operator=(ThinVector&&) noexcept = default;
  ~ThinVector() = default;

  // The elements as a std::vector (a shared empty one while none was ever added).
  const std::vector<T>& view() const { return items_ ? *items_ : empty_vector(); }
  operator const std::vector<T>&() const { return view(); }  // NOLINT(google-explicit-constructor)
  // The vector to change; allocates it when absent.
  std::vector<T>& edit() {
    if (!items_) items_ = std::make_unique<std::vector<T>>();
    return *items_;
  }
  // Moves the elements out, leaving this empty.
  std::vector<T> take() {
    std::vector<T> out = items_ ? std::move(*items_) : std::vector<T>();
    items_.reset();
    return out;
  }

  std::size_t size() const { return items_ ? items_->size() : 0; }
  bool empty() const { return size() == 0; }
  const T& operator[](std::size_t i) const { return (*items_)[i]; }
  T& operator[](std::size_t i) { return (*items_)[i]; }
  const T& at(std::size_t i) const { return view().at(i); }
  T& at(std::size_t i) { return edit().at(i); }
  const T& front() const { return view().front(); }
  const T& back() const { return view().back(); }
  const T* data() const { return items_ ? items_->data() : nullptr; }
  T* data() { return items_ ? items_->data() : nullptr; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size(); }
  iterator begin() { return data(); }
  iterator end() { return data() + size(); }

  void push_back(T item) { edit().push_back(std::move(item)); }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    return edit().emplace_back(std::forward<Args>(args)...);
  }
  void clear() { items_.reset(); }

  bool operator==(const ThinVector& other) const { return view() == other.view(); }

 private:
  static const std::vector<T>& empty_vector() {
    static const std::vector<T> none;
    return none;
  }

  std::unique_ptr<std::vector<T>> items_;
};

}  // namespace fcp::drawio
