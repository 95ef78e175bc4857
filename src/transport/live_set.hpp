// The live connections of a server: counted for the connection limit, closed on stop().
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace fcp::transport {

// Holds its members weakly: a connection's own pending I/O keeps it alive, and it removes itself
// here when it closes. Thread: any (one mutex).
template <class T>
class LiveSet {
 public:
  void add(const std::shared_ptr<T>& item) {
    std::lock_guard lock(mutex_);
    items_[item.get()] = item;
  }
  void remove(const T* item) {
    std::lock_guard lock(mutex_);
    items_.erase(item);
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return items_.size();
  }
  std::vector<std::shared_ptr<T>> snapshot() const {
    std::vector<std::shared_ptr<T>> live;
    std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : items_)
      if (auto item = weak.lock()) live.push_back(std::move(item));
    return live;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const T*, std::weak_ptr<T>> items_;
};

}  // namespace fcp::transport
