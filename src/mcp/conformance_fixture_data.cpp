#include "mcp/conformance_fixture_data.hpp"

#include <array>
#include <utility>

namespace fcp::mcp::fixture_data {
namespace json = boost::json;

const std::string_view kPngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const std::string_view kWavBase64 =
    "UklGRsQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAA";

namespace {

constexpr std::string_view kTemplatePrefix = "test://template/";
constexpr std::string_view kTemplateSuffix = "/data";

json::object string_property(std::string_view description) {
  return json::object{{"type", "string"}, {"description", description}};
}

json::object object_schema(json::object properties, json::array required) {
  json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

// `{const, title}` choices for titled enums (oneOf, anyOf).
json::array titled(const std::array<std::pair<std::string_view, std::string_view>, 3>& choices) {
  json::array out;
  for (const auto& choice : choices)
    out.push_back(json::object{{"const", choice.first}, {"title", choice.second}});
  return out;
}

json::object text_content(std::string_view text) {
  return json::object{{"type", "text"}, {"text", text}};
}

json::object user_message(json::object content) {
  return json::object{{"role", "user"}, {"content", std::move(content)}};
}

std::string_view string_argument(const json::object& arguments, std::string_view name) {
  const auto* value = arguments.if_contains(name);
  return value != nullptr && value->is_string() ? std::string_view(value->as_string())
                                                : std::string_view();
}

}  // namespace

json::object sampling_schema() {
  return object_schema(
      json::object{{"prompt", string_property("The prompt to send to the client's LLM")}},
      json::array{"prompt"});
}

json::object elicitation_schema() {
  return object_schema(json::object{{"message", string_property("The message to show the user")}},
                       json::array{"message"});
}

json::object json_schema_2020_12() {
  const auto required = [](std::string_view name) {
    return json::object{{"required", json::array{name}}};
  };
  json::object address{{"$anchor", "addressDef"},
                       {"type", "object"},
                       {"properties", json::object{{"street", json::object{{"type", "string"}}},
                                                   {"city", json::object{{"type", "string"}}}}}};
  json::object properties{
      {"name", json::object{{"type", "string"}}},
      {"address", json::object{{"$ref", "#/$defs/address"}}},
      {"contactMethod", json::object{{"type", "string"}, {"enum", json::array{"phone", "email"}}}},
      {"phone", json::object{{"type", "string"}}},
      {"email", json::object{{"type", "string"}}}};
  json::object condition{
      {"properties", json::object{{"contactMethod", json::object{{"const", "phone"}}}}},
      {"required", json::array{"contactMethod"}}};
  return json::object{
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"type", "object"},
      {"$defs", json::object{{"address", std::move(address)}}},
      {"properties", std::move(properties)},
      {"allOf",
       json::array{json::object{{"anyOf", json::array{required("phone"), required("email")}}}}},
      {"if", std::move(condition)},
      {"then", required("phone")},
      {"else", required("email")},
      {"additionalProperties", false}};
}

json::object user_details_request() {
  return object_schema(json::object{{"username", string_property("User's response")},
                                    {"email", string_property("User's email address")}},
                       json::array{"username", "email"});
}

json::object defaults_request() {
  json::object properties{
      {"name", json::object{{"type", "string"}, {"title", "Name"}, {"default", "John Doe"}}},
      {"age", json::object{{"type", "integer"}, {"title", "Age"}, {"default", 30}}},
      {"score", json::object{{"type", "number"}, {"title", "Score"}, {"default", 95.5}}},
      {"status", json::object{{"type", "string"},
                              {"title", "Status"},
                              {"enum", json::array{"active", "inactive", "pending"}},
                              {"default", "active"}}},
      {"verified", json::object{{"type", "boolean"}, {"title", "Verified"}, {"default", true}}}};
  return object_schema(std::move(properties), {});
}

json::object enums_request() {
  const json::array options{"option1", "option2", "option3"};
  json::object properties{
      {"untitledSingle", json::object{{"type", "string"}, {"enum", options}}},
      {"titledSingle", json::object{{"type", "string"},
                                    {"oneOf", titled({{{"value1", "First Option"},
                                                       {"value2", "Second Option"},
                                                       {"value3", "Third Option"}}})}}},
      {"legacyEnum",
       json::object{{"type", "string"},
                    {"enum", json::array{"opt1", "opt2", "opt3"}},
                    {"enumNames", json::array{"Option One", "Option Two", "Option Three"}}}},
      {"untitledMulti",
       json::object{{"type", "array"},
                    {"items", json::object{{"type", "string"}, {"enum", options}}}}},
      {"titledMulti",
       json::object{{"type", "array"},
                    {"items", json::object{{"anyOf", titled({{{"value1", "First Choice"},
                                                              {"value2", "Second Choice"},
                                                              {"value3", "Third Choice"}}})}}}}}};
  return object_schema(std::move(properties), {});
}

json::array resources() {
  const auto entry = [](std::string_view uri, std::string_view name, std::string_view description,
                        std::string_view mime_type) {
    return json::object{
        {"uri", uri}, {"name", name}, {"description", description}, {"mimeType", mime_type}};
  };
  return json::array{
      entry("test://static-text", "static-text", "Conformance fixture: a static text resource",
            "text/plain"),
      entry("test://static-binary", "static-binary",
            "Conformance fixture: a static binary resource (PNG)", "image/png"),
      entry("test://watched-resource", "watched-resource",
            "Conformance fixture: a resource clients may subscribe to", "text/plain")};
}

json::array resource_templates() {
  return json::array{json::object{{"uriTemplate", "test://template/{id}/data"},
                                  {"name", "template-data"},
                                  {"description", "Conformance fixture: JSON data for any id"},
                                  {"mimeType", "application/json"}}};
}

std::optional<json::object> read_resource(std::string_view uri) {
  const auto contents = [uri](std::string_view mime_type, std::string_view key,
                              std::string_view value) {
    return json::object{{"contents", json::array{json::object{
                                         {"uri", uri}, {"mimeType", mime_type}, {key, value}}}}};
  };
  if (uri == "test://static-text")
    return contents("text/plain", "text", "This is the content of the static text resource.");
  if (uri == "test://static-binary") return contents("image/png", "blob", kPngBase64);
  if (uri == "test://watched-resource")
    return contents("text/plain", "text", "Watched resource content");
  if (uri.size() > kTemplatePrefix.size() + kTemplateSuffix.size() &&
      uri.substr(0, kTemplatePrefix.size()) == kTemplatePrefix &&
      uri.substr(uri.size() - kTemplateSuffix.size()) == kTemplateSuffix) {
    const std::string_view id = uri.substr(
        kTemplatePrefix.size(), uri.size() - kTemplatePrefix.size() - kTemplateSuffix.size());
    if (id.find('/') != std::string_view::npos) return std::nullopt;
    const json::object data{
        {"id", id}, {"templateTest", true}, {"data", "Data for ID: " + std::string(id)}};
    return contents("application/json", "text", json::serialize(data));
  }
  return std::nullopt;
}

json::array prompts() {
  const auto argument = [](std::string_view name, std::string_view description) {
    return json::object{{"name", name}, {"description", description}, {"required", true}};
  };
  const auto prompt = [](std::string_view name, std::string_view description,
                         json::array arguments) {
    return json::object{
        {"name", name}, {"description", description}, {"arguments", std::move(arguments)}};
  };
  return json::array{
      prompt("test_simple_prompt", "Conformance fixture: a prompt without arguments", {}),
      prompt("test_prompt_with_arguments", "Conformance fixture: a prompt with two arguments",
             json::array{argument("arg1", "First test argument"),
                         argument("arg2", "Second test argument")}),
      prompt("test_prompt_with_embedded_resource",
             "Conformance fixture: a prompt that embeds a resource",
             json::array{argument("resourceUri", "URI of the resource to embed")}),
      prompt("test_prompt_with_image", "Conformance fixture: a prompt with an image", {}),
      prompt("test_input_required_result_prompt",
             "Conformance fixture: asks the client for context (input_required) before it answers",
             {})};
}

std::optional<json::array> prompt_messages(std::string_view name, const json::object& arguments,
                                           std::string& missing) {
  const auto require = [&](std::string_view argument) {
    if (missing.empty() && string_argument(arguments, argument).empty())
      missing = std::string(argument);
    return std::string(string_argument(arguments, argument));
  };
  if (name == "test_simple_prompt")
    return json::array{user_message(text_content("This is a simple prompt for testing."))};
  if (name == "test_prompt_with_arguments") {
    const std::string arg1 = require("arg1");
    const std::string arg2 = require("arg2");
    return json::array{user_message(
        text_content("Prompt with arguments: arg1='" + arg1 + "', arg2='" + arg2 + "'"))};
  }
  if (name == "test_prompt_with_embedded_resource") {
    const std::string uri = require("resourceUri");
    json::object resource{{"uri", uri},
                          {"mimeType", "text/plain"},
                          {"text", "Embedded resource content for testing."}};
    return json::array{
        user_message(json::object{{"type", "resource"}, {"resource", std::move(resource)}}),
        user_message(text_content("Please process the embedded resource above."))};
  }
  if (name == "test_prompt_with_image") {
    return json::array{user_message(json::object{
                           {"type", "image"}, {"data", kPngBase64}, {"mimeType", "image/png"}}),
                       user_message(text_content("Please analyze the image above."))};
  }
  return std::nullopt;
}

json::array completions(const json::object& ref, std::string_view argument,
                        std::string_view prefix) {
  const std::string_view type = string_argument(ref, "type");
  json::array candidates;
  if (type == "ref/prompt" && string_argument(ref, "name") == "test_prompt_with_arguments") {
    if (argument == "arg1") candidates = {"paris", "park", "party", "test", "testing"};
    if (argument == "arg2") candidates = {"world", "word", "work"};
  } else if (type == "ref/resource" && string_argument(ref, "uri") == "test://template/{id}/data" &&
             argument == "id") {
    candidates = {"1", "2", "3", "123"};
  }
  json::array values;
  for (const auto& candidate : candidates) {
    const std::string_view text = candidate.as_string();
    if (text.substr(0, prefix.size()) == prefix) values.push_back(candidate);
  }
  return values;
}

}  // namespace fcp::mcp::fixture_data
