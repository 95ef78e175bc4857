// core::Transaction and core::ChangeEvent with a toy model: a map of named numbers.
#include "core/transaction.hpp"

#include <gtest/gtest.h>

#include <map>
#include <optional>

namespace fcp::core {
namespace {

using Numbers = std::map<std::string, int>;

struct NumberChange {
  std::string name;
  std::optional<int> before, after;
};

struct NumberChanges {
  using Model = Numbers;
  using Change = NumberChange;
  static void apply(Numbers& model, const NumberChange& change, bool forward) {
    const auto& state = forward ? change.after : change.before;
    if (state) {
      model[change.name] = *state;
    } else {
      model.erase(change.name);
    }
  }
  static std::vector<std::string> touched(const std::vector<NumberChange>& changes) {
    std::vector<std::string> names;
    for (const auto& change : changes) {
      if (change.after) names.push_back(change.name);
    }
    return names;
  }
};

using NumberTransaction = Transaction<NumberChanges>;

// Sets `name` the way a domain's edit helper would: first touch records the before-state.
void set(NumberTransaction& transaction, const std::string& name, std::optional<int> value) {
  transaction.touch(name, [&] {
    NumberChange change{name, {}, {}};
    if (auto it = transaction.model().find(name); it != transaction.model().end())
      change.before = it->second;
    return change;
  });
  if (value) {
    transaction.model()[name] = *value;
  } else {
    transaction.model().erase(name);
  }
}

EventPtr commit(NumberTransaction& transaction, std::string summary) {
  return transaction.commit(std::move(summary), [&](NumberChange& change) {
    if (auto it = transaction.model().find(change.name); it != transaction.model().end())
      change.after = it->second;
    return change.before != change.after;
  });
}

TEST(Transaction, UncommittedChangesAreRolledBackNewestFirst) {
  Numbers model{{"a", 1}};
  {
    NumberTransaction transaction(model);
    set(transaction, "a", 2);
    set(transaction, "b", 3);
    transaction.apply(NumberChange{"c", std::nullopt, 4});
    EXPECT_EQ(model.size(), 3u);
  }
  EXPECT_EQ(model, (Numbers{{"a", 1}}));
}

TEST(Transaction, TouchTakesTheBeforeStateOncePerOp) {
  Numbers model{{"a", 1}};
  NumberTransaction transaction(model);
  set(transaction, "a", 2);
  set(transaction, "a", 3);
  ASSERT_EQ(transaction.changes().size(), 1u);
  auto event = commit(transaction, "set a");
  ASSERT_NE(event, nullptr);
  const auto& changes = static_cast<const ChangeEvent<NumberChanges>&>(*event).changes();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].before, 1);
  EXPECT_EQ(changes[0].after, 3);
  EXPECT_EQ(event->summary(), "set a");
  EXPECT_EQ(event->touched_entities(), std::vector<std::string>{"a"});
}

TEST(Transaction, ChangesThatChangedNothingAreDropped) {
  Numbers model{{"a", 1}};
  NumberTransaction transaction(model);
  set(transaction, "a", 5);
  set(transaction, "a", 1);  // back to where it was
  set(transaction, "b", 7);
  set(transaction, "b", std::nullopt);  // created and removed within the op
  EXPECT_EQ(commit(transaction, "nothing"), nullptr);
  EXPECT_EQ(model, (Numbers{{"a", 1}}));
}

TEST(Transaction, EventsUndoAndRedoExactly) {
  Numbers model{{"a", 1}};
  NumberTransaction transaction(model);
  set(transaction, "a", 2);
  set(transaction, "b", 3);
  set(transaction, "a", std::nullopt);
  auto event = commit(transaction, "op");
  ASSERT_NE(event, nullptr);
  const Numbers after = model;
  apply_event<NumberChanges>(model, *event, false);
  EXPECT_EQ(model, (Numbers{{"a", 1}}));
  apply_event<NumberChanges>(model, *event, true);
  EXPECT_EQ(model, after);
}

TEST(Transaction, CommittedChangesStay) {
  Numbers model;
  {
    NumberTransaction transaction(model);
    set(transaction, "a", 1);
    EXPECT_NE(commit(transaction, "add a"), nullptr);
  }
  EXPECT_EQ(model, (Numbers{{"a", 1}}));
}

}  // namespace
}  // namespace fcp::core
