// Subscriptions to document resources through ClientConnection (deck test domain): a 2025-era
// session subscribes and hears notifications/resources/updated after another session's batch,
// undo or redo, and nothing after a query, a failed batch or a save; list_changed when documents
// open and close; another principal hears nothing; a 2026-07-28 subscriptions/listen stream is
// acknowledged first and carries the same notifications with its subscription id.
#include <regex>

#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::ConnectionTest;
using test_support::RecordingResponder;
namespace json = boost::json;
using namespace std::chrono_literals;

// The notifications a connection sends outside replies.
class RecordingOutbound final : public Outbound {
 public:
  void send(std::string message) override {
    std::lock_guard lock(mutex_);
    messages_.push_back(json::parse(message));
  }
  std::vector<json::value> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(messages_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<json::value> messages_;
};

std::vector<std::string> methods(const std::vector<json::value>& messages) {
  std::vector<std::string> out;
  for (const auto& message : messages)
    out.emplace_back(message.at("method").as_string());
  return out;
}

json::object modern(json::object params = {}) {
  params["_meta"] = json::object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                 {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
  return params;
}

class ResourceSubscriptionsTest : public ConnectionTest {
 protected:
  // An initialized 2025-era connection of `principal` whose notifications `outbound` records.
  std::shared_ptr<Connection> listening(const std::shared_ptr<RecordingOutbound>& outbound,
                                        const std::string& principal = "local") {
    connections_.push_back(
        server_.connect(ConnectionInfo{"test", "peer", std::nullopt, principal}, outbound));
    auto& c = *connections_.back();
    EXPECT_TRUE(request(c, 1, "initialize", {{"protocolVersion", "2025-11-25"}})
                    .as_object()
                    .contains("result"));
    return connections_.back();
  }
  std::string create(Connection& c, const std::string& title) {
    const auto text = text_of(call(c, 2, "deck_session", {{"action", "new \"" + title + "\""}}));
    std::smatch match;
    EXPECT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:de-[0-9a-f]{32})")))
        << text;
    return match.size() > 1 ? match[1].str() : std::string();
  }
  static std::string uri_of(const std::string& handle) { return "fcp://deck/doc/" + handle; }
};

TEST_F(ResourceSubscriptionsTest, ASubscriberHearsOfChangesAndNotOfQueries) {
  auto heard = std::make_shared<RecordingOutbound>();
  auto watcher = listening(heard);
  auto editor = ready();
  create(*editor, "Unheard");  // the watcher has not asked about resources yet
  EXPECT_TRUE(heard->take().empty());
  request(*watcher, 2, "resources/list");
  const auto handle = create(*editor, "Board");
  EXPECT_EQ(methods(heard->take()),
            std::vector<std::string>{"notifications/resources/list_changed"});
  const auto init = request(*watcher, 3, "resources/subscribe", {{"uri", uri_of(handle)}});
  ASSERT_TRUE(init.as_object().contains("result")) << init;

  call(*editor, 4, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  auto messages = heard->take();
  ASSERT_EQ(methods(messages), std::vector<std::string>{"notifications/resources/updated"});
  EXPECT_EQ(messages[0].at("params").at("uri").as_string(), uri_of(handle));
  // The document's revision (no subscription id outside a listen stream).
  EXPECT_EQ(messages[0].at("params").at("_meta"), json::parse(R"({"fcp/revision":2})"));

  // Queries, a failed batch (rolled back) and a save change nothing.
  call(*editor, 5, "deck_query", {{"q", "stats"}, {"doc", handle}});
  call(*editor, 6, "deck", {{"ops", json::array{"add B", "nonsense"}}, {"doc", handle}});
  call(*editor, 7, "deck_session", {{"action", "save as:fcp-sub-test.deck"}, {"doc", handle}});
  EXPECT_TRUE(heard->take().empty());

  call(*editor, 8, "deck_session", {{"action", "undo"}, {"doc", handle}});
  call(*editor, 9, "deck_session", {{"action", "redo"}, {"doc", handle}});
  messages = heard->take();
  EXPECT_EQ(methods(messages), std::vector<std::string>(2, "notifications/resources/updated"));
  // Each change advances the revision, undo and redo too; the query, failed batch and save not.
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].at("params").at("_meta").at("fcp/revision"), 3);
  EXPECT_EQ(messages[1].at("params").at("_meta").at("fcp/revision"), 4);

  request(*watcher, 10, "resources/unsubscribe", {{"uri", uri_of(handle)}});
  call(*editor, 11, "deck", {{"ops", json::array{"add C"}}, {"doc", handle}});
  EXPECT_TRUE(heard->take().empty());
  call(*editor, 12, "deck_session", {{"action", "close discard:true"}, {"doc", handle}});
  EXPECT_EQ(methods(heard->take()),
            std::vector<std::string>{"notifications/resources/list_changed"});
  std::filesystem::remove(std::filesystem::temp_directory_path() / "fcp-sub-test.deck");
}

TEST_F(ResourceSubscriptionsTest, AReadCarriesTheRevisionOfTheLastNotification) {
  auto heard = std::make_shared<RecordingOutbound>();
  auto watcher = listening(heard);
  const auto handle = create(*watcher, "Board");
  request(*watcher, 3, "resources/subscribe", {{"uri", uri_of(handle)}});
  const auto revision_read = [&] {
    const auto read = request(*watcher, 4, "resources/read", {{"uri", uri_of(handle)}});
    return read.at("result").at("_meta").at("fcp/revision").as_int64();
  };
  EXPECT_EQ(revision_read(), 1);  // the new that made it
  call(*watcher, 5, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  call(*watcher, 6, "deck", {{"ops", json::array{"add B"}}, {"doc", handle}});
  call(*watcher, 7, "deck", {{"ops", json::array{"add C", "nonsense"}}, {"doc", handle}});
  const auto messages = heard->take();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages.back().at("params").at("_meta").at("fcp/revision"), 3);
  // The read shows the state of the last notification: earlier ones need no read of their own.
  EXPECT_EQ(revision_read(), 3);
}

TEST_F(ResourceSubscriptionsTest, ClosingADocumentTellsItsSubscribers) {
  auto heard = std::make_shared<RecordingOutbound>();
  auto watcher = listening(heard);
  auto editor = ready();
  const auto handle = create(*editor, "Going");
  request(*watcher, 3, "resources/subscribe", {{"uri", uri_of(handle)}});
  auto stateless = connect();
  auto stream = std::make_shared<RecordingResponder>();
  stateless->handle(
      json::serialize(json::object{
          {"jsonrpc", "2.0"},
          {"id", 77},
          {"method", "subscriptions/listen"},
          {"params", modern({{"notifications",
                              json::object{{"resourceSubscriptions",
                                            json::array{json::string(uri_of(handle))}}}}})}}),
      stream);
  call(*editor, 4, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  heard->take();
  call(*editor, 5, "deck_session", {{"action", "close discard:true"}, {"doc", handle}});
  // The session subscriber: updated (closed, one revision after the batch's 2: a client that
  // skips revisions a read covers must not skip the close), then the list changed.
  const auto messages = heard->take();
  ASSERT_EQ(methods(messages), (std::vector<std::string>{"notifications/resources/updated",
                                                         "notifications/resources/list_changed"}));
  EXPECT_EQ(messages[0].at("params"),
            json::parse(R"({"uri":"fcp://deck/doc/)" + handle +
                        R"(","_meta":{"fcp/revision":3,"fcp/closed":true}})"));
  // The listen stream hears the same, with its subscription id.
  ASSERT_EQ(stream->notifications.size(), 3u);  // acknowledged, the batch, the close
  const auto& last = stream->notifications.back();
  EXPECT_EQ(last.at("method"), "notifications/resources/updated");
  EXPECT_EQ(last.at("params").at("_meta").at("fcp/closed"), true);
  EXPECT_EQ(last.at("params").at("_meta").at("fcp/revision"), 3);
  EXPECT_EQ(last.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 77);
  // A read now says why the document is gone.
  const auto read = request(*watcher, 6, "resources/read", {{"uri", uri_of(handle)}});
  EXPECT_EQ(error_code(read), jsonrpc::code::resource_not_found);
  EXPECT_NE(std::string(read.at("error").at("message").as_string()).find("was closed"),
            std::string::npos)
      << read;
  stateless->close();
}

TEST_F(ResourceSubscriptionsTest, OnlyTheOwnerMaySubscribeOrHear) {
  auto alice_heard = std::make_shared<RecordingOutbound>();
  auto bob_heard = std::make_shared<RecordingOutbound>();
  auto alice = listening(alice_heard, "alice");
  auto bob = listening(bob_heard, "bob");
  const auto handle = create(*alice, "Mine");
  EXPECT_EQ(error_code(request(*bob, 3, "resources/subscribe", {{"uri", uri_of(handle)}})),
            jsonrpc::code::resource_not_found);
  EXPECT_EQ(error_code(request(*alice, 3, "resources/subscribe", {{"uri", "fcp://deck/session"}})),
            jsonrpc::code::invalid_params);
  request(*alice, 4, "resources/subscribe", {{"uri", uri_of(handle)}});
  call(*alice, 5, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  EXPECT_EQ(methods(alice_heard->take()),
            std::vector<std::string>{"notifications/resources/updated"});
  EXPECT_TRUE(bob_heard->take().empty());
}

TEST_F(ResourceSubscriptionsTest, SessionsDeclareTheCapability) {
  const auto init = request(*connect(), 1, "initialize", {{"protocolVersion", "2025-11-25"}});
  EXPECT_EQ(init.at("result").at("capabilities").at("resources"),
            json::parse(R"({"subscribe":true,"listChanged":true})"));
}

TEST_F(ResourceSubscriptionsTest, ListenStreamsAcknowledgeThenCarryTheNotifications) {
  auto editor = ready();
  const auto handle = create(*editor, "Board");
  auto stateless = connect();
  const auto discovered = request(*stateless, 1, "server/discover", modern());
  EXPECT_EQ(discovered.at("result").at("capabilities").at("resources").at("subscribe"), true);

  auto stream = std::make_shared<RecordingResponder>();
  const json::object listen{
      {"jsonrpc", "2.0"},
      {"id", "listen-1"},
      {"method", "subscriptions/listen"},
      {"params", modern({{"notifications", json::object{{"resourceSubscriptions",
                                                         json::array{json::string(uri_of(handle)),
                                                                     "fcp://deck/doc/nope"}},
                                                        {"resourcesListChanged", true},
                                                        {"toolsListChanged", true}}}})}};
  stateless->handle(json::serialize(listen), stream);
  call(*editor, 3, "deck_query", {{"q", "stats"}, {"doc", handle}});
  call(*editor, 4, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  create(*editor, "Second");
  // The stream stays open: its notifications so far (each was sent before the editor's reply).
  const std::vector<json::value> heard = stream->notifications;
  ASSERT_EQ(heard.size(), 3u);
  const auto& ack = heard[0];
  EXPECT_EQ(ack.at("method"), "notifications/subscriptions/acknowledged");
  // Only what it honors: the open document (not the unknown one), list changes; no tool lists.
  EXPECT_EQ(ack.at("params").at("notifications"),
            json::parse(R"({"resourceSubscriptions":["fcp://deck/doc/)" + handle +
                        R"("],"resourcesListChanged":true})"));
  EXPECT_EQ(heard[1].at("method"), "notifications/resources/updated");
  EXPECT_EQ(heard[1].at("params").at("uri").as_string(), uri_of(handle));
  EXPECT_EQ(heard[2].at("method"), "notifications/resources/list_changed");
  for (const auto& message : heard)
    EXPECT_EQ(message.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"),
              "listen-1");
  // The stream ends without an answer when its connection closes.
  stateless->close();
  EXPECT_TRUE(stream->wait().is_null());
}

TEST_F(ResourceSubscriptionsTest, ListenAcknowledgesEachUriOnceAndSaysWhatItRefused) {
  auto editor = ready();
  const auto handle = create(*editor, "Board");
  const auto closed = create(*editor, "Closed");
  call(*editor, 3, "deck_session", {{"action", "close discard:true"}, {"doc", closed}});
  auto stateless = connect();
  auto stream = std::make_shared<RecordingResponder>();
  const json::string uri(uri_of(handle));
  const json::array asked{uri, uri, json::string(uri_of(closed)), "fcp://deck/doc/nope", 42};
  stateless->handle(
      json::serialize(json::object{
          {"jsonrpc", "2.0"},
          {"id", "L"},
          {"method", "subscriptions/listen"},
          {"params", modern({{"notifications", json::object{{"resourceSubscriptions", asked}}}})}}),
      stream);
  call(*editor, 4, "deck", {{"ops", json::array{"add A"}}, {"doc", handle}});
  ASSERT_EQ(stream->notifications.size(), 2u);  // one update for the URI asked twice
  const auto& ack = stream->notifications[0].at("params");
  EXPECT_EQ(ack.at("notifications"),
            json::parse(R"({"resourceSubscriptions":["fcp://deck/doc/)" + handle + R"("]})"));
  // The ones not honored, each with the reason, in the acknowledgement's _meta.
  const auto& refused = ack.at("_meta").at("fcp/notHonored").as_array();
  ASSERT_EQ(refused.size(), 3u) << ack;
  EXPECT_EQ(refused[0].at("uri").as_string(), uri_of(closed));
  EXPECT_NE(std::string(refused[0].at("reason").as_string()).find("was closed"), std::string::npos)
      << refused[0];
  EXPECT_EQ(refused[1].at("uri"), "fcp://deck/doc/nope");
  EXPECT_NE(std::string(refused[1].at("reason").as_string()).find("not a document handle"),
            std::string::npos)
      << refused[1];
  EXPECT_EQ(refused[2], json::parse(R"({"uri":42,"reason":"not a URI string"})"));
  stateless->close();
}

TEST_F(ResourceSubscriptionsTest, ListenNeedsAFilterAndSubscribeIsASessionMethod) {
  auto stateless = connect();
  EXPECT_EQ(error_code(request(*stateless, 1, "subscriptions/listen", modern())),
            jsonrpc::code::invalid_params);
  EXPECT_EQ(error_code(request(*stateless, 2, "resources/subscribe",
                               modern({{"uri", "fcp://deck/doc/x"}}))),
            jsonrpc::code::method_not_found);
}

}  // namespace
}  // namespace fcp::mcp
