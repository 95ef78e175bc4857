// The MCP conformance suite's fixtures (--conformance-fixtures): absent without the flag; with it,
// the contents the suite's scenarios check, and the requests the sampling and elicitation
// fixtures send to the client and answer from the client's response.
#include "mcp/conformance_fixtures.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {
using test_support::ConnectionTest;
using ::testing::HasSubstr;
using ::testing::StartsWith;
namespace json = boost::json;
using namespace std::chrono_literals;

// A responder whose notifications can be awaited while the call is still running.
class StreamingResponder final : public Responder {
 public:
  void notify(std::string message) override {
    std::lock_guard lock(mutex_);
    notifications_.push_back(json::parse(message));
    changed_.notify_all();
  }
  void reply(std::string message) override { finish(json::parse(message)); }
  void no_reply() override { finish(nullptr); }

  // The `count`-th message sent before the reply (waits up to 10 s).
  json::value notification(std::size_t index) {
    std::unique_lock lock(mutex_);
    EXPECT_TRUE(changed_.wait_for(lock, 10s, [&] { return notifications_.size() > index; }))
        << "no notification " << index;
    return notifications_.size() > index ? notifications_[index] : json::value();
  }
  json::value wait() {
    std::unique_lock lock(mutex_);
    EXPECT_TRUE(changed_.wait_for(lock, 10s, [this] { return finished_; })) << "no answer";
    return answer_;
  }
  std::vector<json::value> notifications() {
    std::lock_guard lock(mutex_);
    return notifications_;
  }

 private:
  void finish(json::value answer) {
    std::lock_guard lock(mutex_);
    answer_ = std::move(answer);
    finished_ = true;
    changed_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<json::value> notifications_;
  bool finished_ = false;
  json::value answer_;
};

ServerOptions with_fixtures() {
  ServerOptions options;
  options.conformance_fixtures = true;
  return options;
}

std::vector<std::string> names(const json::value& list, std::string_view key) {
  std::vector<std::string> out;
  for (const auto& entry : list.as_array())
    out.emplace_back(entry.at(key).as_string());
  return out;
}

class FixturesTest : public ConnectionTest {
 protected:
  FixturesTest() : ConnectionTest(with_fixtures()) {}

  std::shared_ptr<Connection> ready_with(json::object capabilities) {
    auto c = connect();
    auto reply = request(*c, 1, "initialize",
                         {{"protocolVersion", "2025-11-25"}, {"capabilities", capabilities}});
    EXPECT_TRUE(reply.as_object().contains("result")) << json::serialize(reply);
    return c;
  }
  // Starts tools/call of `tool`; the returned responder sees its stream.
  std::shared_ptr<StreamingResponder> start_call(Connection& c, int id, std::string_view tool,
                                                 json::object arguments, json::object meta = {}) {
    json::object params{{"name", tool}, {"arguments", std::move(arguments)}};
    if (!meta.empty()) params["_meta"] = std::move(meta);
    json::object message{
        {"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", std::move(params)}};
    auto responder = std::make_shared<StreamingResponder>();
    c.handle(json::serialize(message), responder);
    return responder;
  }
  // Sends the client's response to the server's request `asked`.
  void answer(Connection& c, const json::value& asked, std::string_view key, json::value body) {
    json::object message{{"jsonrpc", "2.0"}, {"id", asked.at("id")}, {key, std::move(body)}};
    EXPECT_TRUE(send(c, json::serialize(message)).is_null()) << "a response gets no answer";
  }
};

TEST_F(ConnectionTest, ConformanceFixturesAreHiddenWithoutTheFlag) {
  auto c = ready();
  const auto tools = names(request(*c, 2, "tools/list").at("result").at("tools"), "name");
  EXPECT_THAT(tools, ::testing::Each(::testing::Not(StartsWith("test_"))));
  EXPECT_EQ(request(*c, 3, "resources/list").at("result").at("resources").as_array().size(), 1u);
  // Only the domain's own: its documents (fcp://deck/doc/{handle}).
  EXPECT_THAT(names(request(*c, 4, "resources/templates/list").at("result").at("resourceTemplates"),
                    "uriTemplate"),
              ::testing::ElementsAre("fcp://deck/doc/{handle}"));
  EXPECT_EQ(error_code(request(*c, 5, "prompts/list")), -32601);
  EXPECT_EQ(error_code(request(*c, 6, "completion/complete")), -32601);
  EXPECT_EQ(error_code(request(*c, 7, "resources/subscribe", {{"uri", "test://watched-resource"}})),
            -32602);
  EXPECT_EQ(error_code(request(*c, 8, "resources/read", {{"uri", "test://static-text"}})), -32002);
}

TEST_F(FixturesTest, ListsAndDeclaresThemBesideTheDomainsOwn) {
  auto c = connect();
  const auto init = request(*c, 1, "initialize", {{"protocolVersion", "2025-11-25"}});
  const auto& capabilities = init.at("result").at("capabilities");
  EXPECT_TRUE(capabilities.as_object().contains("completions"));
  EXPECT_TRUE(capabilities.as_object().contains("prompts"));
  EXPECT_EQ(capabilities.at("resources").at("subscribe"), true);
  const auto tools = names(request(*c, 2, "tools/list").at("result").at("tools"), "name");
  EXPECT_THAT(tools, ::testing::IsSupersetOf({"deck", "test_simple_text", "test_sampling",
                                              "test_elicitation_sep1330_enums",
                                              "json_schema_2020_12_tool"}));
  EXPECT_THAT(names(request(*c, 3, "resources/list").at("result").at("resources"), "uri"),
              ::testing::ElementsAre("fcp://deck/session", "test://static-text",
                                     "test://static-binary", "test://watched-resource"));
  EXPECT_THAT(names(request(*c, 4, "resources/templates/list").at("result").at("resourceTemplates"),
                    "uriTemplate"),
              ::testing::ElementsAre("fcp://deck/doc/{handle}", "test://template/{id}/data"));
  EXPECT_THAT(names(request(*c, 5, "prompts/list").at("result").at("prompts"), "name"),
              ::testing::ElementsAre("test_simple_prompt", "test_prompt_with_arguments",
                                     "test_prompt_with_embedded_resource", "test_prompt_with_image",
                                     "test_input_required_result_prompt"));
}

TEST_F(FixturesTest, ContentTools) {
  auto c = ready();
  EXPECT_EQ(text_of(call(*c, 2, "test_simple_text", {})),
            "This is a simple text response for testing.");
  const auto image = call(*c, 3, "test_image_content", {}).at("result").at("content").at(0);
  EXPECT_EQ(image.at("type"), "image");
  EXPECT_EQ(image.at("mimeType"), "image/png");
  EXPECT_THAT(std::string(image.at("data").as_string()), StartsWith("iVBORw0KGgo"));  // \x89PNG
  const auto audio = call(*c, 4, "test_audio_content", {}).at("result").at("content").at(0);
  EXPECT_EQ(audio.at("mimeType"), "audio/wav");
  EXPECT_THAT(std::string(audio.at("data").as_string()), StartsWith("UklGR"));  // RIFF
  const auto mixed = call(*c, 5, "test_multiple_content_types", {}).at("result").at("content");
  EXPECT_THAT(names(mixed, "type"), ::testing::ElementsAre("text", "image", "resource"));
  const auto error = call(*c, 6, "test_error_handling", {}).at("result");
  EXPECT_EQ(error.at("isError"), true);
}

TEST_F(FixturesTest, ResourcesTemplatePromptsAndCompletions) {
  auto c = ready();
  const auto data = request(*c, 2, "resources/read", {{"uri", "test://template/42/data"}});
  const auto& content = data.at("result").at("contents").at(0);
  EXPECT_EQ(content.at("uri"), "test://template/42/data");
  EXPECT_EQ(json::parse(content.at("text").as_string()),
            json::parse(R"({"id":"42","templateTest":true,"data":"Data for ID: 42"})"));
  EXPECT_EQ(error_code(request(*c, 3, "resources/read", {{"uri", "test://template/a/b/data"}})),
            -32002);
  const auto binary = request(*c, 4, "resources/read", {{"uri", "test://static-binary"}});
  EXPECT_TRUE(binary.at("result").at("contents").at(0).as_object().contains("blob"));
  EXPECT_TRUE(request(*c, 5, "resources/subscribe", {{"uri", "test://watched-resource"}})
                  .as_object()
                  .contains("result"));
  EXPECT_EQ(error_code(request(*c, 6, "resources/subscribe", {{"uri", "test://nothing"}})), -32002);
  EXPECT_EQ(error_code(request(*c, 11, "resources/subscribe", {{"uri", "fcp://deck/session"}})),
            -32602);

  const auto prompt = request(*c, 7, "prompts/get",
                              {{"name", "test_prompt_with_arguments"},
                               {"arguments", json::object{{"arg1", "A"}, {"arg2", "B"}}}});
  EXPECT_EQ(prompt.at("result").at("messages").at(0).at("content").at("text"),
            "Prompt with arguments: arg1='A', arg2='B'");
  const auto missing =
      request(*c, 8, "prompts/get",
              {{"name", "test_prompt_with_arguments"}, {"arguments", json::object{{"arg1", "A"}}}});
  EXPECT_EQ(error_code(missing), -32602);
  EXPECT_THAT(std::string(missing.at("error").at("message").as_string()), HasSubstr("\"arg2\""));

  const auto completion = request(
      *c, 9, "completion/complete",
      {{"ref", json::object{{"type", "ref/prompt"}, {"name", "test_prompt_with_arguments"}}},
       {"argument", json::object{{"name", "arg1"}, {"value", "pa"}}}});
  EXPECT_EQ(completion.at("result").at("completion").at("values"),
            json::parse(R"(["paris","park","party"])"));
  EXPECT_EQ(error_code(request(*c, 10, "completion/complete", {{"ref", "x"}})), -32602);
}

TEST_F(FixturesTest, SamplingAsksTheClientOnTheCallsStreamAndAnswersWithItsResponse) {
  auto c = ready_with(json::object{{"sampling", json::object{}}});
  auto call = start_call(*c, 2, "test_sampling", {{"prompt", "Say hi"}});
  const auto asked = call->notification(0);
  EXPECT_EQ(asked.at("method"), "sampling/createMessage");
  EXPECT_EQ(asked.at("params").at("messages").at(0).at("content").at("text"), "Say hi");
  EXPECT_EQ(asked.at("params").at("maxTokens"), 100);
  answer(*c, asked, "result",
         json::object{{"role", "assistant"},
                      {"content", json::object{{"type", "text"}, {"text", "hi there"}}},
                      {"model", "m"}});
  EXPECT_EQ(text_of(call->wait()), "LLM response: hi there");
}

TEST_F(FixturesTest, ElicitationReportsTheClientsErrorAsAToolError) {
  auto c = ready_with(json::object{{"elicitation", json::object{}}});
  auto call = start_call(*c, 2, "test_elicitation", {{"message", "Who are you?"}});
  const auto asked = call->notification(0);
  EXPECT_EQ(asked.at("method"), "elicitation/create");
  EXPECT_EQ(asked.at("params").at("message"), "Who are you?");
  EXPECT_EQ(asked.at("params").at("requestedSchema").at("required"),
            json::parse(R"(["username","email"])"));
  answer(*c, asked, "error", json::object{{"code", -1}, {"message", "user closed the dialog"}});
  const auto reply = call->wait();
  EXPECT_EQ(reply.at("result").at("isError"), true);
  EXPECT_THAT(text_of(reply), HasSubstr("user closed the dialog"));
}

TEST_F(FixturesTest, SamplingAndElicitationNeedTheClientsCapability) {
  auto c = ready();
  const auto sampling = call(*c, 2, "test_sampling", {{"prompt", "x"}});
  EXPECT_EQ(sampling.at("result").at("isError"), true);
  EXPECT_THAT(text_of(sampling), HasSubstr("sampling capability"));
  const auto enums = call(*c, 3, "test_elicitation_sep1330_enums", {});
  EXPECT_THAT(text_of(enums), HasSubstr("elicitation capability"));
}

TEST_F(FixturesTest, ProgressAndLoggingArriveOnTheCallsStream) {
  auto c = ready();
  auto progress = start_call(*c, 2, "test_tool_with_progress", {}, {{"progressToken", "t"}});
  EXPECT_TRUE(progress->wait().as_object().contains("result"));
  std::vector<double> values;
  for (const auto& note : progress->notifications()) {
    EXPECT_EQ(note.at("params").at("progressToken"), "t");
    values.push_back(note.at("params").at("progress").to_number<double>());
  }
  EXPECT_EQ(values, (std::vector<double>{0, 50, 100}));

  auto silent = start_call(*c, 3, "test_tool_with_logging", {});
  silent->wait();
  EXPECT_TRUE(silent->notifications().empty()) << "no logging/setLevel: no messages";
  request(*c, 4, "logging/setLevel", {{"level", "debug"}});
  auto logging = start_call(*c, 5, "test_tool_with_logging", {});
  logging->wait();
  EXPECT_THAT(names(json::value_from(logging->notifications()), "method"),
              ::testing::ElementsAre("notifications/message", "notifications/message",
                                     "notifications/message"));
}

}  // namespace
}  // namespace fcp::mcp
