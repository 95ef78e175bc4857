// A lofi device recovered from its journal (after a crash) joins the client's Max link like a new
// one: the reply says whether it is linked and offers sync to push it to Max, which does not hold
// it. Against the Max simulator, through the MCP server and its document journals.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <fstream>
#include <iterator>
#include <regex>
#include <thread>

#include "domains/lofi/bridge/simulator.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/mcp/connection_fixture.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using mcp::test_support::AllowTemp;
using mcp::test_support::RecordingResponder;

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

class LofiRecoverTest : public ::testing::Test {
 protected:
  LofiRecoverTest() : work_(io_.get_executor()), thread_([this] { io_.run(); }) {
    dir_ = fs::temp_directory_path() / ("fcp-lofi-recover-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    simulator_ = start_simulator();
    // connect_on_new off: a session links only when it says `connect`.
    const boost::json::object settings{{"port", simulator_->port()},
                                       {"reply_port", 0},
                                       {"timeout_ms", 600},
                                       {"probe_ms", 200},
                                       {"connect_on_new", false}};
    domain_ = make_lofi_domain(io_, settings);
  }
  ~LofiRecoverTest() override {
    stop();
    domain_.reset();
    simulator_->stop();
    work_.reset();
    io_.stop();
    thread_.join();
    fs::remove_all(dir_);
  }
  std::unique_ptr<bridge::Simulator> start_simulator() {
    bridge::SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;  // answer whoever asked
    return bridge::Simulator::start(io_, options).value();
  }
  void start(std::chrono::seconds idle_evict = std::chrono::seconds(0)) {
    stop();
    mcp::ServerOptions options;
    options.journal.state_dir = dir_;
    options.journal.idle_evict = idle_evict;
    workers_ = std::make_unique<boost::asio::thread_pool>(2);
    server_ = std::make_unique<mcp::Server>(
        workers_->get_executor(), std::vector<const core::Domain*>{domain_.get()}, paths_, options);
    connection_ =
        server_->connect(mcp::ConnectionInfo{"test", "peer", std::nullopt, std::nullopt}, nullptr);
    request(1, "initialize", {{"protocolVersion", "2025-11-25"}});
  }
  // Ends the server as a crash would: the journals stay as written.
  void stop() {
    if (connection_) connection_->close();
    connection_.reset();
    if (server_) server_->documents().stop_timers();
    if (workers_) workers_->join();
    server_.reset();
    workers_.reset();
  }
  json::value request(int id, const std::string& method, json::object params) {
    json::object message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    auto responder = std::make_shared<RecordingResponder>();
    connection_->handle(json::serialize(message), responder);
    return responder->wait();
  }
  std::string call(const std::string& tool, json::object arguments, bool* error = nullptr) {
    auto reply = request(2, "tools/call", {{"name", tool}, {"arguments", arguments}});
    if (error != nullptr) *error = reply.at("result").at("isError").as_bool();
    return std::string(reply.at("result").at("content").at(0).at("text").as_string());
  }
  std::string session(const std::string& action) {
    return call("lofi_session", {{"action", action}});
  }
  std::string handle_in(const std::string& text) {
    std::smatch match;
    EXPECT_TRUE(std::regex_search(text, match, std::regex("doc:lo-[0-9a-f]{32}"))) << text;
    return match.empty() ? std::string() : match[0].str();
  }
  std::string journal_bytes(const std::string& handle) {
    std::ifstream in(dir_ / mcp::journal_file_name(handle), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string connect_to(const bridge::Simulator& simulator) {
    return session("connect port:" + std::to_string(simulator.port()) + " reply:0");
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  fs::path dir_;
  std::unique_ptr<bridge::Simulator> simulator_;
  std::unique_ptr<core::Domain> domain_;
  AllowTemp paths_;
  std::unique_ptr<boost::asio::thread_pool> workers_;
  std::unique_ptr<mcp::Server> server_;
  std::shared_ptr<mcp::Connection> connection_;
};

TEST_F(LofiRecoverTest, ARecoveredDeviceIsLinkedToTheClientsMaxAndSyncPushesIt) {
  start();
  ASSERT_FALSE(has(connect_to(*simulator_), "!"));
  const auto created = session("new \"Dev\"");
  std::smatch match;
  const std::regex handle_shape("doc:lo-[0-9a-f]{32}");
  ASSERT_TRUE(std::regex_search(created, match, handle_shape)) << created;
  const std::string handle = match[0].str();
  EXPECT_TRUE(has(created, "max:online")) << created;
  bool error = true;
  call("lofi", {{"ops", json::array{"add cycle~ osc", "add dac~ out"}}}, &error);
  ASSERT_FALSE(error);
  EXPECT_EQ(simulator_->model().objects().size(), 2u);
  stop();  // fcpd crashes; Max restarts empty
  simulator_->stop();
  simulator_ = start_simulator();

  start();
  ASSERT_FALSE(has(connect_to(*simulator_), "!"));
  const auto recovered = session("recover " + handle);
  EXPECT_TRUE(has(recovered, "+ recovered " + handle)) << recovered;
  EXPECT_TRUE(
      has(recovered, "max: linked to Max at 127.0.0.1:" + std::to_string(simulator_->port()) +
                         "; Max does not hold the recovered device until lofi_session "
                         "sync pushes it"))
      << recovered;
  EXPECT_TRUE(has(recovered, "  try: lofi_session sync")) << recovered;
  EXPECT_TRUE(has(recovered, "max:online")) << recovered;
  EXPECT_TRUE(simulator_->model().objects().empty());
  const auto synced = call("lofi_session", {{"action", "sync"}, {"doc", handle}}, &error);
  EXPECT_FALSE(error) << synced;
  EXPECT_EQ(simulator_->model().device(), "Dev");
  EXPECT_EQ(simulator_->model().objects().size(), 2u);
  // Later edits reach Max as they are made.
  call("lofi", {{"ops", json::array{"add cycle~ lfo"}}, {"doc", handle}}, &error);
  EXPECT_FALSE(error);
  EXPECT_EQ(simulator_->model().objects().size(), 3u);
}

TEST_F(LofiRecoverTest, ARecoveredDeviceInASessionWithoutMaxSaysItIsNotLinked) {
  start();
  const auto created = session("new \"Dev\"");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(created, match, std::regex("doc:lo-[0-9a-f]{32}"))) << created;
  const std::string handle = match[0].str();
  call("lofi", {{"ops", json::array{"add cycle~ osc"}}});
  stop();
  start();
  const auto recovered = session("recover " + handle);
  EXPECT_TRUE(has(recovered,
                  "max: not linked — the recovered device is edited in the model only "
                  "(lofi_session connect links it and pushes it to Max)"))
      << recovered;
  EXPECT_TRUE(has(recovered, "max:offline")) << recovered;
}

// An idle-evicted device comes back from its journal on use linked to the client's Max again:
// the next edit reaches Max as it is made.
TEST_F(LofiRecoverTest, AnIdleEvictedDeviceGetsItsMaxLinkBackWhenUsed) {
  start(std::chrono::seconds(60));
  ASSERT_FALSE(has(connect_to(*simulator_), "!"));
  const auto handle = handle_in(session("new \"Dev\""));
  bool error = true;
  call("lofi", {{"ops", json::array{"add cycle~ osc"}}}, &error);
  ASSERT_FALSE(error);
  EXPECT_EQ(simulator_->model().objects().size(), 1u);
  auto& store = server_->documents();
  EXPECT_EQ(store.evict_idle(mcp::StoredDocument::Clock::now() + std::chrono::seconds(61)), 1u);
  const auto doc = *store.find(handle, std::string(mcp::kLocalPrincipal), *domain_);
  for (int i = 0; i < 100 && !doc->evicted(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(doc->evicted());
  const auto added = call("lofi", {{"ops", json::array{"add dac~ out"}}, {"doc", handle}}, &error);
  EXPECT_FALSE(error) << added;
  EXPECT_FALSE(doc->evicted());
  EXPECT_TRUE(has(added, "max:online")) << added;
  EXPECT_EQ(simulator_->model().objects().size(), 2u);
}

// `connect` after `new` changes what the session chose (its Max link, in the digest), not the
// device: it is not journaled, and recovering the device contacts no Max during the replay (the
// Max it named hears nothing; the recovering session connected to none: the device is unlinked).
TEST_F(LofiRecoverTest, ConnectIsNotJournaledAndAReplayContactsNoMax) {
  start();
  const auto handle = handle_in(session("new \"Dev\""));
  const auto connected = connect_to(*simulator_);
  EXPECT_TRUE(has(connected, "max:online")) << connected;
  call("lofi", {{"ops", json::array{"add cycle~ osc"}}});
  EXPECT_FALSE(has(journal_bytes(handle), "connect")) << journal_bytes(handle);
  stop();
  simulator_->clear_log();
  start();
  const auto recovered = session("recover " + handle);
  EXPECT_TRUE(has(recovered, "+ recovered " + handle)) << recovered;
  EXPECT_TRUE(simulator_->log().empty()) << simulator_->log().front();  // no ping, nothing
  EXPECT_TRUE(has(recovered, "max: not linked")) << recovered;
  EXPECT_TRUE(has(recovered, "max:offline")) << recovered;
  EXPECT_EQ(call("lofi_query", {{"q", "stats"}, {"doc", handle}}).find('!'), std::string::npos);
}

}  // namespace
}  // namespace fcp::lofi
