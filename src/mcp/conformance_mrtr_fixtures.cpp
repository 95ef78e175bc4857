// The conformance fixtures of multi round-trip requests (SEP-2322): tools and a prompt that
// answer input_required until the client has sent the input they ask for, keeping what they
// learned between rounds in a sealed requestState (mcp/request_state.hpp).
#include "mcp/client_connection.hpp"
#include "mcp/conformance_fixtures.hpp"
#include "mcp/request_state.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

json::object text_result(std::string_view text) {
  return json::object{{"content", json::array{json::object{{"type", "text"}, {"text", text}}}},
                      {"isError", false}};
}

// An elicitation/create input request for one required property of `type`.
json::object elicit(std::string_view message, std::string_view property, std::string_view type) {
  json::object schema{{"type", "object"},
                      {"properties", json::object{{property, json::object{{"type", type}}}}},
                      {"required", json::array{json::string(property)}}};
  return json::object{
      {"method", "elicitation/create"},
      {"params", json::object{{"message", message}, {"requestedSchema", std::move(schema)}}}};
}

json::object sample(std::string_view text, int max_tokens) {
  json::array messages{
      json::object{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", text}}}}};
  return json::object{
      {"method", "sampling/createMessage"},
      {"params", json::object{{"messages", std::move(messages)}, {"maxTokens", max_tokens}}}};
}

json::object list_roots() {
  return json::object{{"method", "roots/list"}, {"params", json::object{}}};
}

// The client's answer to the input request `key`, when it sent one.
const json::object* answer(const mrtr::Retry& retry, std::string_view key) {
  const auto* value = retry.input_responses.if_contains(key);
  return value != nullptr ? value->if_object() : nullptr;
}

// An accepted elicitation's `property` as text ("?" when the user declined or left it out).
std::string elicited(const json::object& response, std::string_view property) {
  const auto* content = response.if_contains("content");
  const auto* value = content != nullptr && content->is_object()
                          ? content->as_object().if_contains(property)
                          : nullptr;
  if (value == nullptr) return "?";
  return value->is_string() ? std::string(value->as_string()) : json::serialize(*value);
}

std::string sampled(const json::object& response) {
  const auto* content = response.if_contains("content");
  const auto* text = content != nullptr && content->is_object()
                         ? content->as_object().if_contains("text")
                         : nullptr;
  return text != nullptr && text->is_string() ? std::string(text->as_string()) : "?";
}

std::string root_uris(const json::object& response) {
  std::string uris;
  if (const auto* roots = response.if_contains("roots"); roots != nullptr && roots->is_array()) {
    for (const auto& root : roots->as_array()) {
      const auto* uri = root.is_object() ? root.as_object().if_contains("uri") : nullptr;
      if (uri == nullptr || !uri->is_string()) continue;
      if (!uris.empty()) uris += ", ";
      uris.append(uri->as_string());
    }
  }
  return uris.empty() ? "(none)" : uris;
}

// The round a state says the request reached (0: none yet).
std::int64_t round_of(const mrtr::Retry& retry) {
  if (!retry.state) return 0;
  const auto* round = retry.state->if_contains("round");
  return round != nullptr && round->is_int64() ? round->as_int64() : 0;
}

}  // namespace

bool ConformanceFixtures::is_input_required_tool(std::string_view name) {
  return name.rfind("test_input_required_result_", 0) == 0 || name == "test_streaming_elicitation";
}

json::object ConformanceFixtures::declared_capabilities(const json::object& params) const {
  if (const auto* meta = params.if_contains("_meta"); meta != nullptr && meta->is_object()) {
    const auto* declared =
        meta->as_object().if_contains("io.modelcontextprotocol/clientCapabilities");
    if (declared != nullptr && declared->is_object()) return declared->as_object();
  }
  std::lock_guard lock(mutex_);
  return client_capabilities_;
}

void ConformanceFixtures::call_input_required(const Tool& tool, const json::object& params,
                                              const Reply& reply) {
  const auto read = mrtr::read_retry("tools/call", params, mrtr::daemon_seal());
  if (const auto* refused = std::get_if<mrtr::Refused>(&read))
    return reply->error(jsonrpc::code::invalid_params, refused->message);
  const auto& retry = std::get<mrtr::Retry>(read);
  const std::string scope = mrtr::scope_of("tools/call", params);
  const auto seal = [&scope](const json::object& payload) {
    return mrtr::daemon_seal().seal(scope, payload);
  };
  const std::string_view name = tool.name;

  if (name == "test_input_required_result_elicitation" || name == "test_streaming_elicitation") {
    if (const auto* user = answer(retry, "user_name"))
      return reply->result(text_result("Hello, " + elicited(*user, "name") + "!"));
    return reply->result(mrtr::input_required(
        json::object{{"user_name", elicit("What is your name?", "name", "string")}}));
  }
  if (name == "test_input_required_result_sampling") {
    if (const auto* response = answer(retry, "capital_question"))
      return reply->result(text_result("LLM response: " + sampled(*response)));
    return reply->result(mrtr::input_required(
        json::object{{"capital_question", sample("What is the capital of France?", 100)}}));
  }
  if (name == "test_input_required_result_list_roots") {
    if (const auto* response = answer(retry, "client_roots"))
      return reply->result(text_result("Client roots: " + root_uris(*response)));
    return reply->result(mrtr::input_required(json::object{{"client_roots", list_roots()}}));
  }
  if (name == "test_input_required_result_request_state" ||
      name == "test_input_required_result_tampered_state") {
    const auto* confirm = answer(retry, "confirm");
    if (confirm != nullptr && round_of(retry) == 1)
      return reply->result(
          text_result("state-ok: requestState verified, ok=" + elicited(*confirm, "ok")));
    return reply->result(
        mrtr::input_required(json::object{{"confirm", elicit("Please confirm", "ok", "boolean")}},
                             seal(json::object{{"round", 1}})));
  }
  if (name == "test_input_required_result_multiple_inputs") {
    const auto* user = answer(retry, "user_name");
    const auto* greeting = answer(retry, "greeting");
    const auto* roots = answer(retry, "client_roots");
    if (user != nullptr && greeting != nullptr && roots != nullptr && round_of(retry) == 1) {
      return reply->result(text_result("name=" + elicited(*user, "name") + ", greeting=" +
                                       sampled(*greeting) + ", roots=" + root_uris(*roots)));
    }
    return reply->result(mrtr::input_required(
        json::object{{"user_name", elicit("What is your name?", "name", "string")},
                     {"greeting", sample("Generate a greeting", 50)},
                     {"client_roots", list_roots()}},
        seal(json::object{{"round", 1}})));
  }
  if (name == "test_input_required_result_multi_round") {
    if (const auto* step2 = answer(retry, "step2"); step2 != nullptr && round_of(retry) == 2) {
      const auto* earlier = retry.state->if_contains("name");
      const std::string user =
          earlier != nullptr && earlier->is_string() ? std::string(earlier->as_string()) : "?";
      return reply->result(
          text_result(user + "'s favorite color is " + elicited(*step2, "color") + "."));
    }
    if (const auto* step1 = answer(retry, "step1"); step1 != nullptr && round_of(retry) == 1) {
      return reply->result(mrtr::input_required(
          json::object{
              {"step2", elicit("Step 2: What is your favorite color?", "color", "string")}},
          seal(json::object{{"round", 2}, {"name", elicited(*step1, "name")}})));
    }
    return reply->result(mrtr::input_required(
        json::object{{"step1", elicit("Step 1: What is your name?", "name", "string")}},
        seal(json::object{{"round", 1}})));
  }
  // test_input_required_result_capabilities: asks only what the client declared it can answer.
  const json::object declared = declared_capabilities(params);
  if (round_of(retry) == 1) {
    std::string answered;
    for (const auto& [key, response] : retry.input_responses) {
      if (!answered.empty()) answered += ", ";
      answered.append(key);
    }
    return reply->result(text_result("Answered: " + (answered.empty() ? "(none)" : answered)));
  }
  json::object requests;
  if (declared.contains("elicitation"))
    requests["user_name"] = elicit("What is your name?", "name", "string");
  if (declared.contains("sampling")) requests["greeting"] = sample("Generate a greeting", 50);
  if (declared.contains("roots")) requests["client_roots"] = list_roots();
  if (requests.empty()) {
    return reply->result(text_result(
        "The client declared none of elicitation, sampling and roots, so there is nothing to ask"));
  }
  reply->result(mrtr::input_required(std::move(requests), seal(json::object{{"round", 1}})));
}

void ConformanceFixtures::prompt_input_required(const json::object& params, const Reply& reply) {
  const auto read = mrtr::read_retry("prompts/get", params, mrtr::daemon_seal());
  if (const auto* refused = std::get_if<mrtr::Refused>(&read))
    return reply->error(jsonrpc::code::invalid_params, refused->message);
  const auto& retry = std::get<mrtr::Retry>(read);
  if (const auto* context = answer(retry, "user_context")) {
    json::array messages{
        json::object{{"role", "user"},
                     {"content", json::object{{"type", "text"},
                                              {"text", "Answer with this context in mind: " +
                                                           elicited(*context, "context")}}}}};
    return reply->result(json::object{{"messages", std::move(messages)}});
  }
  reply->result(mrtr::input_required(json::object{
      {"user_context", elicit("What context should the prompt use?", "context", "string")}}));
}

}  // namespace fcp::mcp
