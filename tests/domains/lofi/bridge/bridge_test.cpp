#include "domains/lofi/bridge/bridge.hpp"

#include <fmt/format.h>

#include <atomic>
#include <boost/json/serialize.hpp>
#include <mutex>
#include <thread>

#include "bridge_fixture.hpp"

namespace fcp::lofi::bridge {
namespace {

using namespace testing;
using BridgeTest = BridgeFixture;
namespace json = boost::json;

TEST_F(BridgeTest, RoundTripsARequestAndEchoesItsId) {
  auto max = simulator();
  auto bridge = bridge_to(*max);
  auto init = call(*bridge, "init", {{"deviceName", "Flutter"}, {"width", 600}, {"height", 400}});
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_TRUE(init->ok);
  EXPECT_EQ(init->body.at("device"), "Flutter");
  EXPECT_FALSE(init->request_id.empty());
  auto create = call(*bridge, "create", {{"id", "a,b"}, {"class", "cycle~"}, {"x", 10}, {"y", 20}});
  ASSERT_TRUE(create) << create.error().message;
  EXPECT_EQ(create->body.at("id"), "a,b");
  EXPECT_NE(create->request_id, init->request_id);
  const auto log = max->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1], fmt::format(R"(/lofi/create {{"id":"a,b","class":"cycle~","x":10,"y":20,)"
                                R"("requestId":"{}"}})",
                                create->request_id));
  EXPECT_TRUE(max->model().objects().contains("a,b"));
  const auto health = bridge->health();
  EXPECT_TRUE(health.answering);
  EXPECT_EQ(health.requests, 2u);
  EXPECT_EQ(health.replies, 2u);
  EXPECT_EQ(health.pending, 0u);
  ASSERT_TRUE(health.last_rtt_ms);
  EXPECT_GT(*health.last_rtt_ms, 0.0);
}

TEST_F(BridgeTest, AcceptsRepliesSentToTheReplyPortFromAnotherSocket) {
  // The real topology: Max's udpsend answers from its own port to our fixed reply port.
  BridgeOptions options;
  options.port = free_udp_port();
  options.reply_port = 0;
  auto bridge = Bridge::open(threads.io(), options);
  ASSERT_TRUE(bridge);
  SimulatorOptions sim;
  sim.port = options.port;
  sim.reply_port = (*bridge)->reply_port();
  auto max = Simulator::start(threads.io(), sim);
  ASSERT_TRUE(max) << max.error().message;
  auto pong = call(**bridge, "ping");
  ASSERT_TRUE(pong) << pong.error().message;
  EXPECT_EQ(pong->body.at("pong"), true);
}

TEST_F(BridgeTest, CorrelatesConcurrentRequestsFromSeveralThreadsById) {
  auto max = simulator(Fault::none, {}, 20ms);  // random delays: replies overtake each other
  auto bridge = bridge_to(*max);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Many"}}));
  constexpr int kThreads = 4;
  constexpr int kEach = 50;
  std::mutex mutex;
  std::vector<int> completion_order;
  std::atomic<int> sequence{0};
  std::vector<std::future<std::pair<std::string, core::Result<Reply>>>> futures(kThreads * kEach);
  std::vector<std::thread> senders;
  for (int t = 0; t < kThreads; ++t) {
    senders.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const std::string id = fmt::format("t{}-{}", t, i);
        auto promise =
            std::make_shared<std::promise<std::pair<std::string, core::Result<Reply>>>>();
        futures[static_cast<std::size_t>(t) * kEach + i] = promise->get_future();
        const int sent = sequence++;
        bridge->request("create", {{"id", id}, {"class", "cycle~"}},
                        [&, promise, id, sent](core::Result<Reply> result) {
                          {
                            std::lock_guard lock(mutex);
                            completion_order.push_back(sent);
                          }
                          promise->set_value({id, std::move(result)});
                        });
      }
    });
  }
  for (auto& sender : senders)
    sender.join();
  for (auto& future : futures) {
    auto [id, result] = get_within(future);
    ASSERT_TRUE(result) << id << ": " << result.error().message;
    EXPECT_EQ(result->body.at("id"), json::value(id)) << "a reply was handed to the wrong request";
  }
  EXPECT_FALSE(std::is_sorted(completion_order.begin(), completion_order.end()))
      << "replies never overtook each other, so correlation was not exercised";
  EXPECT_EQ(max->model().objects().size(), static_cast<std::size_t>(kThreads * kEach));
  const auto health = bridge->health();
  EXPECT_EQ(health.pending, 0u);
  EXPECT_EQ(health.unmatched_replies, 0u);
  EXPECT_EQ(health.replies, static_cast<std::size_t>(kThreads * kEach + 1));
}

TEST_F(BridgeTest, MatchesRepliesWithoutIdWhenOneRequestIsPending) {
  auto max = simulator(Fault::no_id);  // LOFI style: JSON as the OSC address, no requestId
  auto bridge = bridge_to(*max);
  auto init = call(*bridge, "init", {{"deviceName", "Lofi"}});
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_EQ(init->request_id, "");
  for (int i = 0; i < 5; ++i) {
    auto created = call(*bridge, "create", {{"id", fmt::format("o{}", i)}, {"class", "cycle~"}});
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(created->body.at("id"), json::value(fmt::format("o{}", i)));
  }
  auto refused = call(*bridge, "remove", {{"id", "ghost"}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "unknown id \"ghost\"");
  EXPECT_EQ(bridge->health().unmatched_replies, 0u);
}

TEST_F(BridgeTest, DropsRepliesWithoutIdWhenSeveralArePending) {
  auto max = simulator(Fault::no_id);
  auto bridge = bridge_to(*max, 400ms);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Lofi"}}));
  max->set_fault(Fault::no_id, 100ms);
  // Three in flight at once: no reply can be attributed, so all three time out.
  std::vector<std::future<core::Result<Reply>>> futures;
  for (int i = 0; i < 3; ++i) {
    futures.push_back(start(*bridge, "create", {{"id", fmt::format("c{}", i)}, {"class", "v8"}}));
  }
  for (auto& future : futures) {
    auto result = get_within(future);
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message.find("did not answer /lofi/create"), std::string::npos);
  }
  const auto health = bridge->health();
  EXPECT_EQ(health.unmatched_replies, 3u);
  EXPECT_EQ(health.timeouts, 3u);
  EXPECT_EQ(health.replies, 1u);  // the init
  EXPECT_TRUE(logs.contains("without requestId arrived while"));
}

TEST_F(BridgeTest, TimesOutOnASilentMaxWhileAnotherBridgeKeepsWorking) {
  auto silent = simulator(Fault::silent);
  auto healthy = simulator();
  auto stuck = bridge_to(*silent, 1000ms);
  auto working = bridge_to(*healthy);
  const auto started = std::chrono::steady_clock::now();
  auto pending = start(*stuck, "create", {{"id", "a"}, {"class", "cycle~"}});
  for (int i = 0; i < 20; ++i)
    expect_ok(call(*working, "ping"));
  const auto pings_done = std::chrono::steady_clock::now() - started;
  EXPECT_LT(pings_done, 1000ms) << "the healthy bridge waited on the silent one";
  EXPECT_EQ(stuck->health().pending, 1u);
  auto result = get_within(pending);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            fmt::format("Max did not answer /lofi/create within 1 s — is the lofi daemon patch "
                        "open in Max, listening on udpreceive {} and sending to 127.0.0.1:{}? "
                        "(lofi_session connect to change ports)",
                        silent->port(), stuck->reply_port()));
  EXPECT_GE(elapsed, 1000ms);
  EXPECT_LT(elapsed, 1900ms);  // not a second timeout (loose: the machine may be loaded)
  const auto health = stuck->health();
  EXPECT_FALSE(health.answering);
  EXPECT_EQ(health.timeouts, 1u);
  EXPECT_EQ(health.pending, 0u);
  EXPECT_EQ(health.last_error, result.error().message);
  EXPECT_TRUE(logs.contains("Max did not answer /lofi/create"));
}

TEST_F(BridgeTest, DropsALateReplyAndKeepsTheNextRequestStraight) {
  auto max = simulator();
  auto bridge = bridge_to(*max, 150ms);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Late"}}));
  max->set_fault(Fault::slow, 400ms);
  auto late = call(*bridge, "create", {{"id", "slowpoke"}, {"class", "cycle~"}});
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("within 150 ms"), std::string::npos) << late.error().message;
  max->set_fault(Fault::none);
  bridge->set_timeout(2000ms);
  // Sent before the late reply arrives; must get its own reply, not the late one.
  auto next = call(*bridge, "create", {{"id", "next"}, {"class", "cycle~"}});
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_EQ(next->body.at("id"), "next");
  ASSERT_TRUE(wait_until([&] { return bridge->health().late_replies == 1; }));
  EXPECT_TRUE(logs.contains("late reply to request"));
  EXPECT_EQ(bridge->health().timeouts, 1u);
}

TEST_F(BridgeTest, DropsDuplicateReplies) {
  auto max = simulator(Fault::duplicate);
  auto bridge = bridge_to(*max);
  std::atomic<int> calls{0};
  for (int i = 0; i < 10; ++i) {
    std::promise<void> done;
    bridge->request("ping", {}, [&](const core::Result<Reply>& result) {
      EXPECT_TRUE(result);
      ++calls;
      done.set_value();
    });
    done.get_future().wait();
  }
  ASSERT_TRUE(wait_until([&] { return bridge->health().duplicate_replies == 10; }));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(calls, 10);  // each callback ran exactly once (a second set_value would throw)
  EXPECT_EQ(bridge->health().replies, 10u);
}

TEST_F(BridgeTest, IgnoresGarbageDatagrams) {
  auto max = simulator(Fault::garbage);
  auto bridge = bridge_to(*max);
  auto pong = call(*bridge, "ping");
  ASSERT_TRUE(pong) << pong.error().message;
  ASSERT_TRUE(wait_until([&] { return bridge->health().malformed_packets >= 1; }));
  EXPECT_TRUE(logs.contains("is not OSC"));
  expect_ok(call(*bridge, "ping"));
}

TEST_F(BridgeTest, PropagatesMaxErrorReplies) {
  auto max = simulator();
  auto bridge = bridge_to(*max);
  auto no_device = call(*bridge, "create", {{"id", "a"}, {"class", "cycle~"}});
  ASSERT_FALSE(no_device);
  EXPECT_EQ(no_device.error().message, "no device: send /lofi/init first");
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "E"}}));
  auto unknown =
      call(*bridge, "wire", {{"sourceId", "ghost"}, {"outlet", 0}, {"destId", "x"}, {"inlet", 0}});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message, "unknown id \"ghost\"");
  max->set_fault(Fault::error);
  auto failing = call(*bridge, "ping");
  ASSERT_FALSE(failing);
  EXPECT_EQ(failing.error().message, "simulated Max error");
  const auto health = bridge->health();
  EXPECT_TRUE(health.answering);  // an error reply is still an answer
  EXPECT_EQ(health.last_error, "simulated Max error");
}

TEST_F(BridgeTest, ReportsHowARequestEnded) {
  auto max = simulator();
  auto bridge = bridge_to(*max, 200ms);
  auto outcome = [&](const std::string& verb, const json::object& payload) {
    std::promise<Outcome> promise;
    bridge->exchange(verb, payload,
                     [&](const Exchange& exchange) { promise.set_value(exchange.outcome); });
    auto future = promise.get_future();
    return get_within(future);
  };
  EXPECT_EQ(outcome("ping", {}), Outcome::answered);
  EXPECT_EQ(outcome("remove", {{"id", "x"}}), Outcome::refused);
  EXPECT_EQ(outcome("Bad Verb", {}), Outcome::not_sent);
  max->set_fault(Fault::silent);
  EXPECT_EQ(outcome("ping", {}), Outcome::timed_out);
}

TEST_F(BridgeTest, RefusesAPayloadLargerThanAMaxSymbolBeforeSending) {
  auto max = simulator();
  auto bridge = bridge_to(*max);
  json::array layers;
  for (int i = 0; i < 400; ++i) {
    layers.push_back(
        json::object{{"name", fmt::format("{:02}_dial_{}", i % 100, i)},
                     {"class", "live.dial"},
                     {"x", i},
                     {"y", 0},
                     {"width", 40},
                     {"height", 60},
                     {"args", json::array{}},
                     {"attrs", json::object{{"bgcolor", json::array{0.2, 0.2, 0.2, 1.0}}}}});
  }
  json::object payload{{"layers", layers}};
  ASSERT_FALSE(payload_fits(payload));
  auto refused = call(*bridge, "ui", payload);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("Max truncates symbols at 32767 bytes"), std::string::npos)
      << refused.error().message;
  expect_ok(call(*bridge, "ping"));
  const auto log = max->log();
  ASSERT_EQ(log.size(), 1u) << "the oversized message reached Max";
  EXPECT_TRUE(log[0].starts_with("/lofi/ping "));
  EXPECT_EQ(bridge->health().requests, 1u);
}

TEST_F(BridgeTest, PingMeasuresTheRoundTrip) {
  auto max = simulator(Fault::slow, 30ms);
  auto bridge = bridge_to(*max);
  std::promise<core::Result<double>> promise;
  bridge->ping([&](core::Result<double> rtt) { promise.set_value(std::move(rtt)); });
  auto future = promise.get_future();
  auto rtt = get_within(future);
  ASSERT_TRUE(rtt) << rtt.error().message;
  EXPECT_GE(*rtt, 30.0);
  EXPECT_LT(*rtt, 500.0);
}

TEST_F(BridgeTest, PingAndWaitReturnsTheReplyAndTheRoundTripOrTheTimeout) {
  auto max = simulator(Fault::slow, 30ms);
  auto bridge = bridge_to(*max);
  auto pong = bridge->ping_and_wait();  // the bridge's io runs on the fixture's thread
  ASSERT_TRUE(pong) << pong.error().message;
  EXPECT_TRUE(pong->reply.ok);
  EXPECT_GE(pong->milliseconds, 30.0);
  EXPECT_LT(pong->milliseconds, 500.0);

  auto silent = simulator(Fault::silent);
  auto stuck = bridge_to(*silent, 200ms);
  auto none = stuck->ping_and_wait();
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("Max did not answer"), std::string::npos)
      << none.error().message;
}

// No thread runs the bridge's io_context (in fcpd: every event-loop thread waits in a probe):
// the wait still ends at the timeout instead of never.
TEST_F(BridgeTest, PingAndWaitEndsAtTheTimeoutWhenNothingRunsTheBridgesIo) {
  auto max = simulator(Fault::silent);
  boost::asio::io_context starved;
  BridgeOptions options;
  options.port = max->port();
  options.reply_port = 0;
  options.timeout = 200ms;
  auto opened = Bridge::open(starved, options);
  ASSERT_TRUE(opened) << opened.error().message;
  std::promise<core::Result<Bridge::Pong>> promise;
  auto future = promise.get_future();
  std::thread waiter([&] { promise.set_value((*opened)->ping_and_wait()); });
  const bool ended = future.wait_for(3s) == std::future_status::ready;
  if (!ended) starved.run_for(1s);  // lets the old code's timer fire so the thread can end
  waiter.join();
  ASSERT_TRUE(ended) << "ping_and_wait waited past its timeout for an io_context nobody runs";
  auto pong = future.get();
  ASSERT_FALSE(pong);
  EXPECT_NE(pong.error().message.find("Max did not answer /lofi/ping within"), std::string::npos)
      << pong.error().message;
}

TEST_F(BridgeTest, ExplainsATakenReplyPort) {
  auto max = simulator();
  auto first = bridge_to(*max);
  BridgeOptions options;
  options.port = max->port();
  options.reply_port = first->reply_port();
  auto second = Bridge::open(threads.io(), options);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().message,
            fmt::format("reply port {} is already in use on this machine (another fcpd, a LOFI "
                        "MONSTER server, or another lofi connection?)",
                        first->reply_port()));
  ASSERT_EQ(second.error().hints.size(), 1u);
  EXPECT_EQ(second.error().hints[0], fmt::format("connect reply:{}", first->reply_port() + 1));
}

TEST_F(BridgeTest, ReleasesTheReplyPortWhenTheLastHolderLetsGo) {
  auto max = simulator();
  auto bridge = bridge_to(*max);
  expect_ok(call(*bridge, "ping"));
  BridgeOptions options;
  options.port = max->port();
  options.reply_port = bridge->reply_port();
  bridge.reset();
  auto again = Bridge::open(threads.io(), options);
  ASSERT_TRUE(again) << again.error().message;
  expect_ok(call(**again, "ping"));
}

TEST_F(BridgeTest, CloseFailsPendingRequestsAndLaterOnes) {
  auto max = simulator(Fault::silent);
  auto bridge = bridge_to(*max, 5000ms);
  auto pending = start(*bridge, "ping");
  ASSERT_TRUE(wait_until([&] { return bridge->health().pending == 1; }));
  const auto started = std::chrono::steady_clock::now();
  bridge->close();
  auto result = get_within(pending);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1000ms);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            fmt::format("the connection to Max at 127.0.0.1:{} was closed", max->port()));
  auto later = call(*bridge, "ping");
  ASSERT_FALSE(later);
  EXPECT_NE(later.error().message.find("is closed"), std::string::npos);
  bridge->close();  // idempotent
}

TEST_F(BridgeTest, DroppingTheLastHolderFailsPendingRequestsAndFreesThePort) {
  auto max = simulator(Fault::silent);
  auto bridge = bridge_to(*max, 5000ms);
  auto pending = start(*bridge, "ping");
  ASSERT_TRUE(wait_until([&] { return bridge->health().pending == 1; }));
  BridgeOptions options;
  options.port = max->port();
  options.reply_port = bridge->reply_port();
  bridge.reset();
  auto result = get_within(pending, 1000ms);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message,
            fmt::format("the connection to Max at 127.0.0.1:{} was closed", max->port()));
  EXPECT_TRUE(Bridge::open(threads.io(), options));
}

TEST_F(BridgeTest, ExplainsAnUnresolvableHost) {
  BridgeOptions options;
  options.host = "no-such-host.invalid";
  auto opened = Bridge::open(threads.io(), options);
  ASSERT_FALSE(opened);
  EXPECT_NE(opened.error().message.find("cannot resolve the Max host \"no-such-host.invalid\""),
            std::string::npos)
      << opened.error().message;
}

}  // namespace
}  // namespace fcp::lofi::bridge
