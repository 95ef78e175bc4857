// Document resource subscriptions end to end through the real transports and MCP server (deck
// test domain): a second client, in a session of its own, hears notifications/resources/updated
// after the first client's batch and nothing after its query: over TCP (on the connection), over
// HTTP (on the session's GET stream), and on a 2026-07-28 subscriptions/listen stream (an SSE
// answer to its POST). How a listen stream ends (MCP 2026-07-28, Subscriptions: Cancellation): the
// client cancels it (stdio, TCP: notifications/cancelled) or the server tears it down
// (notifications/cancelled naming the request on stdio and TCP, the event stream closed on HTTP).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <future>

#include "mcp_test_client.hpp"
#include "transport/stdio.hpp"

namespace fcp::transport {
namespace {
namespace json = boost::json;
using testing::HttpClient;

using testing::handle_in;
using testing::initialize;
using testing::message;
using testing::text_of;
using testing::tool_call;
using LineClient = testing::JsonLineClient;

// A 2026-07-28 subscriptions/listen request for `uri`'s updates.
std::string listen(int id, const std::string& uri) {
  const json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                          {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
  return message(
      id, "subscriptions/listen",
      {{"_meta", meta},
       {"notifications", json::object{{"resourceSubscriptions", json::array{json::string(uri)}}}}});
}
std::string cancelled(int request_id) {
  return json::serialize(json::object{{"jsonrpc", "2.0"},
                                      {"method", "notifications/cancelled"},
                                      {"params", json::object{{"requestId", request_id}}}});
}
std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

// fcpd's stdio on a pair of pipes: what the test writes is the transport's stdin, what it reads
// the transport's stdout.
class StdioClient {
 public:
  StdioClient() {
    if (::pipe2(in_, O_CLOEXEC) != 0 || ::pipe2(out_, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe");
  }
  ~StdioClient() {
    for (int* fd : {&in_[0], &in_[1], &out_[0], &out_[1]})
      close_fd(*fd);
  }
  StdioClient(const StdioClient&) = delete;
  StdioClient& operator=(const StdioClient&) = delete;
  int stdin_fd() const { return in_[0]; }
  int stdout_fd() const { return out_[1]; }
  void send(const std::string& line) {
    const std::string data = line + "\n";
    ASSERT_EQ(::write(in_[1], data.data(), data.size()), static_cast<ssize_t>(data.size()));
  }
  void end_input() { close_fd(in_[1]); }
  json::value next() {
    for (;;) {
      if (auto newline = output_.find('\n'); newline != std::string::npos) {
        auto line = output_.substr(0, newline);
        output_.erase(0, newline + 1);
        return json::parse(line);
      }
      pollfd fd{out_[0], POLLIN, 0};
      if (::poll(&fd, 1, 5000) != 1) throw std::runtime_error("no output");
      char chunk[4096];
      const auto n = ::read(out_[0], chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("output closed");
      output_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int in_[2] = {-1, -1};
  int out_[2] = {-1, -1};
  std::string output_;
};

class ResourceSubscriptionTest : public testing::DeckServerTest {
 protected:
  // The editor: a TCP session with a new document; its handle.
  std::string edit(LineClient& editor) {
    editor.ask(initialize(1));
    return handle_in(text_of(editor.ask(tool_call(2, "deck_session", {{"action", "new Board"}}))));
  }
  json::value http_call(HttpClient& c, const std::string& session, const std::string& body) {
    auto request = c.post(body, session);
    request.set("MCP-Protocol-Version", "2025-11-25");
    auto response = c.send(request);
    EXPECT_EQ(response.result(), testing::http::status::ok) << response.body();
    return json::parse(response.body());
  }
};

TEST_F(ResourceSubscriptionTest, TcpSubscriberHearsTheOtherClientsBatchAndNotItsQuery) {
  auto editor = line_client();
  const auto handle = edit(editor);
  const std::string uri = "fcp://deck/doc/" + handle;
  auto watcher = line_client();
  EXPECT_TRUE(watcher.ask(initialize(1)).as_object().contains("result"));
  watcher.ask(message(9, "resources/list"));  // so it hears of list changes too
  EXPECT_TRUE(watcher.ask(message(2, "resources/subscribe", {{"uri", uri}}))
                  .as_object()
                  .contains("result"));

  editor.ask(tool_call(3, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}}));
  const auto updated = watcher.next();
  EXPECT_EQ(updated.at("method"), "notifications/resources/updated");
  EXPECT_EQ(updated.at("params").at("uri").as_string(), uri);

  // A query sends nothing: the watcher's next line is the answer to its ping (a notification
  // would have been written before the editor's reply, so before this ping's answer).
  editor.ask(tool_call(4, "deck_query", {{"q", "stats"}, {"doc", handle}}));
  EXPECT_EQ(watcher.ask(message(5, "ping")).at("id").as_int64(), 5);

  // Opening a document changes the list the watcher (same principal) can read.
  editor.ask(tool_call(6, "deck_session", {{"action", "new Other"}}));
  EXPECT_EQ(watcher.next().at("method"), "notifications/resources/list_changed");
}

TEST_F(ResourceSubscriptionTest, HttpSubscriberHearsOnItsGetStream) {
  auto editor = line_client();
  const auto handle = edit(editor);
  const std::string uri = "fcp://deck/doc/" + handle;
  auto watcher = http_client();
  auto init = watcher.post(initialize(1));
  const auto response = watcher.send(init);
  ASSERT_EQ(response.result(), testing::http::status::ok) << response.body();
  const std::string session(response["Mcp-Session-Id"]);
  auto stream = http_client();
  auto get = stream.make(testing::http::verb::get, {}, session);
  get.set(testing::http::field::accept, "text/event-stream");
  get.set("MCP-Protocol-Version", "2025-11-25");
  stream.write(get);
  stream.read_stream_header();
  ASSERT_EQ(stream.stream().get().result(), testing::http::status::ok);
  EXPECT_TRUE(http_call(watcher, session, message(2, "resources/subscribe", {{"uri", uri}}))
                  .as_object()
                  .contains("result"));

  editor.ask(tool_call(3, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}}));
  auto body = stream.read_stream_until("notifications/resources/updated");
  EXPECT_NE(body.find(uri), std::string::npos) << body;
  // After a query, the next event on the stream is the list change of a new document: the query
  // sent nothing before it.
  editor.ask(tool_call(4, "deck_query", {{"q", "stats"}, {"doc", handle}}));
  editor.ask(tool_call(5, "deck_session", {{"action", "new Other"}}));
  body = stream.read_stream_until("notifications/resources/list_changed");
  EXPECT_EQ(count(body, "notifications/resources/updated"), 1u) << body;
}

TEST_F(ResourceSubscriptionTest, HttpListenStreamOf2026CarriesTheNotifications) {
  auto editor = line_client();
  const auto handle = edit(editor);
  const std::string uri = "fcp://deck/doc/" + handle;
  auto listener = http_client();
  const json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                          {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
  auto listen = listener.post(
      message(7, "subscriptions/listen",
              {{"_meta", meta},
               {"notifications",
                json::object{{"resourceSubscriptions", json::array{json::string(uri)}}}}}));
  listen.set("MCP-Protocol-Version", "2026-07-28");
  listen.set("Mcp-Method", "subscriptions/listen");
  listener.write(listen);
  listener.read_stream_header();
  ASSERT_EQ(listener.stream().get().result(), testing::http::status::ok);
  auto body = listener.read_stream_until("notifications/subscriptions/acknowledged");
  editor.ask(tool_call(3, "deck_query", {{"q", "stats"}, {"doc", handle}}));
  editor.ask(tool_call(4, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}}));
  body = listener.read_stream_until("notifications/resources/updated");
  EXPECT_LT(body.find("acknowledged"), body.find("resources/updated"));
  EXPECT_NE(body.find(R"("io.modelcontextprotocol/subscriptionId":7)"), std::string::npos) << body;
  // Not asked for: no list_changed on this stream, whatever documents open.
  editor.ask(tool_call(5, "deck_session", {{"action", "new Other"}}));
  editor.ask(tool_call(6, "deck", {{"ops", json::array{"add B"}}, {"doc", handle}}));
  body = listener.read_stream_until_count("notifications/resources/updated", 2);
  EXPECT_EQ(body.find("list_changed"), std::string::npos) << body;
}

TEST_F(ResourceSubscriptionTest, TcpListenEndsWithCancelledWhenTheServerTearsItDown) {
  auto editor = line_client();
  const auto handle = edit(editor);
  auto listener = line_client();
  listener.send(listen(7, "fcp://deck/doc/" + handle) + "\n");
  EXPECT_EQ(listener.next().at("method"), "notifications/subscriptions/acknowledged");

  EXPECT_EQ(server_->subscriptions().end_streams("fcpd is shutting down"), 1u);
  const auto end = listener.next();
  EXPECT_EQ(end.at("method"), "notifications/cancelled") << end;
  EXPECT_EQ(end.at("params").at("requestId").as_int64(), 7) << end;
  EXPECT_EQ(end.at("params").at("reason").as_string(), "fcpd is shutting down") << end;
  EXPECT_FALSE(end.as_object().contains("id")) << end;  // no answer to the listen request
  // The stream is gone: a batch sends nothing on it, the next line answers a ping.
  editor.ask(tool_call(3, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}}));
  EXPECT_EQ(listener.ask(message(8, "ping")).at("id").as_int64(), 8);
}

TEST_F(ResourceSubscriptionTest, TcpClientEndsItsListenWithCancelled) {
  auto editor = line_client();
  const auto handle = edit(editor);
  const std::string uri = "fcp://deck/doc/" + handle;
  auto listener = line_client();
  listener.send(listen(7, uri) + "\n");
  listener.send(listen(9, uri) + "\n");
  EXPECT_EQ(listener.next().at("method"), "notifications/subscriptions/acknowledged");
  EXPECT_EQ(listener.next().at("method"), "notifications/subscriptions/acknowledged");
  listener.send(cancelled(7) + "\n");
  // Its ping's answer says the cancellation (read before it) has been handled.
  EXPECT_EQ(listener.ask(message(10, "ping")).at("id").as_int64(), 10);
  // Only stream 9 hears the batch; the client ended 7, so the server sends nothing about it.
  editor.ask(tool_call(3, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}}));
  const auto updated = listener.next();
  EXPECT_EQ(updated.at("method"), "notifications/resources/updated") << updated;
  EXPECT_EQ(updated.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 9)
      << updated;
  EXPECT_EQ(listener.ask(message(8, "ping")).at("id").as_int64(), 8);
  EXPECT_EQ(server_->subscriptions().end_streams("test"), 1u);  // 9 is still open, 7 is not
}

TEST_F(ResourceSubscriptionTest, HttpListenStreamClosesWhenTheServerTearsItDown) {
  auto editor = line_client();
  const auto handle = edit(editor);
  auto listener = http_client();
  auto request = listener.post(listen(7, "fcp://deck/doc/" + handle));
  request.set("MCP-Protocol-Version", "2026-07-28");
  request.set("Mcp-Method", "subscriptions/listen");
  listener.write(request);
  listener.read_stream_header();
  ASSERT_EQ(listener.stream().get().result(), testing::http::status::ok);
  listener.read_stream_until("notifications/subscriptions/acknowledged");

  EXPECT_EQ(server_->subscriptions().end_streams("fcpd is shutting down"), 1u);
  // The event stream ends (its last chunk), with no answer and no notification: on HTTP the
  // closed stream is the end.
  const auto body = listener.read_stream_to_end();
  EXPECT_EQ(count(body, "data:"), 1u) << body;
  EXPECT_EQ(body.find("cancelled"), std::string::npos) << body;
}

TEST_F(ResourceSubscriptionTest, StdioListenEndsWithCancelledWhenTheServerEndsItOrStdinEnds) {
  auto editor = line_client();
  const auto handle = edit(editor);
  const std::string uri = "fcp://deck/doc/" + handle;
  StdioClient client;
  std::promise<void> closed;
  auto closed_future = closed.get_future();
  StdioTransport stdio(io_.io, *server_, Limits{}, client.stdin_fd(), client.stdout_fd());
  stdio.start([&closed] { closed.set_value(); });

  client.send(listen(7, uri));
  EXPECT_EQ(client.next().at("method"), "notifications/subscriptions/acknowledged");
  EXPECT_EQ(server_->subscriptions().end_streams("fcpd is shutting down"), 1u);
  auto end = client.next();
  EXPECT_EQ(end.at("method"), "notifications/cancelled") << end;
  EXPECT_EQ(end.at("params").at("requestId").as_int64(), 7) << end;

  // Once stdin ends, the client can no longer cancel a stream: the server ends it, and the
  // transport closes at once instead of waiting out its grace for an unanswered request.
  client.send(listen(8, uri));
  EXPECT_EQ(client.next().at("method"), "notifications/subscriptions/acknowledged");
  const auto ended_at = std::chrono::steady_clock::now();
  client.end_input();
  end = client.next();
  EXPECT_EQ(end.at("method"), "notifications/cancelled") << end;
  EXPECT_EQ(end.at("params").at("requestId").as_int64(), 8) << end;
  EXPECT_EQ(end.at("params").at("reason").as_string(), "the client's input ended") << end;
  ASSERT_EQ(closed_future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_LT(std::chrono::steady_clock::now() - ended_at, std::chrono::seconds(5));
  stdio.stop();
}

}  // namespace
}  // namespace fcp::transport
