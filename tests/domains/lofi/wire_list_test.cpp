// WireList: the wires of a device in the order they were made, indexed by their ends.
#include <gtest/gtest.h>

#include <string>
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

TEST(WireList, KeepsOrderAndEndsWhenMostWiresAreErased) {
  WireList wires;
  std::vector<Wire> expected;
  for (int i = 0; i < 300; ++i) {
    const Wire wire{"o" + std::to_string(i % 7), i, "o" + std::to_string(i % 5), 0};
    wires.add(wire);
    if (i % 4 == 3) expected.push_back(wire);
  }
  for (int i = 0; i < 300; ++i) {
    if (i % 4 != 3) wires.erase({"o" + std::to_string(i % 7), i, "o" + std::to_string(i % 5), 0});
  }
  EXPECT_EQ(all(wires), expected);
  std::vector<Wire> of_o1;
  for (const Wire& wire : expected) {
    if (wire.source == "o1" || wire.destination == "o1") of_o1.push_back(wire);
  }
  EXPECT_EQ(wires.of("o1"), of_o1);
  for (const Wire& wire : expected)
    EXPECT_TRUE(wires.contains(wire));
  wires.add({"new", 0, "o1", 0});
  of_o1.push_back({"new", 0, "o1", 0});
  EXPECT_EQ(wires.of("o1"), of_o1);
  EXPECT_EQ(wires.size(), expected.size() + 1);
}

}  // namespace
}  // namespace fcp::lofi
