// Replicas sharing a state directory: the lease file format, taking a free, stale or dead
// holder's lease and refusing a live one's, renewal noticing a lease taken over, the hand-over
// inbox, and two servers (replicas) handing a document back and forth with all its calls.
#include "mcp/document_lease.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <thread>

#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::AllowTemp;
using test_support::RecordingResponder;
namespace json = boost::json;
namespace fs = std::filesystem;
using std::chrono::milliseconds;

constexpr std::string_view kHandle = "doc:de-0123456789abcdef0123456789abcdef";

fs::path fresh_dir(const std::string& name) {
  static int counter = 0;
  auto dir =
      fs::temp_directory_path() / ("fcp-lease-test-" + name + "-" + std::to_string(::getpid()) +
                                   "-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

long dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ReplicaOptions replica(const std::string& id, milliseconds ttl = milliseconds(5000)) {
  ReplicaOptions options;
  options.id = id;
  options.lease_ttl = ttl;
  return options;
}

TEST(LeaseFormat, RoundTripsAndRejectsOtherText) {
  const LeaseHolder holder{"r1", 42, "host-a", 1'700'000'000'123};
  const auto parsed = parse_lease(format_lease(holder));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->replica, "r1");
  EXPECT_EQ(parsed->pid, 42);
  EXPECT_EQ(parsed->host, "host-a");
  EXPECT_EQ(parsed->renewed_ms, 1'700'000'000'123);
  EXPECT_FALSE(parse_lease(""));
  EXPECT_FALSE(parse_lease("fcp-lease/1\nreplica r1\npid x\nrenewed 1\n"));
  EXPECT_FALSE(parse_lease("something else\nreplica r1\npid 1\nrenewed 1\n"));
  EXPECT_TRUE(valid_replica_id("r1_a-B"));
  EXPECT_FALSE(valid_replica_id(""));
  EXPECT_FALSE(valid_replica_id("r 1"));
  EXPECT_FALSE(valid_replica_id(std::string(33, 'r')));
}

TEST(LeaseTable, AFreeLeaseIsTakenALiveOneNamesItsHolder) {
  const auto dir = fresh_dir("live");
  LeaseTable one(dir, replica("r1"));
  LeaseTable two(dir, replica("r2"));
  auto first = one.acquire(kHandle);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->taken);
  EXPECT_TRUE(one.holds(kHandle));
  auto second = two.acquire(kHandle);
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->taken);
  ASSERT_TRUE(second->holder);
  EXPECT_EQ(second->holder->replica, "r1");
  EXPECT_EQ(second->holder->pid, static_cast<long>(::getpid()));
  EXPECT_NE(second->holder->describe().find("replica r1 (pid "), std::string::npos);
  // Taking it again is a renewal; releasing it lets the other replica have it.
  EXPECT_TRUE(one.acquire(kHandle)->taken);
  one.release(kHandle);
  EXPECT_FALSE(fs::exists(one.lease_path(kHandle)));
  EXPECT_TRUE(two.acquire(kHandle)->taken);
  fs::remove_all(dir);
}

TEST(LeaseTable, ALeaseNotRenewedInTimeIsTakenOver) {
  const auto dir = fresh_dir("stale");
  LeaseTable one(dir, replica("r1", milliseconds(100)));
  LeaseTable two(dir, replica("r2", milliseconds(100)));
  ASSERT_TRUE(one.acquire(kHandle)->taken);
  EXPECT_FALSE(two.acquire(kHandle)->taken);
  std::this_thread::sleep_for(milliseconds(150));
  auto taken = two.acquire(kHandle);
  ASSERT_TRUE(taken);
  EXPECT_TRUE(taken->taken);
  ASSERT_TRUE(taken->taken_from);
  EXPECT_EQ(taken->taken_from->replica, "r1");
  // r1 notices at its next renewal that it holds it no more.
  EXPECT_EQ(one.renew_all(), std::vector<std::string>{std::string(kHandle)});
  EXPECT_FALSE(one.holds(kHandle));
  EXPECT_TRUE(two.renew_all().empty());
  fs::remove_all(dir);
}

TEST(LeaseTable, AHolderWhosePidIsGoneOnThisHostHoldsNothing) {
  const auto dir = fresh_dir("dead");
  LeaseTable table(dir, replica("r2"));
  const auto host = table.self().host;
  // Renewed just now, but by a process that no longer exists (kill -9).
  { std::ofstream(table.lease_path(kHandle)) << format_lease({"r1", dead_pid(), host, now_ms()}); }
  EXPECT_FALSE(table.live_holder(kHandle));
  auto taken = table.acquire(kHandle);
  ASSERT_TRUE(taken);
  EXPECT_TRUE(taken->taken);
  // On another host only the time counts: the same pid there may be alive.
  {
    std::ofstream(table.lease_path(kHandle))
        << format_lease({"r1", dead_pid(), "elsewhere", now_ms()});
  }
  EXPECT_TRUE(table.live_holder(kHandle));
  EXPECT_FALSE(table.acquire(kHandle)->taken);
  fs::remove_all(dir);
}

TEST(LeaseTable, HandOverRequestsReachTheHolderOnce) {
  const auto dir = fresh_dir("inbox");
  LeaseTable one(dir, replica("r1"));
  LeaseTable two(dir, replica("r2"));
  EXPECT_TRUE(one.handoff_requests().empty());
  ASSERT_TRUE(two.ask_handoff(one.self(), kHandle));
  ASSERT_TRUE(two.ask_handoff(one.self(), "doc:de-1"));
  EXPECT_EQ(one.handoff_requests(), (std::vector<std::string>{std::string(kHandle), "doc:de-1"}));
  EXPECT_TRUE(one.handoff_requests().empty());
  EXPECT_TRUE(two.handoff_requests().empty());
  // A request to the previous process of a replica does not reach the next one.
  ASSERT_TRUE(two.ask_handoff(one.self(), kHandle));
  LeaseTable restarted(dir, replica("r1"));
  EXPECT_TRUE(restarted.handoff_requests().empty());
  fs::remove_all(dir);
}

// Two servers over one state directory, as two fcpd replicas.
class ReplicaTest : public ::testing::Test {
 protected:
  ReplicaTest() : domain_(testing::make_deck_domain()), dir_(fresh_dir("replicas")) {}
  ~ReplicaTest() override {
    for (auto& r : replicas_)
      stop(r);
    fs::remove_all(dir_);
  }
  struct Replica {
    std::unique_ptr<boost::asio::thread_pool> workers;
    std::unique_ptr<Server> server;
    std::shared_ptr<Connection> connection;
  };
  Replica& start(const std::string& id, milliseconds ttl = milliseconds(5000)) {
    ServerOptions options;
    options.journal.state_dir = dir_;
    options.journal.replica = replica(id, ttl);
    options.journal.replica.handoff_wait = milliseconds(2000);
    auto& r = replicas_.emplace_back();
    r.workers = std::make_unique<boost::asio::thread_pool>(2);
    r.server =
        std::make_unique<Server>(r.workers->get_executor(),
                                 std::vector<const core::Domain*>{domain_.get()}, paths_, options);
    r.connection =
        r.server->connect(ConnectionInfo{"test", "peer", std::nullopt, std::nullopt}, nullptr);
    request(r, 1, "initialize", {{"protocolVersion", "2025-11-25"}});
    return r;
  }
  // The process is gone: nothing a graceful shutdown does (its journals and leases stay).
  static void stop(Replica& r) {
    if (!r.server) return;
    r.connection->close();
    r.connection.reset();
    r.server->documents().stop_timers();
    r.workers->join();
    r.server.reset();
    r.workers.reset();
  }
  static json::value request(Replica& r, int id, const std::string& method, json::object params) {
    json::object message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    auto responder = std::make_shared<RecordingResponder>();
    r.connection->handle(json::serialize(message), responder);
    return responder->wait();
  }
  static std::string call(Replica& r, const std::string& tool, json::object arguments,
                          bool* error = nullptr) {
    auto reply = request(r, 2, "tools/call", {{"name", tool}, {"arguments", arguments}});
    if (error != nullptr) *error = reply.at("result").at("isError").as_bool();
    return std::string(reply.at("result").at("content").at(0).at("text").as_string());
  }
  static std::string handle_in(const std::string& text) {
    std::smatch match;
    EXPECT_TRUE(std::regex_search(text, match, std::regex("doc:de-[0-9a-f]{32}"))) << text;
    return match.empty() ? std::string() : match[0].str();
  }

  AllowTemp paths_;
  std::unique_ptr<core::Domain> domain_;
  fs::path dir_;
  std::vector<Replica> replicas_;
};

TEST_F(ReplicaTest, ADocumentIsHandedOverBetweenLiveReplicasWithEveryCall) {
  replicas_.reserve(2);
  auto& one = start("r1");
  auto& two = start("r2");
  const auto handle = handle_in(call(one, "deck_session", {{"action", "new Board"}}));
  call(one, "deck", {{"ops", json::array{"add A color:red"}}, {"doc", handle}});
  EXPECT_TRUE(one.server->documents().leases().holds(handle));

  bool error = true;
  const auto added =
      call(two, "deck", {{"ops", json::array{"add B color:blue"}}, {"doc", handle}}, &error);
  EXPECT_FALSE(error) << added;
  EXPECT_TRUE(two.server->documents().leases().holds(handle));
  EXPECT_FALSE(one.server->documents().leases().holds(handle));
  EXPECT_EQ(call(two, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:2");
  // And back, with the history: r1 undoes r2's op.
  const auto undone = call(one, "deck_session", {{"action", "undo"}, {"doc", handle}}, &error);
  EXPECT_FALSE(error) << undone;
  EXPECT_EQ(call(one, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:1");
  // close HANDLE (no doc argument) on the replica that does not hold it: handed over, closed.
  const auto closed =
      call(two, "deck_session", {{"action", "close " + handle + " discard:true"}}, &error);
  EXPECT_FALSE(error) << closed;
  EXPECT_FALSE(fs::exists(dir_ / (handle.substr(4) + ".fcpj")));
  EXPECT_FALSE(fs::exists(dir_ / (handle.substr(4) + ".lease")));
}

TEST_F(ReplicaTest, ALiveHolderThatDoesNotHandOverIsNamedInTheError) {
  replicas_.reserve(2);
  auto& one = start("r1");
  const auto handle = handle_in(call(one, "deck_session", {{"action", "new Board"}}));
  // r1 stops polling its inbox (hung), but its lease and journal lock stay.
  one.server->documents().stop_timers();
  auto& two = start("r2");
  bool error = false;
  const auto text = call(two, "deck_query", {{"q", "stats"}, {"doc", handle}}, &error);
  EXPECT_TRUE(error);
  EXPECT_NE(text.find(handle + " is written by replica r1 (pid " + std::to_string(::getpid())),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("did not hand it over within 2000 ms"), std::string::npos) << text;
}

// A stalled holder on this host: its lease is stale, but it still holds the journal open (and
// locked), so the document is not taken from under it.
TEST_F(ReplicaTest, AStaleLeaseWhoseJournalIsStillLockedHereIsNotTakenOver) {
  replicas_.reserve(2);
  auto& one = start("r1", milliseconds(100));
  const auto handle = handle_in(call(one, "deck_session", {{"action", "new Board"}}));
  call(one, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  one.server->documents().stop_timers();
  std::this_thread::sleep_for(milliseconds(150));
  auto& two = start("r2", milliseconds(100));
  bool error = false;
  const auto text = call(two, "deck_query", {{"q", "stats"}, {"doc", handle}}, &error);
  EXPECT_TRUE(error);
  EXPECT_NE(text.find(handle + " is written by another fcpd on this host (it holds the "
                               "document's journal open, but its lease is stale or gone)"),
            std::string::npos)
      << text;
  EXPECT_EQ(call(one, "deck_query", {{"q", "stats"}, {"doc", handle}}), "cards:1");
}

TEST_F(ReplicaTest, AfterTheHolderDiesTheOtherReplicaTakesOverWithNoCallLost) {
  replicas_.reserve(3);
  auto& one = start("r1", milliseconds(300));
  const auto handle = handle_in(call(one, "deck_session", {{"action", "new Board"}}));
  for (const char* op : {"add A", "add B", "add C"})
    call(one, "deck", {{"ops", json::array{op}}, {"doc", handle}});
  stop(one);  // its lease still names this process: stale only after its time
  auto& two = start("r2", milliseconds(300));
  std::this_thread::sleep_for(milliseconds(350));
  bool error = true;
  const auto text = call(two, "deck_query", {{"q", "stats"}, {"doc", handle}}, &error);
  EXPECT_FALSE(error) << text;
  EXPECT_EQ(text, "cards:3");
  EXPECT_TRUE(two.server->documents().leases().holds(handle));
}

}  // namespace
}  // namespace fcp::mcp
