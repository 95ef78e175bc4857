// Clients behind a reverse proxy (config http.trusted_proxies): a request from a trusted proxy
// counts, for max_calls_per_client, as the client its X-Forwarded-For names (the right-most
// address that is not a trusted proxy); from any other peer the header is ignored. Through the
// real HTTP transport and MCP server (deck test domain, whose `sleep MS` holds a call thread).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <thread>

#include "mcp_test_client.hpp"
#include "transport/trusted_proxies.hpp"

namespace fcp::transport {
namespace {
namespace json = boost::json;
using boost::asio::ip::make_address;
using testing::HttpClient;

using testing::tool_call;

TrustedProxies trusting(const std::vector<std::string>& entries) {
  auto parsed = TrustedProxies::parse(entries);
  EXPECT_TRUE(parsed) << parsed.error().message;
  return parsed ? *parsed : TrustedProxies{};
}

TEST(TrustedProxies, TakeAddressesAndNetworksAndNameABadEntry) {
  const auto proxies = trusting({"127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"});
  EXPECT_TRUE(proxies.trusts(make_address("127.0.0.1")));
  EXPECT_FALSE(proxies.trusts(make_address("127.0.0.2")));
  EXPECT_TRUE(proxies.trusts(make_address("10.200.3.4")));
  EXPECT_TRUE(proxies.trusts(make_address("::ffff:10.1.2.3")));  // a dual-stack socket's v4 peer
  EXPECT_TRUE(proxies.trusts(make_address("::1")));
  EXPECT_TRUE(proxies.trusts(make_address("fd12::7")));
  EXPECT_FALSE(proxies.trusts(make_address("2001:db8::1")));
  const auto bad = TrustedProxies::parse({"127.0.0.1", "proxy.local"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("\"proxy.local\""), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("http.trusted_proxies"), std::string::npos);
}

TEST(TrustedProxies, CountTheRightMostUntrustedForwardedAddress) {
  const auto proxies = trusting({"127.0.0.1", "10.0.0.0/8"});
  const auto client = [&proxies](const std::string& peer,
                                 const std::vector<std::string_view>& fields) {
    return proxies.client_address(make_address(peer), fields).to_string();
  };
  EXPECT_EQ(client("127.0.0.1", {"198.51.100.7"}), "198.51.100.7");
  // Whatever the client wrote itself stands left of what the proxies added: not believed.
  EXPECT_EQ(client("127.0.0.1", {"203.0.113.9, 198.51.100.7"}), "198.51.100.7");
  // Through two trusted proxies, and over several header fields.
  EXPECT_EQ(client("127.0.0.1", {"203.0.113.9, 198.51.100.7", "10.1.1.1"}), "198.51.100.7");
  EXPECT_EQ(client("127.0.0.1", {"[2001:db8::5]:4711"}), "2001:db8::5");
  EXPECT_EQ(client("127.0.0.1", {"198.51.100.7:4711"}), "198.51.100.7");
  // No header, or one that is not an address: the last trusted hop is the client.
  EXPECT_EQ(client("127.0.0.1", {}), "127.0.0.1");
  EXPECT_EQ(client("127.0.0.1", {"unknown, 10.2.2.2"}), "10.2.2.2");
  // From a peer that is not a trusted proxy the header means nothing.
  EXPECT_EQ(client("192.0.2.1", {"198.51.100.7"}), "192.0.2.1");
}

mcp::ServerOptions one_call_per_client() {
  mcp::ServerOptions options;
  options.max_calls_per_client = 1;
  return options;
}

HttpOptions behind(const std::vector<std::string>& trusted) {
  HttpOptions http;
  http.trusted_proxies = trusting(trusted);
  return http;
}

class TrustedProxyTest : public testing::DeckServerTest {
 protected:
  explicit TrustedProxyTest(const std::vector<std::string>& trusted)
      : DeckServerTest(one_call_per_client(), behind(trusted)) {}
  // An initialized session whose requests say they come from `forwarded_for`; with a document.
  std::string session(HttpClient& c, const std::string& forwarded_for) {
    auto init = c.post(testing::initialize(1));
    init.set("X-Forwarded-For", forwarded_for);
    const auto response = c.send(init);
    EXPECT_EQ(response.result(), testing::http::status::ok) << response.body();
    std::string id(response["Mcp-Session-Id"]);
    call(c, id, tool_call(2, "deck_session", {{"action", "new Board"}}));
    return id;
  }
  testing::Request request(HttpClient& c, const std::string& session, const std::string& body) {
    auto r = c.post(body, session);
    r.set("MCP-Protocol-Version", "2025-11-25");
    return r;
  }
  json::value call(HttpClient& c, const std::string& session, const std::string& body) {
    const auto response = c.send(request(c, session, body));
    EXPECT_EQ(response.result(), testing::http::status::ok) << response.body();
    return json::parse(response.body());
  }
  // How long a quick call of `second` takes while `first` holds a call thread for 1.5 s.
  std::chrono::milliseconds quick_call_while_other_sleeps(const std::string& first,
                                                          const std::string& second) {
    auto a = http_client();
    auto b = http_client();
    const auto a_session = session(a, first);
    const auto b_session = session(b, second);
    auto sleeping =
        request(a, a_session, tool_call(3, "deck", {{"ops", json::array{"sleep 1500"}}}));
    a.write(sleeping);
    // The sleep holds its client's share once it runs.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (server_->calls_running() == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto started = std::chrono::steady_clock::now();
    const auto reply = call(b, b_session, tool_call(4, "deck_query", {{"q", "stats"}}));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    EXPECT_TRUE(reply.as_object().contains("result")) << reply;
    EXPECT_EQ(a.read().result(), testing::http::status::ok);
    return took;
  }
};

// The test's own address, 127.0.0.1, is the proxy.
class BehindATrustedProxyTest : public TrustedProxyTest {
 protected:
  BehindATrustedProxyTest() : TrustedProxyTest({"127.0.0.1"}) {}
};

// 127.0.0.1 is not a trusted proxy.
class FromAnUntrustedPeerTest : public TrustedProxyTest {
 protected:
  FromAnUntrustedPeerTest() : TrustedProxyTest({"10.0.0.0/8"}) {}
};

TEST_F(BehindATrustedProxyTest, TwoClientsGetSeparateShares) {
  const auto took = quick_call_while_other_sleeps("198.51.100.1", "198.51.100.2");
  EXPECT_LT(took, std::chrono::milliseconds(1000)) << "the second client waited for the first";
}

TEST_F(FromAnUntrustedPeerTest, ASpoofedHeaderIsIgnored) {
  const auto took = quick_call_while_other_sleeps("198.51.100.1", "198.51.100.2");
  // Both are 127.0.0.1, with one call thread between them: the quick call waits for the sleep.
  EXPECT_GE(took, std::chrono::milliseconds(1000)) << "the forwarded address was believed";
}

}  // namespace
}  // namespace fcp::transport
