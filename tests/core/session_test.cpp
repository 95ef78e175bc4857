// core::Session with the test domain: batches, rollback, undo/redo, checkpoints, files, queries.
#include "core/session.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/call_scope.hpp"
#include "tests/support/test_domain.hpp"

namespace fcp::core {
namespace {

namespace fs = std::filesystem;

// Allows everything under one temporary directory (the daemon's RootPolicy is tested elsewhere).
class TempRoot final : public PathPolicy {
 public:
  TempRoot() : dir_(fs::temp_directory_path() / ("fcp-session-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~TempRoot() override { fs::remove_all(dir_); }
  Result<fs::path> for_reading(std::string_view p) const override { return dir_ / p; }
  Result<fs::path> for_writing(std::string_view p) const override { return dir_ / p; }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

class SessionTest : public ::testing::Test {
 protected:
  SessionTest() : domain_(testing::make_deck_domain()), session_(*domain_, root_) {}

  ToolReply ops(std::vector<std::string> list) {
    auto result = session_.run_ops(list, {});
    EXPECT_FALSE(result.pending);
    return result.reply;
  }
  ToolReply action(std::string_view text) {
    auto result = session_.run_session(text, {});
    EXPECT_FALSE(result.pending);
    return result.reply;
  }
  std::string last_line(const ToolReply& reply) {
    return reply.text.substr(reply.text.rfind('\n') + 1);
  }

  TempRoot root_;
  std::unique_ptr<Domain> domain_;
  Session session_;
};

TEST_F(SessionTest, OpsWithoutDocumentExplainHowToStart) {
  auto reply = ops({"add A"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! no document: use deck_session 'new \"Title\"'"), std::string::npos);
  EXPECT_NE(reply.text.find("  try: deck_session new"), std::string::npos);
}

TEST_F(SessionTest, NewThenBatchEndsWithDigest) {
  auto created = action("new \"Board\"");
  EXPECT_FALSE(created.is_error);
  EXPECT_EQ(created.text, "+ new deck document \"Board\"\n[0c 0l]");
  auto reply = ops({"add A color:red", "add B color:blue", "link A -> B"});
  EXPECT_FALSE(reply.is_error);
  EXPECT_EQ(reply.text, "+ card A red\n+ card B blue\n~ A->B\n[2c 1l]");
}

TEST_F(SessionTest, FailedOpRollsBackWholeBatchAndLog) {
  action("new X");
  ops({"add Keep color:red"});
  auto reply = ops({"add A color:red", "add B color:red", "link A -> Nope", "add C"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! op 3 of 4 failed: link A -> Nope"), std::string::npos);
  EXPECT_NE(reply.text.find("! unknown card \"Nope\" (cards: A, B, Keep)"), std::string::npos);
  EXPECT_NE(reply.text.find("! batch rolled back: 2 earlier ops undone"), std::string::npos);
  EXPECT_EQ(last_line(reply), "[1c 0l]");
  // The log holds only the first call: one undo empties the deck, a second has nothing left.
  EXPECT_EQ(last_line(action("undo")), "[0c 0l]");
  EXPECT_NE(action("undo").text.find("? nothing to undo"), std::string::npos);
}

TEST_F(SessionTest, RollbackKeepsRedoTailAndCheckpoints) {
  action("new X");
  ops({"add A color:red"});
  ops({"add B color:red"});
  action("checkpoint v1");
  action("undo");
  ops({"add C color:red", "fail"});  // would truncate the redo tail if it were applied
  auto redone = action("redo");
  EXPECT_NE(redone.text.find("+ redone: add B color:red"), std::string::npos);
  EXPECT_EQ(last_line(redone), "[2c 0l]");
}

TEST_F(SessionTest, APlacementDefaultIsAnnouncedUnlessAKeyApartFromItIsGiven) {
  action("new X");
  const std::string announced = "? no at: given: placed at the bottom, the default";
  EXPECT_NE(ops({"deal A"}).text.find(announced), std::string::npos);
  EXPECT_EQ(ops({"deal B at:3"}).text.find(announced), std::string::npos);
  EXPECT_EQ(ops({"deal C top:true"}).text.find(announced), std::string::npos);
  auto both = ops({"deal D at:3 top:true"});
  EXPECT_TRUE(both.is_error);
  EXPECT_NE(both.text.find("! at: and top: do not go together in deal"), std::string::npos);
  EXPECT_NE(both.text.find("  try: deal D top:true"), std::string::npos);
}

TEST_F(SessionTest, UnknownVerbSuggestsThePastableCorrectedOp) {
  action("new X");
  auto reply = ops({"ad A color:red"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! unknown verb \"ad\""), std::string::npos);
  EXPECT_NE(reply.text.find("  try: add A color:red"), std::string::npos);
  auto far = ops({"zzzzzzzz"});
  EXPECT_NE(far.text.find("verbs: add remove set"), std::string::npos);
  EXPECT_NE(far.text.find("  try: deck_help"), std::string::npos);
}

TEST_F(SessionTest, ADomainGetsTheSelectorEngineWhole) {
  // The test domain only supplies @color: and its cards; the rest is the engine's.
  action("new X");
  ops({"add A color:blue", "add B color:red", "add C color:blue"});
  EXPECT_EQ(ops({"set @color:blue @recent color:green"}).text, "* card C color:green\n[3c 0l]");
  // Blue or red, but not what the last two ops touched (C, by `add C` and by the `set`).
  EXPECT_EQ(ops({"set @color:blue @color:red @not:recent:2 color:pink"}).text,
            "* card A color:pink\n* card B color:pink\n[3c 0l]");
  auto nothing = ops({"remove @color:gold", "add D"});
  EXPECT_FALSE(nothing.is_error);
  EXPECT_EQ(nothing.text,
            "? no cards match @color:gold — there are 3 cards; remove changed nothing\n"
            "+ card D\n? D: no color\n[4c 0l]");
  EXPECT_EQ(session_.run_query("list @color:pink @recent:2").text,
            "deck \"X\": 4 cards\n  A pink\n  B pink");
  EXPECT_EQ(session_.run_query("list @color:pink @recent").text,
            "no cards match @color:pink @recent — @recent matches 1 card; @color:pink matches 2 "
            "cards");
  auto unknown = ops({"remove @colour:blue"});
  EXPECT_TRUE(unknown.is_error);
  EXPECT_NE(unknown.text.find("  try: remove @color:blue"), std::string::npos) << unknown.text;
}

TEST_F(SessionTest, OneOpIsOneUndoStepEvenWhenItChangesMany) {
  action("new X");
  ops({"add c count:5 color:red"});
  ops({"set @all color:blue"});
  auto undone = action("undo");
  EXPECT_EQ(undone.text, "- undone: set @all color:blue\n[5c 0l]");
  EXPECT_EQ(last_line(action("undo")), "[0c 0l]");
  EXPECT_EQ(last_line(action("redo 2")), "[5c 0l]");
}

TEST_F(SessionTest, UndoCountAndUndoToCheckpoint) {
  action("new X");
  ops({"add A color:red"});
  action("checkpoint v1");
  ops({"add B color:red"});
  ops({"add C color:red"});
  ops({"add D color:red"});
  EXPECT_EQ(last_line(action("undo 2")), "[2c 0l]");
  EXPECT_EQ(last_line(action("redo")), "[3c 0l]");
  auto back = action("undo to:v1");
  EXPECT_EQ(back.text, "- undone: add C color:red\n- undone: add B color:red\n[1c 0l]");
  EXPECT_NE(action("undo to:v1").text.find("nothing to undo"), std::string::npos);
  auto unknown = action("undo to:nope");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_NE(unknown.text.find("try: undo to:v1"), std::string::npos);
}

TEST_F(SessionTest, NewlinesSplitOpsAndBlankLinesAreDropped) {
  action("new X");
  auto reply = ops({"add A color:red\n\n  add B color:red  \n"});
  EXPECT_EQ(last_line(reply), "[2c 0l]");
  EXPECT_TRUE(ops({"\n  \n"}).is_error);
}

TEST_F(SessionTest, WarningsFollowTheOpLines) {
  action("new X");
  auto reply = ops({"add A"});
  EXPECT_EQ(reply.text, "+ card A\n? A: no color\n[1c 0l]");
}

// An undo or redo is asked for the document's warnings as a batch is: the undo hands the
// document the events it reverted (Applied::reverted), so it checks the state they left.
TEST_F(SessionTest, UndoAndRedoGiveTheDocumentsWarnings) {
  action("new X");
  ops({"add A"});
  EXPECT_EQ(ops({"set A color:red"}).text, "* card A color:red\n[1c 0l]");
  EXPECT_EQ(action("undo").text, "- undone: set A color:red\n? A: no color\n[1c 0l]");
  EXPECT_EQ(action("redo").text, "+ redone: set A color:red\n[1c 0l]");
  EXPECT_EQ(action("undo 2").text,
            "- undone: set A color:red\n- undone: add A\n[0c 0l]");  // A is gone: no warning
  EXPECT_EQ(action("redo").text, "+ redone: add A\n? A: no color\n[1c 0l]");
}

TEST_F(SessionTest, QueriesNeverChangeModelOrLog) {
  action("new X");
  ops({"add A color:red", "add B color:blue"});
  action("checkpoint v1");
  ops({"set A color:green"});
  const auto status_before = session_.run_query("status").text;
  for (const char* q : {"map", "list @color:blue", "stats", "describe A", "history 5",
                        "diff checkpoint:v1", "status", "nope", "describe Zed", ""}) {
    session_.run_query(q);
  }
  EXPECT_EQ(session_.run_query("status").text, status_before);
  EXPECT_EQ(last_line(action("undo")), "[2c 0l]");  // the log still has exactly its ops
  EXPECT_EQ(session_.run_query("describe A").text, "card A color:red links:");
}

// Status counts a checkpoint's place as its reply did: in ops, not counting earlier checkpoints.
TEST_F(SessionTest, StatusNamesCheckpointsByTheOpsBeforeThem) {
  action("new X");
  ops({"add A color:red"});
  EXPECT_EQ(action("checkpoint one").text.substr(0, 29), "+ checkpoint \"one\" after 1 op");
  ops({"add B color:red"});
  EXPECT_EQ(action("checkpoint two").text.substr(0, 30), "+ checkpoint \"two\" after 2 ops");
  EXPECT_NE(session_.run_query("status").text.find("checkpoints: one after 1 op, two after 2 ops"),
            std::string::npos)
      << session_.run_query("status").text;
}

// Edits that were all undone leave nothing unsaved: status says so without a count that reads
// like "no, but 2" (trial s12: "unsaved changes: no (2 changes since open/save)").
TEST_F(SessionTest, StatusAfterUndoingEverySinceOpen) {
  action("new X");
  EXPECT_NE(session_.run_query("status").text.find("  unsaved changes: no\n"), std::string::npos);
  ops({"add A color:red"});
  EXPECT_NE(
      session_.run_query("status").text.find("unsaved changes: yes (1 change since open/save)"),
      std::string::npos);
  action("undo");
  auto status = session_.run_query("status").text;
  EXPECT_NE(status.find("unsaved changes: no (the 2 changes since open/save cancel out: the "
                        "document is as it was opened or last saved)"),
            std::string::npos)
      << status;
}

TEST_F(SessionTest, HistoryDiffAndStatus) {
  action("new X");
  ops({"add A color:red"});
  action("checkpoint v1");
  ops({"add B color:red", "link A -> B"});
  EXPECT_EQ(session_.run_query("history 2").text,
            "history: last 2 of 3 ops (oldest first)\n  2. add B color:red\n  3. link A -> B");
  EXPECT_EQ(session_.run_query("diff checkpoint:v1").text,
            "diff since \"v1\": 2 ops\n  add B color:red\n  link A -> B");
  auto status = session_.run_query("status").text;
  EXPECT_NE(status.find("file: (not saved yet)"), std::string::npos);
  EXPECT_NE(status.find("unsaved changes: yes"), std::string::npos);
  EXPECT_NE(status.find("checkpoints: v1 after 1 op"), std::string::npos);
  auto unknown = session_.run_query("mpa");
  EXPECT_TRUE(unknown.is_error);
  EXPECT_NE(unknown.text.find("unknown query \"mpa\"; queries: map, list, stats"),
            std::string::npos);
  EXPECT_NE(unknown.text.find("try: map"), std::string::npos);
}

TEST_F(SessionTest, SaveOpenRoundTripAndUnsavedTracking) {
  action("new X");
  ops({"add A color:red", "add B color:blue", "link A -> B"});
  EXPECT_TRUE(session_.has_unsaved_changes());
  auto no_path = action("save");
  EXPECT_TRUE(no_path.is_error);
  EXPECT_NE(no_path.text.find("try: save as:./X.deck"), std::string::npos);
  auto saved = action("save as:board.deck");
  EXPECT_FALSE(saved.is_error) << saved.text;
  EXPECT_FALSE(session_.has_unsaved_changes());
  ops({"add C color:red"});
  auto refused = action("new Y");
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("unsaved changes"), std::string::npos);
  action("undo");
  EXPECT_FALSE(session_.has_unsaved_changes());  // back at the saved state
  auto opened = action("open board.deck");
  EXPECT_FALSE(opened.is_error) << opened.text;
  EXPECT_NE(opened.text.find("(2 cards)"), std::string::npos);
  EXPECT_EQ(session_.run_query("describe A").text, "card A color:red links: B");
  EXPECT_NE(action("undo").text.find("nothing to undo"), std::string::npos);  // open resets the log
}

TEST_F(SessionTest, SavingOverAReadOnlyFileTakesForce) {
  action("new X");
  ops({"add A color:red"});
  ASSERT_FALSE(action("save as:locked.deck").is_error);
  const auto path = root_.dir() / "locked.deck";
  std::filesystem::permissions(path, std::filesystem::perms::owner_read);
  ops({"add B color:blue"});
  auto refused = action("save");
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("read-only (mode 0400); save force:true"), std::string::npos)
      << refused.text;
  EXPECT_TRUE(session_.has_unsaved_changes());
  auto forced = action("save force:true");
  EXPECT_FALSE(forced.is_error) << forced.text;
  EXPECT_FALSE(session_.has_unsaved_changes());
  EXPECT_EQ(std::filesystem::status(path).permissions(), std::filesystem::perms::owner_read);
}

TEST_F(SessionTest, FailedOpenKeepsTheCurrentDocument) {
  action("new X");
  ops({"add A color:red"});
  std::ofstream(root_.dir() / "bad.deck") << "no tab here\n";
  auto reply = action("open bad.deck discard:true");
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("cannot open \"bad.deck\": line 1"), std::string::npos);
  EXPECT_EQ(last_line(reply), "[1c 0l]");
  EXPECT_TRUE(action("open missing.deck discard:true").is_error);
}

TEST_F(SessionTest, CloseRefusesUnsavedUnlessDiscarded) {
  action("new X");
  ops({"add A color:red"});
  EXPECT_TRUE(action("close").is_error);
  EXPECT_EQ(action("close discard:true").text, "- closed \"X\"");
  EXPECT_FALSE(session_.has_document());
}

TEST_F(SessionTest, UnknownSessionCommandSuggestsClosest) {
  auto reply = action("sav");
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("save"), std::string::npos);
}

TEST_F(SessionTest, AQueryWordGivenToSessionIsOfferedAsTheQuery) {
  // Without a document too: the agent asked for status, not for a session command.
  EXPECT_EQ(action("status").text,
            "! \"status\" is a query, not a session command: deck_query answers it\n"
            "  try: deck_query status");
  action("new X");
  auto reply = action("describe A");
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("  try: deck_query describe A\n"), std::string::npos) << reply.text;
  // The domain's synonym for a query is offered as the query it means.
  EXPECT_NE(action("cards").text.find("  try: deck_query list\n"), std::string::npos);
  EXPECT_NE(action("help").text.find("  try: deck_help\n"), std::string::npos);
  // A word near no command gets no suggestion rather than an unrelated one.
  reply = action("frobnicate");
  EXPECT_TRUE(reply.is_error);
  EXPECT_EQ(reply.text.find("try:"), std::string::npos) << reply.text;
}

TEST_F(SessionTest, EffectsAwaitConfirmationAndRollBackOnFailure) {
  action("new X");
  auto pending = session_.run_ops(std::vector<std::string>{"add A color:red", "emit hello"}, {});
  ASSERT_TRUE(pending.pending);
  ASSERT_EQ(pending.pending->effects.size(), 1u);
  EXPECT_EQ(pending.pending->effects[0].address, "/deck/emit");
  auto failed = session_.fail(std::move(*pending.pending), make_error("max said no"));
  EXPECT_TRUE(failed.is_error);
  EXPECT_EQ(failed.text, "! max said no\n! rolled back: the document is unchanged\n[0c 0l]");
  EXPECT_NE(action("undo").text.find("nothing to undo"), std::string::npos);

  auto again = session_.run_ops(std::vector<std::string>{"emit hello"}, {});
  ASSERT_TRUE(again.pending);
  auto confirmed = session_.confirm(std::move(*again.pending));
  EXPECT_EQ(confirmed.text, "+ emit hello\n[1c 0l]");
}

TEST_F(SessionTest, CancellationRollsBack) {
  action("new X");
  std::atomic<bool> cancelled{true};
  CallOptions options;
  options.cancelled = &cancelled;
  auto reply = session_.run_ops(std::vector<std::string>{"add A color:red"}, options).reply;
  EXPECT_TRUE(reply.is_error);
  EXPECT_EQ(last_line(reply), "[0c 0l]");
}

// A cancel that arrives while the batch's last op runs (an op that does not look at it, like a
// layout's routing) rolls the batch back too: the client that cancelled is told nothing else,
// so the change must not land (the e2e abort test found a layout committed after its abort).
TEST_F(SessionTest, ACancelDuringTheLastOpRollsTheBatchBack) {
  action("new X");
  std::atomic<bool> cancelled{false};
  CallOptions options;
  options.cancelled = &cancelled;
  std::thread canceller([&cancelled] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancelled.store(true);
  });
  auto reply = session_.run_ops(std::vector<std::string>{"add A", "sleep 200"}, options).reply;
  canceller.join();
  EXPECT_TRUE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("cancelled; the batch was rolled back"), std::string::npos)
      << reply.text;
  EXPECT_EQ(last_line(reply), "[0c 0l]");
}

// A cancel that arrives while an open builds what it tells the outside world (a large device's
// messages for Max, which do not look at the cancel) opens nothing: the client that cancelled
// got no reply and must not find the document open (e2e_cancel caught it on a loaded machine).
TEST_F(SessionTest, ACancelWhileAnOpenBuildsItsMessagesOpensNothing) {
  {
    std::ofstream out(root_.dir() / "slow.deck");
    out << "slow_open\tred\n";
  }
  std::atomic<bool> cancelled{false};
  std::thread canceller([&cancelled] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cancelled.store(true);
  });
  ToolReply reply;
  {
    const CallScope scope(&cancelled, std::chrono::milliseconds(0), "");
    reply = session_.run_session("open slow.deck", {}).reply;
  }
  canceller.join();
  EXPECT_TRUE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("no document was opened"), std::string::npos) << reply.text;
  EXPECT_FALSE(session_.has_document());
}

// A batch of cheap-looking ops once ran for minutes while its client waited; past the limit it
// is rolled back between two ops and the reply says why.
TEST_F(SessionTest, ABatchPastTheCallTimeLimitIsRolledBack) {
  SessionLimits limits;
  limits.max_call_duration = std::chrono::milliseconds(100);
  Session session(*domain_, root_, limits);
  (void)session.run_session("new X", {});
  auto reply =
      session.run_ops(std::vector<std::string>{"add A", "sleep 150", "add B", "add C"}, {}).reply;
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(
      reply.text.find("! the batch ran past the call time limit (100 ms) after 2 of 4 ops; it "
                      "was rolled back and nothing changed"),
      std::string::npos)
      << reply.text;
  EXPECT_EQ(last_line(reply), "[0c 0l]");
  // Within the limit the same kind of batch runs.
  auto fits = session.run_ops(std::vector<std::string>{"add A", "sleep 10", "add B"}, {}).reply;
  EXPECT_FALSE(fits.is_error) << fits.text;
}

// A call may add limits.max_created_per_call entities; the op that passes it rolls the whole
// batch back, and the error names the limit and its config key.
TEST_F(SessionTest, ACallThatAddsMoreThanTheCreationLimitIsRolledBack) {
  SessionLimits limits;
  limits.max_created_per_call = 3;
  Session session(*domain_, root_, limits);
  (void)session.run_session("new X", {});
  auto fits = session.run_ops(std::vector<std::string>{"add A", "add B", "add C"}, {}).reply;
  EXPECT_FALSE(fits.is_error) << fits.text;
  auto reply =
      session.run_ops(std::vector<std::string>{"add D", "add E", "add F", "add G", "add H"}, {})
          .reply;
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("op 4 of 5 failed: add G"), std::string::npos) << reply.text;
  EXPECT_NE(reply.text.find("! this call added 4 entities, more than one call may add "
                            "(limits.max_created_per_call = 3 entities per call"),
            std::string::npos)
      << reply.text;
  EXPECT_EQ(last_line(reply), "[3c 0l]");  // D, E and F are rolled back too
  // Removing as many as it adds keeps a call within the limit: what counts is the growth.
  auto swap = session.run_ops(
      std::vector<std::string>{"remove A", "remove B", "add D", "add E", "add F", "add G"}, {});
  EXPECT_FALSE(swap.reply.is_error) << swap.reply.text;
  EXPECT_EQ(last_line(swap.reply), "[5c 0l]");
}

// A batch that takes the document's estimated memory past limits.max_document_bytes is rolled
// back whole, with an error naming the estimate, the limit and its config key; one that shrinks
// the document is let through.
TEST_F(SessionTest, ABatchPastTheDocumentMemoryLimitIsRolledBack) {
  SessionLimits limits;
  limits.max_document_bytes = 300;  // the test domain estimates 100 bytes a card
  Session session(*domain_, root_, limits);
  (void)session.run_session("new X", {});
  auto fits = session.run_ops(std::vector<std::string>{"add A", "add B", "add C"}, {}).reply;
  EXPECT_FALSE(fits.is_error) << fits.text;
  auto reply = session.run_ops(std::vector<std::string>{"remove A", "add D", "add E"}, {}).reply;
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! this call would take the document to an estimated 400 bytes of "
                            "memory, more than one document may hold "
                            "(limits.max_document_bytes = 300 bytes (300 bytes), a setting of "
                            "the daemon's config): it was rolled back"),
            std::string::npos)
      << reply.text;
  EXPECT_NE(reply.text.find("batch rolled back"), std::string::npos) << reply.text;
  EXPECT_EQ(last_line(reply), "[3c 0l]");  // A is back, D and E are gone
  auto swap = session.run_ops(std::vector<std::string>{"remove A", "add D"}, {}).reply;
  EXPECT_FALSE(swap.is_error) << swap.text;
}

// An undo or redo can stop where no batch ended: `add D; remove A` never passed 300 bytes at its
// end, but `redo 1` after undoing it would land at A, B, C and D (400 bytes). Such an undo or
// redo is refused with the batch's error and the document and its history stay as they were;
// one that ends within the limit (or lowers the estimate) runs.
TEST_F(SessionTest, AnUndoOrRedoPastTheDocumentMemoryLimitIsRefused) {
  SessionLimits limits;
  limits.max_document_bytes = 300;  // the test domain estimates 100 bytes a card
  Session session(*domain_, root_, limits);
  const auto run_session = [&session](std::string_view text) {
    auto result = session.run_session(text, {});
    EXPECT_FALSE(result.pending);
    return result.reply;
  };
  (void)run_session("new X");
  ASSERT_FALSE(
      session.run_ops(std::vector<std::string>{"add A", "add B", "add C"}, {}).reply.is_error);
  auto swap = session.run_ops(std::vector<std::string>{"add D", "remove A"}, {}).reply;
  ASSERT_FALSE(swap.is_error) << swap.text;  // 300 bytes at its end
  const std::string limit_error =
      "! this call would take the document to an estimated 400 bytes of memory, more than one "
      "document may hold (limits.max_document_bytes = 300 bytes (300 bytes), a setting of the "
      "daemon's config): it was rolled back";
  // Undoing `remove A` alone brings A back beside D: refused.
  auto undo = run_session("undo");
  EXPECT_TRUE(undo.is_error) << undo.text;
  EXPECT_NE(undo.text.find(limit_error), std::string::npos) << undo.text;
  EXPECT_NE(undo.text.find("nothing undone: the document is unchanged"), std::string::npos)
      << undo.text;
  EXPECT_EQ(last_line(undo), "[3c 0l]");
  // Undoing the whole batch (two events) is fine, and lowers nothing past the limit.
  auto undo_batch = run_session("undo 2");
  EXPECT_FALSE(undo_batch.is_error) << undo_batch.text;
  EXPECT_EQ(last_line(undo_batch), "[3c 0l]");  // A, B and C
  // Redoing only `add D` would hold four cards: refused, the redo stays possible.
  auto redo = run_session("redo");
  EXPECT_TRUE(redo.is_error) << redo.text;
  EXPECT_NE(redo.text.find(limit_error), std::string::npos) << redo.text;
  EXPECT_NE(redo.text.find("nothing redone: the document is unchanged"), std::string::npos)
      << redo.text;
  EXPECT_EQ(last_line(redo), "[3c 0l]");
  auto redo_batch = run_session("redo 2");
  EXPECT_FALSE(redo_batch.is_error) << redo_batch.text;
  EXPECT_EQ(last_line(redo_batch), "[3c 0l]");  // B, C and D
  // As with a batch, only where the undo ends counts: C, D -> (B C D, A B C D) -> A B C.
  ASSERT_FALSE(session.run_ops(std::vector<std::string>{"remove B"}, {}).reply.is_error);
  auto through = run_session("undo 3");
  EXPECT_FALSE(through.is_error) << through.text;
  EXPECT_EQ(last_line(through), "[3c 0l]");
  // Undos that lower the estimate run.
  auto down = run_session("undo 3");
  EXPECT_FALSE(down.is_error) << down.text;
  EXPECT_EQ(last_line(down), "[0c 0l]");
}

// What a verb checks before it makes many entities at once: the call's remaining allowance.
TEST_F(SessionTest, CheckCreationCountsWhatEarlierOpsOfTheCallAdded) {
  EventLog log;
  EffectSink effects;
  ProgressFn progress;
  CallContext ctx{log, root_, effects, progress};
  ctx.creation.limit = 100;
  ctx.creation.created = 60;
  EXPECT_TRUE(check_creation(ctx, 40, "shapes"));
  auto refused = check_creation(ctx, 41, "shapes");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "this op would add 41 shapes, more than one call may add "
            "(limits.max_created_per_call = 100 entities per call, a setting of the daemon's "
            "config; earlier ops of this call added 60): make fewer at a time, in separate "
            "calls");
}

// A reply larger than limits.max_reply_bytes is refused (the batch rolled back); so is a
// query's answer.
// A query's structured form: only when the client takes it (run_query's `structured`), for the
// kinds the query table marks, and counted with the text against limits.max_reply_bytes.
TEST_F(SessionTest, StructuredQueryAnswersCountAgainstTheReplyLimit) {
  SessionLimits limits;
  limits.max_reply_bytes = 200;
  Session session(*domain_, root_, limits);
  (void)session.run_session("new X", {});
  (void)session.run_ops(std::vector<std::string>{"add a", "add b", "add c"}, {});
  const auto plain = session.run_query("list");
  EXPECT_FALSE(plain.is_error) << plain.text;
  EXPECT_FALSE(plain.structured.has_value());
  // The same answer with its items is past 200 bytes: refused, not sent without them.
  const auto refused = session.run_query("list", true);
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("ask a narrower query"), std::string::npos) << refused.text;
  Session roomy(*domain_, root_, SessionLimits{});
  (void)roomy.run_session("new X", {});
  (void)roomy.run_ops(std::vector<std::string>{"add a", "add b"}, {});
  const auto listed = roomy.run_query("list", true);
  ASSERT_TRUE(listed.structured.has_value());
  EXPECT_EQ(listed.structured->kind, "list");
  ASSERT_EQ(listed.structured->data.items.size(), 2u);
  EXPECT_EQ(listed.structured->data.items[0].id, "a");
  EXPECT_EQ(listed.structured->data.total, 2u);
  EXPECT_EQ(listed.structured->data.counts.front().second, 2);
  // A query the table does not mark (status) is "other", without counts or items.
  const auto status = roomy.run_query("status", true);
  ASSERT_TRUE(status.structured.has_value());
  EXPECT_EQ(status.structured->kind, "other");
  EXPECT_TRUE(status.structured->data.items.empty());
}

TEST_F(SessionTest, RepliesPastTheReplyLimitAreRefused) {
  SessionLimits limits;
  limits.max_reply_bytes = 200;
  Session session(*domain_, root_, limits);
  (void)session.run_session("new X", {});
  std::vector<std::string> list;
  for (int i = 0; i < 20; ++i)
    list.push_back("add card" + std::to_string(i));
  auto reply = session.run_ops(list, {}).reply;
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("more than a reply may carry (limits.max_reply_bytes = 200 bytes"),
            std::string::npos)
      << reply.text;
  EXPECT_EQ(last_line(reply), "[0c 0l]");
  list.resize(3);
  EXPECT_FALSE(session.run_ops(list, {}).reply.is_error);
  EXPECT_FALSE(session.run_query("list").is_error);
  limits.max_reply_bytes = 10;
  Session small(*domain_, root_, limits);
  (void)small.run_session("new X", {});
  (void)small.run_ops(std::vector<std::string>{"add A"}, {});
  auto answer = small.run_query("list");
  EXPECT_TRUE(answer.is_error);
  EXPECT_NE(answer.text.find("ask a narrower query"), std::string::npos) << answer.text;
}

TEST_F(SessionTest, ProgressIsReportedForLongBatches) {
  action("new X");
  std::vector<std::string> list;
  for (int i = 0; i < 2500; ++i)
    list.push_back("add c" + std::to_string(i) + " color:red");
  std::vector<double> seen;
  CallOptions options;
  options.progress = [&](double done, double total, std::string_view) {
    seen.push_back(done);
    EXPECT_EQ(total, 2500);
  };
  session_.run_ops(list, options);
  EXPECT_EQ(seen, (std::vector<double>{1000, 2000}));
}

TEST_F(SessionTest, HelpCardComesFromTheRegistry) {
  auto card = session_.help();
  EXPECT_NE(card.find("# deck — FCP reference card"), std::string::npos);
  EXPECT_NE(card.find("### cards"), std::string::npos);
  EXPECT_NE(card.find("add NAME [color:C] [count:N]"), std::string::npos);
  EXPECT_NE(card.find("## Queries (deck_query)"), std::string::npos);
  EXPECT_NE(card.find("undo [N] [to:NAME]"), std::string::npos);
  EXPECT_EQ(card.find("## In this document"), std::string::npos);
  action("new X");
  EXPECT_NE(session_.help().find("## In this document\n  cards: 0"), std::string::npos);
}

}  // namespace
}  // namespace fcp::core
