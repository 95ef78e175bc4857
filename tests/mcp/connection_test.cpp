// mcp::Server and ClientConnection without a transport: lifecycle, tools, errors, cancellation,
// progress, logging, resources and named sessions.
#include <future>
#include <regex>
#include <thread>

#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::ConnectionTest;
using test_support::RecordingResponder;
namespace json = boost::json;
using namespace std::chrono_literals;

TEST(ReplyOnceTest, DroppedUnansweredIsAnInternalError) {
  auto responder = std::make_shared<RecordingResponder>();
  { ReplyOnce dropped(responder, json::value(9)); }
  const auto reply = responder->wait();
  EXPECT_EQ(reply.at("id"), 9);
  EXPECT_EQ(reply.at("error").at("code"), -32603);
  EXPECT_EQ(reply.at("error").at("message"),
            "internal error: the request was dropped without an answer");
}

TEST(ReplyOnceTest, TheFirstAnswerWins) {
  auto responder = std::make_shared<RecordingResponder>();
  {
    ReplyOnce reply(responder, json::value("a"));
    reply.error(jsonrpc::code::invalid_params, "first");
    reply.result(json::object{});
  }
  const auto answer = responder->wait();
  EXPECT_EQ(answer.at("error").at("code"), -32602);
  EXPECT_EQ(answer.at("error").at("message"), "first");
}

TEST_F(ConnectionTest, InitializeNegotiatesTheVersion) {
  auto c = connect();
  EXPECT_FALSE(c->initialized());
  auto reply = request(*c, 1, "initialize", {{"protocolVersion", "2025-06-18"}});
  const auto& result = reply.at("result");
  EXPECT_EQ(result.at("protocolVersion"), "2025-06-18");
  EXPECT_EQ(result.at("serverInfo").at("name"), "fcpd");
  EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
  EXPECT_TRUE(result.at("capabilities").as_object().contains("logging"));
  EXPECT_NE(result.at("instructions").as_string().find("deck"), json::string::npos);
  EXPECT_TRUE(c->initialized());
  EXPECT_EQ(error_code(request(*c, 2, "initialize", {{"protocolVersion", "2025-06-18"}})), -32600);

  auto other = connect();
  auto newer = request(*other, 1, "initialize", {{"protocolVersion", "2099-01-01"}});
  EXPECT_EQ(newer.at("result").at("protocolVersion"), "2025-11-25");
}

TEST_F(ConnectionTest, RequestsBeforeInitializeAreRefusedExceptPing) {
  auto c = connect();
  EXPECT_EQ(error_code(request(*c, 1, "tools/list")), -32600);
  EXPECT_TRUE(request(*c, 2, "ping").at("result").as_object().empty());
}

TEST_F(ConnectionTest, MalformedMessagesGetTheRightCodes) {
  auto c = ready();
  auto parse = send(*c, "{not json");
  EXPECT_EQ(error_code(parse), -32700);
  EXPECT_TRUE(parse.at("id").is_null());
  EXPECT_EQ(error_code(send(*c, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")), -32600);
  EXPECT_EQ(error_code(send(*c, R"({"jsonrpc":"2.0","id":{},"method":"ping"})")), -32600);
  EXPECT_EQ(error_code(send(*c, R"({"jsonrpc":"2.0","id":3,"method":5})")), -32600);
  EXPECT_EQ(error_code(send(*c, R"({"jsonrpc":"1.0","id":3,"method":"ping"})")), -32600);
  EXPECT_EQ(error_code(send(*c, R"({"jsonrpc":"2.0","id":4,"method":"ping","params":3})")), -32602);
  EXPECT_EQ(error_code(request(*c, 5, "server/discover")), -32601);
  EXPECT_EQ(error_code(send(*c, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"p\xff\"}")), -32700);
  EXPECT_TRUE(send(*c, R"({"jsonrpc":"2.0","method":"notifications/initialized"})").is_null());
  auto big = std::make_shared<RecordingResponder>();
  c->handle_oversized(100 << 20, big);
  EXPECT_EQ(error_code(big->wait()), -32600);
  EXPECT_TRUE(request(*c, 7, "ping").as_object().contains("result"));  // still usable
}

TEST_F(ConnectionTest, ToolsListHasFourToolsWithSchemas) {
  auto c = ready();
  auto tools = request(*c, 2, "tools/list").at("result").at("tools").as_array();
  ASSERT_EQ(tools.size(), 4u);
  EXPECT_EQ(tools[0].at("name"), "deck");
  EXPECT_EQ(tools[0].at("inputSchema").at("properties").at("ops").at("type"), "array");
  EXPECT_EQ(tools[0].at("inputSchema").at("required").at(0), "ops");
  EXPECT_NE(tools[0].at("description").as_string().find("add NAME [color:C]"), json::string::npos);
  EXPECT_EQ(tools[1].at("inputSchema").at("required").at(0), "q");
  EXPECT_EQ(tools[2].at("inputSchema").at("required").at(0), "action");
  EXPECT_FALSE(tools[3].at("inputSchema").as_object().contains("required"));
}

TEST_F(ConnectionTest, ToolCallsAndErrors) {
  auto c = ready();
  auto created = call(*c, 2, "deck_session", {{"action", "new \"Board\""}});
  EXPECT_TRUE(std::regex_match(
      text_of(created),
      std::regex("\\+ new deck document \"Board\"\n"
                 "  handle: doc:de-[0-9a-f]{32} \\(pass it as doc to work on this document from "
                 "any session\\)\n\\[0c 0l\\]")))
      << text_of(created);
  EXPECT_FALSE(created.at("result").at("isError").as_bool());
  auto added = call(*c, 3, "deck", {{"ops", json::array{"add A color:red", "add B color:red"}}});
  EXPECT_EQ(text_of(added), "+ card A red\n+ card B red\n[2c 0l]");
  auto failed = call(*c, 4, "deck", {{"ops", json::array{"add C", "fail boom"}}});
  EXPECT_TRUE(failed.at("result").at("isError").as_bool());
  EXPECT_NE(text_of(failed).find("! boom"), std::string::npos);
  auto bad_args = call(*c, 5, "deck", {{"ops", 5}});
  EXPECT_TRUE(bad_args.at("result").at("isError").as_bool());
  EXPECT_NE(text_of(bad_args).find("\"ops\" must be an array of strings"), std::string::npos);
  EXPECT_EQ(error_code(call(*c, 6, "nope", {})), -32602);
  EXPECT_EQ(error_code(request(*c, 7, "tools/call", {{"arguments", json::object{}}})), -32602);
  EXPECT_NE(text_of(call(*c, 8, "deck_help", {})).find("reference card"), std::string::npos);
  EXPECT_EQ(text_of(call(*c, 9, "deck_query", {{"q", "stats"}})), "cards:2");
}

TEST_F(ConnectionTest, ExternalEffectsConfirmOrRollBack) {
  auto c = ready();
  call(*c, 2, "deck_session", {{"action", "new X"}});
  EXPECT_EQ(text_of(call(*c, 3, "deck", {{"ops", json::array{"emit ok"}}})), "+ emit ok\n[1c 0l]");
  auto failed = call(*c, 4, "deck", {{"ops", json::array{"add A color:red", "emit fail"}}});
  EXPECT_TRUE(failed.at("result").at("isError").as_bool());
  EXPECT_NE(text_of(failed).find("external system refused"), std::string::npos);
  EXPECT_EQ(text_of(call(*c, 5, "deck_query", {{"q", "stats"}})), "cards:1");
}

TEST_F(ConnectionTest, ProgressCountsTheConfirmationsOfExternalEffects) {
  auto c = ready();
  call(*c, 2, "deck_session", {{"action", "new X"}});
  auto responder = std::make_shared<RecordingResponder>();
  auto answer = call_with_progress(*c, 3, {"emit a", "emit b", "emit c"}, 7, responder);
  EXPECT_FALSE(answer.at("result").at("isError").as_bool());
  ASSERT_EQ(responder->notifications.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& note = responder->notifications[i].at("params");
    EXPECT_EQ(note.at("progressToken"), 7);
    EXPECT_EQ(note.at("progress").as_double(), i + 1.0);
    EXPECT_EQ(note.at("total").as_double(), 3.0);
    EXPECT_EQ(note.at("message").as_string(),
              "confirmed " + std::to_string(i + 1) + " of 3 external changes");
  }
}

TEST_F(ConnectionTest, ProgressOfABigBatchWithEffectsOnlyIncreasesAndStaysShort) {
  auto c = ready();
  call(*c, 2, "deck_session", {{"action", "new X"}});
  auto responder = std::make_shared<RecordingResponder>();
  call_with_progress(*c, 3, numbered_ops("emit e", 2100), "big", responder);
  // The ops' own progress (1000 and 2000 of 2100), then the confirmations counted on from there:
  // one notification per 42 effects, 50 in all.
  ASSERT_EQ(responder->notifications.size(), 52u);
  double last = -1;
  for (const auto& note : responder->notifications) {
    const double progress = note.at("params").at("progress").as_double();
    EXPECT_GT(progress, last);
    last = progress;
  }
  const auto& final_note = responder->notifications.back().at("params");
  EXPECT_EQ(final_note.at("progress").as_double(), 4100.0);
  EXPECT_EQ(final_note.at("total").as_double(), 4100.0);
}

TEST_F(ConnectionTest, ConfirmationProgressStaysWithinFiftyNotifications) {
  auto c = ready();
  call(*c, 2, "deck_session", {{"action", "new X"}});
  auto responder = std::make_shared<RecordingResponder>();
  call_with_progress(*c, 3, numbered_ops("emit e", 99), "p", responder);
  ASSERT_EQ(responder->notifications.size(), 50u);  // every second confirmation, and the last
  EXPECT_EQ(responder->notifications.back().at("params").at("progress").as_double(), 99.0);
}

TEST_F(ConnectionTest, ProgressAndLogNotifications) {
  auto c = ready();
  EXPECT_EQ(error_code(request(*c, 2, "logging/setLevel", {{"level", "loud"}})), -32602);
  request(*c, 3, "logging/setLevel", {{"level", "warning"}});
  call(*c, 4, "deck_session", {{"action", "new X"}});
  auto responder = std::make_shared<RecordingResponder>();
  call_with_progress(*c, 5, numbered_ops("add c", 2100, " color:red"), "p1", responder);
  ASSERT_EQ(responder->notifications.size(), 2u);
  EXPECT_EQ(responder->notifications[0].at("method"), "notifications/progress");
  EXPECT_EQ(responder->notifications[0].at("params").at("progressToken"), "p1");
  EXPECT_EQ(responder->notifications[1].at("params").at("progress").as_double(), 2000.0);
  EXPECT_EQ(responder->notifications[1].at("params").at("total").as_double(), 2100.0);

  auto failing = std::make_shared<RecordingResponder>();
  send(
      *c,
      R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"deck","arguments":{"ops":["fail"]}}})",
      failing);
  ASSERT_EQ(failing->notifications.size(), 1u);
  EXPECT_EQ(failing->notifications[0].at("method"), "notifications/message");
  EXPECT_EQ(failing->notifications[0].at("params").at("level"), "warning");
}

TEST_F(ConnectionTest, CancelledCallsGetNoReply) {
  auto c = ready();
  call(*c, 2, "deck_session", {{"action", "new X"}});
  auto slow = std::make_shared<RecordingResponder>();
  c->handle(
      R"({"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"deck","arguments":{"ops":["sleep 300","add A color:red"]}}})",
      slow);
  auto queued = std::make_shared<RecordingResponder>();
  c->handle(
      R"({"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":"deck_query","arguments":{"q":"stats"}}})",
      queued);
  send(*c, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s"}})");
  EXPECT_TRUE(slow->wait().is_null());
  EXPECT_EQ(text_of(queued->wait()), "cards:0");  // the cancelled batch was rolled back
}

TEST_F(ConnectionTest, NamedSessionsOutliveConnectionsOneClientAtATime) {
  auto first = ready("team");
  call(*first, 2, "deck_session", {{"action", "new Shared"}});
  call(*first, 3, "deck", {{"ops", json::array{"add A color:red"}}});
  auto second = connect("team");
  auto refused = request(*second, 1, "initialize", {{"protocolVersion", "2025-11-25"}});
  EXPECT_EQ(error_code(refused), -32602);
  EXPECT_NE(refused.at("error").at("message").as_string().find("in use"), json::string::npos);
  first->close();
  auto third = ready("team");
  EXPECT_EQ(text_of(call(*third, 2, "deck_query", {{"q", "stats"}})), "cards:1");
  auto anonymous = ready();
  EXPECT_TRUE(
      call(*anonymous, 2, "deck_query", {{"q", "stats"}}).at("result").at("isError").as_bool());
}

TEST_F(ConnectionTest, IdleHttpHoldersOfNamedSessionsCanBeTakenOver) {
  ServerOptions options;
  options.http_takeover_idle = std::chrono::milliseconds(0);
  Server server(workers_.get_executor(), {domain_.get()}, paths_, options);
  auto initialize =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";
  auto tcp = server.connect(ConnectionInfo{"tcp", "a", "n", std::nullopt}, nullptr);
  send(*tcp, initialize);
  auto refused = server.connect(ConnectionInfo{"tcp", "b", "n", std::nullopt}, nullptr);
  EXPECT_EQ(error_code(send(*refused, initialize)), -32602);  // a live TCP holder keeps it
  tcp->close();
  auto http = server.connect(ConnectionInfo{"http", "c", "n", std::nullopt}, nullptr);
  send(*http, initialize);
  auto taker = server.connect(ConnectionInfo{"http", "d", "n", std::nullopt}, nullptr);
  EXPECT_TRUE(send(*taker, initialize).as_object().contains("result"));  // idle HTTP: taken over
  auto stale = send(
      *http,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deck_query","arguments":{"q":"stats"}}})");
  EXPECT_TRUE(stale.at("result").at("isError").as_bool());
  EXPECT_NE(text_of(stale).find("taken over"), std::string::npos);
  for (auto* c : {tcp.get(), refused.get(), http.get(), taker.get()})
    c->close();
}

// A client that closes and reconnects at once may initialize before fcpd has read the end of its
// old connection: initialize waits briefly for the name instead of refusing it (soak, trial).
TEST_F(ConnectionTest, ANamedSessionFreedMomentsLaterIsAttachedNotRefused) {
  Server server(workers_.get_executor(), {domain_.get()}, paths_, {});
  auto initialize =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";
  auto old = server.connect(ConnectionInfo{"tcp", "a", "n", std::nullopt}, nullptr);
  send(*old, initialize);
  std::thread closer([&old] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    old->close();
  });
  auto again = server.connect(ConnectionInfo{"tcp", "b", "n", std::nullopt}, nullptr);
  const auto reply = send(*again, initialize);
  closer.join();
  EXPECT_TRUE(reply.as_object().contains("result")) << json::serialize(reply);
  again->close();
}

TEST_F(ConnectionTest, ConformanceFixtureToolOnlyWhenAskedFor) {
  ServerOptions options;
  options.conformance_fixtures = true;
  Server server(workers_.get_executor(), {domain_.get()}, paths_, options);
  auto c = server.connect(ConnectionInfo{"test", "p", std::nullopt, std::nullopt}, nullptr);
  send(
      *c,
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})");
  auto result = send(
      *c,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_error_handling","arguments":{}}})");
  EXPECT_TRUE(result.at("result").at("isError").as_bool());
  EXPECT_EQ(error_code(call(*ready(), 2, "test_error_handling", {})), -32602);
  c->close();
}

TEST_F(ConnectionTest, SessionResource) {
  auto c = ready();
  auto list = request(*c, 2, "resources/list").at("result").at("resources").as_array();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].at("uri"), "fcp://deck/session");
  auto empty = request(*c, 3, "resources/read", {{"uri", "fcp://deck/session"}});
  EXPECT_EQ(empty.at("result").at("contents").at(0).at("text"), "No deck document open.");
  call(*c, 4, "deck_session", {{"action", "new X"}});
  auto read = request(*c, 5, "resources/read", {{"uri", "fcp://deck/session"}});
  EXPECT_NE(read.at("result").at("contents").at(0).at("text").as_string().find("State: [0c 0l]"),
            json::string::npos);
  EXPECT_EQ(error_code(request(*c, 6, "resources/read", {{"uri", "fcp://nope/session"}})), -32002);
}

}  // namespace
}  // namespace fcp::mcp
