#include <fmt/format.h>

#include "bridge_fixture.hpp"

namespace fcp::lofi::bridge {
namespace {

using namespace testing;
using BridgeHubTest = BridgeFixture;

BridgeOptions options_for(std::uint16_t port, std::uint16_t reply_port,
                          std::chrono::milliseconds timeout = 5000ms) {
  BridgeOptions options;
  options.port = port;
  options.reply_port = reply_port;
  options.timeout = timeout;
  return options;
}

TEST_F(BridgeHubTest, SessionsWithTheSameOptionsShareOneBridge) {
  auto max = simulator();
  BridgeHub hub(threads.io());
  const std::uint16_t reply = free_udp_port();
  auto first = hub.get(options_for(max->port(), reply, 5000ms));
  ASSERT_TRUE(first) << first.error().message;
  auto second = hub.get(options_for(max->port(), reply, 750ms));
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ((*first)->reply_port(), reply);
  // The timeout is per bridge; the last get() wins.
  EXPECT_EQ((*first)->timeout(), 750ms);
  EXPECT_EQ((*first)->options().timeout, 5000ms);
  expect_ok(call(**first, "ping"));
}

TEST_F(BridgeHubTest, RefusesASecondMaxOnAReplyPortInUse) {
  auto max = simulator();
  auto other = simulator();
  BridgeHub hub(threads.io());
  const std::uint16_t reply = free_udp_port();
  auto first = hub.get(options_for(max->port(), reply));
  ASSERT_TRUE(first);
  auto clash = hub.get(options_for(other->port(), reply));
  ASSERT_FALSE(clash);
  EXPECT_EQ(clash.error().message,
            fmt::format("reply port {} is already used by the connection to Max at 127.0.0.1:{}; "
                        "use the same Max address and port, or another reply port",
                        reply, max->port()));
  EXPECT_EQ(clash.error().hints,
            std::vector<std::string>{fmt::format("connect reply:{}", reply + 1)});
}

TEST_F(BridgeHubTest, OpensAFreshBridgeOnceTheOldOneIsReleased) {
  auto max = simulator();
  auto other = simulator();
  BridgeHub hub(threads.io());
  const std::uint16_t reply = free_udp_port();
  auto first = hub.get(options_for(max->port(), reply));
  ASSERT_TRUE(first);
  expect_ok(call(**first, "ping"));
  first->reset();
  auto moved = hub.get(options_for(other->port(), reply));
  ASSERT_TRUE(moved) << moved.error().message;
  expect_ok(call(**moved, "ping"));
  EXPECT_EQ(other->log().size(), 1u);
}

}  // namespace
}  // namespace fcp::lofi::bridge
