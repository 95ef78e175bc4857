// PageIndex keeps one node per id and links cells by node number (issue 15 item 7): ids a cell
// mentions without a cell of their own (a missing parent or edge end) get a node too, which goes
// when nothing mentions it any more, and its number is reused. These tests drive the index
// through inserts, changes and erases and compare it after each step with what the page says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "domains/drawio/model/page.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {
namespace {

Cell vertex(std::string id, std::string parent) {
  Cell cell;
  cell.id = std::move(id);
  cell.parent = std::move(parent);
  cell.vertex = true;
  return cell;
}

Cell edge(std::string id, std::string parent, std::string source, std::string target) {
  Cell cell;
  cell.id = std::move(id);
  cell.parent = std::move(parent);
  cell.edge = true;
  if (!source.empty()) cell.source = std::move(source);
  if (!target.empty()) cell.target = std::move(target);
  return cell;
}

std::vector<std::string> sorted(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

// A page and its index, changed together the way the document changes them.
class Indexed {
 public:
  Indexed() {
    Cell root;
    root.id = "0";
    insert(root);
    Cell layer;
    layer.id = "1";
    layer.parent = "0";
    insert(layer);
  }
  void insert(Cell cell) {
    const Cell* added = page.insert(std::move(cell));
    ASSERT_NE(added, nullptr);
    index.add(page, *added);
  }
  void erase(const std::string& id) {
    index.remove(page, id);
    page.erase(id);
  }
  template <class Fn>
  void update(const std::string& id, Fn&& change) {
    Cell* cell = page.find(id);
    ASSERT_NE(cell, nullptr);
    index.remove(page, id);
    change(*cell);
    index.add(page, *cell);
  }

  // Children, incident edges and ends of every id in `ids` as the page has them.
  void expect_matches_page(const std::vector<std::string>& ids) const {
    std::map<std::string, std::vector<std::string>> children, incident;
    for (const Cell& cell : page.cells()) {
      if (cell.parent) children[*cell.parent].push_back(cell.id);
      if (!cell.edge || !cell.parent || *cell.parent == "0") continue;
      const std::string source = cell.source.value_or(""), target = cell.target.value_or("");
      if (!source.empty()) incident[source].push_back(cell.id);
      if (!target.empty() && target != source) incident[target].push_back(cell.id);
    }
    for (const auto& id : ids) {
      SCOPED_TRACE("id " + id);
      EXPECT_EQ(sorted(index.children(id).to_vector()), sorted(children[id]));
      EXPECT_EQ(sorted(index.incident_edges(id).to_vector()), sorted(incident[id]));
      const Cell* cell = page.find(id);
      const auto entry = index.entry(id);
      ASSERT_EQ(entry.has_value(), cell != nullptr);
      if (cell == nullptr) {
        EXPECT_EQ(index.kind(id), CellKind::other);
        continue;
      }
      EXPECT_EQ(entry->parent, cell->parent.value_or(""));
      if (entry->kind == CellKind::edge) {
        EXPECT_EQ(entry->source, cell->source.value_or(""));
        EXPECT_EQ(entry->target, cell->target.value_or(""));
      }
    }
  }

  Page page;
  PageIndex index;
};

TEST(PageIndexTest, EndsWithoutCellsAreListedUntilTheEdgeGoes) {
  Indexed indexed;
  indexed.insert(edge("e", "1", "a", "b"));
  EXPECT_EQ(indexed.index.incident_edges("a").to_vector(), std::vector<std::string>{"e"});
  EXPECT_EQ(indexed.index.incident_edges("b").to_vector(), std::vector<std::string>{"e"});
  EXPECT_EQ(indexed.index.kind("a"), CellKind::other);
  EXPECT_FALSE(indexed.index.entry("a").has_value());
  ASSERT_TRUE(indexed.index.entry("e").has_value());
  EXPECT_EQ(indexed.index.entry("e")->source, "a");
  EXPECT_EQ(indexed.index.entry("e")->target, "b");

  indexed.insert(vertex("a", "1"));  // the end gets its cell: its edge stays listed
  EXPECT_EQ(indexed.index.kind("a"), CellKind::shape);
  EXPECT_EQ(indexed.index.incident_edges("a").to_vector(), std::vector<std::string>{"e"});
  EXPECT_EQ(indexed.index.shapes(), 1U);

  indexed.erase("e");
  EXPECT_TRUE(indexed.index.incident_edges("a").empty());
  EXPECT_TRUE(indexed.index.incident_edges("b").empty());
  EXPECT_EQ(indexed.index.edges(), 0U);
  // "b"'s node went with the edge; a new cell takes the number and must not see e's links.
  indexed.insert(vertex("c-an-id-long-enough-to-be-on-the-heap", "1"));
  indexed.expect_matches_page({"a", "b", "e", "c-an-id-long-enough-to-be-on-the-heap", "1"});
  EXPECT_EQ(indexed.index.children("1").size(), 2U);
}

TEST(PageIndexTest, ACellParentedToItsOwnEndIsReleasedOnce) {
  Indexed indexed;
  indexed.insert(edge("e", "x", "x", "x"));  // parent, source and target: one missing id
  EXPECT_EQ(indexed.index.children("x").to_vector(), std::vector<std::string>{"e"});
  EXPECT_EQ(indexed.index.incident_edges("x").to_vector(), std::vector<std::string>{"e"});
  indexed.erase("e");
  // Two ids made after it must get two numbers of their own.
  indexed.insert(edge("f", "1", "y", "z"));
  indexed.expect_matches_page({"e", "f", "x", "y", "z", "1"});
}

// The index keeps no copy of a shape's or group's label: a change or erase drops the name the
// cell had when it was added.
TEST(PageIndexTest, ARelabelOrEraseDropsTheNameTheCellHad) {
  Indexed indexed;
  Cell shape = vertex("s", "1");
  shape.value = "Auth";
  indexed.insert(shape);
  Cell group = vertex("g", "1");
  group.value = "Backend";
  group.style = Style::parse("group;");
  indexed.insert(group);
  ASSERT_EQ(indexed.index.kind("g"), CellKind::group);
  EXPECT_EQ(indexed.index.shape_names().lookup("Auth").ids, std::vector<std::string>{"s"});

  indexed.update("s", [](Cell& cell) { cell.value = "Billing"; });
  EXPECT_TRUE(indexed.index.shape_names().lookup("Auth").ids.empty());
  EXPECT_EQ(indexed.index.shape_names().lookup("Billing").ids, std::vector<std::string>{"s"});
  EXPECT_EQ(indexed.index.shape_names().names(), std::vector<std::string>{"Billing"});

  indexed.update("g", [](Cell& cell) { cell.value = "Frontend"; });
  EXPECT_EQ(indexed.index.group_names().names(), std::vector<std::string>{"Frontend"});
  indexed.erase("g");
  indexed.erase("s");
  EXPECT_TRUE(indexed.index.group_names().empty());
  EXPECT_TRUE(indexed.index.shape_names().empty());
}

TEST(PageIndexTest, RandomEditsKeepTheIndexEqualToThePage) {
  std::vector<std::string> pool;
  for (int i = 0; i < 24; ++i)
    pool.push_back(i % 3 == 0 ? "long-identifier-number-" + std::to_string(i)
                              : "c" + std::to_string(i));
  std::vector<std::string> all = pool;
  all.emplace_back("0");
  all.emplace_back("1");
  std::mt19937 random(15);
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(random)];
  };
  auto parent_of = [&] { return random() % 2 == 0 ? std::string("1") : pick(pool); };
  auto end_of = [&] { return random() % 8 == 0 ? std::string() : pick(pool); };
  Indexed indexed;
  for (int step = 0; step < 3000; ++step) {
    const std::string id = pick(pool);
    const Cell* cell = indexed.page.find(id);
    if (cell == nullptr) {
      indexed.insert(random() % 2 == 0 ? vertex(id, parent_of())
                                       : edge(id, parent_of(), end_of(), end_of()));
    } else if (random() % 2 == 0) {
      indexed.erase(id);
    } else {
      indexed.update(id, [&](Cell& changed) {
        changed.parent = parent_of();
        if (changed.edge) {
          changed.source = end_of();
          changed.target = end_of();
        }
      });
    }
    if (step % 50 == 0) {
      SCOPED_TRACE("step " + std::to_string(step));
      indexed.expect_matches_page(all);
      if (HasFailure()) return;
    }
  }
  indexed.expect_matches_page(all);
}

}  // namespace
}  // namespace fcp::drawio
