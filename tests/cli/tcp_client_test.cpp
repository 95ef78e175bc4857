// End to end over TCP: the real fcp code against an in-test fake daemon.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "fake_mcp_server.hpp"
#include "run_fcp.hpp"

namespace fcp::cli {
namespace {

using testing::HasSubstr;
using namespace testing_support;

TEST(TcpClientTest, ToolsListsNamesAfterTheHandshake) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "tools"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "drawio\ndrawio_query\ndrawio_session\ndrawio_help\n");
  auto messages = server.messages();
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0].at("method"), "initialize");
  const auto& params = messages[0].at("params").as_object();
  EXPECT_EQ(params.at("protocolVersion"), "2025-11-25");
  EXPECT_EQ(params.at("clientInfo").at("name"), "fcp");
  EXPECT_TRUE(params.at("capabilities").as_object().empty());
  EXPECT_FALSE(params.contains("fcp"));
  EXPECT_EQ(messages[1].at("method"), "notifications/initialized");
  EXPECT_FALSE(messages[1].contains("id"));
  EXPECT_EQ(messages[2].at("method"), "tools/list");
}

TEST(TcpClientTest, SessionNameGoesIntoInitialize) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "--session", "work", "tools"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  auto initialize = server.messages().at(0);
  EXPECT_EQ(initialize.at("params").at("fcp").at("session"), "work");
}

TEST(TcpClientTest, JsonToolsPrintsTheRawResult) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "--json", "tools"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  auto result = boost::json::parse(outcome.out);
  EXPECT_EQ(result.at("tools").as_array().size(), 4u);
  EXPECT_EQ(result.at("tools").at(0).at("name"), "drawio");
}

TEST(TcpClientTest, DomainShortcutSendsOneBatchAndSkipsNotifications) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "drawio", "add svc A", "label A \"x y\""});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "+ add svc A\n+ label A \"x y\"\n");
  EXPECT_EQ(outcome.err, "");
  auto calls = server.calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(boost::json::serialize(calls[0].at("params").at("arguments")),
            R"({"ops":["add svc A","label A \"x y\""]})");
  EXPECT_FALSE(calls[0].at("params").as_object().contains("_meta"));
}

TEST(TcpClientTest, VerboseShowsLogAndProgressOnStderr) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "-v", "drawio", "add svc A"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "+ add svc A\n");
  EXPECT_THAT(outcome.err, HasSubstr("[info] working"));
  EXPECT_THAT(outcome.err, HasSubstr("[progress] 1/2"));
  EXPECT_TRUE(server.calls().at(0).at("params").as_object().contains("_meta"));
}

TEST(TcpClientTest, QuerySessionHelpAndCallShortcuts) {
  FakeTcpServer server;
  auto query = run_fcp({"--connect", server.url(), "drawio_query", "describe", "A"});
  EXPECT_EQ(query.out, "q=describe A\n");
  auto session = run_fcp({"--connect", server.url(), "drawio_session", "new \"X\""});
  EXPECT_EQ(session.out, "action=new \"X\"\n");
  auto help = run_fcp({"--connect", server.url(), "drawio_help"});
  EXPECT_EQ(help.out, "help with 0 arguments\n");
  auto call = run_fcp({"--connect", server.url(), "call", "drawio", R"({"ops":["add B"]})"});
  EXPECT_EQ(call.out, "+ add B\n");
  EXPECT_EQ(query.status + session.status + help.status + call.status, 0);
}

TEST(TcpClientTest, AnswersServerRequestsWhileWaiting) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "drawio_help"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "help with 0 arguments\n");
  std::optional<boost::json::object> pong;
  std::optional<boost::json::object> refusal;
  for (const auto& message : server.messages()) {
    if (message.contains("id") && message.at("id") == "srv-1") pong = message;
    if (message.contains("id") && message.at("id") == "srv-2") refusal = message;
  }
  ASSERT_TRUE(pong);
  EXPECT_TRUE(pong->at("result").as_object().empty());
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->at("error").at("code"), -32601);
  EXPECT_EQ(refusal->at("error").at("message"), "fcp does not handle roots/list");
}

TEST(TcpClientTest, ImagesAreSummarised) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "drawio_query", "png"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "@ rendered\n[image/png, 7 bytes]\n");
}

TEST(TcpClientTest, IsErrorExitsOneWithTheText) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "drawio", "add A", "bad B"});
  EXPECT_EQ(outcome.status, 1);
  EXPECT_THAT(outcome.out, HasSubstr("! op 2 failed: unknown verb 'bad'"));
}

TEST(TcpClientTest, JsonModePrintsTheRawCallResult) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "--json", "drawio", "bad"});
  EXPECT_EQ(outcome.status, 1);
  auto result = boost::json::parse(outcome.out);
  EXPECT_EQ(result.at("isError"), true);
}

TEST(TcpClientTest, UnknownShortcutListsTheTools) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "visio", "add A"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("unknown command 'visio'"));
  EXPECT_THAT(outcome.err, HasSubstr("drawio, drawio_query, drawio_session, drawio_help"));
  EXPECT_THAT(outcome.err, HasSubstr("usage: fcp"));
  EXPECT_TRUE(server.calls().empty());
}

TEST(TcpClientTest, JsonRpcErrorExitsTwo) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "call", "visio", "{}"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("tools/call failed: Unknown tool: visio"));
  EXPECT_THAT(outcome.err, HasSubstr("-32602"));
}

TEST(TcpClientTest, ServerClosingTheConnectionExitsTwo) {
  FakeTcpServer server(CallBehaviour::hang_up);
  auto outcome = run_fcp({"--connect", server.url(), "drawio", "add A"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("the daemon closed the connection"));
  EXPECT_EQ(outcome.out, "");
}

TEST(TcpClientTest, SilentServerTimesOut) {
  FakeTcpServer server(CallBehaviour::ignore);
  auto start = std::chrono::steady_clock::now();
  auto outcome = run_fcp({"--connect", server.url(), "--timeout", "0.3", "drawio", "add A"});
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("timed out after 0.3 s waiting for the reply to tools/call"));
  EXPECT_GE(elapsed, std::chrono::milliseconds(300));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(TcpClientTest, RefusedConnectionExitsTwo) {
  std::uint16_t port = 0;
  {
    FakeTcpServer closed_again;  // a port that was just free and is closed now
    port = closed_again.port();
  }
  auto outcome = run_fcp({"--connect", "tcp://127.0.0.1:" + std::to_string(port), "tools"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("cannot connect to tcp://127.0.0.1:"));
}

constexpr const char* good_script =
    "# build a diagram\n"
    "drawio_session new \"X\"\n"
    "drawio add svc A\n"
    "\n"
    "drawio add svc B\n"
    "drawio_query map\n"
    "drawio connect A -> B\n"
    "drawio_help\n";

TEST(TcpClientRunTest, BatchesConsecutiveOpsAndPrintsEveryResult) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "run", "-"}, good_script);
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "action=new \"X\"\n+ add svc A\n+ add svc B\nq=map\n+ connect A -> B\n"
            "help with 0 arguments\n");
  auto calls = server.calls();
  ASSERT_EQ(calls.size(), 5u);
  EXPECT_EQ(boost::json::serialize(calls[1].at("params").at("arguments")),
            R"({"ops":["add svc A","add svc B"]})");
}

TEST(TcpClientRunTest, FailedOpNamesItsScriptLineAndStops) {
  FakeTcpServer server;
  std::string script =
      "drawio add A\n"   // 1
      "# note\n"         // 2
      "drawio bad op\n"  // 3: op 2 of the batch
      "drawio add C\n"   // 4
      "drawio_query map\n";
  auto outcome = run_fcp({"--connect", server.url(), "run", "-"}, script);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_THAT(outcome.err, HasSubstr("<stdin>:3: error: ! op 2 failed: unknown verb 'bad'"));
  EXPECT_EQ(outcome.out, "");
  EXPECT_EQ(server.calls().size(), 1u);  // the query after the failed batch never ran
}

TEST(TcpClientRunTest, UnknownToolFailsBeforeAnyCall) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "run", "-"}, "drawio add A\n\nvisio x\n");
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("<stdin>:3: error: unknown tool 'visio'"));
  EXPECT_TRUE(server.calls().empty());
}

TEST(TcpClientRunTest, ConnectionLossNamesTheLine) {
  FakeTcpServer server(CallBehaviour::hang_up);
  auto outcome = run_fcp({"--connect", server.url(), "run", "-"}, "\n\ndrawio_query map\n");
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("<stdin>:3: error: the daemon closed the connection"));
}

TEST(TcpClientRunTest, ReadsAScriptFileAndNamesIt) {
  FakeTcpServer server;
  std::string path = testing::TempDir() + "fcp_tcp_run_test.fcp";
  std::ofstream(path) << "drawio add A\ndrawio bad\n";
  auto outcome = run_fcp({"--connect", server.url(), "run", path});
  EXPECT_EQ(outcome.status, 1);
  EXPECT_THAT(outcome.err, HasSubstr(path + ":2: error: ! op 2 failed"));
  std::remove(path.c_str());
}

TEST(TcpClientRunTest, MissingScriptIsAUsageErrorWithoutConnecting) {
  FakeTcpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "run", "/nonexistent/x.fcp"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("cannot read script /nonexistent/x.fcp"));
  EXPECT_TRUE(server.messages().empty());
}

}  // namespace
}  // namespace fcp::cli
