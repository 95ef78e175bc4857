// Authentication end to end through the real transports and MCP server (deck test domain): no
// token, a wrong token, the right token, and another principal's document handle, on TCP (token
// in initialize params or _meta) and HTTP (Authorization: Bearer).
#include "mcp/auth.hpp"

#include <gtest/gtest.h>

#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <istream>
#include <regex>
#include <thread>

#include "http_client.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/server.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/test_domain.hpp"
#include "transport/http.hpp"
#include "transport/tcp.hpp"

namespace fcp::transport {
namespace {
namespace net = boost::asio;
namespace json = boost::json;
using net::ip::tcp;
using testing::HttpClient;
using testing::IoThreads;

const std::string kAliceToken = "alice-0123456789abcdef";
const std::string kBobToken = "bob-0123456789abcdef0000";

std::string initialize(int id, const std::optional<std::string>& token, bool in_meta = false) {
  json::object params{{"protocolVersion", "2025-11-25"}};
  if (token && in_meta) params["_meta"] = json::object{{"fcp/token", *token}};
  if (token && !in_meta) params["fcp"] = json::object{{"token", *token}};
  return json::serialize(
      json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", "initialize"}, {"params", params}});
}

std::string tool_call(int id, const std::string& tool, json::object arguments) {
  return json::serialize(
      json::object{{"jsonrpc", "2.0"},
                   {"id", id},
                   {"method", "tools/call"},
                   {"params", json::object{{"name", tool}, {"arguments", std::move(arguments)}}}});
}

std::string text_of(const json::value& reply) {
  return std::string(reply.at("result").at("content").at(0).at("text").as_string());
}

std::string handle_in(const std::string& text) {
  std::smatch match;
  EXPECT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:de-[0-9a-f]{32})"))) << text;
  return match.size() > 1 ? match[1].str() : std::string();
}

// A line client that sends one JSON-RPC message and reads the JSON answer.
class LineClient : public testing::LineClient {
 public:
  using testing::LineClient::LineClient;
  json::value ask(const std::string& message) {
    send(message + "\n");
    return json::parse(read_line());
  }
};

class AuthTest : public ::testing::Test {
 protected:
  explicit AuthTest(std::size_t calls_per_principal = 64)
      : domain_(fcp::testing::make_deck_domain()) {
    mcp::ServerOptions options;
    options.principal_limits.max_calls_in_flight = calls_per_principal;
    options.auth = std::make_shared<const mcp::Authenticator>(
        std::vector<mcp::Authenticator::Entry>{{"alice", kAliceToken}, {"bob", kBobToken}});
    server_ = std::make_unique<mcp::Server>(
        io_.io.get_executor(), std::vector<const core::Domain*>{domain_.get()}, paths_, options);
    const tcp::endpoint loopback(net::ip::make_address("127.0.0.1"), 0);
    tcp_ = std::make_unique<TcpServer>(io_.io, *server_, loopback, Limits{});
    http_ = std::make_unique<HttpServer>(io_.io, *server_, loopback, HttpOptions{});
    EXPECT_TRUE(tcp_->start());
    EXPECT_TRUE(http_->start());
  }
  ~AuthTest() override {
    tcp_->stop();
    http_->stop();
    io_.stop();  // before server_ goes: the connections closing now still reach it
  }
  LineClient line_client() { return LineClient(io_.io, tcp_->local_endpoint()); }
  HttpClient http_client() { return HttpClient(io_.io, http_->local_endpoint()); }
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

  IoThreads io_;
  fcp::testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  std::unique_ptr<mcp::Server> server_;
  std::unique_ptr<TcpServer> tcp_;
  std::unique_ptr<HttpServer> http_;
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
