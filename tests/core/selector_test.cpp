// The selector engine: union within a type or family, intersection across types, @not:, @all,
// @recent:N from the event log, @type:, the default type, errors and the nothing-matched text.
#include "core/selector.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace fcp::core {
namespace {

struct Fruit {
  std::string name, kind, color;
};

class FruitScope;

Result<EntityTest> color_test(const FruitScope& scope, std::string_view value);
Result<EntityTest> ripe_test(const FruitScope& scope, std::string_view value);

const SelectorCatalog& fruit_catalog() {
  static const SelectorCatalog catalog{
      "fruit",
      "KIND",
      "what kind of fruit (apple, pear, plum)",
      "",
      {{"color", SelectorValue::required, "C", "skin colour", "", scoped_compile(&color_test)},
       {"ripe", SelectorValue::none, "", "ripe fruit (red or yellow)", "",
        scoped_compile(&ripe_test)},
       {"pome", SelectorValue::none, "", "apples and pears", "type",
        [](const SelectorScope&, std::string_view) -> Result<EntityTest> {
          return make_error("never compiled in these tests");
        }}},
      true};
  return catalog;
}

class FruitScope final : public SelectorScope {
 public:
  explicit FruitScope(std::vector<Fruit> fruits, const SelectorCatalog& catalog = fruit_catalog())
      : fruits_(std::move(fruits)), catalog_(catalog) {}
  const SelectorCatalog& catalog() const override { return catalog_; }
  std::size_t size() const override { return fruits_.size(); }
  std::string type_of(std::size_t index) const override { return fruits_[index].kind; }
  std::string key_of(std::size_t index) const override { return fruits_[index].name; }
  const Fruit& at(std::size_t index) const { return fruits_[index]; }

 private:
  std::vector<Fruit> fruits_;
  const SelectorCatalog& catalog_;
};

Result<EntityTest> color_test(const FruitScope& scope, std::string_view value) {
  if (value == "blue") return make_error("no fruit is blue");
  return EntityTest(
      [&scope, color = std::string(value)](std::size_t i) { return scope.at(i).color == color; });
}

Result<EntityTest> ripe_test(const FruitScope& scope, std::string_view) {
  return EntityTest([&scope](std::size_t i) {
    return scope.at(i).color == "red" || scope.at(i).color == "yellow";
  });
}

// An op that touched some fruits.
class Touch final : public Event {
 public:
  explicit Touch(std::vector<std::string> keys) : keys_(std::move(keys)) {}
  std::string summary() const override { return "touch"; }
  std::vector<std::string> touched_entities() const override { return keys_; }

 private:
  std::vector<std::string> keys_;
};

std::vector<Fruit> orchard() {
  return {{"a1", "apple", "red"},
          {"a2", "apple", "green"},
          {"p1", "pear", "green"},
          {"p2", "pear", "yellow"},
          {"u1", "plum", "purple"}};
}

class SelectorTest : public ::testing::Test {
 protected:
  // The names chosen by `text`'s selectors, or "!message" for an error.
  std::vector<std::string> names(const std::string& text) {
    auto selection = run(text);
    if (!selection) return {"!" + selection.error().message};
    std::vector<std::string> out;
    for (std::size_t i : selection->members)
      out.push_back(scope.at(i).name);
    return out;
  }
  Result<Selection> run(const std::string& text) {
    auto op = parse_op(text);
    EXPECT_TRUE(op.has_value());
    return select(op->selectors, scope, log, op->raw);
  }

 public:  // the tests use them directly
  FruitScope scope{orchard()};
  EventLog log;
};

using Names = std::vector<std::string>;

TEST_F(SelectorTest, NoSelectorsChooseEverything) {
  EXPECT_EQ(names("eat"), (Names{"a1", "a2", "p1", "p2", "u1"}));
  EXPECT_EQ(names("eat @all"), (Names{"a1", "a2", "p1", "p2", "u1"}));
}

TEST_F(SelectorTest, TheSameTypeRepeatedUnites) {
  EXPECT_EQ(names("eat @color:red @color:purple"), (Names{"a1", "u1"}));
  EXPECT_EQ(names("eat @type:apple @type:PLUM"), (Names{"a1", "a2", "u1"}));
}

TEST_F(SelectorTest, DifferentTypesIntersect) {
  EXPECT_EQ(names("eat @type:pear @color:green"), (Names{"p1"}));
  EXPECT_EQ(names("eat @color:green @type:pear @all"), (Names{"p1"}));
  // Alternatives within a type, intersected with another type.
  EXPECT_EQ(names("eat @type:apple @type:pear @color:green"), (Names{"a2", "p1"}));
}

TEST_F(SelectorTest, NotSubtracts) {
  EXPECT_EQ(names("eat @not:type:apple"), (Names{"p1", "p2", "u1"}));
  EXPECT_EQ(names("eat @color:green @not:type:pear"), (Names{"a2"}));
  EXPECT_EQ(names("eat @not:color:green @not:color:red"), (Names{"p2", "u1"}));
  EXPECT_EQ(names("eat @all @not:all"), Names{});
}

TEST_F(SelectorTest, RecentIsWhatTheLastOpsTouched) {
  log.append(std::make_shared<Touch>(Names{"u1"}));
  log.append(std::make_shared<Touch>(Names{"a2", "gone"}));
  log.append(std::make_shared<Touch>(Names{"p2"}));
  EXPECT_EQ(names("eat @recent"), (Names{"p2"}));
  EXPECT_EQ(names("eat @recent:2"), (Names{"a2", "p2"}));
  EXPECT_EQ(names("eat @recent:3 @type:apple"), (Names{"a2"}));
  EXPECT_EQ(names("eat @not:recent:3"), (Names{"a1", "p1"}));
  log.undo(1);  // undone ops are no longer recent
  EXPECT_EQ(names("eat @recent"), (Names{"a2"}));
  EXPECT_EQ(names("eat @recent:0"), (Names{"!@recent:N needs a count of ops from 1, got \"0\""}));
  EXPECT_EQ(run("eat @recent:x").error().hints, (Names{"eat @recent:3"}));
}

TEST_F(SelectorTest, AFamilyUnitesWithType) {
  static const SelectorCatalog catalog{
      "fruit",
      "KIND",
      "kind",
      "",
      {{"red", SelectorValue::none, "", "red fruit", "type",
        [](const SelectorScope& s, std::string_view) -> Result<EntityTest> {
          const auto& fruits = static_cast<const FruitScope&>(s);
          return EntityTest([&fruits](std::size_t i) { return fruits.at(i).color == "red"; });
        }},
       {"color", SelectorValue::required, "C", "skin colour", "", scoped_compile(&color_test)}},
      false};
  FruitScope family_scope(orchard(), catalog);
  auto op = parse_op("eat @red @type:plum");
  auto selection = select(op->selectors, family_scope, log, op->raw);
  ASSERT_TRUE(selection.has_value());
  EXPECT_EQ(selection->members, (std::vector<std::size_t>{0, 4}));
}

TEST_F(SelectorTest, ADefaultTypeAppliesUntilATypeIsNamed) {
  static const SelectorCatalog catalog{
      "fruit",
      "KIND",
      "kind",
      "apple",
      {{"color", SelectorValue::required, "C", "skin colour", "", scoped_compile(&color_test)}},
      false};
  FruitScope apples(orchard(), catalog);
  auto chosen = [&](const std::string& text) {
    auto op = parse_op(text);
    auto selection = select(op->selectors, apples, log, op->raw);
    EXPECT_TRUE(selection.has_value());
    return selection->members;
  };
  EXPECT_EQ(chosen("eat @all"), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(chosen("eat @color:green"), (std::vector<std::size_t>{1}));
  EXPECT_EQ(chosen("eat @color:green @type:pear"), (std::vector<std::size_t>{2}));
  EXPECT_EQ(chosen("eat @not:type:apple"), (std::vector<std::size_t>{}));
  auto op = parse_op("eat @color:purple");
  EXPECT_EQ(select(op->selectors, apples, log, op->raw)->nothing_matched,
            "no apples match @color:purple — there are 2 fruits: 2 apple");
}

TEST_F(SelectorTest, AnUnknownTypeListsTheSelectorsAndOffersTheCorrectedOp) {
  auto selection = run("eat @colr:red @type:apple");
  ASSERT_FALSE(selection.has_value());
  EXPECT_EQ(selection.error().message,
            "unknown selector @colr; fruit selectors: @all @recent[:N] @type:KIND @color:C @ripe "
            "@pome @not:TYPE[:VALUE]");
  EXPECT_EQ(selection.error().hints, (Names{"eat @color:red @type:apple"}));
  EXPECT_EQ(run("eat @not:rpe").error().hints.front(), "eat @not:ripe");
}

TEST_F(SelectorTest, ValuesAreChecked) {
  EXPECT_EQ(names("eat @color"), (Names{"!@color needs a value: @color:C"}));
  EXPECT_EQ(names("eat @type"), (Names{"!@type needs a value: @type:KIND"}));
  EXPECT_EQ(names("eat @ripe:yes"), (Names{"!@ripe:yes: @ripe takes no value"}));
  EXPECT_EQ(run("eat @ripe:yes").error().hints, (Names{"eat @ripe"}));
  EXPECT_EQ(names("eat @color:blue"), (Names{"!no fruit is blue"}));
}

TEST_F(SelectorTest, NothingMatchedSaysWhatEachOtherSelectionMatches) {
  auto selection = run("eat @type:plum @color:green");
  ASSERT_TRUE(selection.has_value());
  EXPECT_TRUE(selection->empty());
  EXPECT_EQ(selection->nothing_matched,
            "no fruits match @type:plum @color:green — @color:green matches 2 fruits: 1 apple, 1 "
            "pear; @type:plum matches 1 fruit: 1 plum");
  EXPECT_EQ(nothing_matched_warning(selection->nothing_matched, "eat"),
            "? no fruits match @type:plum @color:green — @color:green matches 2 fruits: 1 apple, "
            "1 pear; @type:plum matches 1 fruit: 1 plum; eat changed nothing");
}

TEST_F(SelectorTest, NothingMatchedSaysWhatTheNegationTookAway) {
  EXPECT_EQ(run("eat @type:plum @not:color:purple")->nothing_matched,
            "no fruits match @type:plum @not:color:purple — @type:plum matches 1 fruit: 1 plum");
  EXPECT_EQ(run("eat @not:color:red @not:color:green @not:ripe @not:type:plum")->nothing_matched,
            "no fruits match @not:color:red @not:color:green @not:ripe @not:type:plum — there are "
            "5 fruits: 2 apple, 2 pear, 1 plum");
}

TEST_F(SelectorTest, NothingMatchedFallsBackToWhatExists) {
  EXPECT_EQ(run("eat @type:kiwi")->nothing_matched,
            "no fruits match @type:kiwi — there are 5 fruits: 2 apple, 2 pear, 1 plum");
  EXPECT_EQ(run("eat @type:kiwi @color:brown")->nothing_matched,
            "no fruits match @type:kiwi @color:brown — there are 5 fruits: 2 apple, 2 pear, 1 "
            "plum");
  FruitScope empty({});
  auto op = parse_op("eat @ripe");
  EXPECT_EQ(select(op->selectors, empty, log, op->raw)->nothing_matched,
            "no fruits match @ripe — there are no fruits");
}

TEST_F(SelectorTest, TheCardListsRulesBuiltinsAndDomainTypes) {
  const std::string card = selector_card(fruit_catalog());
  EXPECT_NE(card.find("the same type repeated adds alternatives (@type:a,b is @type:a @type:b), "
                      "different types intersect"),
            std::string::npos);
  EXPECT_NE(card.find("\n  @all               every fruit\n"), std::string::npos);
  EXPECT_NE(card.find("\n  @type:KIND         what kind of fruit (apple, pear, plum)\n"),
            std::string::npos);
  EXPECT_NE(card.find("\n  @color:C           skin colour\n"), std::string::npos);
  EXPECT_NE(card.find("\n  @recent[:N]        fruits the last N ops"), std::string::npos);
  EXPECT_NE(card.find("fruits named beside selectors are added"), std::string::npos);
}

}  // namespace
}  // namespace fcp::core
