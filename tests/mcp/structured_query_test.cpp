// The query tools of the three real domains declare an outputSchema in tools/list, and map,
// stats, describe and list answer structuredContent beside their unchanged text that this
// schema validates (a small validator for the subset of JSON Schema the schema uses: type,
// properties, required, additionalProperties, items, enum). Other queries answer kind "other";
// errors carry none.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/json.hpp>
#include <string>
#include <vector>

#include "domains/drawio/domain.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/midi/domain.hpp"
#include "tests/mcp/connection_fixture.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::mcp {
namespace {

namespace json = boost::json;
using test_support::RecordingResponder;

bool has_type(const json::value& value, std::string_view type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_int64() || value.is_uint64();
  if (type == "boolean") return value.is_bool();
  ADD_FAILURE() << "the validator does not know type " << type;
  return false;
}

// The places where `value` breaks `schema` (empty: it conforms); fails on keywords it lacks.
void validate(const json::value& value, const json::object& schema, const std::string& where,
              std::vector<std::string>& problems) {
  for (const auto& entry : schema) {
    const std::string_view keyword = entry.key();
    if (keyword != "type" && keyword != "properties" && keyword != "required" &&
        keyword != "additionalProperties" && keyword != "items" && keyword != "enum" &&
        keyword != "description")
      ADD_FAILURE() << "the validator does not know keyword " << keyword;
  }
  if (const auto* type = schema.if_contains("type");
      type != nullptr && !has_type(value, type->as_string())) {
    problems.push_back(where + ": not of type " + std::string(type->as_string()));
    return;
  }
  if (const auto* choices = schema.if_contains("enum")) {
    const auto& list = choices->as_array();
    if (std::find(list.begin(), list.end(), value) == list.end())
      problems.push_back(where + ": " + json::serialize(value) + " is not in the enum");
  }
  if (value.is_object()) {
    const auto& object = value.as_object();
    if (const auto* required = schema.if_contains("required")) {
      for (const auto& name : required->as_array()) {
        if (!object.contains(name.as_string()))
          problems.push_back(where + ": lacks " + std::string(name.as_string()));
      }
    }
    const auto* properties = schema.if_contains("properties");
    const auto* additional = schema.if_contains("additionalProperties");
    for (const auto& member : object) {
      const std::string path = where + "." + std::string(member.key());
      if (properties != nullptr && properties->as_object().contains(member.key())) {
        validate(member.value(), properties->as_object().at(member.key()).as_object(), path,
                 problems);
      } else if (additional != nullptr && additional->is_object()) {
        validate(member.value(), additional->as_object(), path, problems);
      } else if (additional != nullptr && additional->is_bool() && !additional->as_bool()) {
        problems.push_back(path + ": not allowed");
      }
    }
  }
  if (value.is_array()) {
    if (const auto* items = schema.if_contains("items")) {
      std::size_t index = 0;
      for (const auto& element : value.as_array())
        validate(element, items->as_object(), where + "[" + std::to_string(index++) + "]",
                 problems);
    }
  }
}

class StructuredQueryTest : public ::testing::Test {
 protected:
  StructuredQueryTest()
      : drawio_(drawio::make_drawio_domain()),
        midi_(midi::make_midi_domain()),
        lofi_(lofi::make_lofi_domain(io_, json::object{{"connect_on_new", false}})),
        server_(workers_.get_executor(), {drawio_.get(), midi_.get(), lofi_.get()}, paths_, {}) {
    connection_ = server_.connect(ConnectionInfo{"test", "peer", std::nullopt, "local"}, nullptr);
    EXPECT_TRUE(request(1, "initialize", {{"protocolVersion", "2025-11-25"}})
                    .as_object()
                    .contains("result"));
    const auto listed = request(2, "tools/list");
    for (const auto& tool : listed.at("result").at("tools").as_array()) {
      if (const auto* schema = tool.as_object().if_contains("outputSchema"))
        schemas_[std::string(tool.at("name").as_string())] = schema->as_object();
    }
  }
  ~StructuredQueryTest() override {
    connection_->close();
    workers_.join();
  }

  json::value request(int id, const std::string& method, json::object params = {}) {
    auto responder = std::make_shared<RecordingResponder>();
    connection_->handle(
        json::serialize(
            json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}),
        responder);
    return responder->wait();
  }
  json::object call(const std::string& tool, json::object arguments) {
    return request(9, "tools/call", {{"name", tool}, {"arguments", arguments}})
        .at("result")
        .as_object();
  }
  void ops(const std::string& domain, json::array list) {
    const auto result = call(domain, {{"ops", std::move(list)}});
    ASSERT_FALSE(result.at("isError").as_bool()) << json::serialize(result);
  }
  // The structuredContent of `q`, checked against the tool's declared outputSchema.
  json::object query(const std::string& domain, const std::string& q) {
    const auto result = call(domain + "_query", {{"q", q}});
    EXPECT_FALSE(result.at("isError").as_bool()) << q << ": " << json::serialize(result);
    const auto* content = result.if_contains("structuredContent");
    if (content == nullptr) {
      ADD_FAILURE() << q << " answered no structuredContent: " << json::serialize(result);
      return {};
    }
    EXPECT_TRUE(schemas_.contains(domain + "_query")) << "no outputSchema for " << domain;
    std::vector<std::string> problems;
    validate(*content, schemas_[domain + "_query"], "structuredContent", problems);
    for (const auto& problem : problems)
      ADD_FAILURE() << q << ": " << problem << " in " << json::serialize(*content);
    EXPECT_EQ(content->at("query").as_string(), q);
    return content->as_object();
  }
  static std::vector<std::string> item_ids(const json::object& content) {
    std::vector<std::string> ids;
    for (const auto& item : content.at("items").as_array())
      ids.emplace_back(item.at("id").as_string());
    return ids;
  }
  static std::int64_t count(const json::object& content, const char* name) {
    return content.at("counts").at(name).as_int64();
  }

  boost::asio::io_context io_;
  boost::asio::thread_pool workers_{2};
  fcp::testing::AllowAll paths_;
  std::unique_ptr<core::Domain> drawio_;
  std::unique_ptr<core::Domain> midi_;
  std::unique_ptr<core::Domain> lofi_;
  Server server_;
  std::shared_ptr<Connection> connection_;
  std::map<std::string, json::object> schemas_;
};

TEST_F(StructuredQueryTest, OnlyTheQueryToolsDeclareAnOutputSchema) {
  EXPECT_EQ(schemas_.size(), 3u);
  for (const char* name : {"drawio_query", "midi_query", "lofi_query"})
    EXPECT_TRUE(schemas_.contains(name)) << name;
}

TEST_F(StructuredQueryTest, DrawioMapStatsDescribeList) {
  call("drawio_session", {{"action", "new \"Shop\""}});
  ops("drawio", {"add box Cart", "add box Pay", "add db Orders", "connect Cart -> Pay"});
  const auto map = query("drawio", "map");
  EXPECT_EQ(map.at("kind").as_string(), "map");
  EXPECT_EQ(map.at("title").as_string(), "Shop");
  EXPECT_EQ(map.at("items").as_array().size(), 3u);
  const auto stats = query("drawio", "stats");
  EXPECT_EQ(stats.at("kind").as_string(), "stats");
  EXPECT_EQ(count(stats, "shapes"), 3);
  EXPECT_EQ(count(stats, "edges"), 1);
  const auto list = query("drawio", "list @type:db");
  ASSERT_EQ(list.at("items").as_array().size(), 1u);
  EXPECT_EQ(list.at("items").at(0).at("name").as_string(), "Orders");
  EXPECT_EQ(list.at("items").at(0).at("kind").as_string(), "db");
  const auto describe = query("drawio", "describe Pay");
  EXPECT_EQ(describe.at("kind").as_string(), "describe");
  ASSERT_EQ(describe.at("items").as_array().size(), 1u);
  EXPECT_EQ(describe.at("items").at(0).at("name").as_string(), "Pay");
  const auto find = query("drawio", "find Cart");
  EXPECT_EQ(find.at("kind").as_string(), "other");
  EXPECT_TRUE(find.at("items").as_array().empty());
}

TEST_F(StructuredQueryTest, MidiMapStatsDescribe) {
  call("midi_session", {{"action", "new \"Song\""}});
  ops("midi", {"track add Keys instrument:acoustic-grand-piano",
               "track add Bass instrument:electric-bass-finger", "note Keys C4 at:1.1 dur:quarter",
               "note Keys E4 at:1.2 dur:quarter"});
  const auto map = query("midi", "map");
  EXPECT_EQ(item_ids(map), (std::vector<std::string>{"Keys", "Bass"}));
  const auto stats = query("midi", "stats");
  EXPECT_EQ(count(stats, "tracks"), 2);
  EXPECT_EQ(count(stats, "notes"), 2);
  const auto describe = query("midi", "describe Keys");
  ASSERT_EQ(item_ids(describe), std::vector<std::string>{"Keys"});
  EXPECT_EQ(describe.at("items").at(0).at("fields").at("notes").as_string(), "2");
  // midi has no list query: an error, which carries no structuredContent.
  const auto list = call("midi_query", {{"q", "list"}});
  EXPECT_TRUE(list.at("isError").as_bool());
  EXPECT_FALSE(list.contains("structuredContent"));
}

TEST_F(StructuredQueryTest, LofiMapStatsDescribeList) {
  call("lofi_session", {{"action", "new \"Gain\""}});
  ops("lofi",
      {"add plugin~ in", "add *~ vol args:0.5", "add plugout~ out", "wire in -> vol -> out"});
  const auto map = query("lofi", "map");
  EXPECT_EQ(map.at("items").as_array().size(), 3u);
  const auto stats = query("lofi", "stats");
  EXPECT_EQ(count(stats, "objects"), 3);
  EXPECT_EQ(count(stats, "wires"), 2);
  const auto list = query("lofi", "list @class:*~");
  EXPECT_EQ(item_ids(list), std::vector<std::string>{"vol"});
  const auto describe = query("lofi", "describe vol");
  ASSERT_EQ(item_ids(describe), std::vector<std::string>{"vol"});
  EXPECT_EQ(describe.at("items").at(0).at("fields").at("args").as_string(), "0.5");
  const auto device = query("lofi", "describe device");
  EXPECT_EQ(device.at("items").at(0).at("kind").as_string(), "device");
}

TEST_F(StructuredQueryTest, OtherQueriesAndNoDocument) {
  const auto status = query("drawio", "status");
  EXPECT_EQ(status.at("kind").as_string(), "other");
  EXPECT_FALSE(status.contains("title"));
  call("drawio_session", {{"action", "new \"Shop\""}});
  EXPECT_EQ(query("drawio", "history").at("kind").as_string(), "other");
  const auto unknown = call("drawio_query", {{"q", "describe Nowhere"}});
  EXPECT_TRUE(unknown.at("isError").as_bool());
  EXPECT_FALSE(unknown.contains("structuredContent"));
}

}  // namespace
}  // namespace fcp::mcp
