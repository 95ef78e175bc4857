// EntityStore against a plain map: random puts (appends, inserts in the middle, moves to
// another tick or track) and erases (front, middle, back) keep find, each track's order,
// lower_bound and the counts the same.
#include "domains/midi/entity_store.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

namespace fcp::midi {
namespace {

struct Item {
  EntityId id = 0;
  EntityId track = 0;
  Tick tick = 0;
  int value = 0;
  bool operator==(const Item&) const = default;
};

using Store = EntityStore<Item>;

void expect_same(const Store& store, const std::map<EntityId, Item>& reference) {
  ASSERT_EQ(store.size(), reference.size());
  std::map<EntityId, std::set<std::pair<Tick, EntityId>>> by_track;
  for (const auto& [id, item] : reference) {
    const Item* found = store.find(id);
    ASSERT_NE(found, nullptr) << id;
    EXPECT_EQ(*found, item);
    by_track[item.track].emplace(item.tick, id);
  }
  for (EntityId track = 1; track <= 3; ++track) {
    const auto view = store.of_track(track);
    const auto& expected = by_track[track];
    ASSERT_EQ(view.size(), expected.size());
    EXPECT_EQ(store.count(track), expected.size());
    std::vector<std::pair<Tick, EntityId>> got;
    for (const auto& [tick, id] : view)
      got.emplace_back(tick, id);
    EXPECT_TRUE(std::equal(got.begin(), got.end(), expected.begin(), expected.end()));
    std::size_t visited = 0;
    view.for_each([&](const Item& item) {
      EXPECT_EQ(item.track, track);
      ++visited;
    });
    EXPECT_EQ(visited, expected.size());
    for (Tick from : {Tick{0}, Tick{50}, Tick{500}, Tick{999}, Tick{5000}}) {
      const auto it = view.lower_bound({from, 0});
      const auto want = expected.lower_bound({from, 0});
      if (want == expected.end()) {
        EXPECT_TRUE(it == view.end());
      } else {
        ASSERT_FALSE(it == view.end());
        EXPECT_EQ(*it, *want);
        EXPECT_EQ(it.item().id, want->second);
      }
    }
    if (!expected.empty()) {
      EXPECT_EQ(view.last().id, expected.rbegin()->second);
    }
  }
}

TEST(EntityStore, MatchesAMapUnderRandomEdits) {
  std::mt19937 random(15);
  Store store;
  std::map<EntityId, Item> reference;
  EntityId next = 1;
  // A file read in time order first: appends, several blocks per track.
  for (Tick tick = 0; tick < 2000; ++tick) {
    const Item item{next++, 1 + tick % 3, tick / 2, 0};
    store.put(item);
    reference[item.id] = item;
  }
  expect_same(store, reference);
  for (int step = 0; step < 20000; ++step) {
    const int what = static_cast<int>(random() % 10);
    if (what < 4 || reference.empty()) {  // a new item anywhere
      const Item item{next++, 1 + random() % 3, random() % 1000, step};
      store.put(item);
      reference[item.id] = item;
    } else if (what < 6) {  // an item moved or changed
      auto it = std::next(reference.begin(), static_cast<long>(random() % reference.size()));
      Item item = it->second;
      item.tick = random() % 1000;
      if (what == 5) item.track = 1 + random() % 3;
      item.value = step;
      store.put(item);
      it->second = item;
    } else {  // erased: the front of a track, its end or anywhere
      EntityId id = 0;
      if (what == 6 || what == 7) {
        const auto view = store.of_track(1 + random() % 3);
        if (view.empty()) continue;
        id = what == 6 ? view.begin().item().id : view.last().id;
      } else {
        id = std::next(reference.begin(), static_cast<long>(random() % reference.size()))->first;
      }
      store.erase(id);
      reference.erase(id);
    }
    if (step % 2500 == 0) expect_same(store, reference);
  }
  expect_same(store, reference);
  // Everything erased from the front, as a track's removal does.
  for (EntityId track = 1; track <= 3; ++track) {
    while (!store.of_track(track).empty()) {
      const EntityId id = store.of_track(track).begin().item().id;
      store.erase(id);
      reference.erase(id);
    }
  }
  expect_same(store, reference);
  EXPECT_EQ(store.size(), 0u);
  EXPECT_EQ(store.find(1), nullptr);
}

}  // namespace
}  // namespace fcp::midi
