#include "core/event_log.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace fcp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Positions = std::map<std::string, std::size_t>;

class NamedEvent final : public Event {
 public:
  explicit NamedEvent(std::string name) : name_(std::move(name)) {}
  std::string summary() const override { return name_; }

 private:
  std::string name_;
};

EventPtr event(std::string name) {
  return std::make_shared<NamedEvent>(std::move(name));
}

std::vector<std::string> names(const std::vector<EventPtr>& events) {
  std::vector<std::string> out;
  for (const EventPtr& e : events)
    out.push_back(e->summary());
  return out;
}

// Built by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on "x" + std::to_string(i).
std::string numbered(std::string_view prefix, int i) {
  std::string out(prefix);
  out += std::to_string(i);
  return out;
}

void append_all(EventLog& log, std::initializer_list<const char*> list) {
  for (const char* name : list)
    log.append(event(name));
}

TEST(EventLog, StartsEmpty) {
  EventLog log;
  EXPECT_EQ(log.cursor(), 0u);
  EXPECT_EQ(log.length(), 0u);
  EXPECT_THAT(log.undo(1), IsEmpty());
  EXPECT_THAT(log.redo(1), IsEmpty());
  EXPECT_THAT(log.recent(5), IsEmpty());
  EXPECT_EQ(log.undoable(), 0u);
  EXPECT_EQ(log.redoable(), 0u);
}

TEST(EventLog, UndoReturnsNewestFirstAndRedoOldestFirst) {
  EventLog log;
  append_all(log, {"a", "b", "c"});
  EXPECT_THAT(names(log.undo(2)), ElementsAre("c", "b"));
  EXPECT_EQ(log.cursor(), 1u);
  EXPECT_EQ(log.length(), 3u);
  EXPECT_EQ(log.undoable(), 1u);
  EXPECT_EQ(log.redoable(), 2u);
  EXPECT_THAT(names(log.redo(5)), ElementsAre("b", "c"));
  EXPECT_EQ(log.cursor(), 3u);
  EXPECT_THAT(log.undo(0), IsEmpty());
  EXPECT_THAT(log.redo(0), IsEmpty());
  EXPECT_EQ(log.cursor(), 3u);
  EXPECT_THAT(names(log.undo(10)), ElementsAre("c", "b", "a"));
  EXPECT_EQ(log.cursor(), 0u);
  EXPECT_THAT(log.undo(1), IsEmpty());
}

TEST(EventLog, AppendTruncatesTheRedoTail) {
  EventLog log;
  append_all(log, {"a", "b", "c"});
  log.undo(2);
  log.append(event("d"));
  EXPECT_EQ(log.length(), 2u);
  EXPECT_EQ(log.cursor(), 2u);
  EXPECT_THAT(log.redo(1), IsEmpty());
  EXPECT_THAT(names(log.recent(9)), ElementsAre("a", "d"));
}

TEST(EventLog, CheckpointPushesASentinelThatUndoAndRedoSkip) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  log.append(event("b"));
  EXPECT_EQ(log.length(), 3u);
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 1}}));
  ASSERT_TRUE(log.entries()[1].is_checkpoint());
  EXPECT_EQ(log.entries()[1].checkpoint, "v1");
  EXPECT_EQ(log.undoable(), 2u);

  EXPECT_THAT(names(log.undo(1)), ElementsAre("b"));
  EXPECT_EQ(log.cursor(), 2u);  // the index of the last undone entry
  EXPECT_THAT(names(log.undo(1)), ElementsAre("a"));
  EXPECT_EQ(log.cursor(), 0u);
  EXPECT_THAT(names(log.redo(1)), ElementsAre("a"));
  EXPECT_EQ(log.cursor(), 1u);  // just after the last redone entry
  EXPECT_THAT(names(log.redo(1)), ElementsAre("b"));
  EXPECT_EQ(log.cursor(), 3u);
}

TEST(EventLog, UndoWithOnlySentinelsDoesNothing) {
  EventLog log;
  log.checkpoint("v0");
  EXPECT_THAT(log.undo(3), IsEmpty());
  EXPECT_EQ(log.cursor(), 1u);
}

TEST(EventLog, CheckpointTruncatesFirstAndDropsLaterCheckpoints) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  log.append(event("b"));
  log.checkpoint("v2");
  log.undo(1);  // undoes b; cursor 2
  log.checkpoint("v3");
  EXPECT_EQ(log.length(), 3u);
  EXPECT_EQ(log.cursor(), 3u);
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 1}, {"v3", 2}}));
  EXPECT_THAT(log.redo(1), IsEmpty());
}

TEST(EventLog, ReusingANameMovesTheCheckpoint) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  log.append(event("b"));
  log.checkpoint("v1");
  log.append(event("c"));
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 3}}));
  auto undone = log.undo_to("v1");
  ASSERT_TRUE(undone);
  ASSERT_TRUE(undone->has_value());
  EXPECT_THAT(names(**undone), ElementsAre("c"));
}

TEST(EventLog, UndoTo) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  append_all(log, {"b", "c"});
  log.checkpoint("v2");
  log.append(event("d"));
  auto undone = log.undo_to("v1");
  ASSERT_TRUE(undone);
  ASSERT_TRUE(undone->has_value());
  EXPECT_THAT(names(**undone), ElementsAre("d", "c", "b"));
  EXPECT_EQ(log.cursor(), 1u);
  EXPECT_EQ(log.length(), 6u);

  auto again = log.undo_to("v1");  // position == cursor
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->has_value());
  auto later = log.undo_to("v2");  // position > cursor
  ASSERT_TRUE(later);
  EXPECT_FALSE(later->has_value());
  EXPECT_EQ(log.cursor(), 1u);

  EXPECT_THAT(names(log.redo(3)), ElementsAre("b", "c", "d"));
  EXPECT_EQ(log.cursor(), 6u);
}

TEST(EventLog, UndoToRightAfterTheCheckpointIsAnEmptyList) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  auto undone = log.undo_to("v1");
  ASSERT_TRUE(undone);
  ASSERT_TRUE(undone->has_value());
  EXPECT_THAT(**undone, IsEmpty());
  EXPECT_EQ(log.cursor(), 1u);
}

TEST(EventLog, UndoToUnknownNameIsAnErrorWithSuggestions) {
  EventLog log;
  log.append(event("a"));
  auto none = log.undo_to("v1");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "unknown checkpoint \"v1\" (no checkpoints yet)");
  log.checkpoint("before-refactor");
  log.checkpoint("v2");
  auto typo = log.undo_to("before-refactr");
  ASSERT_FALSE(typo);
  EXPECT_THAT(typo.error().message, HasSubstr("checkpoints: before-refactor, v2"));
  EXPECT_THAT(typo.error().hints, ElementsAre("before-refactor"));
  EXPECT_EQ(log.cursor(), 3u);
}

TEST(EventLog, AppendAfterUndoToKeepsTheCheckpointUsable) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  log.append(event("b"));
  ASSERT_TRUE(log.undo_to("v1"));
  log.append(event("d"));
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 1}}));
  EXPECT_THAT(names(log.recent(5)), ElementsAre("a", "d"));
  auto undone = log.undo_to("v1");
  ASSERT_TRUE(undone && undone->has_value());
  EXPECT_THAT(names(**undone), ElementsAre("d"));
}

TEST(EventLog, AppendDropsCheckpointsBeyondTheCursor) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  log.append(event("b"));
  log.checkpoint("v2");
  log.append(event("c"));
  log.undo(2);
  log.append(event("d"));
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 1}}));
  EXPECT_FALSE(log.undo_to("v2"));
}

TEST(EventLog, RecentIsReadOnlyOldestFirst) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  append_all(log, {"b", "c"});
  log.undo(1);
  EXPECT_THAT(names(log.recent(2)), ElementsAre("a", "b"));
  EXPECT_THAT(names(log.recent(1)), ElementsAre("b"));
  EXPECT_THAT(log.recent(0), IsEmpty());
  EXPECT_EQ(log.cursor(), 3u);
}

TEST(EventLog, Since) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  append_all(log, {"b", "c"});
  auto since = log.since("v1");
  ASSERT_TRUE(since);
  EXPECT_THAT(names(*since), ElementsAre("b", "c"));
  log.undo(2);
  ASSERT_TRUE(log.since("v1"));
  EXPECT_THAT(*log.since("v1"), IsEmpty());
  log.undo(1);  // cursor before the checkpoint
  EXPECT_THAT(*log.since("v1"), IsEmpty());
  EXPECT_FALSE(log.since("nope"));
}

TEST(EventLog, RollbackRestoresAppendsCheckpointsAndTheRedoTail) {
  EventLog log;
  append_all(log, {"a", "b"});
  log.checkpoint("v1");
  append_all(log, {"c", "d"});
  log.undo(2);  // cursor 3; c, d in the redo tail
  const EventLog::Mark mark = log.mark();
  EXPECT_THAT(names(std::vector<EventPtr>{mark.tail[0].event, mark.tail[1].event}),
              ElementsAre("c", "d"));

  for (int i = 0; i < 100; ++i)
    log.append(event(numbered("x", i)));
  log.checkpoint("v2");
  EXPECT_EQ(log.length(), 104u);

  log.rollback(mark);
  EXPECT_EQ(log.cursor(), 3u);
  EXPECT_EQ(log.length(), 5u);
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 2}}));
  EXPECT_THAT(names(log.redo(5)), ElementsAre("c", "d"));
  EXPECT_THAT(names(log.recent(10)), ElementsAre("a", "b", "c", "d"));
}

TEST(EventLog, RollbackRestoresDroppedCheckpoints) {
  EventLog log;
  log.append(event("a"));
  log.checkpoint("v1");
  log.append(event("b"));
  log.undo(2);
  const EventLog::Mark mark = log.mark();
  log.append(event("x"));
  EXPECT_THAT(log.checkpoints(), IsEmpty());
  log.rollback(mark);
  EXPECT_EQ(log.checkpoints(), (Positions{{"v1", 1}}));
  EXPECT_EQ(log.length(), 3u);
  EXPECT_EQ(log.cursor(), 0u);
  EXPECT_THAT(names(log.redo(5)), ElementsAre("a", "b"));
}

TEST(EventLog, RollbackAfterUndoRestoresTheCursor) {
  EventLog log;
  append_all(log, {"a", "b", "c"});
  const EventLog::Mark mark = log.mark();
  log.undo(2);
  log.rollback(mark);
  EXPECT_EQ(log.cursor(), 3u);
  EXPECT_THAT(names(log.recent(3)), ElementsAre("a", "b", "c"));
}

TEST(EventLog, Clear) {
  EventLog log;
  append_all(log, {"a", "b"});
  log.checkpoint("v1");
  log.clear();
  EXPECT_EQ(log.cursor(), 0u);
  EXPECT_EQ(log.length(), 0u);
  EXPECT_THAT(log.checkpoints(), IsEmpty());
  EXPECT_FALSE(log.undo_to("v1"));
}

TEST(EventLog, TenThousandOps) {
  EventLog log;
  for (int i = 0; i < 10000; ++i) {
    if (i % 1000 == 0) log.checkpoint(numbered("c", i / 1000));
    log.append(event(std::to_string(i)));
  }
  EXPECT_EQ(log.length(), 10010u);
  EXPECT_EQ(log.undoable(), 10000u);

  std::vector<EventPtr> undone = log.undo(10000);
  ASSERT_EQ(undone.size(), 10000u);
  EXPECT_EQ(undone.front()->summary(), "9999");
  EXPECT_EQ(undone.back()->summary(), "0");
  EXPECT_EQ(log.cursor(), 1u);  // the first entry is the c0 sentinel
  EXPECT_EQ(log.redoable(), 10000u);

  std::vector<EventPtr> redone = log.redo(10000);
  ASSERT_EQ(redone.size(), 10000u);
  EXPECT_EQ(redone.front()->summary(), "0");
  EXPECT_EQ(redone.back()->summary(), "9999");
  EXPECT_EQ(log.cursor(), 10010u);

  auto to_c5 = log.undo_to("c5");
  ASSERT_TRUE(to_c5 && to_c5->has_value());
  EXPECT_EQ((*to_c5)->size(), 5000u);
  EXPECT_EQ((*to_c5)->back()->summary(), "5000");
  EXPECT_EQ(log.cursor(), 5005u);
  EXPECT_EQ(log.recent(1).front()->summary(), "4999");
}

TEST(EventLog, TenThousandOpBatchRollsBack) {
  EventLog log;
  log.append(event("base"));
  const EventLog::Mark mark = log.mark();
  for (int i = 0; i < 10000; ++i)
    log.append(event(std::to_string(i)));
  EXPECT_EQ(log.length(), 10001u);
  log.rollback(mark);
  EXPECT_EQ(log.length(), 1u);
  EXPECT_THAT(names(log.recent(5)), ElementsAre("base"));
}

}  // namespace
}  // namespace fcp::core
