// The lofi domain against the Max simulator over real UDP, through the engine's Session: Max
// receives what each op, undo and redo means; a batch Max rejects part-way is rolled back in
// the model and compensated in "Max"; a silent Max gives a clear timeout error.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <future>
#include <thread>

#include "core/session.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::lofi {
namespace {

using testing::NoFiles;

class LofiLiveTest : public ::testing::Test {
 protected:
  LofiLiveTest() : work_(io_.get_executor()), thread_([this] { io_.run(); }) {
    bridge::SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;  // answer whoever asked
    simulator_ = bridge::Simulator::start(io_, options).value();
    const boost::json::object settings{
        {"port", simulator_->port()}, {"reply_port", 0}, {"timeout_ms", 800}, {"probe_ms", 800}};
    domain_ = make_lofi_domain(io_, settings);
    session_ = std::make_unique<core::Session>(*domain_, paths_);
  }
  ~LofiLiveTest() override {
    session_.reset();
    domain_.reset();
    simulator_->stop();
    work_.reset();
    io_.stop();
    thread_.join();
  }

  // Runs a call to completion, delivering pending effects like the MCP layer does.
  core::ToolReply finish(core::CallResult result) {
    if (!result.pending) return result.reply;
    auto* executor = session_->effect_executor();
    if (executor == nullptr) return session_->confirm(std::move(*result.pending));
    std::promise<core::Result<void>> delivered;
    executor->deliver(result.pending->effects, {},
                      [&](core::Result<void> outcome) { delivered.set_value(std::move(outcome)); });
    auto outcome = delivered.get_future().get();
    return outcome ? session_->confirm(std::move(*result.pending))
                   : session_->fail(std::move(*result.pending), outcome.error());
  }
  core::ToolReply ops(std::vector<std::string> list) { return finish(session_->run_ops(list, {})); }
  core::ToolReply action(std::string_view text) { return finish(session_->run_session(text, {})); }

  std::vector<std::string> addresses() const {
    std::vector<std::string> out;
    for (const auto& line : simulator_->log())
      out.push_back(line.substr(0, line.find(' ')));
    return out;
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  std::unique_ptr<bridge::Simulator> simulator_;
  std::unique_ptr<core::Domain> domain_;
  NoFiles paths_;
  std::unique_ptr<core::Session> session_;
};

TEST_F(LofiLiveTest, OpsUndoAndRedoReachMax) {
  auto reply = action("new \"Live\" width:600 height:170");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("max:online"), std::string::npos) << reply.text;
  simulator_->clear_log();
  reply = ops({"add plugin~ in", "add *~ vol args:0.5", "add plugout~ out", "wire in -> vol -> out",
               "ui 30_b live.dial at:20,20 size:44x48", "ui 00_a panel at:0,0 size:600x170",
               "ui c live.dial at:80,20 size:44x48"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  const auto sent = addresses();
  EXPECT_EQ(std::count(sent.begin(), sent.end(), "/lofi/create"), 3);
  EXPECT_EQ(std::count(sent.begin(), sent.end(), "/lofi/wire"), 2);
  ASSERT_EQ(std::count(sent.begin(), sent.end(), "/lofi/ui"), 1) << "one z-sorted UI message";
  std::string ui;
  for (const auto& line : simulator_->log()) {
    if (line.starts_with("/lofi/ui ")) ui = line;
  }
  const auto a = ui.find("00_a"), b = ui.find("30_b"), c = ui.find("\"c\"");
  EXPECT_TRUE(a < b && b < c) << ui;  // 00 < 30 < no prefix (50)
  EXPECT_EQ(simulator_->model().objects().size(), 6u);

  simulator_->clear_log();
  reply = action("undo");  // the ui/wire batch was one op each… undo the last op only
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(addresses(), std::vector<std::string>{"/lofi/remove"});
  simulator_->clear_log();
  reply = action("redo");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(addresses(), std::vector<std::string>{"/lofi/ui"});
}

TEST_F(LofiLiveTest, BatchRejectedByMaxIsRolledBackInBoth) {
  ASSERT_FALSE(action("new \"Live\"").is_error);
  simulator_->set_fail_on("/lofi/wire");
  simulator_->clear_log();
  auto reply = ops({"add cycle~ osc args:440", "add dac~ dac", "wire osc -> dac"});
  EXPECT_TRUE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("[0o"), std::string::npos) << "model rolled back: " << reply.text;
  const auto sent = addresses();
  // created both, the wire failed, then both were removed again (newest first).
  ASSERT_GE(sent.size(), 5u);
  EXPECT_EQ(sent[sent.size() - 2], "/lofi/remove");
  EXPECT_EQ(sent.back(), "/lofi/remove");
  EXPECT_TRUE(simulator_->model().objects().empty());
}

TEST_F(LofiLiveTest, SilentMaxTimesOutWithAClearError) {
  ASSERT_FALSE(action("new \"Live\"").is_error);
  simulator_->set_fault(bridge::Fault::silent);
  const auto started = std::chrono::steady_clock::now();
  auto reply = ops({"add cycle~ osc"});
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("did not answer"), std::string::npos) << reply.text;
  EXPECT_LT(took, std::chrono::seconds(3));
  EXPECT_NE(reply.text.find("[0o"), std::string::npos) << reply.text;
}

}  // namespace
}  // namespace fcp::lofi
