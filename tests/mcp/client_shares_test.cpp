#include "mcp/client_shares.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace fcp::mcp {
namespace {

// Deferred starts run when the test says (as the client's queue would run them later).
struct Deferred {
  std::vector<std::function<void()>> posted;
  ClientShares::Post post() {
    return [this](std::function<void()> work) { posted.push_back(std::move(work)); };
  }
  void run_all() {
    auto work = std::move(posted);
    posted.clear();
    for (auto& w : work)
      w();
  }
};

TEST(ClientShares, AClientOverItsShareWaitsAndOthersDoNot) {
  ClientShares shares(2);
  Deferred deferred;
  std::vector<ClientShares::Release> a;
  int started_a = 0, started_b = 0;
  for (int i = 0; i < 4; ++i) {
    shares.run(
        "local@127.0.0.1",
        [&](const ClientShares::Release& release) {
          ++started_a;
          a.push_back(release);
        },
        deferred.post());
  }
  EXPECT_EQ(started_a, 2);
  EXPECT_EQ(shares.running("local@127.0.0.1"), 2u);
  EXPECT_EQ(shares.waiting("local@127.0.0.1"), 2u);
  // Another client runs at once.
  shares.run(
      "local@127.0.0.2",
      [&](const ClientShares::Release& release) {
        ++started_b;
        release();
      },
      deferred.post());
  EXPECT_EQ(started_b, 1);
  EXPECT_EQ(shares.running("local@127.0.0.2"), 0u);
  // An ended call passes its place to the next in line (started through post), once.
  a[0]();
  a[0]();
  EXPECT_EQ(started_a, 2);
  ASSERT_EQ(deferred.posted.size(), 1u);
  deferred.run_all();
  EXPECT_EQ(started_a, 3);
  EXPECT_EQ(shares.running("local@127.0.0.1"), 2u);
  EXPECT_EQ(shares.waiting("local@127.0.0.1"), 1u);
  a[1]();
  deferred.run_all();
  a[2]();
  a[3]();
  EXPECT_EQ(started_a, 4);
  EXPECT_EQ(shares.running("local@127.0.0.1"), 0u);
  EXPECT_EQ(shares.waiting("local@127.0.0.1"), 0u);
}

TEST(ClientShares, AClientIsItsPrincipalAndAddress) {
  EXPECT_EQ(client_key("local", "127.0.0.1:51234"), "local@127.0.0.1");
  EXPECT_EQ(client_key("alice", "[::1]:7300"), "alice@[::1]");
  EXPECT_EQ(client_key("local", "stdin"), "local@stdin");
}

}  // namespace
}  // namespace fcp::mcp
