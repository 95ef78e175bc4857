// End to end over Streamable HTTP: the real fcp code against an in-test fake daemon.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fake_mcp_server.hpp"
#include "run_fcp.hpp"

namespace fcp::cli {
namespace {

using testing::HasSubstr;
using namespace testing_support;

TEST(HttpClientTest, HandshakeCallAndDeleteCarryTheSessionHeaders) {
  FakeHttpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "--session", "work", "drawio", "add A"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "+ add A\n");  // the reply arrived on an SSE stream after notifications
  EXPECT_EQ(outcome.err, "");
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 5u);  // initialize, initialized, tools/list, tools/call, DELETE
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].target, "/mcp");
  EXPECT_EQ(requests[0].session_id, "");
  EXPECT_EQ(requests[0].protocol_version, "");
  EXPECT_EQ(requests[0].content_type, "application/json");
  EXPECT_EQ(requests[0].accept, "application/json, text/event-stream");
  for (std::size_t i = 1; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].session_id, "session-42") << i;
    EXPECT_EQ(requests[i].protocol_version, "2025-11-25") << i;
  }
  for (const auto& request : requests)
    EXPECT_EQ(request.fcp_session, "work");
  EXPECT_EQ(requests[4].method, "DELETE");
  EXPECT_EQ(server.messages().at(0).at("params").at("fcp").at("session"), "work");
}

TEST(HttpClientTest, ToolsOverJsonReplies) {
  FakeHttpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "tools"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "drawio\ndrawio_query\ndrawio_session\ndrawio_help\n");
  EXPECT_EQ(server.requests().at(0).fcp_session, "");
}

TEST(HttpClientTest, VerbosePrintsStreamedNotifications) {
  FakeHttpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "--verbose", "drawio_query", "map"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "q=map\n");
  EXPECT_THAT(outcome.err, HasSubstr("[info] working"));
}

TEST(HttpClientTest, ScriptBatchFailureOverSse) {
  FakeHttpServer server;
  auto outcome = run_fcp({"--connect", server.url(), "run", "-"},
                         "drawio_session new \"X\"\ndrawio add A\ndrawio add B\ndrawio bad C\n");
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(outcome.out, "action=new \"X\"\n");
  EXPECT_THAT(outcome.err, HasSubstr("<stdin>:4: error: ! op 3 failed"));
  EXPECT_EQ(server.calls().size(), 2u);
}

TEST(HttpClientTest, WrongPathIsAnHttpError) {
  FakeHttpServer server;
  auto outcome = run_fcp({"--connect", server.url("/nope"), "tools"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("HTTP 404 Not Found from " + server.url("/nope")));
  EXPECT_THAT(outcome.err, HasSubstr("no such path"));
}

TEST(HttpClientTest, ServerHangingUpExitsTwo) {
  FakeHttpServer server(CallBehaviour::hang_up);
  auto outcome = run_fcp({"--connect", server.url(), "drawio", "add A"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("the daemon closed the connection"));
}

}  // namespace
}  // namespace fcp::cli
