#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "domains/drawio/model/attributes.hpp"
#include "domains/drawio/model/diagram.hpp"
#include "domains/drawio/model/opt_double.hpp"
#include "domains/drawio/model/page.hpp"
#include "domains/drawio/model/slot_list.hpp"
#include "domains/drawio/model/thin_vector.hpp"

namespace fcp::drawio {
namespace {

Cell make_cell(std::string id, std::string parent, bool vertex = true) {
  Cell cell;
  cell.id = std::move(id);
  cell.parent = std::move(parent);
  cell.vertex = vertex;
  return cell;
}

std::vector<std::string> ids(const Page& page) {
  std::vector<std::string> out;
  for (const Cell& cell : page.cells())
    out.push_back(cell.id);
  return out;
}

std::vector<std::string> ids(const std::vector<const Cell*>& cells) {
  std::vector<std::string> out;
  out.reserve(cells.size());
  for (const Cell* cell : cells)
    out.push_back(cell->id);
  return out;
}

Page layered_page() {
  Page page;
  Cell root;
  root.id = "0";
  page.insert(root);
  page.insert(make_cell("1", "0", false));
  Cell hidden = make_cell("L2", "0", false);
  hidden.attributes.set("visible", "0");
  page.insert(hidden);
  Cell locked = make_cell("L3", "0", false);
  locked.style = Style::parse("locked=1;");
  page.insert(locked);
  return page;
}

TEST(AttributesTest, KeepsOrderAndReplacesInPlace) {
  Attributes attributes;
  attributes.set("host", "a");
  attributes.set("version", "1");
  attributes.set("host", "b");
  ASSERT_EQ(attributes.size(), 2u);
  EXPECT_EQ(attributes[0].name, "host");
  EXPECT_EQ(attributes.get("host"), "b");
  EXPECT_EQ(attributes.get("missing"), std::nullopt);
  EXPECT_TRUE(attributes.erase("host"));
  EXPECT_FALSE(attributes.erase("host"));
  EXPECT_EQ(attributes[0].name, "version");
}

TEST(PageTest, IndexesCellsAndRefusesDuplicateOrEmptyIds) {
  Page page = layered_page();
  ASSERT_NE(page.insert(make_cell("a", "1")), nullptr);
  EXPECT_EQ(page.insert(make_cell("a", "1")), nullptr);
  EXPECT_EQ(page.insert(make_cell("", "1")), nullptr);
  EXPECT_EQ(page.find("a")->parent, "1");
  EXPECT_TRUE(page.contains("L2"));
  EXPECT_EQ(page.find("zzz"), nullptr);
  EXPECT_THAT(ids(page), ::testing::ElementsAre("0", "1", "L2", "L3", "a"));
}

TEST(PageTest, EraseAndInsertBeforeRestoreDocumentOrder) {
  Page page = layered_page();
  page.insert(make_cell("a", "1"));
  page.insert(make_cell("b", "1"));
  const std::string next(page.next_id("a"));
  EXPECT_EQ(next, "b");
  std::optional<Cell> erased = page.erase("a");
  ASSERT_TRUE(erased.has_value());
  EXPECT_FALSE(page.contains("a"));
  EXPECT_FALSE(page.erase("a").has_value());
  ASSERT_NE(page.insert_before(next, std::move(*erased)), nullptr);
  EXPECT_THAT(ids(page), ::testing::ElementsAre("0", "1", "L2", "L3", "a", "b"));
  EXPECT_EQ(page.insert_before("nope", make_cell("c", "1")), nullptr);
}

TEST(PageTest, RenameMovesTheIndexEntry) {
  Page page = layered_page();
  page.insert(make_cell("a", "1"));
  EXPECT_FALSE(page.rename("a", "L2"));
  EXPECT_TRUE(page.rename("a", "z"));
  EXPECT_FALSE(page.contains("a"));
  ASSERT_NE(page.find("z"), nullptr);
  EXPECT_EQ(page.find("z")->id, "z");
}

TEST(PageTest, RepeatedIdsFromFilesAreKeptAndTheNextOneIsIndexedAfterErase) {
  Page page;
  Cell first = make_cell("x", "1");
  first.value = "first";
  Cell second = make_cell("x", "1");
  second.value = "second";
  page.append_from_file(first);
  page.append_from_file(second);
  page.append_from_file(make_cell("", "1"));
  EXPECT_EQ(page.cell_count(), 3u);
  EXPECT_EQ(page.find("x")->value, "first");
  page.erase("x");
  ASSERT_NE(page.find("x"), nullptr);
  EXPECT_EQ(page.find("x")->value, "second");
}

// The id index is an open-addressing table that grows and moves its entries while cells come
// and go: every cell stays found under its id (long ids too, stored outside the string), and
// erased or renamed ids are gone.
TEST(PageTest, TheIdIndexFollowsManyInsertsErasesAndRenames) {
  Page page;
  constexpr int kCells = 5000;
  auto id_of = [](int i) { return "cell-with-a-long-id-" + std::to_string(i); };
  for (int i = 0; i < kCells; ++i)
    ASSERT_NE(page.insert(make_cell(id_of(i), "1")), nullptr);
  for (int i = 0; i < kCells; i += 2)
    ASSERT_TRUE(page.erase(id_of(i)).has_value());
  for (int i = 1; i < kCells; i += 4)
    ASSERT_TRUE(page.rename(id_of(i), "r" + std::to_string(i)));
  for (int i = 0; i < kCells; ++i) {
    const bool erased = i % 2 == 0, renamed = i % 4 == 1;
    EXPECT_EQ(page.contains(id_of(i)), !erased && !renamed) << i;
    if (renamed) {
      const Cell* cell = page.find("r" + std::to_string(i));
      ASSERT_NE(cell, nullptr) << i;
      EXPECT_EQ(cell->id, "r" + std::to_string(i));
    } else if (!erased) {
      EXPECT_EQ(page.find(id_of(i))->id, id_of(i));
    }
  }
  EXPECT_EQ(page.cell_count(), static_cast<std::size_t>(kCells / 2));
  EXPECT_EQ(page.next_id(id_of(3)), "r5");
}

TEST(PageTest, CopiesHaveTheirOwnIndex) {
  Page page = layered_page();
  page.insert(make_cell("a", "1"));
  Page copy = page;
  copy.find("a")->value = "changed";
  EXPECT_EQ(page.find("a")->value, std::nullopt);
  EXPECT_EQ(copy.find("a")->value, "changed");
  page.erase("a");
  EXPECT_TRUE(copy.contains("a"));
  Page moved = std::move(copy);
  EXPECT_EQ(moved.find("a")->value, "changed");
}

TEST(PageTest, LayersVisibilityAndLocks) {
  Page page = layered_page();
  page.insert(make_cell("a", "L2"));
  EXPECT_EQ(page.root_id(), "0");
  EXPECT_THAT(ids(page.layers()), ::testing::ElementsAre("1", "L2", "L3"));
  EXPECT_TRUE(page.is_layer(*page.find("L2")));
  EXPECT_FALSE(page.is_layer(*page.find("a")));
  EXPECT_TRUE(page.find("1")->is_visible());
  EXPECT_FALSE(page.find("L2")->is_visible());
  EXPECT_TRUE(page.find("L3")->is_locked());
  EXPECT_FALSE(page.find("1")->is_locked());
  EXPECT_THAT(ids(page.children_of("L2")), ::testing::ElementsAre("a"));
  EXPECT_THAT(ids(page.children_index().at("0")), ::testing::ElementsAre("1", "L2", "L3"));
}

TEST(PageTest, ClassifiesTextSwimlanesContainersAndEdgeLabels) {
  Page page = layered_page();
  Cell text = make_cell("t", "1");
  text.style = Style::parse("text;html=1;");
  Cell lane = make_cell("lane", "1");
  lane.style = Style::parse("swimlane;startSize=23;");
  Cell shaped_lane = make_cell("lane2", "1");
  shaped_lane.style = Style::parse("shape=swimlane;");
  Cell group = make_cell("g", "1");
  group.style = Style::parse("container=1;");
  Cell not_container = make_cell("nc", "1");
  not_container.attributes.set("connectable", "0");
  Cell edge = make_cell("e", "1", false);
  edge.edge = true;
  Cell label = make_cell("lbl", "e");
  label.style = Style::parse("edgeLabel;html=1;");
  label.attributes.set("connectable", "0");
  for (Cell* cell : {&text, &lane, &shaped_lane, &group, &not_container, &edge, &label}) {
    page.insert(*cell);
  }
  EXPECT_TRUE(page.find("t")->is_text());
  EXPECT_FALSE(page.find("lane")->is_text());
  EXPECT_TRUE(page.find("lane")->is_swimlane());
  EXPECT_TRUE(page.find("lane2")->is_swimlane());
  EXPECT_TRUE(page.find("lane")->is_container());
  EXPECT_TRUE(page.find("g")->is_container());
  EXPECT_FALSE(page.find("nc")->is_container());
  EXPECT_FALSE(page.find("lbl")->is_container());
  EXPECT_TRUE(page.is_edge_label(*page.find("lbl")));
  EXPECT_FALSE(page.is_edge_label(*page.find("t")));
}

TEST(DiagramTest, AllocatedIdsNeverCollideWithCellsPagesOrEarlierIds) {
  Diagram diagram;
  Page page = layered_page();
  page.diagram_attributes().set("id", "fcp-3");
  page.insert(make_cell("fcp-1", "1"));
  page.insert(make_cell("fcp-2", "1"));
  diagram.add_page(std::move(page));
  EXPECT_EQ(diagram.allocate_id(), "fcp-4");
  // Cells inserted later, even without the allocator, are seen through the page index.
  diagram.pages()[0].insert(make_cell("fcp-5", "1"));
  EXPECT_EQ(diagram.allocate_id(), "fcp-6");
  // Ids of erased cells are not handed out again.
  diagram.pages()[0].erase("fcp-1");
  std::unordered_set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = diagram.allocate_id();
    EXPECT_NE(id, "fcp-1");
    EXPECT_FALSE(diagram.pages()[0].contains(id));
    EXPECT_TRUE(seen.insert(id).second) << id;
  }
}

TEST(DiagramTest, ReservedIdsAndPrefixes) {
  Diagram diagram;
  diagram.set_id_prefix("x");
  diagram.reserve_id("x-1");
  EXPECT_EQ(diagram.allocate_id(), "x-2");
}

TEST(DiagramTest, RemembersOnlyReservationsItCouldHandOut) {
  Diagram diagram;
  // Ids of other forms can never be allocated: reserving them changes nothing.
  for (const char* id : {"fcp-02", "fcp-", "fcp-2x", "other-2", "fcp2", "x-fcp-2"})
    diagram.reserve_id(id);
  diagram.reserve_id("fcp-3");
  diagram.reserve_id("fcp-18446744073709551616");  // past uint64: not a number it makes
  EXPECT_EQ(diagram.allocate_id(), "fcp-1");
  EXPECT_EQ(diagram.allocate_id(), "fcp-2");
  EXPECT_EQ(diagram.allocate_id(), "fcp-4");
  // A number already passed is not remembered, and is not made again either.
  diagram.reserve_id("fcp-1");
  EXPECT_EQ(diagram.allocate_id(), "fcp-5");
  // A file's ids, reserved then erased, are still not handed out.
  Page page = layered_page();
  page.insert(make_cell("fcp-6", "1"));
  page.insert(make_cell("fcp-7", "1"));
  diagram.add_page(std::move(page));
  diagram.pages()[0].erase("fcp-6");
  diagram.pages()[0].erase("fcp-7");
  EXPECT_EQ(diagram.allocate_id(), "fcp-8");
}

TEST(SlotListTest, KeepsOrderInlineAndPastInline) {
  SlotList<CellSlot> slots{CellSlot::id, CellSlot::value};
  EXPECT_EQ(slots.size(), 2U);
  const std::vector<CellSlot> pattern{CellSlot::id,     CellSlot::value, CellSlot::style,
                                      CellSlot::parent, CellSlot::other, CellSlot::vertex};
  std::vector<CellSlot> expected{CellSlot::id, CellSlot::value};
  for (std::size_t i = 0; i < 3 * SlotList<CellSlot>::kInline; ++i) {
    slots.push_back(pattern[i % pattern.size()]);
    expected.push_back(pattern[i % pattern.size()]);
    ASSERT_THAT(slots, ::testing::ElementsAreArray(expected)) << i;
  }
  const SlotList<CellSlot> copy = slots;
  EXPECT_EQ(copy, slots);
  SlotList<CellSlot> shorter{CellSlot::id, CellSlot::value};
  EXPECT_NE(shorter, slots);
  shorter = copy;
  EXPECT_EQ(shorter, slots);
  SlotList<CellSlot> moved = std::move(shorter);
  EXPECT_EQ(moved, slots);
  EXPECT_TRUE(shorter.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  shorter = std::move(moved);
  EXPECT_EQ(shorter, slots);
  EXPECT_TRUE(moved.empty());  // NOLINT(bugprone-use-after-move)
  slots.clear();
  EXPECT_TRUE(slots.empty());
  EXPECT_EQ(slots, SlotList<CellSlot>());
  slots.push_back(CellSlot::edge);
  EXPECT_THAT(slots, ::testing::ElementsAre(CellSlot::edge));
}

TEST(CellTest, EmptySessionNotesAreNoNotes) {
  Cell plain = make_cell("a", "1");
  Cell noted = plain;
  noted.set_note_alias("web");
  noted.set_note_type("svc");
  EXPECT_EQ(noted.note_alias(), "web");
  EXPECT_EQ(noted.note_type(), "svc");
  EXPECT_NE(noted, plain);
  noted.set_note_alias("");
  EXPECT_NE(noted, plain);
  noted.set_note_type("");
  EXPECT_EQ(noted, plain);  // equal again: nothing left of the notes
  EXPECT_EQ(noted.note_type(), "");
}

TEST(ThinVectorTest, CopiesItsElementsAndEqualsByThem) {
  ThinVector<std::string> none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());  // iterating an empty list allocates nothing
  EXPECT_EQ(none.view(), std::vector<std::string>());
  ThinVector<std::string> list;
  list.push_back("a");
  list.emplace_back("b");
  EXPECT_THAT(list, ::testing::ElementsAre("a", "b"));
  EXPECT_NE(list, none);
  ThinVector<std::string> copy = list;
  copy[0] = "z";  // a copy has its own elements
  EXPECT_EQ(list.at(0), "a");
  EXPECT_THAT(copy.view(), ::testing::ElementsAre("z", "b"));
  for (std::string& item : copy)
    item += "!";
  EXPECT_THAT(copy.view(), ::testing::ElementsAre("z!", "b!"));
  EXPECT_EQ(copy.take(), (std::vector<std::string>{"z!", "b!"}));
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(copy, none);
  list.edit().clear();  // emptied but still allocated: equal to one that never had any
  EXPECT_EQ(list, none);
  EXPECT_EQ(ThinVector<std::string>(std::vector<std::string>{"x"}).front(), "x");
}

TEST(AttributesTest, AnAttributeErasedLeavesAttributesEqualToNone) {
  Attributes attributes;
  EXPECT_FALSE(attributes.erase("a"));
  attributes.set("a", "1");
  EXPECT_NE(attributes, Attributes());
  EXPECT_TRUE(attributes.erase("a"));
  EXPECT_EQ(attributes, Attributes());
  EXPECT_TRUE(attributes.items().empty());
  attributes.append("b", "2");
  EXPECT_EQ(attributes.take().size(), 1U);
  EXPECT_TRUE(attributes.empty());
}

TEST(OptDoubleTest, BehavesAsAnOptionalDoubleForEveryValue) {
  OptDouble none;
  EXPECT_FALSE(none.has_value());
  EXPECT_EQ(none, std::nullopt);
  EXPECT_EQ(none.value_or(7.5), 7.5);
  EXPECT_EQ(static_cast<std::optional<double>>(none), std::nullopt);
  EXPECT_THROW((void)none.value(), std::bad_optional_access);
  for (const double value : {0.0, -0.0, 1.5, -1e300, std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::denorm_min()}) {
    OptDouble held = value;
    ASSERT_TRUE(held.has_value()) << value;
    EXPECT_EQ(*held, value);
    EXPECT_EQ(held, value);
    EXPECT_EQ(held, OptDouble(std::optional<double>(value)));
    EXPECT_NE(held, none);
    EXPECT_EQ(static_cast<std::optional<double>>(held), std::optional<double>(value));
  }
  // NaN is a value (as in std::optional<double>, unequal to itself), never read as absent,
  // whatever its bits, including the one pattern that stands for absent.
  const OptDouble nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(nan.has_value());
  EXPECT_TRUE(std::isnan(*nan));
  EXPECT_NE(nan, nan);
  for (std::uint64_t bits = 0x7FF0'0000'0000'0001ULL; bits < 0x7FF0'0000'0000'0001ULL + 4; ++bits)
    EXPECT_TRUE(OptDouble(std::bit_cast<double>(bits)).has_value());
  for (const std::uint64_t bits : {0x7FF4'0000'A65E'7D0BULL, 0xFFF4'0000'A65E'7D0BULL}) {
    const OptDouble odd = std::bit_cast<double>(bits);
    EXPECT_TRUE(odd.has_value());
    EXPECT_TRUE(std::isnan(*odd));
  }
  OptDouble changed = 3.0;
  changed.reset();
  EXPECT_EQ(changed, none);
  changed = std::optional<double>(4.0);
  EXPECT_EQ(changed, 4.0);
  changed = std::nullopt;
  EXPECT_FALSE(changed);
}

// The cell's size is what a big page costs per cell (1 M cells: 416 MB in the cells alone).
// 512 bytes before the lists and the geometry's numbers were made compact (libstdc++, 64-bit).
TEST(CellTest, StaysCompact) {
  if constexpr (sizeof(void*) == 8) {
    EXPECT_LE(sizeof(Geometry), 120U);
    EXPECT_LE(sizeof(Cell), 416U);
  }
  EXPECT_EQ(sizeof(OptDouble), sizeof(double));
  EXPECT_EQ(sizeof(Attributes), sizeof(void*));
}

}  // namespace
}  // namespace fcp::drawio
