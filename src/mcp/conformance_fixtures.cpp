#include "mcp/conformance_fixtures.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/steady_timer.hpp>
#include <chrono>

#include "mcp/client_connection.hpp"
#include "mcp/conformance_fixture_data.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

// The pause between the steps of the logging and progress fixtures (the suite asks for ~50 ms).
constexpr std::chrono::milliseconds kPause{50};
// How long a fixture tool waits for the client to answer sampling or elicitation.
constexpr std::chrono::seconds kClientTimeout{30};
constexpr int kInfo = 1;  // RFC 5424 index of "info" (see client_connection.cpp)

json::object empty_schema() {
  return json::object{{"type", "object"}, {"properties", json::object{}}};
}

json::object text_result(std::string_view text, bool is_error = false) {
  return json::object{{"content", json::array{json::object{{"type", "text"}, {"text", text}}}},
                      {"isError", is_error}};
}

json::object image_content() {
  return json::object{
      {"type", "image"}, {"data", fixture_data::kPngBase64}, {"mimeType", "image/png"}};
}

json::object resource_content(std::string_view uri, std::string_view mime_type,
                              std::string_view text) {
  return json::object{
      {"type", "resource"},
      {"resource", json::object{{"uri", uri}, {"mimeType", mime_type}, {"text", text}}}};
}

// The fixture tools whose answer is fixed.
std::optional<json::object> static_result(std::string_view name) {
  if (name == "test_simple_text") return text_result("This is a simple text response for testing.");
  if (name == "test_missing_capability")
    return text_result("The client declared sampling, which this tool needs.");
  if (name == "test_error_handling")
    return text_result("This tool intentionally returns an error for testing", true);
  if (name == "test_image_content")
    return json::object{{"content", json::array{image_content()}}, {"isError", false}};
  if (name == "test_audio_content") {
    return json::object{{"content", json::array{json::object{{"type", "audio"},
                                                             {"data", fixture_data::kWavBase64},
                                                             {"mimeType", "audio/wav"}}}},
                        {"isError", false}};
  }
  if (name == "test_embedded_resource") {
    return json::object{
        {"content", json::array{resource_content("test://embedded-resource", "text/plain",
                                                 "This is an embedded resource content.")}},
        {"isError", false}};
  }
  if (name == "test_multiple_content_types") {
    json::array content{json::object{{"type", "text"}, {"text", "Multiple content types test:"}},
                        image_content(),
                        resource_content("test://mixed-content-resource", "application/json",
                                         R"({"test":"data","value":123})")};
    return json::object{{"content", std::move(content)}, {"isError", false}};
  }
  return std::nullopt;
}

const json::object& arguments_of(const json::object& params) {
  static const json::object none;
  const auto* arguments = params.if_contains("arguments");
  return arguments != nullptr && arguments->is_object() ? arguments->as_object() : none;
}

}  // namespace

std::vector<Tool> conformance_fixture_tools() {
  const auto tool = [](std::string name, std::string description, json::object schema,
                       json::object client_needs = {}) {
    return Tool{std::move(name),   ToolKind::fixture,
                nullptr,           "Conformance-suite fixture: " + std::move(description),
                std::move(schema), std::move(client_needs)};
  };
  const json::object sampling{{"sampling", json::object{}}};
  const json::object elicitation{{"elicitation", json::object{}}};
  const auto asks = [&tool](std::string name, std::string asked) {
    return tool(std::move(name),
                "answers input_required (" + std::move(asked) + ") until retried with the input.",
                empty_schema());
  };
  return {
      tool("test_simple_text", "returns one text content.", empty_schema()),
      tool("test_image_content", "returns a PNG image.", empty_schema()),
      tool("test_audio_content", "returns a WAV audio clip.", empty_schema()),
      tool("test_embedded_resource", "returns an embedded text resource.", empty_schema()),
      tool("test_multiple_content_types", "returns text, an image and a resource.", empty_schema()),
      tool("test_tool_with_logging", "sends three info log messages 50 ms apart.", empty_schema()),
      tool("test_tool_with_progress", "reports progress 0, 50, 100 of 100, 50 ms apart.",
           empty_schema()),
      tool("test_error_handling", "always returns a tool error (isError: true).", empty_schema()),
      tool("test_sampling", "asks the client's LLM (sampling/createMessage).",
           fixture_data::sampling_schema(), sampling),
      tool("test_elicitation", "asks the user for a username and email (elicitation/create).",
           fixture_data::elicitation_schema(), elicitation),
      tool("test_elicitation_sep1034_defaults",
           "elicitation/create with defaults for every primitive type (SEP-1034).", empty_schema(),
           elicitation),
      tool("test_elicitation_sep1330_enums",
           "elicitation/create with the five enum schema variants (SEP-1330).", empty_schema(),
           elicitation),
      tool("json_schema_2020_12_tool", "an input schema with JSON Schema 2020-12 keywords.",
           fixture_data::json_schema_2020_12()),
      tool("test_missing_capability", "needs the client's sampling capability (-32021 without it).",
           empty_schema(), sampling),
      tool("test_logging_tool",
           "sends three info log messages 50 ms apart, if the request asks for logs.",
           empty_schema()),
      tool("test_streaming_elicitation",
           "asks for a name with input_required (never a request on the response stream).",
           empty_schema(), elicitation),
      asks("test_input_required_result_elicitation", "elicitation user_name"),
      asks("test_input_required_result_sampling", "sampling capital_question"),
      asks("test_input_required_result_list_roots", "roots/list client_roots"),
      asks("test_input_required_result_request_state", "elicitation confirm, sealed requestState"),
      asks("test_input_required_result_multiple_inputs",
           "elicitation, sampling and roots/list at once, sealed requestState"),
      asks("test_input_required_result_multi_round", "two elicitation rounds, sealed requestState"),
      asks("test_input_required_result_tampered_state",
           "elicitation confirm; an altered requestState is refused"),
      asks("test_input_required_result_capabilities",
           "only what the request's client capabilities declare")};
}

void ConformanceFixtures::on_initialize(const json::object& params) {
  const auto* capabilities = params.if_contains("capabilities");
  std::lock_guard lock(mutex_);
  client_capabilities_ = capabilities != nullptr && capabilities->is_object()
                             ? capabilities->as_object()
                             : json::object{};
}

void ConformanceFixtures::add_capabilities(json::object& capabilities) {
  capabilities["prompts"] = json::object{{"listChanged", false}};
  capabilities["completions"] = json::object{};
  capabilities["resources"] = json::object{{"subscribe", true}, {"listChanged", false}};
}

void ConformanceFixtures::add_resources(json::array& resources) {
  for (auto& entry : fixture_data::resources())
    resources.push_back(std::move(entry));
}

void ConformanceFixtures::add_resource_templates(json::array& templates) {
  for (auto& entry : fixture_data::resource_templates())
    templates.push_back(std::move(entry));
}

void ConformanceFixtures::add_prompts(json::array& prompts) {
  for (auto& entry : fixture_data::prompts())
    prompts.push_back(std::move(entry));
}

bool ConformanceFixtures::handle(std::string_view method, const json::object& params,
                                 const Reply& reply) {
  const auto* uri = params.if_contains("uri");
  const std::string_view uri_text =
      uri != nullptr && uri->is_string() ? std::string_view(uri->as_string()) : "";
  if (method == "resources/read") {
    auto contents = fixture_data::read_resource(uri_text);
    if (!contents) return false;
    reply->result(*contents);
    return true;
  }
  if (method == "resources/subscribe" || method == "resources/unsubscribe") {
    // Other URIs (fcpd's documents) are the server's own.
    if (uri_text.rfind("test://", 0) != 0) return false;
    if (!fixture_data::read_resource(uri_text)) {
      reply->error(jsonrpc::code::resource_not_found,
                   "resource not found: \"" + std::string(uri_text) + "\"");
      return true;
    }
    {
      std::lock_guard lock(mutex_);
      if (method == "resources/subscribe") {
        subscriptions_.emplace(uri_text);
      } else {
        subscriptions_.erase(std::string(uri_text));
      }
    }
    reply->result(json::object{});
    return true;
  }
  if (method == "prompts/get") {
    const auto* name = params.if_contains("name");
    if (name == nullptr || !name->is_string()) return false;
    if (name->as_string() == "test_input_required_result_prompt") {
      prompt_input_required(params, reply);
      return true;
    }
    const auto* given = params.if_contains("arguments");
    std::string missing;
    auto messages = fixture_data::prompt_messages(
        name->as_string(),
        given != nullptr && given->is_object() ? given->as_object() : json::object{}, missing);
    if (!messages) return false;
    if (!missing.empty()) {
      reply->error(jsonrpc::code::invalid_params, "prompt \"" + std::string(name->as_string()) +
                                                      "\" needs the argument \"" + missing + "\"");
    } else {
      reply->result(json::object{{"messages", std::move(*messages)}});
    }
    return true;
  }
  if (method == "completion/complete") {
    const auto* ref = params.if_contains("ref");
    const auto* argument = params.if_contains("argument");
    const json::value* name = nullptr;
    const json::value* value = nullptr;
    if (argument != nullptr && argument->is_object()) {
      name = argument->as_object().if_contains("name");
      value = argument->as_object().if_contains("value");
    }
    if (ref == nullptr || !ref->is_object() || name == nullptr || !name->is_string() ||
        value == nullptr || !value->is_string()) {
      reply->error(jsonrpc::code::invalid_params,
                   "completion/complete needs \"ref\" {type, name|uri} and \"argument\" {name, "
                   "value}");
      return true;
    }
    auto values =
        fixture_data::completions(ref->as_object(), name->as_string(), value->as_string());
    const auto total = values.size();
    reply->result(json::object{
        {"completion",
         json::object{{"values", std::move(values)}, {"total", total}, {"hasMore", false}}}});
    return true;
  }
  return false;
}

void ConformanceFixtures::call_tool(const Tool& tool, const json::object& params,
                                    const Reply& reply, int log_level) {
  if (auto result = static_result(tool.name)) return reply->result(*result);
  const json::object& arguments = arguments_of(params);
  if (tool.name == "test_sampling") return call_sampling(arguments, reply);
  if (tool.name == "test_tool_with_logging" || tool.name == "test_logging_tool")
    return call_with_logging(reply, log_level);
  if (is_input_required_tool(tool.name)) return call_input_required(tool, params, reply);
  if (tool.name == "test_tool_with_progress") return call_with_progress(params, reply);
  if (tool.name == "json_schema_2020_12_tool")
    return reply->result(text_result("Received arguments: " + json::serialize(arguments)));
  call_elicitation(tool, arguments, reply);
}

bool ConformanceFixtures::client_can(std::string_view capability) const {
  std::lock_guard lock(mutex_);
  return client_capabilities_.contains(capability);
}

void ConformanceFixtures::call_sampling(const json::object& arguments, const Reply& reply) {
  const auto* prompt = arguments.if_contains("prompt");
  if (prompt == nullptr || !prompt->is_string())
    return reply->result(
        text_result("test_sampling needs the argument \"prompt\" (a string)", true));
  if (!client_can("sampling"))
    return reply->result(text_result(
        "the client did not declare the sampling capability in initialize, so test_sampling "
        "cannot ask it",
        true));
  json::object request{
      {"messages",
       json::array{json::object{
           {"role", "user"},
           {"content", json::object{{"type", "text"}, {"text", prompt->as_string()}}}}}},
      {"maxTokens", 100}};
  ask_client(reply, "sampling/createMessage", std::move(request),
             [reply](const json::value& body, bool failed) {
               if (failed) {
                 return reply->result(
                     text_result("sampling/createMessage failed: " + json::serialize(body), true));
               }
               const json::value* content =
                   body.is_object() ? body.as_object().if_contains("content") : nullptr;
               const json::value* text = content != nullptr && content->is_object()
                                             ? content->as_object().if_contains("text")
                                             : nullptr;
               reply->result(text_result("LLM response: " + (text != nullptr && text->is_string()
                                                                 ? std::string(text->as_string())
                                                                 : json::serialize(body))));
             });
}

void ConformanceFixtures::call_elicitation(const Tool& tool, const json::object& arguments,
                                           const Reply& reply) {
  std::string message;
  json::object schema;
  std::string prefix = "Elicitation completed: ";
  if (tool.name == "test_elicitation") {
    const auto* given = arguments.if_contains("message");
    if (given == nullptr || !given->is_string())
      return reply->result(
          text_result("test_elicitation needs the argument \"message\" (a string)", true));
    message = std::string(given->as_string());
    schema = fixture_data::user_details_request();
    prefix = "User response: ";
  } else if (tool.name == "test_elicitation_sep1034_defaults") {
    message = "Please review and update the form fields with defaults";
    schema = fixture_data::defaults_request();
  } else {
    message = "Please select options from the enum fields";
    schema = fixture_data::enums_request();
  }
  if (!client_can("elicitation"))
    return reply->result(
        text_result("the client did not declare the elicitation capability in "
                    "initialize, so " +
                        tool.name + " cannot ask it",
                    true));
  ask_client(
      reply, "elicitation/create",
      json::object{{"message", message}, {"requestedSchema", std::move(schema)}},
      [reply, prefix](const json::value& body, bool failed) {
        if (failed) {
          return reply->result(
              text_result("elicitation/create failed: " + json::serialize(body), true));
        }
        const json::object* answer = body.if_object();
        const json::value* action = answer != nullptr ? answer->if_contains("action") : nullptr;
        const json::value* content = answer != nullptr ? answer->if_contains("content") : nullptr;
        reply->result(text_result(
            prefix + "action=" +
            (action != nullptr && action->is_string() ? std::string(action->as_string()) : "?") +
            ", content=" + (content != nullptr ? json::serialize(*content) : "{}")));
      });
}

void ConformanceFixtures::call_with_logging(const Reply& reply, int log_level) {
  const auto log = [reply, log_level](std::string_view text) {
    if (log_level > kInfo) return;
    reply->notify(jsonrpc::notification(
        "notifications/message",
        json::object{{"level", "info"}, {"logger", "conformance-fixtures"}, {"data", text}}));
  };
  run_paced({[log] { log("Tool execution started"); }, [log] { log("Tool processing data"); },
             [log, reply] {
               log("Tool execution completed");
               reply->result(text_result("Tool with logging executed successfully"));
             }},
            0);
}

void ConformanceFixtures::call_with_progress(const json::object& params, const Reply& reply) {
  json::value token;
  if (const auto* meta = params.if_contains("_meta"); meta != nullptr && meta->is_object()) {
    if (const auto* given = meta->as_object().if_contains("progressToken")) token = *given;
  }
  const auto report = [reply, token](int progress) {
    if (token.is_null()) return;
    reply->notify(jsonrpc::notification(
        "notifications/progress",
        json::object{{"progressToken", token}, {"progress", progress}, {"total", 100}}));
  };
  run_paced({[report] { report(0); }, [report] { report(50); },
             [report, reply] {
               report(100);
               reply->result(text_result("Tool with progress executed successfully"));
             }},
            0);
}

void ConformanceFixtures::run_paced(std::vector<std::function<void()>> steps, std::size_t next) {
  steps[next]();
  if (next + 1 >= steps.size()) return;
  auto timer = std::make_shared<boost::asio::steady_timer>(executor_, kPause);
  timer->async_wait([weak = weak_from_this(), timer, steps = std::move(steps),
                     next](const boost::system::error_code& error) mutable {
    const auto self = weak.lock();
    if (error || !self) return;
    self->run_paced(std::move(steps), next + 1);
  });
}

void ConformanceFixtures::ask_client(const Reply& reply, std::string_view method,
                                     json::object params, ClientAnswer answer) {
  auto timer = std::make_shared<boost::asio::steady_timer>(executor_, kClientTimeout);
  std::string id;
  {
    std::lock_guard lock(mutex_);
    id = "fcp-fixture-" + std::to_string(++next_request_);
    awaiting_.emplace(id, Awaiting{std::move(answer), timer});
  }
  json::object request{
      {"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
  reply->notify(json::serialize(request));
  timer->async_wait([weak = weak_from_this(), id,
                     method = std::string(method)](const boost::system::error_code& error) {
    const auto self = weak.lock();
    if (error || !self) return;
    ClientAnswer expired;
    {
      std::lock_guard lock(self->mutex_);
      auto it = self->awaiting_.find(id);
      if (it == self->awaiting_.end()) return;
      expired = std::move(it->second.answer);
      self->awaiting_.erase(it);
    }
    expired(json::string("the client did not answer " + method + " within " +
                         std::to_string(kClientTimeout.count()) + " s"),
            true);
  });
}

bool ConformanceFixtures::on_response(const jsonrpc::Incoming& message) {
  if (!message.id.is_string()) return false;
  Awaiting awaiting;
  {
    std::lock_guard lock(mutex_);
    auto it = awaiting_.find(std::string(message.id.as_string()));
    if (it == awaiting_.end()) return false;
    awaiting = std::move(it->second);
    awaiting_.erase(it);
  }
  awaiting.timeout->cancel();
  const bool failed = !message.error.is_null();
  awaiting.answer(failed ? message.error : message.result, failed);
  return true;
}

}  // namespace fcp::mcp
