// Journals: the record format (a damaged or cut tail keeps everything before it), recovery of
// documents with history and checkpoints under the same handle after the server is gone,
// compaction into a snapshot, removal on close, and idle eviction to the journal.
#include "mcp/document_journal.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::AllowTemp;
using test_support::RecordingResponder;
namespace json = boost::json;
namespace fs = std::filesystem;

JournalRecord ops_record(std::vector<std::string> ops) {
  return JournalRecord{JournalRecord::Kind::ops, std::move(ops)};
}

TEST(JournalFormat, RecordsRoundTrip) {
  const std::string bytes = encode_record({JournalRecord::Kind::header, {"a", "", "c"}}) +
                            encode_record(ops_record({"add A", std::string("x\0y", 3)}));
  const auto contents = read_journal(bytes);
  EXPECT_FALSE(contents.damage);
  ASSERT_EQ(contents.records.size(), 2u);
  EXPECT_EQ(contents.records[0].fields, (std::vector<std::string>{"a", "", "c"}));
  EXPECT_EQ(contents.records[1].kind, JournalRecord::Kind::ops);
  EXPECT_EQ(contents.records[1].fields[1], std::string("x\0y", 3));
  EXPECT_EQ(contents.valid_bytes, bytes.size());
}

// A power cut at every byte of the last write, and a flipped byte anywhere in it: the records
// before it stay and the damage is named.
TEST(JournalFormat, ACutOrDamagedTailKeepsEverythingBeforeIt) {
  const std::string kept = encode_record({JournalRecord::Kind::header, {"fcp-journal/1"}}) +
                           encode_record(ops_record({"add A color:red"}));
  const std::string last = encode_record(ops_record({"add B", "link A B"}));
  for (std::size_t cut = 0; cut < last.size(); ++cut) {
    const auto contents = read_journal(kept + last.substr(0, cut));
    EXPECT_EQ(contents.records.size(), 2u) << cut;
    EXPECT_EQ(contents.valid_bytes, kept.size()) << cut;
    EXPECT_EQ(contents.damage.has_value(), cut > 0) << cut;
  }
  for (std::size_t at = 0; at < last.size(); ++at) {
    std::string damaged = last;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
    const auto contents = read_journal(kept + damaged);
    EXPECT_EQ(contents.records.size(), 2u) << at;
    EXPECT_EQ(contents.valid_bytes, kept.size()) << at;
    EXPECT_TRUE(contents.damage.has_value()) << at;
  }
  EXPECT_EQ(read_journal(kept + last).records.size(), 3u);
}

// Servers come and go over one state directory, as fcpd does across a crash and restart.
class JournalTest : public ::testing::Test {
 protected:
  JournalTest() : domain_(testing::make_deck_domain()) {
    dir_ = fs::temp_directory_path() /
           ("fcp-journal-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(dir_);
  }
  ~JournalTest() override {
    stop();
    fs::remove_all(dir_);
  }
  void start(JournalOptions journal = {}, ServerOptions options = {}) {
    stop();
    journal.state_dir = dir_;
    options.journal = journal;
    workers_ = std::make_unique<boost::asio::thread_pool>(2);
    server_ = std::make_unique<Server>(
        workers_->get_executor(), std::vector<const core::Domain*>{domain_.get()}, paths_, options);
  }
  // Ends the server without anything a graceful shutdown would do (journals stay as written).
  void stop() {
    for (auto& c : connections_)
      c->close();
    connections_.clear();
    if (server_) server_->documents().stop_timers();
    if (workers_) workers_->join();
    server_.reset();
    workers_.reset();
  }
  std::shared_ptr<Connection> ready(std::optional<std::string> principal = std::nullopt) {
    return ready_as(ConnectionInfo{"test", "peer", std::nullopt, std::move(principal)});
  }
  std::shared_ptr<Connection> ready_as(ConnectionInfo info) {
    connections_.push_back(server_->connect(std::move(info), nullptr));
    auto& c = *connections_.back();
    request(c, 1, "initialize", {{"protocolVersion", "2025-11-25"}});
    return connections_.back();
  }
  json::value request(Connection& c, int id, const std::string& method, json::object params) {
    json::object message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    auto responder = std::make_shared<RecordingResponder>();
    c.handle(json::serialize(message), responder);
    return responder->wait();
  }
  std::string call(Connection& c, const std::string& tool, json::object arguments,
                   bool* error = nullptr) {
    auto reply = request(c, 2, "tools/call", {{"name", tool}, {"arguments", arguments}});
    if (error != nullptr) *error = reply.at("result").at("isError").as_bool();
    return std::string(reply.at("result").at("content").at(0).at("text").as_string());
  }
  std::string session(Connection& c, const std::string& action, const std::string& doc = "") {
    json::object arguments{{"action", action}};
    if (!doc.empty()) arguments["doc"] = doc;
    return call(c, "deck_session", arguments);
  }
  static std::string handle_in(const std::string& text) {
    std::smatch match;
    EXPECT_TRUE(std::regex_search(text, match, std::regex("doc:de-[0-9a-f]{32}"))) << text;
    return match.empty() ? std::string() : match[0].str();
  }
  std::size_t journal_files() const {
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir_))
      count += entry.path().extension() == ".fcpj" ? 1 : 0;
    return count;
  }

  static inline int counter_ = 0;
  fs::path dir_;
  AllowTemp paths_;
  std::unique_ptr<core::Domain> domain_;
  std::unique_ptr<boost::asio::thread_pool> workers_;
  std::unique_ptr<Server> server_;
  std::vector<std::shared_ptr<Connection>> connections_;
};

TEST_F(JournalTest, RecoverRestoresTheDocumentItsHistoryAndCheckpointsUnderTheSameHandle) {
  start();
  auto c = ready();
  const auto handle = handle_in(session(*c, "new Board"));
  call(*c, "deck", {{"ops", json::array{"add A color:red", "add B color:blue"}}});
  session(*c, "checkpoint v1");
  call(*c, "deck", {{"ops", json::array{"add C color:green", "link A C"}}});
  call(*c, "deck", {{"ops", json::array{"add D"}}});
  session(*c, "undo");
  const auto map = call(*c, "deck_query", {{"q", "map"}});
  const auto history = call(*c, "deck_query", {{"q", "history"}});
  c.reset();
  stop();  // the process is gone: nothing more is written

  start();
  c = ready();
  const auto listed = session(*c, "recover");
  EXPECT_NE(listed.find("1 deck document to recover"), std::string::npos) << listed;
  EXPECT_NE(listed.find(handle + " \"Board\" file: (not saved yet), unsaved changes: yes"),
            std::string::npos)
      << listed;
  bool error = true;
  const auto recovered = call(*c, "deck_session", {{"action", "recover " + handle}}, &error);
  EXPECT_FALSE(error) << recovered;
  EXPECT_NE(recovered.find("recovered " + handle), std::string::npos) << recovered;
  EXPECT_EQ(call(*c, "deck_query", {{"q", "map"}, {"doc", handle}}), map);
  EXPECT_EQ(call(*c, "deck_query", {{"q", "history"}, {"doc", handle}}), history);
  // The undone op can be redone, and the checkpoint is there.
  EXPECT_NE(session(*c, "redo", handle).find("redone"), std::string::npos);
  EXPECT_NE(session(*c, "undo to:v1", handle).find("undone"), std::string::npos);
  EXPECT_EQ(call(*c, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:2");
  EXPECT_NE(session(*c, "recover").find("no deck documents to recover"), std::string::npos);
}

TEST_F(JournalTest, AHandleFromBeforeTheRestartSaysHowToRecoverIt) {
  start();
  auto c = ready();
  const auto handle = handle_in(session(*c, "new Board"));
  c.reset();
  stop();
  start();
  c = ready();
  bool error = false;
  const auto text = call(*c, "deck_query", {{"q", "stats"}, {"doc", handle}}, &error);
  EXPECT_TRUE(error);
  EXPECT_NE(text.find("is not open since fcpd restarted"), std::string::npos) << text;
  EXPECT_NE(text.find("try: recover " + handle), std::string::npos) << text;
}

TEST_F(JournalTest, OpenJournalsTheBytesItReadAndSaveDoesNotRewriteTheFile) {
  const auto file =
      fs::temp_directory_path() / ("fcp-journal-open-" + std::to_string(::getpid()) + ".deck");
  { std::ofstream(file) << "A\tred\t\n"; }
  start();
  auto c = ready();
  const auto handle = handle_in(session(*c, "open " + file.filename().string()));
  call(*c, "deck", {{"ops", json::array{"add B color:blue"}}});
  session(*c, "save");
  call(*c, "deck", {{"ops", json::array{"add C color:green"}}});
  c.reset();
  stop();
  { std::ofstream(file) << "Z\tred\t\n"; }  // the file changes after the crash
  start();
  c = ready();
  const auto recovered = session(*c, "recover " + handle);
  EXPECT_NE(recovered.find("unsaved changes: yes"), std::string::npos) << recovered;
  EXPECT_EQ(call(*c, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:3");
  std::ifstream in(file);
  std::stringstream now;
  now << in.rdbuf();
  EXPECT_EQ(now.str(), "Z\tred\t\n");  // replaying the save wrote nothing
  session(*c, "undo", handle);
  EXPECT_NE(call(*c, "deck_query", {{"q", "status"}, {"doc", handle}}).find("unsaved changes: no"),
            std::string::npos);
  fs::remove(file);
}

TEST_F(JournalTest, ADamagedTailIsReportedAndTheCallsBeforeItAreRecovered) {
  start();
  auto c = ready();
  const auto handle = handle_in(session(*c, "new Board"));
  call(*c, "deck", {{"ops", json::array{"add A"}}});
  call(*c, "deck", {{"ops", json::array{"add B"}}});
  c.reset();
  stop();
  const auto path = dir_ / journal_file_name(handle);
  fs::resize_file(path, fs::file_size(path) - 3);  // the last write was cut short
  start();
  c = ready();
  EXPECT_NE(session(*c, "recover").find("the journal ends in a record cut short"),
            std::string::npos);
  const auto recovered = session(*c, "recover " + handle);
  EXPECT_NE(recovered.find("it was cut there"), std::string::npos) << recovered;
  EXPECT_EQ(call(*c, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:1");
  // Appending goes on after the cut.
  call(*c, "deck", {{"ops", json::array{"add C"}}, {"doc", handle}});
  c.reset();
  stop();
  EXPECT_FALSE(read_journal_file(path)->damage);
  EXPECT_EQ(read_journal_file(path)->records.size(), 4u);
}

TEST_F(JournalTest, LongJournalsAreCompactedAndStillRestoreExactly) {
  JournalOptions options;
  options.compact_after = 10;
  options.history = 4;
  start(options);
  auto c = ready();
  const auto handle = handle_in(session(*c, "new Board"));
  for (int i = 0; i < 40; ++i) {
    call(*c, "deck", {{"ops", json::array{"add N" + std::to_string(i) + " color:red"}}});
    if (i % 7 == 3) session(*c, "undo");
  }
  const auto map = call(*c, "deck_query", {{"q", "map"}});
  c.reset();
  stop();
  const auto path = dir_ / journal_file_name(handle);
  const auto records = read_journal_file(path)->records;
  EXPECT_LE(records.size(), 12u);
  EXPECT_EQ(records[1].kind, JournalRecord::Kind::base);
  start(options);
  c = ready();
  session(*c, "recover " + handle);
  EXPECT_EQ(call(*c, "deck_query", {{"q", "map"}, {"doc", handle}}), map);
  EXPECT_NE(session(*c, "undo", handle).find("undone"), std::string::npos);
}

TEST_F(JournalTest, CloseRemovesTheJournal) {
  start();
  auto c = ready();
  const auto handle = handle_in(session(*c, "new Board"));
  call(*c, "deck", {{"ops", json::array{"add A"}}});
  EXPECT_EQ(journal_files(), 1u);
  session(*c, "close " + handle + " discard:true");
  EXPECT_EQ(journal_files(), 0u);
}

// The daemon's exit closes every document: unsaved work stays in its journal for `recover`, a
// journal with nothing unsaved goes (stdio clients that exit would otherwise leave one per run).
TEST_F(JournalTest, AtExitOnlyJournalsOfUnsavedWorkStay) {
  const auto file =
      fs::temp_directory_path() / ("fcp-journal-exit-" + std::to_string(::getpid()) + ".deck");
  start();
  auto c = ready();
  session(*c, "new Saved");
  call(*c, "deck", {{"ops", json::array{"add A"}}});
  session(*c, "save as:" + file.filename().string());
  session(*c, "new Unsaved");
  call(*c, "deck", {{"ops", json::array{"add B"}}});
  EXPECT_EQ(journal_files(), 2u);
  EXPECT_EQ(server_->documents().close_journals_at_exit(), 1u);
  EXPECT_EQ(journal_files(), 1u);
  fs::remove(file);
}

TEST_F(JournalTest, IdleDocumentsAreEvictedAndReloadedOnUse) {
  JournalOptions options;
  options.idle_evict = std::chrono::seconds(60);
  start(options);
  auto c = ready();
  const auto handle = handle_in(session(*c, "new Board"));
  call(*c, "deck", {{"ops", json::array{"add A color:red", "add B"}}});
  session(*c, "checkpoint one");
  auto& store = server_->documents();
  EXPECT_EQ(store.evict_idle(StoredDocument::Clock::now() + std::chrono::seconds(61)), 1u);
  const auto doc = *store.find(handle, std::string(kLocalPrincipal), *domain_);
  for (int i = 0; i < 100 && !doc->evicted(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(doc->evicted());
  const auto listed = session(*c, "list");
  EXPECT_NE(listed.find("unsaved changes: yes"), std::string::npos) << listed;
  EXPECT_EQ(call(*c, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:2");
  EXPECT_FALSE(doc->evicted());
  EXPECT_NE(session(*c, "undo to:one", handle).find("nothing to undo"), std::string::npos);
}

// Every path that touches a client's current document after it was idle-evicted to its journal
// reloads it or takes over what the eviction kept (its session holds no model meanwhile): new,
// open and recover start from its pin, and queries, ops, undo, save, list, resources/read and
// close through its handle work on it. Evicted before each step.
TEST_F(JournalTest, AnEvictedCurrentDocumentServesEveryPathOfItsSession) {
  const auto file =
      fs::temp_directory_path() / ("fcp-journal-evicted-" + std::to_string(::getpid()) + ".deck");
  JournalOptions options;
  options.idle_evict = std::chrono::seconds(60);
  start(options);
  std::string left;
  {
    auto c = ready();
    left = handle_in(session(*c, "new Left"));
    call(*c, "deck", {{"ops", json::array{"add L"}}});
  }
  stop();  // Left stays in its journal with unsaved work, to recover below
  start(options);
  auto c = ready();
  auto& store = server_->documents();
  const auto evict_all = [this, &store] {
    store.evict_idle(StoredDocument::Clock::now() + std::chrono::seconds(61));
    for (const auto& doc : store.list(std::string(kLocalPrincipal), *domain_)) {
      for (int i = 0; i < 100 && !doc->evicted(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      EXPECT_TRUE(doc->evicted()) << doc->handle();
    }
  };
  session(*c, "pin blue");
  const auto board = handle_in(session(*c, "new Board"));
  call(*c, "deck", {{"ops", json::array{"add A", "add B"}}});
  evict_all();
  const auto next = session(*c, "new Next");
  EXPECT_NE(next.find("pinned: blue"), std::string::npos) << next;
  EXPECT_NE(next.find("\"Board\" has unsaved changes and stays open"), std::string::npos) << next;
  session(*c, "save as:" + file.string());
  evict_all();
  const auto opened = session(*c, "open " + file.string());
  EXPECT_NE(opened.find("pinned: blue"), std::string::npos) << opened;
  evict_all();
  bool error = true;
  const auto recovered = call(*c, "deck_session", {{"action", "recover " + left}}, &error);
  EXPECT_FALSE(error) << recovered;
  EXPECT_NE(recovered.find("pinned: blue"), std::string::npos) << recovered;
  evict_all();
  EXPECT_EQ(call(*c, "deck_query", {{"q", "stats"}}), "cards:1");  // the current one: Left
  evict_all();
  const auto read = request(*c, 3, "resources/read", {{"uri", "fcp://deck/session"}});
  EXPECT_TRUE(read.as_object().contains("result")) << json::serialize(read);
  evict_all();
  EXPECT_EQ(call(*c, "deck_query", {{"q", "stats"}, {"doc", board}}), "cards:2");
  evict_all();
  call(*c, "deck", {{"ops", json::array{"add C"}}, {"doc", board}}, &error);
  EXPECT_FALSE(error);
  evict_all();
  EXPECT_NE(session(*c, "undo", board).find("undone"), std::string::npos);
  evict_all();
  const auto listed = session(*c, "list");
  EXPECT_NE(listed.find(board), std::string::npos) << listed;
  evict_all();
  session(*c, "save as:" + file.string(), board);
  evict_all();
  EXPECT_NE(session(*c, "close " + board).find("the handle " + board + " ended"),
            std::string::npos);
  evict_all();
  const auto discarded = session(*c, "new Last discard:true");
  EXPECT_NE(discarded.find("closed " + left), std::string::npos) << discarded;
  fs::remove(file);
}

// limits.max_journal_bytes_per_principal: a call whose journal append would pass the budget is
// refused before it runs (the document and its journal stay as they were), other principals go
// on, and saving or closing gives the budget back.
TEST_F(JournalTest, APrincipalsJournalBudgetRefusesACallBeforeItChangesAnything) {
  ServerOptions options;
  options.principal_limits.max_journal_bytes = 800;
  start({}, options);
  auto alice = ready("alice");
  auto bob = ready("bob");
  const auto handle = handle_in(session(*alice, "new Board"));
  const auto path = dir_ / journal_file_name(handle);
  std::string refused;
  int added = 0;
  for (int i = 0; i < 100 && refused.empty(); ++i) {
    const auto bytes = fs::file_size(path);
    bool error = false;
    auto text = call(*alice, "deck",
                     {{"ops", json::array{"add N" + std::to_string(i) + " color:red"}}}, &error);
    if (!error) {
      ++added;
      continue;
    }
    refused = text;
    EXPECT_EQ(fs::file_size(path), bytes);  // nothing appended
  }
  ASSERT_FALSE(refused.empty()) << "the budget never ran out";
  EXPECT_GT(added, 5);
  EXPECT_NE(refused.find("! not run, nothing changed: the journal holds "), std::string::npos)
      << refused;
  EXPECT_NE(refused.find("would pass limits.max_journal_bytes_per_principal (800); save or close "
                         "a document to make room"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("try: deck_session list"), std::string::npos) << refused;
  EXPECT_EQ(call(*alice, "deck_query", {{"q", "stats"}}), "cards:" + std::to_string(added));
  EXPECT_LE(server_->principal_limits().journal_bytes("alice"), 800u);
  // Undo is a change too: refused alike, nothing undone.
  bool error = false;
  call(*alice, "deck_session", {{"action", "undo"}}, &error);
  EXPECT_TRUE(error);
  EXPECT_EQ(call(*alice, "deck_query", {{"q", "stats"}}), "cards:" + std::to_string(added));
  // Another principal is not affected.
  session(*bob, "new Other");
  call(*bob, "deck", {{"ops", json::array{"add A color:red"}}}, &error);
  EXPECT_FALSE(error);
  // Saving gives alice's budget back: the next change counts from the save.
  const auto file =
      fs::temp_directory_path() / ("fcp-journal-budget-" + std::to_string(::getpid()) + ".deck");
  session(*alice, "save as:" + file.filename().string());
  EXPECT_EQ(server_->principal_limits().journal_bytes("alice"), 0u);
  call(*alice, "deck", {{"ops", json::array{"add Z color:red"}}}, &error);
  EXPECT_FALSE(error);
  EXPECT_GT(server_->principal_limits().journal_bytes("alice"), 0u);
  // Closing gives it back too.
  session(*alice, "close " + handle + " discard:true");
  EXPECT_EQ(server_->principal_limits().journal_bytes("alice"), 0u);
  fs::remove(file);
}

// After a crash, recover lists only documents with unsaved work; a journal whose document was
// saved with nothing after it is named apart, as nothing to recover.
TEST_F(JournalTest, RecoverListsOnlyUnsavedWorkAndNamesSavedJournalsApart) {
  const auto file =
      fs::temp_directory_path() / ("fcp-journal-saved-" + std::to_string(::getpid()) + ".deck");
  start();
  auto c = ready();
  const auto saved = handle_in(session(*c, "new Saved"));
  call(*c, "deck", {{"ops", json::array{"add A"}}});
  session(*c, "save as:" + file.filename().string());
  const auto unsaved = handle_in(session(*c, "new Unsaved"));
  call(*c, "deck", {{"ops", json::array{"add B"}}});
  c.reset();
  stop();  // a crash: both journals stay
  EXPECT_EQ(journal_files(), 2u);
  start();
  c = ready();
  const auto listed = session(*c, "recover");
  const auto saved_line = listed.find("saved, nothing to recover: 1 journal of documents saved");
  ASSERT_NE(saved_line, std::string::npos) << listed;
  EXPECT_NE(listed.find("1 deck document to recover"), std::string::npos) << listed;
  EXPECT_LT(listed.find(unsaved + " \"Unsaved\""), saved_line) << listed;
  EXPECT_GT(listed.find(saved + " \"Saved\""), saved_line) << listed;
  EXPECT_EQ(listed.find("try: recover " + saved), std::string::npos) << listed;
  // It can still be reopened with its history.
  EXPECT_NE(session(*c, "recover " + saved).find("unsaved changes: no"), std::string::npos);
  fs::remove(file);
}

// journal.fsync interval: an append is synced within the interval even when no call follows it
// (a timer syncs; not only the next append).
TEST_F(JournalTest, WithTheIntervalPolicyAnAppendIsSyncedWithoutAnotherCall) {
  JournalOptions options;
  options.fsync = FsyncPolicy::interval;
  options.fsync_interval = std::chrono::milliseconds(400);
  start(options);
  auto c = ready();
  session(*c, "new Board");  // creating the journal syncs it
  call(*c, "deck", {{"ops", json::array{"add A"}}});
  auto& store = server_->documents();
  ASSERT_EQ(store.unsynced_journals(), 1u);  // within the interval of the creation
  for (int i = 0; i < 200 && store.unsynced_journals() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(store.unsynced_journals(), 0u);
}

// An eviction never drops a document with unsaved work: not a named session taken over, not an
// HTTP session that ends (idle), not an idle document (it goes to its journal), not the limit of
// open documents (it closes only saved ones).
TEST_F(JournalTest, NoEvictionDropsADocumentWithUnsavedWork) {
  JournalOptions journal;
  journal.idle_evict = std::chrono::seconds(60);
  ServerOptions options;
  options.http_takeover_idle = std::chrono::milliseconds(0);
  options.max_documents = 1;
  start(journal, options);
  auto holder = ready_as(ConnectionInfo{"http", "a", "work", std::nullopt});
  const auto handle = handle_in(session(*holder, "new Board"));
  call(*holder, "deck", {{"ops", json::array{"add A color:red", "add B"}}});
  const auto unsaved_listed = [&](Connection& c) {
    const auto listed = session(c, "list");
    return listed.find(handle + " \"Board\" file: (not saved yet), unsaved changes: yes") !=
           std::string::npos;
  };
  // Another client takes the idle HTTP holder's named session over: the document is its current
  // one there, and still reachable by its handle, unsaved.
  auto taker = ready_as(ConnectionInfo{"http", "b", "work", std::nullopt});
  EXPECT_EQ(call(*taker, "deck_query", {{"q", "stats"}}), "cards:2");
  EXPECT_TRUE(unsaved_listed(*taker));
  // Both HTTP sessions end (as their idle timeout ends them): the document stays open.
  holder->close();
  taker->close();
  auto later = ready();
  EXPECT_EQ(call(*later, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:2");
  EXPECT_TRUE(unsaved_listed(*later));
  // At the limit of open documents a new one is refused rather than dropping this one.
  bool error = false;
  const auto refused = call(*later, "deck_session", {{"action", "new Other"}}, &error);
  EXPECT_TRUE(error) << refused;
  EXPECT_NE(refused.find("too many open documents (1, setting limits.max_documents)"),
            std::string::npos)
      << refused;
  // Idle eviction writes it away to its journal, which keeps it; use brings it back.
  auto& store = server_->documents();
  EXPECT_EQ(store.evict_idle(StoredDocument::Clock::now() + std::chrono::seconds(61)), 1u);
  const auto doc = *store.find(handle, std::string(kLocalPrincipal), *domain_);
  for (int i = 0; i < 100 && !doc->evicted(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(doc->evicted());
  EXPECT_EQ(journal_files(), 1u);
  EXPECT_TRUE(unsaved_listed(*later));
  EXPECT_EQ(call(*later, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:2");
  EXPECT_NE(
      call(*later, "deck_query", {{"q", "status"}, {"doc", handle}}).find("unsaved changes: yes"),
      std::string::npos);
}

}  // namespace
}  // namespace fcp::mcp
