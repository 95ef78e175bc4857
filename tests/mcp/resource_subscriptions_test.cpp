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
  EXPECT_FALSE(messages[0].at("params").as_object().contains("_meta"));

  // Queries, a failed batch (rolled back) and a save change nothing.
  call(*editor, 5, "deck_query", {{"q", "stats"}, {"doc", handle}});
  call(*editor, 6, "deck", {{"ops", json::array{"add B", "nonsense"}}, {"doc", handle}});
  call(*editor, 7, "deck_session", {{"action", "save as:fcp-sub-test.deck"}, {"doc", handle}});
  EXPECT_TRUE(heard->take().empty());

  call(*editor, 8, "deck_session", {{"action", "undo"}, {"doc", handle}});
  call(*editor, 9, "deck_session", {{"action", "redo"}, {"doc", handle}});
  EXPECT_EQ(methods(heard->take()), std::vector<std::string>(2, "notifications/resources/updated"));

  request(*watcher, 10, "resources/unsubscribe", {{"uri", uri_of(handle)}});
  call(*editor, 11, "deck", {{"ops", json::array{"add C"}}, {"doc", handle}});
  EXPECT_TRUE(heard->take().empty());
  call(*editor, 12, "deck_session", {{"action", "close discard:true"}, {"doc", handle}});
  EXPECT_EQ(methods(heard->take()),
            std::vector<std::string>{"notifications/resources/list_changed"});
  std::filesystem::remove(std::filesystem::temp_directory_path() / "fcp-sub-test.deck");
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

json::object modern(json::object params = {}) {
  params["_meta"] = json::object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                 {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
  return params;
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
