// Authentication end to end through the real transports and MCP server (deck test domain): no
// token, a wrong token, the right token, and another principal's document handle, on TCP (token
// in initialize params or _meta) and HTTP (Authorization: Bearer).
#include "mcp/auth.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <thread>

#include "mcp/jsonrpc.hpp"
#include "mcp_test_client.hpp"

namespace fcp::transport {
namespace {
namespace json = boost::json;
using testing::HttpClient;

const std::string kAliceToken = "alice-0123456789abcdef";
const std::string kBobToken = "bob-0123456789abcdef0000";

using testing::handle_in;
using testing::initialize;
using testing::text_of;
using testing::tool_call;
using LineClient = testing::JsonLineClient;

mcp::ServerOptions alice_and_bob(std::size_t calls_per_principal) {
  mcp::ServerOptions options;
  options.principal_limits.max_calls_in_flight = calls_per_principal;
  options.auth = std::make_shared<const mcp::Authenticator>(
      std::vector<mcp::Authenticator::Entry>{{"alice", kAliceToken}, {"bob", kBobToken}});
  return options;
}

class AuthTest : public testing::DeckServerTest {
 protected:
  explicit AuthTest(std::size_t calls_per_principal = 64)
      : DeckServerTest(alice_and_bob(calls_per_principal)) {}
  // An initialized HTTP session of the token's principal: its Mcp-Session-Id.
  std::string http_session(HttpClient& c, const std::string& token) {
    auto request = c.post(initialize(1, std::nullopt));
    request.set(testing::http::field::authorization, "Bearer " + token);
    auto response = c.send(request);
    EXPECT_EQ(response.result(), testing::http::status::ok) << response.body();
    return std::string(response["Mcp-Session-Id"]);
  }
  json::value http_call(HttpClient& c, const std::string& token, const std::string& session,
                        const std::string& body) {
    auto request = c.post(body, session);
    request.set(testing::http::field::authorization, "Bearer " + token);
    request.set("MCP-Protocol-Version", "2025-11-25");
    auto response = c.send(request);
    EXPECT_EQ(response.result(), testing::http::status::ok) << response.body();
    return json::parse(response.body());
  }
};

TEST_F(AuthTest, TcpWithoutATokenIsAnsweredWithAnErrorAndClosed) {
  auto c = line_client();
  const auto reply = c.ask(initialize(1, std::nullopt));
  EXPECT_EQ(reply.at("error").at("code").as_int64(), mcp::jsonrpc::code::unauthorized);
  EXPECT_NE(std::string(reply.at("error").at("message").as_string()).find("\"fcp\": {\"token\""),
            std::string::npos)
      << reply;
  EXPECT_TRUE(c.closed_by_server());
}

TEST_F(AuthTest, TcpRefusesAnyMessageBeforeTheToken) {
  auto c = line_client();
  const auto reply = c.ask(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_EQ(reply.at("id").as_int64(), 7);
  EXPECT_EQ(reply.at("error").at("code").as_int64(), mcp::jsonrpc::code::unauthorized);
  EXPECT_TRUE(c.closed_by_server());
  auto garbage = line_client();
  EXPECT_EQ(garbage.ask("not json").at("error").at("code").as_int64(),
            mcp::jsonrpc::code::unauthorized);
  EXPECT_TRUE(garbage.closed_by_server());
}

TEST_F(AuthTest, TcpWithAWrongTokenIsAnsweredWithAnErrorAndClosed) {
  auto c = line_client();
  const auto reply = c.ask(initialize(1, kAliceToken + "x"));
  EXPECT_EQ(reply.at("error").at("code").as_int64(), mcp::jsonrpc::code::unauthorized);
  EXPECT_NE(std::string(reply.at("error").at("message").as_string()).find("not valid"),
            std::string::npos);
  EXPECT_TRUE(c.closed_by_server());
}

TEST_F(AuthTest, TcpWithTheRightTokenWorksInParamsOrMeta) {
  auto c = line_client();
  EXPECT_TRUE(c.ask(initialize(1, kAliceToken)).as_object().contains("result"));
  EXPECT_EQ(text_of(c.ask(tool_call(2, "deck_session", {{"action", "new Mine"}}))).substr(0, 1),
            "+");
  auto meta = line_client();
  EXPECT_TRUE(meta.ask(initialize(1, kBobToken, true)).as_object().contains("result"));
}

TEST_F(AuthTest, TcpPrincipalsDoNotSeeEachOthersDocuments) {
  auto alice = line_client();
  alice.ask(initialize(1, kAliceToken));
  const auto handle =
      handle_in(text_of(alice.ask(tool_call(2, "deck_session", {{"action", "new Secret"}}))));
  alice.ask(tool_call(3, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}}));
  EXPECT_EQ(text_of(alice.ask(tool_call(4, "deck_query", {{"q", "stats"}, {"doc", handle}}))),
            "cards:1");

  auto bob = line_client();
  bob.ask(initialize(1, kBobToken));
  const auto stolen = bob.ask(tool_call(2, "deck_query", {{"q", "stats"}, {"doc", handle}}));
  EXPECT_TRUE(stolen.at("result").at("isError").as_bool());
  EXPECT_EQ(text_of(stolen).find("cards"), std::string::npos) << text_of(stolen);
  const auto listed = text_of(bob.ask(tool_call(3, "deck_session", {{"action", "list"}})));
  EXPECT_EQ(listed.find("Secret"), std::string::npos) << listed;
  EXPECT_EQ(listed.find(handle), std::string::npos) << listed;
  // Bob's same-named session is his own: it does not hold Alice's current document.
  EXPECT_TRUE(bob.ask(tool_call(4, "deck", {{"ops", json::array{"add B"}}, {"doc", handle}}))
                  .at("result")
                  .at("isError")
                  .as_bool());
  EXPECT_EQ(text_of(alice.ask(tool_call(5, "deck_query", {{"q", "stats"}, {"doc", handle}}))),
            "cards:1");
}

TEST_F(AuthTest, TcpNamedSessionsArePerPrincipal) {
  const auto with_session = [](const std::string& token) {
    return json::serialize(json::object{
        {"jsonrpc", "2.0"},
        {"id", 1},
        {"method", "initialize"},
        {"params", json::object{{"protocolVersion", "2025-11-25"},
                                {"fcp", json::object{{"token", token}, {"session", "work"}}}}}});
  };
  auto alice = line_client();
  EXPECT_TRUE(alice.ask(with_session(kAliceToken)).as_object().contains("result"));
  alice.ask(tool_call(2, "deck_session", {{"action", "new Mine"}}));
  // Bob may use the name too (it is not "in use by another client"), and gets an empty session.
  auto bob = line_client();
  EXPECT_TRUE(bob.ask(with_session(kBobToken)).as_object().contains("result"));
  const auto stats = text_of(bob.ask(tool_call(2, "deck_query", {{"q", "stats"}})));
  EXPECT_NE(stats.find("no document"), std::string::npos) << stats;
}

TEST_F(AuthTest, HttpWithoutATokenIs401WithWwwAuthenticate) {
  auto c = http_client();
  auto response = c.send(c.post(initialize(1, std::nullopt)));
  EXPECT_EQ(response.result(), testing::http::status::unauthorized);
  EXPECT_EQ(response[testing::http::field::www_authenticate], R"(Bearer realm="fcpd")");
  EXPECT_TRUE(response["Mcp-Session-Id"].empty());
  auto basic = c.post(initialize(1, std::nullopt));
  basic.set(testing::http::field::authorization, "Basic YWxpY2U6cHc=");
  EXPECT_EQ(c.send(basic).result(), testing::http::status::unauthorized);
}

TEST_F(AuthTest, HttpWithAWrongTokenIs401) {
  auto c = http_client();
  auto request = c.post(initialize(1, std::nullopt));
  request.set(testing::http::field::authorization, "Bearer " + kBobToken + "0");
  auto response = c.send(request);
  EXPECT_EQ(response.result(), testing::http::status::unauthorized);
  EXPECT_EQ(response[testing::http::field::www_authenticate],
            R"(Bearer realm="fcpd", error="invalid_token")");
}

TEST_F(AuthTest, HttpWithTheRightTokenWorks) {
  auto c = http_client();
  const auto session = http_session(c, kAliceToken);
  ASSERT_FALSE(session.empty());
  const auto reply =
      http_call(c, kAliceToken, session, tool_call(2, "deck_session", {{"action", "new Mine"}}));
  EXPECT_EQ(text_of(reply).substr(0, 1), "+") << reply;
  // Every request needs the token, not just the first.
  auto bare = c.post(tool_call(3, "deck_query", {{"q", "stats"}}), session);
  EXPECT_EQ(c.send(bare).result(), testing::http::status::unauthorized);
}

TEST_F(AuthTest, HttpPrincipalsDoNotReachEachOthersSessionsOrDocuments) {
  auto c = http_client();
  const auto alice = http_session(c, kAliceToken);
  const auto handle = handle_in(text_of(
      http_call(c, kAliceToken, alice, tool_call(2, "deck_session", {{"action", "new Secret"}}))));
  // Bob's token on Alice's Mcp-Session-Id: as if the session did not exist.
  auto hijack = c.post(tool_call(3, "deck_query", {{"q", "stats"}}), alice);
  hijack.set(testing::http::field::authorization, "Bearer " + kBobToken);
  EXPECT_EQ(c.send(hijack).result(), testing::http::status::not_found);
  // Bob's own session with Alice's handle: refused, and his list does not show it.
  const auto bob = http_session(c, kBobToken);
  const auto stolen =
      http_call(c, kBobToken, bob, tool_call(4, "deck_query", {{"q", "stats"}, {"doc", handle}}));
  EXPECT_TRUE(stolen.at("result").at("isError").as_bool()) << stolen;
  const auto listed =
      text_of(http_call(c, kBobToken, bob, tool_call(5, "deck_session", {{"action", "list"}})));
  EXPECT_EQ(listed.find(handle), std::string::npos) << listed;
}

class OneCallPerPrincipal : public AuthTest {
 protected:
  OneCallPerPrincipal() : AuthTest(1) {}
};

TEST_F(OneCallPerPrincipal, APrincipalAtItsCallLimitIsRefusedClearlyAndOthersAreNot) {
  auto busy = line_client();
  busy.ask(initialize(1, kAliceToken));
  busy.ask(tool_call(2, "deck_session", {{"action", "new Slow"}}));
  busy.send(tool_call(3, "deck", {{"ops", json::array{"sleep 1500"}}}) +
            "\n");  // holds Alice's slot
  std::this_thread::sleep_for(std::chrono::milliseconds(200));

  auto alice = line_client();
  alice.ask(initialize(1, kAliceToken));
  const auto refused = alice.ask(tool_call(2, "deck_session", {{"action", "new Other"}}));
  EXPECT_TRUE(refused.at("result").at("isError").as_bool());
  EXPECT_NE(text_of(refused).find("limits.max_calls_per_principal"), std::string::npos)
      << text_of(refused);
  // Bob is not affected while Alice is at her limit.
  auto bob = line_client();
  bob.ask(initialize(1, kBobToken));
  const auto served = bob.ask(tool_call(2, "deck_session", {{"action", "new Mine"}}));
  EXPECT_FALSE(served.at("result").at("isError").as_bool()) << text_of(served);
  // Once Alice's call has answered, her next call runs.
  EXPECT_FALSE(json::parse(busy.read_line()).at("result").at("isError").as_bool());
  const auto later = alice.ask(tool_call(3, "deck_session", {{"action", "new Other"}}));
  EXPECT_FALSE(later.at("result").at("isError").as_bool()) << text_of(later);
}

TEST_F(AuthTest, TokensNamePrincipalsInConstantTimeComparison) {
  const mcp::Authenticator auth({{"alice", kAliceToken}, {"bob", kBobToken}});
  EXPECT_EQ(auth.principal_for(kAliceToken), std::optional<std::string>("alice"));
  EXPECT_EQ(auth.principal_for(kBobToken), std::optional<std::string>("bob"));
  EXPECT_EQ(auth.principal_for(kAliceToken.substr(0, 10)), std::nullopt);
  EXPECT_EQ(auth.principal_for(kAliceToken + "z"), std::nullopt);
  EXPECT_EQ(auth.principal_for(""), std::nullopt);
}

}  // namespace
}  // namespace fcp::transport
