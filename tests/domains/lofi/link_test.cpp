// The session's Max link against the simulator: `connect` with no device open is remembered for
// the session, a Max that stops answering takes the session offline once (not a timeout per op),
// ping fingerprints show a Max that holds something else, one Max is driven by one session at a
// time, and sync keeps a window of requests in flight.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <future>
#include <thread>

#include "core/session.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/lofi/max_link.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::lofi {
namespace {

using testing::NoFiles;
using Clock = std::chrono::steady_clock;

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

class LofiLinkTest : public ::testing::Test {
 protected:
  LofiLinkTest() : work_(io_.get_executor()), thread_([this] { io_.run(); }) {
    bridge::SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;  // answer whoever asked
    simulator_ = bridge::Simulator::start(io_, options).value();
    // connect_on_new off: a session links only when it says `connect`.
    const boost::json::object settings{{"port", simulator_->port()},
                                       {"reply_port", 0},
                                       {"timeout_ms", 600},
                                       {"probe_ms", 200},
                                       {"connect_on_new", false}};
    domain_ = make_lofi_domain(io_, settings);
  }
  ~LofiLinkTest() override {
    sessions_.clear();
    domain_.reset();
    simulator_->stop();
    work_.reset();
    io_.stop();
    thread_.join();
  }

  core::Session& session(std::size_t index) {
    while (sessions_.size() <= index)
      sessions_.push_back(std::make_unique<core::Session>(*domain_, paths_));
    return *sessions_[index];
  }

  // Runs a call to completion, delivering pending effects like the MCP layer does.
  core::ToolReply finish(core::Session& s, core::CallResult result,
                         core::DeliveryProgress progress = {}) {
    if (!result.pending) return result.reply;
    auto* executor = s.effect_executor();
    if (executor == nullptr) return s.confirm(std::move(*result.pending));
    std::promise<core::Result<void>> delivered;
    executor->deliver(result.pending->effects, std::move(progress),
                      [&](core::Result<void> outcome) { delivered.set_value(std::move(outcome)); });
    auto outcome = delivered.get_future().get();
    return outcome ? s.confirm(std::move(*result.pending))
                   : s.fail(std::move(*result.pending), outcome.error());
  }
  core::ToolReply ops(std::vector<std::string> list, std::size_t who = 0) {
    return finish(session(who), session(who).run_ops(list, {}));
  }
  core::ToolReply action(std::string_view text, std::size_t who = 0) {
    return finish(session(who), session(who).run_session(text, {}));
  }
  std::string status(std::size_t who = 0) { return session(who).run_query("status").text; }
  std::string connect_text() const {
    return "connect port:" + std::to_string(simulator_->port()) + " reply:0";
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  std::unique_ptr<bridge::Simulator> simulator_;
  std::unique_ptr<core::Domain> domain_;
  NoFiles paths_;
  std::vector<std::unique_ptr<core::Session>> sessions_;
};

TEST_F(LofiLinkTest, ConnectWithNoDeviceIsRememberedForTheSessionsDevices) {
  auto reply = action(connect_text());
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "~ connected to Max at 127.0.0.1:")) << reply.text;
  EXPECT_TRUE(has(reply.text, "remembered for this session")) << reply.text;
  reply = action("new \"First\"");
  EXPECT_TRUE(has(reply.text, "max:online")) << reply.text;
  ASSERT_FALSE(ops({"add cycle~ osc"}).is_error);
  EXPECT_EQ(simulator_->model().objects().size(), 1u);
  // The next device of the session is linked too (connect_on_new is off: only the memory links).
  reply = action("new \"Second\" discard:true");
  EXPECT_TRUE(has(reply.text, "max:online")) << reply.text;
  // Another session has not connected: it edits offline.
  reply = action("new \"Other\"", 1);
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
}

// Issue 12: status with no device open says what `connect` made of the link, and what Max holds.
TEST_F(LofiLinkTest, StatusWithNoDeviceShowsTheLinkConnectMade) {
  std::string text = status();
  EXPECT_TRUE(has(text, "no lofi document open")) << text;
  EXPECT_TRUE(has(text, "max: offline (no device open; lofi_session connect)")) << text;
  ASSERT_FALSE(action(connect_text()).is_error);
  text = status();
  EXPECT_TRUE(has(text, "no lofi document open")) << text;
  EXPECT_TRUE(
      has(text, "max: linked to 127.0.0.1:" + std::to_string(simulator_->port()) + " (replies on "))
      << text;
  EXPECT_TRUE(has(text, "max: shared by 1 session linked to this Max; no session drives")) << text;
  EXPECT_TRUE(has(text, "max: holds no device")) << text;
  // What another session's device left in Max shows.
  ASSERT_FALSE(action(connect_text(), 1).is_error);
  ASSERT_FALSE(action("new \"Alpha\"", 1).is_error);
  ASSERT_FALSE(ops({"add cycle~ osc"}, 1).is_error);
  text = status();
  EXPECT_TRUE(has(text, "one drives \"Alpha\"")) << text;
  EXPECT_TRUE(has(text, "max: holds \"Alpha\" (1 objects, hash ")) << text;
  // A Max that stopped answering: offline, with the remembered address.
  simulator_->set_fault(bridge::Fault::silent);
  EXPECT_TRUE(has(status(), "max: offline — Max at 127.0.0.1:")) << status();
  text = status();
  EXPECT_TRUE(has(text, "remembered Max at 127.0.0.1:" + std::to_string(simulator_->port())))
      << text;
}

// Document handles give each new/open a Session of its own; the client's link carries over
// (SessionState::successor, as the MCP layer installs it): `connect` before `new` stays true.
TEST_F(LofiLinkTest, TheNextDocumentOfAClientInheritsItsLinkAndDrivesMax) {
  ASSERT_FALSE(action(connect_text(), 0).is_error);  // session 0: the client without a document
  session(1).inherit_state(session(0).successor_state());
  auto reply = action("new \"Dev\"", 1);
  EXPECT_TRUE(has(reply.text, "max:online")) << reply.text;
  ASSERT_FALSE(ops({"add cycle~ osc"}, 1).is_error);
  EXPECT_EQ(simulator_->model().device(), "Dev");
  EXPECT_EQ(simulator_->model().objects().size(), 1u);
  // The empty session handed its place on the bridge over: one session shares this Max.
  EXPECT_TRUE(has(status(1), "shared by 1 session linked to this Max; this one drives \"Dev\""))
      << status(1);
  // From a document that drives Max, the next one takes the device over (online stays online).
  session(2).inherit_state(session(1).successor_state());
  reply = action("new \"Next\"", 2);
  EXPECT_TRUE(has(reply.text, "max:online")) << reply.text;
  EXPECT_EQ(simulator_->model().device(), "Next");
  reply = ops({"add dac~ dac"}, 1);
  EXPECT_TRUE(has(reply.text, "another document took over Max")) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
  EXPECT_FALSE(simulator_->model().objects().contains("dac"));
}

TEST_F(LofiLinkTest, PingWorksWithOnlyALinkAndSaysWhatMaxHolds) {
  EXPECT_TRUE(session(0).run_query("ping").is_error);  // no link, no device: offline
  ASSERT_FALSE(action(connect_text(), 0).is_error);
  auto reply = session(0).run_query("ping");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "pong from Max at 127.0.0.1:")) << reply.text;
  EXPECT_TRUE(has(reply.text, "\n  Max holds no device\n")) << reply.text;
  EXPECT_TRUE(session(0).run_query("ping now:1").is_error);  // keys ping does not declare
  ASSERT_FALSE(action("new \"Dev\"", 0).is_error);
  ASSERT_FALSE(ops({"add cycle~ osc"}, 0).is_error);
  reply = session(0).run_query("ping");
  EXPECT_TRUE(has(reply.text, "\n  Max holds \"Dev\" with 1 object (hash ")) << reply.text;
  EXPECT_TRUE(has(reply.text, "\n  that is this device, as the model has it\n")) << reply.text;
  // Another session's device is not what Max holds.
  ASSERT_FALSE(action(connect_text(), 1).is_error);
  ASSERT_FALSE(action("new \"Other\"", 1).is_error);
  reply = session(1).run_query("ping");
  EXPECT_TRUE(has(reply.text, "Max holds \"Dev\" with 1 object")) << reply.text;
  EXPECT_TRUE(has(reply.text, "this device is \"Other\" with 0 objects")) << reply.text;
}

TEST(LofiRoundTrip, PrintedAsARoundTripReads) {
  EXPECT_EQ(round_trip_text(0.025317), "<0.1 ms");
  EXPECT_EQ(round_trip_text(0.14), "0.1 ms");
  EXPECT_EQ(round_trip_text(1.23), "1.2 ms");
  EXPECT_EQ(round_trip_text(9.96), "10 ms");
  EXPECT_EQ(round_trip_text(25.4), "25 ms");
}

TEST_F(LofiLinkTest, AConnectNobodyAnswersRemembersTheAddressAndGoesOfflineInOneLine) {
  simulator_->set_fault(bridge::Fault::silent);
  const auto started = Clock::now();
  auto reply = action(connect_text());
  EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(500));  // probe_ms, not timeout
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "? max: offline — Max at 127.0.0.1:")) << reply.text;
  EXPECT_TRUE(has(reply.text, "did not answer a ping within 200 ms")) << reply.text;
  reply = action("new \"Dev\"");
  EXPECT_TRUE(has(reply.text, "? max: offline")) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
  // Offline ops cost no timeout.
  const auto op_started = Clock::now();
  EXPECT_FALSE(ops({"add cycle~ osc", "add dac~ dac"}).is_error);
  EXPECT_LT(Clock::now() - op_started, std::chrono::milliseconds(100));
  EXPECT_TRUE(has(status(), "remembered Max at 127.0.0.1:")) << status();
  // Max comes back: connect (the remembered address) pushes the device; sync pushes it again.
  simulator_->set_fault(bridge::Fault::none);
  reply = action("connect");
  EXPECT_TRUE(has(reply.text, "~ connected")) << reply.text;
  EXPECT_TRUE(has(reply.text, "@ synced 2 objects, 0 wires to Max (Max held no device;"))
      << reply.text;
  EXPECT_FALSE(has(reply.text, "try: lofi_session sync")) << reply.text;
  EXPECT_EQ(simulator_->model().objects().size(), 2u);
  reply = action("sync");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(simulator_->model().objects().size(), 2u);
  EXPECT_TRUE(has(status(), "max: holds this device (2 objects")) << status();
}

// A device made before the session connected (never sent to Max): `connect` pushes it (the path
// `sync` takes, /lofi/init first) and says what it did, and the next ops reach Max instead of
// failing with Max's "no device: send /lofi/init first".
TEST_F(LofiLinkTest, ConnectPushesADeviceMadeOfflineAndTheNextOpsReachMax) {
  auto reply = action("new \"Dev\"");
  ASSERT_TRUE(has(reply.text, "max:offline")) << reply.text;
  ASSERT_FALSE(ops({"add cycle~ osc", "add dac~ out", "wire osc -> out"}).is_error);
  EXPECT_TRUE(has(status(), "2 changes not in Max")) << status();  // new, then the ops
  reply = action(connect_text());
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "~ connected to Max at 127.0.0.1:")) << reply.text;
  EXPECT_TRUE(has(reply.text, "@ synced 2 objects, 1 wire to Max (Max held no device; "))
      << reply.text;
  EXPECT_FALSE(has(reply.text, "another session re-initialised it")) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:online")) << reply.text;
  EXPECT_EQ(simulator_->model().device(), "Dev");
  EXPECT_EQ(simulator_->model().objects().size(), 2u);
  reply = ops({"add *~ gain", "wire osc -> gain"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_FALSE(has(reply.text, "no device")) << reply.text;
  EXPECT_EQ(simulator_->model().objects().size(), 3u);
  EXPECT_TRUE(has(status(), "max: holds this device (3 objects")) << status();
  // Connecting again with nothing changed sends nothing.
  simulator_->clear_log();
  reply = action(connect_text());
  EXPECT_TRUE(has(reply.text, "max: holds this device (3 objects, hash ")) << reply.text;
  EXPECT_TRUE(has(reply.text, "; nothing to sync")) << reply.text;
  EXPECT_FALSE(has(reply.text, "synced")) << reply.text;
  for (const auto& line : simulator_->log())
    EXPECT_EQ(line.find("/lofi/init"), std::string::npos) << line;
}

// Offline edits that keep the object ids (Max's fingerprint still matches) are pushed too, and
// a Max that holds another device says which.
TEST_F(LofiLinkTest, ConnectPushesOfflineChangesAndSaysWhatMaxHeld) {
  ASSERT_FALSE(action(connect_text()).is_error);
  ASSERT_TRUE(has(action("new \"Dev\"").text, "max:online"));
  ASSERT_FALSE(ops({"add cycle~ osc"}).is_error);
  ASSERT_FALSE(action("disconnect").is_error);
  ASSERT_FALSE(ops({"move osc to:200,40"}).is_error);
  auto reply = action(connect_text());
  EXPECT_TRUE(has(reply.text, "@ synced 1 object, 0 wires to Max (1 change made offline; "))
      << reply.text;
  // Another session's device, made offline, replaces "Dev" once it connects (nobody drives Max).
  ASSERT_FALSE(action("disconnect").is_error);
  ASSERT_TRUE(has(action("new \"Other\"", 1).text, "max:offline"));
  reply = action(connect_text(), 1);
  EXPECT_TRUE(
      has(reply.text, "@ synced 0 objects, 0 wires to Max (Max held \"Dev\" with 1 object; "))
      << reply.text;
  EXPECT_EQ(simulator_->model().device(), "Other");
}

TEST_F(LofiLinkTest, AMaxThatStopsAnsweringTakesTheSessionOfflineOnce) {
  ASSERT_FALSE(action(connect_text()).is_error);
  ASSERT_TRUE(has(action("new \"Dev\"").text, "max:online"));
  simulator_->set_fault(bridge::Fault::silent);
  auto reply = ops({"add cycle~ osc"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_TRUE(has(reply.text, "this session is now offline (max:offline)")) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
  const auto started = Clock::now();
  reply = ops({"add cycle~ osc"});
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(100));
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
  EXPECT_TRUE(has(status(), "1 change not in Max")) << status();
}

TEST_F(LofiLinkTest, StatusPingsAndReportsAMaxThatHoldsSomethingElse) {
  ASSERT_FALSE(action(connect_text()).is_error);
  ASSERT_FALSE(action("new \"Dev\"").is_error);
  ASSERT_FALSE(ops({"add cycle~ osc"}).is_error);
  EXPECT_TRUE(has(status(), "max: holds this device (1 objects")) << status();
  // Max restarted: it holds nothing now.
  simulator_->stop();
  bridge::SimulatorOptions options;
  options.port = simulator_->port();
  options.reply_port = 0;
  auto restarted = bridge::Simulator::start(io_, options);
  for (int retry = 0; !restarted && retry < 100; ++retry) {  // the old socket closes on io_
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    restarted = bridge::Simulator::start(io_, options);
  }
  ASSERT_TRUE(restarted) << restarted.error().message;
  simulator_ = std::move(*restarted);
  const auto text = status();
  EXPECT_TRUE(has(text, "Max holds no device, this device is \"Dev\" with 1 object")) << text;
  EXPECT_TRUE(has(text, "try: lofi_session sync")) << text;
  // An op Max refuses for want of a device says why, and what pushes it.
  const auto refused = ops({"add dac~ d0"});
  EXPECT_TRUE(refused.is_error) << refused.text;
  EXPECT_TRUE(has(refused.text,
                  "Max holds no device (it restarted, or this device was never "
                  "sent to it); lofi_session sync pushes it"))
      << refused.text;
  EXPECT_TRUE(has(refused.text, "try: lofi_session sync")) << refused.text;
  // A Max that does not answer the status ping: offline, said once, and status says why.
  simulator_->set_fault(bridge::Fault::silent);
  EXPECT_TRUE(has(status(), "max: offline — Max at 127.0.0.1:")) << status();
  const auto reply = ops({"add dac~ d"});
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
}

TEST_F(LofiLinkTest, OneSessionDrivesMaxAndASecondOneMustAskToTakeOver) {
  ASSERT_FALSE(action(connect_text(), 0).is_error);
  ASSERT_FALSE(action("new \"Alpha\"", 0).is_error);
  ASSERT_FALSE(ops({"add cycle~ osc"}, 0).is_error);
  auto reply = action(connect_text(), 1);
  EXPECT_TRUE(has(reply.text, "this Max is shared by 2 sessions")) << reply.text;
  reply = action("new \"Beta\"", 1);
  EXPECT_TRUE(has(reply.text, "driven by another session (device \"Alpha\")")) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
  EXPECT_EQ(simulator_->model().device(), "Alpha") << "Beta's new did not re-initialise Max";
  EXPECT_TRUE(has(status(0), "shared by 2 sessions linked to this Max; this one drives \"Alpha\""))
      << status(0);
  reply = action("sync", 1);
  EXPECT_TRUE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "sync would re-initialise Max")) << reply.text;
  EXPECT_TRUE(has(reply.text, "try: lofi_session sync takeover:true")) << reply.text;
  reply = action("sync takeover:true", 1);
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(simulator_->model().device(), "Beta");
  // The first session hears it once, then edits offline.
  reply = ops({"add dac~ dac"}, 0);
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_TRUE(has(reply.text, "another document took over Max")) << reply.text;
  EXPECT_TRUE(has(reply.text, "max:offline")) << reply.text;
  EXPECT_FALSE(simulator_->model().objects().contains("dac"));
  // A session that is gone drives nothing: the first one can sync without takeover.
  sessions_[1].reset();
  reply = action("sync", 0);
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(simulator_->model().device(), "Alpha");
}

TEST_F(LofiLinkTest, SyncKeepsAWindowInFlightAndReportsProgress) {
  ASSERT_FALSE(action(connect_text()).is_error);
  ASSERT_FALSE(action("new \"Big\"").is_error);
  ASSERT_FALSE(action("disconnect").is_error);
  std::vector<std::string> list;
  for (int i = 0; i < 200; ++i)
    list.push_back("add *~ g" + std::to_string(i));
  ASSERT_FALSE(ops(list).is_error);
  ASSERT_FALSE(action(connect_text()).is_error);
  simulator_->set_fault(bridge::Fault::none, std::chrono::milliseconds(20));
  std::vector<std::size_t> confirmed;
  std::mutex mutex;
  const auto started = Clock::now();
  auto reply =
      finish(session(0), session(0).run_session("sync", {}), [&](std::size_t done, std::size_t) {
        std::lock_guard lock(mutex);
        confirmed.push_back(done);
      });
  const auto took = Clock::now() - started;
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(simulator_->model().objects().size(), 200u);
  // 201 requests one after another would take over 4 s at 20 ms each.
  EXPECT_LT(took, std::chrono::seconds(1)) << "sync of 200 objects at 20 ms latency";
  ASSERT_FALSE(confirmed.empty());
  EXPECT_EQ(confirmed.back(), 201u);
  EXPECT_TRUE(std::is_sorted(confirmed.begin(), confirmed.end()));
}

}  // namespace
}  // namespace fcp::lofi
