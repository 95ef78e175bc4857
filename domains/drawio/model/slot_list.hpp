// A short list of one-byte slot names (CellSlot, GeometrySlot, GeometryAttr) kept inline.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace fcp::drawio {

// The document order of an element's attributes or children, as read. Almost every element has
// at most kInline of them, so the list lives in the owner (16 bytes, no allocation); a longer
// one moves to the heap (a vector). Contiguous, so it converts to std::span<const Slot>.
template <class Slot>
class SlotList {
  static_assert(sizeof(Slot) == 1 && std::is_enum_v<Slot>);

 public:
  static constexpr std::size_t kInline = 7;
  using value_type = Slot;
  // The standard container name, so generic code (gmock's container matchers) takes it as one.
  using const_iterator = const Slot*;  // NOLINT(readability-identifier-naming)

  SlotList() = default;
  SlotList(std::initializer_list<Slot> slots) {
    for (Slot slot : slots)
      push_back(slot);
  }
  SlotList(const SlotList& other)
      : size_(other.size_),
        inline_(other.inline_),
        heap_(other.heap_ ? std::make_unique<std::vector<Slot>>(*other.heap_) : nullptr) {}
  // A moved-from list is empty, like a moved-from std::vector.
  SlotList(SlotList&& other) noexcept
      : size_(std::exchange(other.size_, 0)),
        inline_(other.inline_),
        heap_(std::move(other.heap_)) {}
  SlotList& operator=(const SlotList& other) {
    if (this != &other) *this = SlotList(other);
    return *this;
  }
  SlotList& operator=(SlotList&& other) noexcept {
    size_ = std::exchange(other.size_, 0);
    inline_ = other.inline_;
    heap_ = std::move(other.heap_);
    return *this;
  }
  ~SlotList() = default;

  void push_back(Slot slot) {
    if (heap_) {
      heap_->push_back(slot);
    } else if (size_ < kInline) {
      inline_[size_++] = slot;
    } else {
      heap_ = std::make_unique<std::vector<Slot>>(inline_.begin(), inline_.end());
      heap_->push_back(slot);
    }
  }
  void reserve(std::size_t /*count*/) {}  // inline, or a vector once past kInline
  void clear() {
    size_ = 0;
    heap_.reset();
  }

  std::size_t size() const { return heap_ ? heap_->size() : size_; }
  bool empty() const { return size() == 0; }
  const Slot* data() const { return heap_ ? heap_->data() : inline_.data(); }
  const Slot* begin() const { return data(); }
  const Slot* end() const { return data() + size(); }
  Slot operator[](std::size_t i) const { return data()[i]; }

  bool operator==(const SlotList& other) const {
    return std::equal(begin(), end(), other.begin(), other.end());
  }

 private:
  std::uint8_t size_ = 0;  // of inline_, while heap_ is null
  std::array<Slot, kInline> inline_{};
  std::unique_ptr<std::vector<Slot>> heap_;  // every slot, once there are more than kInline
};

}  // namespace fcp::drawio
