#include "transport/tcp.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <future>
#include <istream>
#include <thread>

#include "transport_test_support.hpp"

namespace fcp::transport {
namespace {
namespace net = boost::asio;
using net::ip::tcp;
using testing::await;
using testing::FakeFactory;
using testing::IoThreads;
using testing::LineClient;

// A blocking-looking line client whose every operation has a timeout.
class TcpTest : public ::testing::Test {
 protected:
  void start(const Limits& limits = {}) {
    server_ = std::make_unique<TcpServer>(
        io_.io, factory_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0), limits);
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error().message;
  }
  LineClient client() { return LineClient(io_.io, server_->local_endpoint()); }

  IoThreads io_;
  FakeFactory factory_;
  std::unique_ptr<TcpServer> server_;
};

TEST_F(TcpTest, EchoesLinesAndNamesThePeer) {
  start();
  auto c = client();
  c.send("{\"id\":1}\n");
  EXPECT_EQ(c.read_line(), "{\"id\":1}");
  const auto& info = factory_.connection()->info;
  EXPECT_EQ(info.transport, "tcp");
  EXPECT_TRUE(info.peer.starts_with("127.0.0.1:")) << info.peer;
  EXPECT_FALSE(info.session_name);
}

TEST_F(TcpTest, FramesSeveralMessagesPerWriteAndOneMessageOverSeveralWrites) {
  start();
  auto c = client();
  c.send("one\ntwo\r\n\nthr");
  EXPECT_EQ(c.read_line(), "one");
  EXPECT_EQ(c.read_line(), "two");
  c.send("ee\n");
  EXPECT_EQ(c.read_line(), "three");
  EXPECT_EQ(factory_.connection()->messages(), (std::vector<std::string>{"one", "two", "three"}));
}

TEST_F(TcpTest, PassesGarbageThroughUnchanged) {
  start();
  auto c = client();
  c.send("\xff\xfe{not json\n");
  EXPECT_EQ(c.read_line(), "\xff\xfe{not json");
}

TEST_F(TcpTest, RefusesAnOversizedLineAndStaysUsable) {
  Limits limits;
  limits.max_message_bytes = 1024;
  start(limits);
  auto c = client();
  c.send(std::string(3000, 'x'));
  c.send(std::string(2000, 'y') + "\nafter\n");
  EXPECT_EQ(c.read_line(), "oversized:5000");
  EXPECT_EQ(c.read_line(), "after");
  EXPECT_EQ(factory_.connection()->oversized(), std::vector<std::size_t>{5000});
}

TEST_F(TcpTest, ServesManyClientsConcurrently) {
  start();
  constexpr int kClients = 24;
  constexpr int kMessages = 20;
  std::vector<std::future<int>> results;
  for (int i = 0; i < kClients; ++i) {
    results.push_back(std::async(std::launch::async, [this, i] {
      auto c = client();
      std::string batch;
      for (int m = 0; m < kMessages; ++m)
        batch += fmt::format("c{}m{}\n", i, m);
      c.send(batch);
      int in_order = 0;
      for (int m = 0; m < kMessages; ++m)
        if (c.read_line() == fmt::format("c{}m{}", i, m)) ++in_order;
      return in_order;
    }));
  }
  for (auto& result : results)
    EXPECT_EQ(await(result), kMessages);
  EXPECT_EQ(factory_.count(), static_cast<std::size_t>(kClients));
}

TEST_F(TcpTest, KeepsEveryReplyUnderBackPressure) {
  Limits limits;
  limits.max_queued_bytes = 1024;  // far below one 100 kB reply
  start(limits);
  auto c = client();
  std::string requests;
  for (int i = 0; i < 40; ++i)
    requests += "big\n";
  c.send(requests);
  for (int i = 0; i < 40; ++i)
    ASSERT_EQ(c.read_line().size(), 100000u) << "reply " << i;
  EXPECT_EQ(factory_.connection()->messages().size(), 40u);
}

TEST_F(TcpTest, ClosesTheConnectionOnceWhenTheClientLeavesMidCall) {
  start();
  auto c = client();
  c.send("hold\n");
  auto connection = factory_.connection();
  auto responder = connection->wait_held();
  c.close();
  ASSERT_TRUE(connection->wait_closed());
  responder->notify("late note");  // dropped silently
  responder->reply("late reply");
  auto other = client();
  other.send("still serving\n");
  EXPECT_EQ(other.read_line(), "still serving");
  EXPECT_EQ(connection->closes(), 1);
}

// 2 000 idle sockets once locked every new client out: at the limit the connection idle longest
// makes room, and only when none is idle is the new client refused.
TEST_F(TcpTest, AtTheConnectionLimitTheConnectionIdleLongestMakesRoom) {
  Limits limits;
  limits.max_connections = 2;
  start(limits);
  auto oldest = client();
  oldest.send("first\n");
  EXPECT_EQ(oldest.read_line(), "first");
  // The server counts a connection idle from when it has seen its reply written, which a loaded
  // machine may run after the client has the reply: leave time so that `oldest` is idle longest.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  auto newer = client();
  newer.send("second\n");
  EXPECT_EQ(newer.read_line(), "second");
  // The server counts a connection idle once it has seen its reply written: give it that time
  // (generously: sanitizer builds under a loaded machine are slow).
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  auto third = client();
  third.send("third\n");
  EXPECT_EQ(third.read_line(), "third");
  EXPECT_TRUE(oldest.closed_by_server());
  newer.send("still here\n");
  EXPECT_EQ(newer.read_line(), "still here");
}

TEST_F(TcpTest, RefusesANewClientWhenNoConnectionIsIdle) {
  Limits limits;
  limits.max_connections = 1;
  start(limits);
  auto first = client();
  first.send("hold\n");  // a call running: not idle
  auto responder = factory_.connection()->wait_held();
  auto second = client();
  EXPECT_TRUE(second.closed_by_server());
  EXPECT_EQ(factory_.count(), 1u);
  responder->reply("done");
  EXPECT_EQ(first.read_line(), "done");
}

TEST_F(TcpTest, OneAddressMayHoldOnlyItsShareOfTheConnections) {
  Limits limits;
  limits.max_connections_per_address = 1;
  start(limits);
  auto first = client();
  first.send("hold\n");
  auto responder = factory_.connection()->wait_held();
  auto second = client();  // the same address, and its only connection is busy
  EXPECT_TRUE(second.closed_by_server());
  responder->reply("done");
  EXPECT_EQ(first.read_line(), "done");
  // Now the first is idle (once the server has seen its reply written) and makes room.
  bool admitted = false;
  for (int attempt = 0; attempt < 50 && !admitted; ++attempt) {
    auto third = client();
    third.send("third\n");
    try {
      admitted = third.read_line() == "third";
    } catch (const boost::system::system_error&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  EXPECT_TRUE(admitted);
  EXPECT_TRUE(first.closed_by_server());
}

// Slowloris: a message trickling in a byte at a time once held its connection for as long as
// the client liked. It must be whole within message_timeout of its first byte.
TEST_F(TcpTest, ClosesAConnectionWhoseMessageDoesNotArriveInTime) {
  Limits limits;
  limits.message_timeout = std::chrono::milliseconds(300);
  start(limits);
  auto slow = client();
  slow.send("{\"id\":");
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < 4; ++i) {  // each byte is progress, but not a message
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    try {
      slow.send("1");
    } catch (const boost::system::system_error&) {
      break;
    }
  }
  EXPECT_TRUE(slow.closed_by_server());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
  EXPECT_TRUE(factory_.connection()->wait_closed());
}

TEST_F(TcpTest, ClosesAnIdleConnectionButNotOneWithACallRunning) {
  Limits limits;
  limits.idle_timeout = std::chrono::milliseconds(200);
  start(limits);
  auto busy = client();
  busy.send("hold\n");
  auto responder = factory_.connection(0)->wait_held();
  auto idle = client();
  idle.send("hello\n");
  EXPECT_EQ(idle.read_line(), "hello");
  EXPECT_TRUE(idle.closed_by_server());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  responder->reply("done after the idle timeout");
  EXPECT_EQ(busy.read_line(), "done after the idle timeout");
}

TEST_F(TcpTest, ClosesAConnectionThatDoesNotReadItsReplies) {
  Limits limits;
  limits.write_timeout = std::chrono::milliseconds(300);
  start(limits);
  auto c = client();
  std::string requests;
  for (int i = 0; i < 200; ++i)  // 20 MB of replies: more than the socket buffers hold
    requests += "big\n";
  c.send(requests);
  auto connection = factory_.connection();
  EXPECT_TRUE(connection->wait_closed());
}

TEST_F(TcpTest, AnswersAnHttpRequestWithTheReasonAndCloses) {
  start();
  auto c = client();
  c.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(c.read_line(), "HTTP/1.1 400 Bad Request\r");
  std::string line;
  while (!(line = c.read_line()).empty() && line != "\r") {
  }
  EXPECT_NE(c.read_line().find("newline-delimited JSON-RPC"), std::string::npos);
  EXPECT_TRUE(c.closed_by_server());
  EXPECT_TRUE(factory_.connection()->messages().empty());  // nothing reached MCP
}

TEST_F(TcpTest, ReportsAPortInUse) {
  start();
  TcpServer other(io_.io, factory_, server_->local_endpoint(), Limits{});
  auto started = other.start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("in use"), std::string::npos) << started.error().message;
  EXPECT_NE(started.error().message.find(std::to_string(server_->local_endpoint().port())),
            std::string::npos);
}

TEST_F(TcpTest, StopClosesClientsAndConnections) {
  start();
  auto c = client();
  c.send("hello\n");
  EXPECT_EQ(c.read_line(), "hello");
  server_->stop();
  EXPECT_TRUE(c.closed_by_server());
  EXPECT_TRUE(factory_.connection()->wait_closed());
}

}  // namespace
}  // namespace fcp::transport
