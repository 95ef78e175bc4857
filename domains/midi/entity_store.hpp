// EntityStore: a song's entities of one kind (notes, controls or raw events), by id and by
// (track, tick). Flat: each track keeps its items in (tick, id) order in blocks of a few hundred,
// and an open-addressing index maps an id to its tick and track. A file read in time order
// appends (O(1) each, no node per item); an edit finds its block by binary search and moves at
// most half a block (items erased from a block's front leave room there instead of moving the
// rest). About 140 bytes a note in all, against 270 with a hash node and two tree nodes.
#pragma once

#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace fcp::midi {

using Tick = std::uint64_t;
using EntityId = std::uint64_t;

// Thread: owned by one session, like its song.
template <class T>
class EntityStore {
 public:
  using Key = std::pair<Tick, EntityId>;

 private:
  static constexpr std::size_t kBlock = 256;  // items a block is filled with when appending

  static Key key_of(const T& item) { return {item.tick, item.id}; }

  // Items [first, items.size()) in key order; never empty while it is in a track.
  struct Block {
    std::vector<T> items;
    std::size_t first = 0;  // slots before it held items erased from the front
    std::size_t size() const { return items.size() - first; }
    auto begin() { return items.begin() + static_cast<std::ptrdiff_t>(first); }
    auto begin() const { return items.begin() + static_cast<std::ptrdiff_t>(first); }
    const T& last() const { return items.back(); }
  };

  struct Items {
    std::vector<Block> blocks;
    std::size_t size = 0;
  };

  struct Where {
    Tick tick = 0;
    EntityId track = 0;
  };

 public:
  // A track's items in (tick, id) order. Dereferences to the (tick, id) key (what callers
  // compare and look up by); item() is the entity itself.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Key;
    using difference_type = std::ptrdiff_t;
    using reference = Key;
    struct Arrow {
      Key key;
      const Key* operator->() const { return &key; }
    };
    using pointer = Arrow;

    Iterator() = default;
    Iterator(const std::vector<Block>* blocks, std::size_t block, std::size_t index)
        : blocks_(blocks), block_(block), index_(index) {}

    const T& item() const { return (*blocks_)[block_].items[(*blocks_)[block_].first + index_]; }
    Key operator*() const { return key_of(item()); }
    Arrow operator->() const { return {key_of(item())}; }
    Iterator& operator++() {
      if (++index_ == (*blocks_)[block_].size()) {
        ++block_;
        index_ = 0;
      }
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const {
      return block_ == other.block_ && index_ == other.index_;
    }

   private:
    const std::vector<Block>* blocks_ = nullptr;
    std::size_t block_ = 0, index_ = 0;
  };

  // The items of one track; valid until the store changes.
  class TrackView {
   public:
    TrackView() = default;
    explicit TrackView(const Items* items) : items_(items) {}
    Iterator begin() const { return {blocks(), 0, 0}; }
    Iterator end() const { return {blocks(), items_ ? items_->blocks.size() : 0, 0}; }
    bool empty() const { return size() == 0; }
    std::size_t size() const { return items_ ? items_->size : 0; }
    // The last item; the view must not be empty.
    const T& last() const { return items_->blocks.back().last(); }
    // The first item whose (tick, id) is not less than `key`. O(log n).
    Iterator lower_bound(const Key& key) const {
      if (!items_) return end();
      const auto& all = items_->blocks;
      const auto block = first_block_from(all, key);
      if (block == all.end()) return end();
      const auto at = std::lower_bound(block->begin(), block->items.end(), key, less_than_key);
      return {&all, static_cast<std::size_t>(block - all.begin()),
              static_cast<std::size_t>(at - block->begin())};
    }
    // Calls `visit` with each item in order (the fast way through a whole track).
    template <class Visit>
    void for_each(Visit&& visit) const {
      if (!items_) return;
      for (const Block& block : items_->blocks) {
        for (auto it = block.begin(); it != block.items.end(); ++it)
          visit(*it);
      }
    }

   private:
    const std::vector<Block>* blocks() const { return items_ ? &items_->blocks : nullptr; }
    const Items* items_ = nullptr;
  };

  const T* find(EntityId id) const {
    const auto where = where_.find(id);
    if (where == where_.end()) return nullptr;
    const auto track = tracks_.find(where->second.track);
    const auto& blocks = track->second.blocks;
    const Key key{where->second.tick, id};
    const auto block = first_block_from(blocks, key);
    return &*std::lower_bound(block->begin(), block->items.end(), key, less_than_key);
  }
  std::size_t size() const { return where_.size(); }
  // Inserts or replaces (by id).
  void put(const T& item) {
    erase(item.id);
    where_.emplace(item.id, Where{item.tick, item.track});
    Items& items = tracks_[item.track];
    insert(items.blocks, item);
    ++items.size;
  }
  // Room for `more` items in the id index, so that reading a file rehashes once.
  void reserve(std::size_t more) { where_.reserve(where_.size() + more); }
  void erase(EntityId id) {
    const auto where = where_.find(id);
    if (where == where_.end()) return;
    const auto track = tracks_.find(where->second.track);
    auto& blocks = track->second.blocks;
    const Key key{where->second.tick, id};
    const auto block = first_block_from(blocks, key);
    const auto at = std::lower_bound(block->begin(), block->items.end(), key, less_than_key);
    if (at - block->begin() < block->items.end() - at) {
      std::move_backward(block->begin(), at, std::next(at));  // the front moves up one
      *block->begin() = T{};
      ++block->first;
    } else {
      block->items.erase(at);
    }
    if (block->size() == 0) blocks.erase(block);
    if (--track->second.size == 0) tracks_.erase(track);
    where_.erase(where);
  }
  // A track's items in time order (ties by id, i.e. creation order).
  TrackView of_track(EntityId track) const {
    const auto it = tracks_.find(track);
    return TrackView(it == tracks_.end() ? nullptr : &it->second);
  }
  std::size_t count(EntityId track) const { return of_track(track).size(); }
  // Calls `visit` with every item, track by track (tracks by id), each track in time order.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const auto& entry : tracks_)
      TrackView(&entry.second).for_each(visit);
  }
  void clear() {
    where_.clear();
    tracks_.clear();
  }

 private:
  static bool less_than_key(const T& item, const Key& key) { return key_of(item) < key; }

  // The first block whose last item is not less than `key` (end when all are).
  template <class Blocks>
  static auto first_block_from(Blocks& blocks, const Key& key) {
    return std::partition_point(blocks.begin(), blocks.end(),
                                [&](const Block& block) { return key_of(block.last()) < key; });
  }

  static void insert(std::vector<Block>& blocks, const T& item) {
    const Key key = key_of(item);
    if (blocks.empty() || key_of(blocks.back().last()) < key) {  // appending, as a file reads
      if (blocks.empty() || blocks.back().items.size() >= kBlock) {
        blocks.emplace_back();
        blocks.back().items.reserve(kBlock);
      }
      blocks.back().items.push_back(item);
      return;
    }
    const auto block = first_block_from(blocks, key);
    auto& items = block->items;
    const auto at = std::lower_bound(block->begin(), items.end(), key, less_than_key);
    if (block->first > 0 && at - block->begin() < items.end() - at) {
      // A free slot before the front: the items before `at` move down one.
      std::move(block->begin(), at, std::prev(block->begin()));
      --block->first;
      *std::prev(at) = item;
    } else {
      items.insert(at, item);
    }
    if (block->size() > 2 * kBlock) {  // split in two
      Block second;
      const auto middle = block->begin() + static_cast<std::ptrdiff_t>(block->size() / 2);
      second.items.assign(std::make_move_iterator(middle), std::make_move_iterator(items.end()));
      items.erase(middle, items.end());
      items.erase(items.begin(), block->begin());
      block->first = 0;
      blocks.insert(std::next(block), std::move(second));
    }
  }

  boost::unordered_flat_map<EntityId, Where> where_;
  std::map<EntityId, Items> tracks_;
};

}  // namespace fcp::midi
