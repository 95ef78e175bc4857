// Multi round-trip requests (SEP-2322): the sealed requestState (HMAC-SHA256, bound to its
// request) and the input_required flow of the conformance fixtures through a stateless
// 2026-07-28 connection: rounds, an altered state refused, inputRequests limited to the
// capabilities the request declared.
#include "mcp/request_state.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mcp/base64.hpp"
#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::ConnectionTest;
using ::testing::HasSubstr;
namespace json = boost::json;

TEST(RequestStateTest, OpensWhatItSealedForTheSameScope) {
  const mrtr::RequestStateSeal seal("k1");
  const json::object payload{{"round", 2}, {"name", "Alice"}};
  const auto state = seal.seal("tools/call t", payload);
  EXPECT_EQ(seal.open("tools/call t", state), payload);
}

TEST(RequestStateTest, RefusesAlteredForeignAndMisplacedStates) {
  const mrtr::RequestStateSeal seal("k1");
  const auto state = seal.seal("tools/call t", json::object{{"round", 1}});
  EXPECT_FALSE(seal.open("tools/call t", state + "-TAMPERED"));
  EXPECT_FALSE(seal.open("tools/call other", state)) << "bound to its tool";
  EXPECT_FALSE(mrtr::RequestStateSeal("k2").open("tools/call t", state)) << "another key";
  EXPECT_FALSE(seal.open("tools/call t", "not a state"));
  // The payload changed, its MAC kept: {"round":9} in place of {"round":1}.
  const auto mac = state.substr(state.find('.'));
  EXPECT_FALSE(seal.open("tools/call t", base64_encode(R"({"round":9})") + mac));
}

TEST(RequestStateTest, TwoDaemonsDrawDifferentKeys) {
  const auto state = mrtr::RequestStateSeal().seal("s", json::object{});
  EXPECT_FALSE(mrtr::RequestStateSeal().open("s", state));
}

TEST(RequestStateTest, ReadRetryChecksResponsesAndState) {
  const mrtr::RequestStateSeal seal("k");
  const auto read = [&seal](const json::object& params) {
    return mrtr::read_retry("tools/call", params, seal);
  };
  EXPECT_TRUE(std::holds_alternative<mrtr::Refused>(read({{"inputResponses", nullptr}})));
  EXPECT_TRUE(std::holds_alternative<mrtr::Refused>(
      read({{"inputResponses", json::object{{"user_name", 12345}}}})));
  EXPECT_TRUE(
      std::holds_alternative<mrtr::Refused>(read({{"name", "t"}, {"requestState", "forged"}})));
  const json::object params{
      {"name", "t"},
      {"inputResponses", json::object{{"a", json::object{{"action", "accept"}}}}},
      {"requestState", seal.seal("tools/call t", json::object{{"round", 1}})}};
  const auto retry = read(params);
  ASSERT_TRUE(std::holds_alternative<mrtr::Retry>(retry));
  EXPECT_EQ(std::get<mrtr::Retry>(retry).state, (json::object{{"round", 1}}));
  EXPECT_TRUE(std::get<mrtr::Retry>(retry).input_responses.contains("a"));
}

ServerOptions with_fixtures() {
  ServerOptions options;
  options.conformance_fixtures = true;
  return options;
}

class InputRequiredTest : public ConnectionTest {
 protected:
  InputRequiredTest() : ConnectionTest(with_fixtures()) {}
  // A stateless tools/call of `tool` with `extra` params (inputResponses, requestState).
  json::value modern_call(const std::string& tool, json::object extra = {},
                          json::object capabilities = {}) {
    extra["name"] = tool;
    extra["arguments"] = json::object{};
    extra["_meta"] =
        json::object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", std::move(capabilities)}};
    return request(*connect(), ++id_, "tools/call", std::move(extra));
  }
  static json::object accept(json::object content) {
    return json::object{{"action", "accept"}, {"content", std::move(content)}};
  }
  int id_ = 0;
};

TEST_F(InputRequiredTest, MultiRoundCarriesWhatItLearnedInTheSealedState) {
  const auto r1 = modern_call("test_input_required_result_multi_round").at("result");
  EXPECT_EQ(r1.at("resultType"), "input_required");
  ASSERT_TRUE(r1.at("inputRequests").as_object().contains("step1"));
  const auto r2 = modern_call("test_input_required_result_multi_round",
                              {{"inputResponses", {{"step1", accept({{"name", "Alice"}})}}},
                               {"requestState", r1.at("requestState")}})
                      .at("result");
  EXPECT_EQ(r2.at("resultType"), "input_required");
  ASSERT_TRUE(r2.at("inputRequests").as_object().contains("step2"));
  EXPECT_NE(r2.at("requestState"), r1.at("requestState"));
  const auto r3 = modern_call("test_input_required_result_multi_round",
                              {{"inputResponses", {{"step2", accept({{"color", "blue"}})}}},
                               {"requestState", r2.at("requestState")}});
  EXPECT_EQ(r3.at("result").at("resultType"), "complete");
  EXPECT_EQ(text_of(r3), "Alice's favorite color is blue.");
}

TEST_F(InputRequiredTest, AnAlteredStateIsRefusedWithInvalidParams) {
  const auto r1 = modern_call("test_input_required_result_tampered_state").at("result");
  const std::string state(r1.at("requestState").as_string());
  const auto ok = modern_call(
      "test_input_required_result_tampered_state",
      {{"inputResponses", {{"confirm", accept({{"ok", true}})}}}, {"requestState", state}});
  EXPECT_THAT(text_of(ok), HasSubstr("state-ok"));
  const auto tampered = modern_call("test_input_required_result_tampered_state",
                                    {{"inputResponses", {{"confirm", accept({{"ok", true}})}}},
                                     {"requestState", state + "-TAMPERED"}});
  EXPECT_EQ(error_code(tampered), jsonrpc::code::invalid_params);
  EXPECT_THAT(std::string(tampered.at("error").at("message").as_string()),
              HasSubstr("integrity check"));
  // A state sealed for one tool opens for no other.
  const auto replayed = modern_call(
      "test_input_required_result_request_state",
      {{"inputResponses", {{"confirm", accept({{"ok", true}})}}}, {"requestState", state}});
  EXPECT_EQ(error_code(replayed), jsonrpc::code::invalid_params);
}

TEST_F(InputRequiredTest, AsksOnlyForWhatTheRequestDeclared) {
  const auto result =
      modern_call("test_input_required_result_capabilities", {}, {{"sampling", json::object{}}})
          .at("result");
  EXPECT_EQ(result.at("resultType"), "input_required");
  for (const auto& [key, asked] : result.at("inputRequests").as_object())
    EXPECT_EQ(asked.at("method"), "sampling/createMessage") << key;
}

TEST_F(InputRequiredTest, ElicitationCompletesFromTheResponsesAndIgnoresExtras) {
  const auto first = modern_call("test_input_required_result_elicitation").at("result");
  EXPECT_EQ(first.at("inputRequests").at("user_name").at("method"), "elicitation/create");
  const auto done =
      modern_call("test_input_required_result_elicitation",
                  {{"inputResponses",
                    {{"user_name", accept({{"name", "Alice"}})}, {"extra", accept({{"x", 1}})}}}});
  EXPECT_EQ(text_of(done), "Hello, Alice!");
  const auto wrong = modern_call("test_input_required_result_elicitation",
                                 {{"inputResponses", {{"wrong_key", accept({})}}}});
  EXPECT_EQ(wrong.at("result").at("resultType"), "input_required");
}

TEST_F(InputRequiredTest, PromptsGetAsksToo) {
  json::object params{
      {"name", "test_input_required_result_prompt"},
      {"_meta", json::object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                             {"io.modelcontextprotocol/clientCapabilities", json::object{}}}}};
  const auto first = request(*connect(), 1, "prompts/get", params).at("result");
  EXPECT_EQ(first.at("resultType"), "input_required");
  params["inputResponses"] = json::object{{"user_context", accept({{"context", "tests"}})}};
  const auto done = request(*connect(), 2, "prompts/get", params).at("result");
  EXPECT_EQ(done.at("resultType"), "complete");
  EXPECT_THAT(json::serialize(done.at("messages")), HasSubstr("tests"));
}

TEST_F(InputRequiredTest, MissingCapabilityFixtureIsRefusedWithoutSampling) {
  EXPECT_EQ(error_code(modern_call("test_missing_capability")),
            jsonrpc::code::missing_client_capability);
  EXPECT_THAT(text_of(modern_call("test_missing_capability", {}, {{"sampling", json::object{}}})),
              HasSubstr("sampling"));
}

}  // namespace
}  // namespace fcp::mcp
