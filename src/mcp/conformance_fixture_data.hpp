// The content of the MCP conformance suite's fixtures as plain data: the texts, images, schemas,
// resources and prompts its scenarios expect (descriptions in the suite's scenario sources).
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace fcp::mcp::fixture_data {

// A 1×1 red PNG and 10 ms of silence as a WAV (8 kHz, 16-bit mono), base64.
extern const std::string_view kPngBase64;
extern const std::string_view kWavBase64;

// The input schemas of the fixture tools that take arguments.
boost::json::object sampling_schema();
boost::json::object elicitation_schema();
boost::json::object json_schema_2020_12();

// The requestedSchema of elicitation/create for test_elicitation, the SEP-1034 defaults and the
// SEP-1330 enum variants.
boost::json::object user_details_request();
boost::json::object defaults_request();
boost::json::object enums_request();

// resources/list and resources/templates/list entries.
boost::json::array resources();
boost::json::array resource_templates();
// The resources/read contents of a fixture URI (static or from the template), or nullopt when
// the URI is not a fixture's.
std::optional<boost::json::object> read_resource(std::string_view uri);

// prompts/list entries, and the messages of prompts/get (nullopt: not a fixture prompt). A
// missing required argument is reported through `missing`.
boost::json::array prompts();
std::optional<boost::json::array> prompt_messages(std::string_view name,
                                                  const boost::json::object& arguments,
                                                  std::string& missing);

// completion/complete values for `argument` of a fixture prompt or of the resource template,
// starting with `prefix` (empty for anything else).
boost::json::array completions(const boost::json::object& ref, std::string_view argument,
                               std::string_view prefix);

}  // namespace fcp::mcp::fixture_data
