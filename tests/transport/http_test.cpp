#include "transport/http.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <future>
#include <regex>
#include <thread>

#include "http_client.hpp"

namespace fcp::transport {
namespace {
using namespace testing;  // NOLINT: the test helpers
using boost::asio::ip::tcp;

const std::string kInit = R"({"jsonrpc":"2.0","id":1,"method":"init"})";

std::string sse(std::string_view json) {
  return "event: message\ndata: " + std::string(json) + "\n\n";
}

class HttpTest : public ::testing::Test {
 protected:
  void start(const HttpOptions& options = {}) {
    server_ = std::make_unique<HttpServer>(
        io_.io, factory_, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0), options);
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error().message;
  }
  HttpClient client() { return HttpClient(io_.io, server_->local_endpoint()); }
  // Initializes a session and returns its id.
  std::string initialize(HttpClient& c) {
    auto response = c.send(c.post(kInit));
    EXPECT_EQ(response.result(), http::status::ok);
    return std::string(response["Mcp-Session-Id"]);
  }

  IoThreads io_;
  FakeFactory factory_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpTest, IssuesASessionIdOnTheInitializeReply) {
  start();
  auto c = client();
  auto request = c.post(kInit);
  request.set("Fcp-Session", "work");
  auto response = c.send(request);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_type], "application/json");
  EXPECT_EQ(response.body(), kInit);
  const std::string id(response["Mcp-Session-Id"]);
  EXPECT_TRUE(std::regex_match(id, std::regex("[0-9a-f]{32}"))) << id;
  auto connection = factory_.connection();
  EXPECT_EQ(connection->info.transport, "http");
  EXPECT_EQ(connection->info.session_name, std::optional<std::string>("work"));
  EXPECT_EQ(c.send(c.post("ping", id)).body(), "ping");  // same connection, same session
  EXPECT_EQ(factory_.count(), 1u);
}

TEST_F(HttpTest, SessionIdsAreUnique) {
  start();
  auto c = client();
  EXPECT_NE(initialize(c), initialize(c));
}

TEST_F(HttpTest, RefusesARequestWithoutSessionThatDoesNotInitialize) {
  start();
  auto c = client();
  auto response = c.send(c.post(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"));
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_EQ(response.count("Mcp-Session-Id"), 0u);
  EXPECT_EQ(response.body(), R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  EXPECT_TRUE(factory_.connection()->wait_closed());
}

TEST_F(HttpTest, StreamsNotificationsBeforeTheReplyAsServerSentEvents) {
  start();
  auto c = client();
  const auto id = initialize(c);
  auto response = c.send(c.post("notify me", id));
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_type], "text/event-stream");
  EXPECT_TRUE(response.chunked());
  EXPECT_EQ(response.body(), sse(kNote) + sse("notify me"));
  EXPECT_EQ(c.send(c.post("after", id)).body(), "after");  // the connection is reusable
}

TEST_F(HttpTest, BuffersNotificationsOfAnInitializeUntilTheSessionIdIsKnown) {
  start();
  auto c = client();
  auto response = c.send(c.post("init notify"));
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_type], "text/event-stream");
  EXPECT_EQ(response.body(), sse(kNote) + sse("init notify"));
  EXPECT_EQ(response["Mcp-Session-Id"].size(), 32u);
}

TEST_F(HttpTest, AnswersNotificationsWith202) {
  start();
  auto c = client();
  const auto id = initialize(c);
  auto response = c.send(c.post("noreply", id));
  EXPECT_EQ(response.result(), http::status::accepted);
  EXPECT_TRUE(response.body().empty());
}

TEST_F(HttpTest, RequiresAKnownSessionId) {
  start();
  auto c = client();
  initialize(c);
  EXPECT_EQ(c.send(c.post("x", "0123456789abcdef0123456789abcdef")).result(),
            http::status::not_found);
  EXPECT_EQ(c.send(c.make(http::verb::get)).result(), http::status::bad_request);
  auto missing = c.send(c.make(http::verb::delete_));
  EXPECT_EQ(missing.result(), http::status::bad_request);
  EXPECT_NE(missing.body().find(R"("code":-32600)"), std::string::npos) << missing.body();
}

TEST_F(HttpTest, DeleteEndsTheSession) {
  start();
  auto c = client();
  const auto id = initialize(c);
  EXPECT_EQ(c.send(c.make(http::verb::delete_, {}, id)).result(), http::status::no_content);
  EXPECT_TRUE(factory_.connection()->wait_closed());
  EXPECT_EQ(c.send(c.post("ping", id)).result(), http::status::not_found);
}

TEST_F(HttpTest, RefusesWrongPathsMethodsAndHeaders) {
  HttpOptions options;
  options.limits.max_message_bytes = 1000;
  start(options);
  auto c = client();
  auto path = c.post(kInit);
  path.target("/other");
  EXPECT_EQ(c.send(path).result(), http::status::not_found);
  auto put = c.send(c.make(http::verb::put, "{}"));
  EXPECT_EQ(put.result(), http::status::method_not_allowed);
  EXPECT_EQ(put[http::field::allow], "GET, POST, DELETE");
  auto accept = c.post(kInit);
  accept.set(http::field::accept, "application/json");
  EXPECT_EQ(c.send(accept).result(), http::status::not_acceptable);
  auto get_accept = c.make(http::verb::get);
  get_accept.set(http::field::accept, "application/json");
  EXPECT_EQ(c.send(get_accept).result(), http::status::not_acceptable);
  auto type = c.post(kInit);
  type.set(http::field::content_type, "text/plain");
  EXPECT_EQ(c.send(type).result(), http::status::unsupported_media_type);
  auto charset = c.post(kInit);
  charset.set(http::field::content_type, "application/json; charset=utf-8");
  EXPECT_EQ(c.send(charset).result(), http::status::ok);
  auto version = c.post(kInit);
  version.set("MCP-Protocol-Version", "1999-01-01");
  auto unsupported = c.send(version);
  EXPECT_EQ(unsupported.result(), http::status::bad_request);
  EXPECT_NE(unsupported.body().find(R"("id":1,)"), std::string::npos) << unsupported.body();
  version.set("MCP-Protocol-Version", "2025-06-18");
  EXPECT_EQ(c.send(version).result(), http::status::ok);
  auto big = c.send(c.post(std::string(2000, ' ')));
  EXPECT_EQ(big.result(), http::status::payload_too_large);
  EXPECT_TRUE(c.closed_by_server());  // the unread body makes the connection unusable
}

TEST_F(HttpTest, AnswersExpect100ContinueBeforeTheBodyIsSent) {
  HttpOptions options;
  options.limits.max_message_bytes = 100;
  start(options);
  auto c = client();
  const auto head = [&](std::size_t length) {
    return fmt::format(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nAccept: application/json, text/event-stream\r\n"
        "Content-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        c.host(), length);
  };
  c.write_raw(head(kInit.size()));
  EXPECT_EQ(c.read().result(), http::status::continue_);
  c.write_raw(kInit);
  auto response = c.read();
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(), kInit);
  c.write_raw(head(5000));  // refused from the header alone: no invitation to send the body
  EXPECT_EQ(c.read().result(), http::status::payload_too_large);
}

TEST_F(HttpTest, RefusesForeignOriginsAndHosts) {
  HttpOptions options;
  options.allowed_origins = {"https://app.example"};
  options.allowed_hosts = {"mcp.example"};
  start(options);
  auto c = client();
  auto origin = c.post(kInit);
  origin.set(http::field::origin, "http://evil.example");
  auto refused = c.send(origin);
  EXPECT_EQ(refused.result(), http::status::forbidden);
  EXPECT_EQ(factory_.count(), 0u);
  origin.set(http::field::origin, "http://localhost:5173");
  EXPECT_EQ(c.send(origin).result(), http::status::ok);
  origin.set(http::field::origin, "https://app.example");
  EXPECT_EQ(c.send(origin).result(), http::status::ok);
  auto host = c.post(kInit);
  host.set(http::field::host, fmt::format("evil.example:{}", server_->local_endpoint().port()));
  EXPECT_EQ(c.send(host).result(), http::status::forbidden);
  host.set(http::field::host, "mcp.example:8080");
  EXPECT_EQ(c.send(host).result(), http::status::ok);
  host.set(http::field::host, "[::1]:1");
  EXPECT_EQ(c.send(host).result(), http::status::ok);
}

TEST_F(HttpTest, GetStreamReceivesOutboundMessagesAndKeepAlives) {
  HttpOptions options;
  options.sse_keepalive_interval = std::chrono::milliseconds(20);
  start(options);
  auto c = client();
  const auto id = initialize(c);
  auto listener = client();
  auto get = listener.make(http::verb::get, {}, id);
  get.set(http::field::accept, "text/event-stream");
  listener.write(get);
  listener.read_stream_header();
  EXPECT_EQ(listener.stream().get().result(), http::status::ok);
  EXPECT_EQ(listener.stream().get()[http::field::content_type], "text/event-stream");
  EXPECT_EQ(c.send(c.post("outbound", id)).body(), "outbound");
  EXPECT_NE(listener.read_stream_until(sse(kOutboundNote)).find(sse(kOutboundNote)),
            std::string::npos);
  EXPECT_NE(listener.read_stream_until(": keep-alive\n\n").find(": keep-alive"), std::string::npos);
  // Ending the session ends its stream.
  EXPECT_EQ(c.send(c.make(http::verb::delete_, {}, id)).result(), http::status::no_content);
  EXPECT_TRUE(listener.closed_by_server());
}

TEST_F(HttpTest, KeepsConnectionsAliveAcrossRequests) {
  start();
  auto c = client();
  const auto id = initialize(c);
  for (int i = 0; i < 20; ++i) {
    auto response = c.send(c.post(fmt::format("n{}", i), id));
    ASSERT_EQ(response.body(), fmt::format("n{}", i));
    ASSERT_TRUE(response.keep_alive());
  }
}

TEST_F(HttpTest, ServesManyClientsConcurrently) {
  start();
  std::vector<std::future<int>> results;
  for (int i = 0; i < 16; ++i) {
    results.push_back(std::async(std::launch::async, [this, i] {
      auto c = client();
      const auto id = initialize(c);
      int ok = 0;
      for (int m = 0; m < 10; ++m) {
        const auto body = fmt::format("c{}m{}", i, m);
        if (c.send(c.post(body, id)).body() == body) ++ok;
      }
      return ok;
    }));
  }
  for (auto& result : results)
    EXPECT_EQ(await(result), 10);
  EXPECT_EQ(factory_.count(), 16u);
}

TEST_F(HttpTest, DropsTheReplyOfAClientThatLeftMidCall) {
  start();
  auto c = client();
  const auto id = initialize(c);
  auto request = c.post("hold", id);
  c.write(request);
  auto responder = factory_.connection()->wait_held();
  c.close();
  responder->notify("late note");
  responder->reply("late reply");
  auto other = client();
  EXPECT_EQ(other.send(other.post("still there", id)).body(), "still there");
  EXPECT_EQ(factory_.connection()->closes(), 0);  // the session outlives its TCP connections
}

TEST_F(HttpTest, ExpiresIdleSessions) {
  HttpOptions options;
  options.session_idle_timeout = std::chrono::milliseconds(50);
  start(options);
  auto c = client();
  const auto id = initialize(c);
  ASSERT_TRUE(factory_.connection()->wait_closed());
  EXPECT_EQ(c.send(c.post("ping", id)).result(), http::status::not_found);
}

TEST_F(HttpTest, StopClosesSessionsAndConnections) {
  start();
  auto c = client();
  initialize(c);
  server_->stop();
  EXPECT_TRUE(factory_.connection()->wait_closed());
  EXPECT_TRUE(c.closed_by_server());
}

TEST_F(HttpTest, ClosesIdleConnections) {
  HttpOptions options;
  options.idle_timeout = std::chrono::milliseconds(50);
  start(options);
  auto c = client();
  EXPECT_TRUE(c.closed_by_server());
}

// 300 slowloris connections once held every HTTP slot: a connection whose request has not
// arrived whole counts as idle, and at the limit the one idle longest makes room.
TEST_F(HttpTest, AtTheConnectionLimitTheConnectionIdleLongestMakesRoom) {
  HttpOptions options;
  options.limits.max_connections = 2;
  start(options);
  auto slow = client();
  slow.write_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");  // a header that never ends
  auto kept = client();
  EXPECT_EQ(kept.send(kept.post(kInit)).result(), http::status::ok);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both wait for a request now
  auto fresh = client();
  EXPECT_EQ(fresh.send(fresh.post(kInit)).result(), http::status::ok);
  EXPECT_TRUE(slow.closed_by_server());
  EXPECT_EQ(kept.send(kept.post(kInit)).result(), http::status::ok);
}

}  // namespace
}  // namespace fcp::transport
