// WireList: the wires of a device in the order they were made, indexed by their ends.
#include <gtest/gtest.h>

#include <vector>

#include "domains/lofi/device.hpp"

namespace fcp::lofi {
namespace {

std::vector<Wire> all(const WireList& wires) {
  return {wires.begin(), wires.end()};
}

TEST(WireList, KeepsTheOrderTheWiresWereMadeIn) {
  WireList wires;
  EXPECT_TRUE(wires.add({"a", 0, "b", 0}));
  EXPECT_TRUE(wires.add({"c", 0, "a", 1}));
  EXPECT_TRUE(wires.add({"b", 0, "c", 0}));
  EXPECT_FALSE(wires.add({"a", 0, "b", 0}));  // there already
  EXPECT_EQ(all(wires), (std::vector<Wire>{{"a", 0, "b", 0}, {"c", 0, "a", 1}, {"b", 0, "c", 0}}));
  EXPECT_TRUE(wires.erase({"c", 0, "a", 1}));
  EXPECT_FALSE(wires.erase({"c", 0, "a", 1}));
  EXPECT_TRUE(wires.add({"c", 0, "a", 1}));  // made again: last
  EXPECT_EQ(all(wires), (std::vector<Wire>{{"a", 0, "b", 0}, {"b", 0, "c", 0}, {"c", 0, "a", 1}}));
  EXPECT_EQ(wires.size(), 3u);
}

TEST(WireList, ListsAnObjectsWiresByEitherEnd) {
  WireList wires;
  wires.add({"a", 0, "b", 0});
  wires.add({"x", 0, "y", 0});
  wires.add({"b", 1, "a", 0});
  wires.add({"a", 0, "a", 1});  // from an object to itself: listed once
  EXPECT_EQ(wires.of("a"),
            (std::vector<Wire>{{"a", 0, "b", 0}, {"b", 1, "a", 0}, {"a", 0, "a", 1}}));
  EXPECT_EQ(wires.of("y"), (std::vector<Wire>{{"x", 0, "y", 0}}));
  EXPECT_TRUE(wires.of("z").empty());
  wires.erase({"a", 0, "a", 1});
  wires.erase({"a", 0, "b", 0});
  EXPECT_EQ(wires.of("a"), (std::vector<Wire>{{"b", 1, "a", 0}}));
  EXPECT_EQ(wires.of("b"), (std::vector<Wire>{{"b", 1, "a", 0}}));
  wires.erase({"b", 1, "a", 0});
  EXPECT_TRUE(wires.of("a").empty());
  EXPECT_TRUE(wires.of("b").empty());
  EXPECT_TRUE(wires.contains({"x", 0, "y", 0}));
  EXPECT_FALSE(wires.contains({"a", 0, "b", 0}));
}

TEST(WireList, EqualWhenTheSameWiresAreInTheSameOrder) {
  WireList one, two;
  one.add({"a", 0, "b", 0});
  one.add({"b", 0, "c", 0});
  two.add({"x", 0, "y", 0});  // another history, the same wires in the end
  two.erase({"x", 0, "y", 0});
  two.add({"a", 0, "b", 0});
  two.add({"b", 0, "c", 0});
  EXPECT_EQ(one, two);
  WireList three;
  three.add({"b", 0, "c", 0});
  three.add({"a", 0, "b", 0});
  EXPECT_FALSE(one == three);
}

}  // namespace
}  // namespace fcp::lofi
