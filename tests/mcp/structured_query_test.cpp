// The query tools of the three real domains declare an outputSchema in tools/list, and the
// queries their tables mark structured answer structuredContent beside their unchanged text that
// this schema validates (a small validator for the subset of JSON Schema the schema uses: type,
// properties, required, additionalProperties, items, enum, minimum). Other queries answer kind
// "other"; errors carry none; a 2025-03-26 session gets neither outputSchema nor structuredContent.
// The data names the entities the text shows, in its order, with its counts, capped as it is.
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
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
  if (type == "number") return value.is_number();
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
        keyword != "description" && keyword != "minimum")
      ADD_FAILURE() << "the validator does not know keyword " << keyword;
  }
  if (const auto* type = schema.if_contains("type")) {
    bool any = false;
    if (type->is_array()) {
      for (const auto& one : type->as_array())
        any = any || has_type(value, one.as_string());
    } else {
      any = has_type(value, type->as_string());
    }
    if (!any) {
      problems.push_back(where + ": not of type " + json::serialize(*type));
      return;
    }
  }
  if (const auto* minimum = schema.if_contains("minimum");
      minimum != nullptr && value.is_number() &&
      value.to_number<double>() < minimum->to_number<double>())
    problems.push_back(where + ": below the minimum");
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
  explicit StructuredQueryTest(const char* version = "2025-11-25")
      : drawio_(drawio::make_drawio_domain()),
        midi_(midi::make_midi_domain()),
        lofi_(lofi::make_lofi_domain(io_, json::object{{"connect_on_new", false}})),
        server_(workers_.get_executor(), {drawio_.get(), midi_.get(), lofi_.get()}, paths_, {}) {
    connection_ = server_.connect(ConnectionInfo{"test", "peer", std::nullopt, "local"}, nullptr);
    EXPECT_TRUE(
        request(1, "initialize", {{"protocolVersion", version}}).as_object().contains("result"));
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
  // The structuredContent of `q`, checked against the tool's declared outputSchema; `text`
  // receives the text content.
  json::object query(const std::string& domain, const std::string& q, std::string* text = nullptr) {
    const auto result = call(domain + "_query", {{"q", q}});
    if (text != nullptr) *text = std::string(result.at("content").at(0).at("text").as_string());
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
  static std::string field(const json::object& item, const char* name) {
    const auto& value = item.at("fields").at(name);
    return value.is_string() ? std::string(value.as_string()) : json::serialize(value);
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

// What a text shows of one entity: its name as written, its kind, and x,y when it shows them.
struct Shown {
  std::string name;
  std::string kind;
  std::string x, y;
  bool operator==(const Shown&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Shown& shown) {
  return out << shown.name << "(" << shown.kind << ")@" << shown.x << "," << shown.y;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// The name the text shows for an item: drawio writes #ID for a shape without a label.
std::string shown_name(const json::value& item) {
  const std::string name(item.at("name").as_string());
  return name.empty() ? "#" + std::string(item.at("id").as_string()) : name;
}

std::string number_text(const json::value& value) {
  return value.is_string() ? std::string(value.as_string()) : json::serialize(value);
}

// drawio's map text: "[Group] region (x,y)-(r,b)" rows and "Name(type) @(x,y)" entries, in order,
// and the shapes and groups its "… N more shapes, M more groups" line leaves out.
std::vector<Shown> drawio_map_entities(const std::string& text, std::size_t& more) {
  static const std::regex group(R"(^  \[(.*)\] \S+ \((-?\d+),(-?\d+)\)-\(-?\d+,-?\d+\)$)");
  static const std::regex entry(R"(^\s*(.*)\(([^()]*)\) @\((-?\d+),(-?\d+)\)( — ungrouped)?$)");
  static const std::regex more_shapes(R"((\d+) more shapes)"), more_groups(R"((\d+) more groups)");
  std::vector<Shown> out;
  more = 0;
  const auto lines = lines_of(text);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::smatch m;
    if (line.empty()) continue;
    if (line.starts_with("  …")) {
      if (std::regex_search(line, m, more_shapes)) more += std::stoul(m[1]);
      if (std::regex_search(line, m, more_groups)) more += std::stoul(m[1]);
      continue;
    }
    if (std::regex_match(line, m, group)) {
      out.push_back({m[1], "group", m[2], m[3]});
      continue;
    }
    std::size_t from = 0;
    while (from <= line.size()) {
      const std::size_t bar = line.find(" | ", from);
      const std::string piece =
          line.substr(from, bar == std::string::npos ? std::string::npos : bar - from);
      if (std::regex_match(piece, m, entry)) {
        out.push_back({m[1], m[2], m[3], m[4]});
      } else {
        ADD_FAILURE() << "unparsed map entry: " << piece;
      }
      if (bar == std::string::npos) break;
      from = bar + 3;
    }
  }
  return out;
}

std::vector<Shown> drawio_items(const json::object& content, bool with_place) {
  std::vector<Shown> out;
  for (const auto& item : content.at("items").as_array()) {
    const auto& fields = item.at("fields").as_object();
    out.push_back({shown_name(item), std::string(item.at("kind").as_string()),
                   with_place ? number_text(fields.at("x")) : "",
                   with_place ? number_text(fields.at("y")) : ""});
  }
  return out;
}

TEST_F(StructuredQueryTest, OnlyTheQueryToolsDeclareAnOutputSchema) {
  EXPECT_EQ(schemas_.size(), 3u);
  for (const char* name : {"drawio_query", "midi_query", "lofi_query"})
    EXPECT_TRUE(schemas_.contains(name)) << name;
  // The kinds are the queries each domain's table marks structured.
  const auto kinds = [&](const char* tool) {
    std::vector<std::string> out;
    for (const auto& kind : schemas_[tool].at("properties").at("kind").at("enum").as_array())
      out.emplace_back(kind.as_string());
    return out;
  };
  EXPECT_EQ(kinds("drawio_query"),
            (std::vector<std::string>{"list", "describe", "stats", "map", "other"}));
  EXPECT_EQ(kinds("midi_query"),
            (std::vector<std::string>{"map", "tracks", "describe", "stats", "other"}));
  EXPECT_EQ(kinds("lofi_query"),
            (std::vector<std::string>{"map", "stats", "describe", "list", "other"}));
}

TEST_F(StructuredQueryTest, DrawioMapStatsDescribeList) {
  call("drawio_session", {{"action", "new \"Shop\""}});
  ops("drawio", {"add box Cart", "add box Pay", "add db Orders", "connect Cart -> Pay"});
  const auto map = query("drawio", "map");
  EXPECT_EQ(map.at("kind").as_string(), "map");
  EXPECT_EQ(map.at("title").as_string(), "Shop");
  EXPECT_EQ(map.at("items").as_array().size(), 3u);
  EXPECT_EQ(map.at("total").to_number<std::uint64_t>(), 3u);
  EXPECT_FALSE(map.at("truncated").as_bool());
  // Typed fields: a position is a number, a flag a boolean.
  EXPECT_TRUE(map.at("items").at(0).at("fields").at("x").is_int64());
  EXPECT_TRUE(map.at("items").at(0).at("fields").at("ungrouped").as_bool());
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
  EXPECT_TRUE(describe.at("items").at(0).at("fields").at("width").is_int64());
  // An edge: the edge itself, with its ends.
  const auto edge = query("drawio", "describe Cart -> Pay");
  ASSERT_EQ(edge.at("items").as_array().size(), 1u);
  EXPECT_EQ(edge.at("items").at(0).at("kind").as_string(), "edge");
  EXPECT_EQ(field(edge.at("items").at(0).as_object(), "source_name"), "Cart");
  EXPECT_EQ(field(edge.at("items").at(0).as_object(), "target_name"), "Pay");
  const auto find = query("drawio", "find Cart");
  EXPECT_EQ(find.at("kind").as_string(), "other");
  EXPECT_TRUE(find.at("items").as_array().empty());
}

// Every entity drawio's text shows is in the data, in the same order, with the same counts.
TEST_F(StructuredQueryTest, DrawioDataShowsWhatTheTextShows) {
  call("drawio_session", {{"action", "new \"Shop\""}});
  ops("drawio", {"add svc Web at:0,0", "add svc Api at:300,0", "add db Orders at:600,400",
                 "add box Loose at:900,0", "group Web as:Frontend", "group Api Orders as:Backend",
                 "connect Web -> Api", "page add Other", "add box Memo", "add box Note",
                 "page switch Page-1"});
  std::string text;
  const auto map = query("drawio", "map", &text);
  std::size_t more = 0;
  const auto shown = drawio_map_entities(text, more);
  EXPECT_EQ(drawio_items(map, true), shown) << text;
  EXPECT_EQ(more, 0u);
  EXPECT_EQ(map.at("total").to_number<std::uint64_t>(), shown.size());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(\| (\d+)s (\d+)e (\d+)g)"))) << text;
  EXPECT_EQ(count(map, "shapes"), std::stoi(m[1]));
  EXPECT_EQ(count(map, "edges"), std::stoi(m[2]));
  EXPECT_EQ(count(map, "groups"), std::stoi(m[3]));
  // stats: its counts and its types line.
  const auto stats = query("drawio", "stats", &text);
  ASSERT_TRUE(std::regex_search(
      text, m, std::regex(R"(shapes: (\d+), edges: (\d+), groups: (\d+), pages: (\d+))")));
  EXPECT_EQ(count(stats, "shapes"), std::stoi(m[1]));
  EXPECT_EQ(count(stats, "edges"), std::stoi(m[2]));
  EXPECT_EQ(count(stats, "groups"), std::stoi(m[3]));
  EXPECT_EQ(count(stats, "pages"), std::stoi(m[4]));
  std::string types;
  for (const auto& item : stats.at("items").as_array())
    types += (types.empty() ? "" : ", ") + field(item.as_object(), "shapes") + " " +
             std::string(item.at("name").as_string());
  EXPECT_NE(text.find("types: " + types + "\n"), std::string::npos) << text;
  // list of another page: its shapes, and that page's counts.
  const auto other = query("drawio", "list @page:Other", &text);
  EXPECT_EQ(text, "Memo(box)\nNote(box)");
  EXPECT_EQ(drawio_items(other, false),
            (std::vector<Shown>{{"Memo", "box", "", ""}, {"Note", "box", "", ""}}));
  EXPECT_EQ(count(other, "shapes"), 2);
  EXPECT_EQ(count(other, "edges"), 0);
  const auto described = query("drawio", "describe @page:Other", &text);
  EXPECT_EQ(count(described, "shapes"), 2);
  EXPECT_EQ(drawio_items(described, false),
            (std::vector<Shown>{{"Memo", "box", "", ""}, {"Note", "box", "", ""}}));
  // A group described is the group.
  const auto group = query("drawio", "describe Backend", &text);
  ASSERT_EQ(group.at("items").as_array().size(), 1u);
  EXPECT_EQ(group.at("items").at(0).at("kind").as_string(), "group");
  EXPECT_TRUE(text.starts_with("Backend (group")) << text;
}

// A shape without a label: the text writes #ID, the data its id and an empty name.
TEST_F(StructuredQueryTest, DrawioUnlabelledShapeIsItsId) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("fcp-structured-" + std::to_string(::getpid()) + ".drawio");
  std::ofstream(path) << "<mxfile><diagram id=\"d\" name=\"Page-1\"><mxGraphModel><root>"
                         "<mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>"
                         "<mxCell id=\"x9\" value=\"\" style=\"whiteSpace=wrap;\" vertex=\"1\" "
                         "parent=\"1\"><mxGeometry x=\"0\" y=\"0\" width=\"80\" height=\"40\" "
                         "as=\"geometry\"/></mxCell></root></mxGraphModel></diagram></mxfile>";
  const auto opened = call("drawio_session", {{"action", "open " + path.string()}});
  std::filesystem::remove(path);
  ASSERT_FALSE(opened.at("isError").as_bool()) << json::serialize(opened);
  std::string text;
  const auto list = query("drawio", "list", &text);
  ASSERT_EQ(list.at("items").as_array().size(), 1u);
  const auto& item = list.at("items").at(0);
  EXPECT_EQ(item.at("name").as_string(), "");
  EXPECT_EQ(text, "#" + std::string(item.at("id").as_string()) + "(box)");
}

// The map's rows are capped (200): items hold what the text shows, total all, truncated says so.
TEST_F(StructuredQueryTest, DrawioMapItemsAreCappedAsItsText) {
  call("drawio_session", {{"action", "new \"Big\""}});
  json::array adds;
  for (int i = 0; i < 230; ++i)
    adds.emplace_back("add box S" + std::to_string(i) + " at:" + std::to_string(i * 150) + ",0");
  ops("drawio", std::move(adds));
  std::string text;
  const auto map = query("drawio", "map", &text);
  std::size_t more = 0;
  const auto shown = drawio_map_entities(text, more);
  EXPECT_EQ(shown.size(), 200u);
  EXPECT_EQ(more, 30u);
  EXPECT_EQ(drawio_items(map, true), shown);
  EXPECT_EQ(map.at("total").to_number<std::uint64_t>(), 230u);
  EXPECT_TRUE(map.at("truncated").as_bool());
  const auto described = query("drawio", "describe *", &text);
  EXPECT_EQ(described.at("items").as_array().size(), 200u);
  EXPECT_EQ(described.at("total").to_number<std::uint64_t>(), 230u);
  EXPECT_TRUE(described.at("truncated").as_bool());
  EXPECT_NE(text.find("… 30 more shapes"), std::string::npos);
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
  const auto& fields = describe.at("items").at(0).at("fields");
  EXPECT_EQ(fields.at("notes").as_int64(), 2);
  EXPECT_EQ(fields.at("channel").as_int64(), 1);
  EXPECT_FALSE(fields.at("muted").as_bool());
  // midi has no list query: an error, which carries no structuredContent.
  const auto list = call("midi_query", {{"q", "list"}});
  EXPECT_TRUE(list.at("isError").as_bool());
  EXPECT_FALSE(list.contains("structuredContent"));
}

// Every track midi's map shows is in the data, in order, with its channel and note count.
TEST_F(StructuredQueryTest, MidiDataShowsWhatTheTextShows) {
  call("midi_session", {{"action", "new \"Song\""}});
  ops("midi", {"track add Keys instrument:acoustic-grand-piano",
               "track add Bass instrument:electric-bass-finger", "track add Drums instrument:drums",
               "note Keys C4 at:1.1 dur:quarter", "note Bass E2 at:1.1 dur:half",
               "note Bass G2 at:2.1 dur:half", "mute Bass"});
  std::string text;
  const auto map = query("midi", "map", &text);
  static const std::regex row(R"(^  \d+\. (\S+) ch:(\d+) .* \((\d+) notes?\)( \[M\])?( \[S\])?$)");
  std::vector<std::string> shown;
  std::size_t index = 0;
  for (const auto& line : lines_of(text)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    shown.push_back(m[1]);
    ASSERT_LT(index, map.at("items").as_array().size()) << line;
    const auto& item = map.at("items").at(index++).as_object();
    EXPECT_EQ(item.at("id").as_string(), m[1].str());
    EXPECT_EQ(field(item, "channel"), m[2].str());
    EXPECT_EQ(field(item, "notes"), m[3].str());
    EXPECT_EQ(field(item, "muted"), m[4].matched ? "true" : "false");
  }
  EXPECT_EQ(item_ids(map), shown) << text;
  EXPECT_EQ(map.at("total").to_number<std::uint64_t>(), 3u);
  // tracks is midi's list: the same tracks in the same order, with the counts its text shows.
  const auto tracks = query("midi", "tracks", &text);
  EXPECT_EQ(tracks.at("kind").as_string(), "tracks") << text;
  EXPECT_EQ(item_ids(tracks), shown) << text;
  static const std::regex listed(
      R"(^  \d+\. (\S+) \(ch:(\d+)\) .* \| (\d+) notes?, (\d+) cc, (\d+) bends?.*$)");
  std::size_t listed_index = 0;
  for (const auto& line : lines_of(text)) {
    std::smatch t;
    if (!std::regex_match(line, t, listed)) continue;
    ASSERT_LT(listed_index, tracks.at("items").as_array().size()) << line;
    const auto& item = tracks.at("items").at(listed_index++).as_object();
    EXPECT_EQ(item.at("id").as_string(), t[1].str());
    EXPECT_EQ(field(item, "channel"), t[2].str());
    EXPECT_EQ(field(item, "notes"), t[3].str());
    EXPECT_EQ(field(item, "ccs"), t[4].str());
    EXPECT_EQ(field(item, "bends"), t[5].str());
  }
  EXPECT_EQ(listed_index, shown.size()) << text;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(Tracks \((\d+)\):)")));
  EXPECT_EQ(count(map, "tracks"), std::stoi(m[1]));
  const auto stats = query("midi", "stats", &text);
  for (const auto& [label, name] :
       std::vector<std::pair<std::string, const char*>>{{"Tracks", "tracks"},
                                                        {"Notes", "notes"},
                                                        {"CCs", "ccs"},
                                                        {"Pitch bends", "bends"},
                                                        {"Total events", "events"},
                                                        {"Measures", "measures"}}) {
    ASSERT_TRUE(std::regex_search(text, m, std::regex("\n" + label + R"(: (\d+))"))) << label;
    EXPECT_EQ(count(stats, name), std::stoi(m[1])) << label;
  }
}

TEST_F(StructuredQueryTest, LofiMapStatsDescribeList) {
  call("lofi_session", {{"action", "new \"Gain\""}});
  ops("lofi",
      {"add plugin~ in", "add *~ vol args:0.5", "add plugout~ out", "wire in -> vol -> out"});
  const auto map = query("lofi", "map");
  EXPECT_EQ(item_ids(map),
            (std::vector<std::string>{"in", "vol", "out", "in:0 -> vol:0", "vol:0 -> out:0"}));
  const auto stats = query("lofi", "stats");
  EXPECT_EQ(count(stats, "objects"), 3);
  EXPECT_EQ(count(stats, "wires"), 2);
  const auto list = query("lofi", "list @class:*~");
  EXPECT_EQ(item_ids(list), std::vector<std::string>{"vol"});
  const auto describe = query("lofi", "describe vol");
  ASSERT_EQ(item_ids(describe), std::vector<std::string>{"vol"});
  EXPECT_EQ(describe.at("items").at(0).at("fields").at("args").as_string(), "0.5");
  EXPECT_TRUE(describe.at("items").at(0).at("fields").at("x").is_number());
  EXPECT_FALSE(describe.at("items").at(0).at("fields").at("ui").as_bool());
  const auto device = query("lofi", "describe device");
  EXPECT_EQ(device.at("items").at(0).at("kind").as_string(), "device");
}

// Every object and wire lofi's map shows is in the data, in order; list is capped as its text.
TEST_F(StructuredQueryTest, LofiDataShowsWhatTheTextShows) {
  call("lofi_session", {{"action", "new \"Gain\""}});
  json::array adds{"add plugin~ in", "add plugout~ out"};
  for (int i = 0; i < 505; ++i)
    adds.emplace_back("add *~ g" + std::to_string(i) + " args:0.5");
  adds.emplace_back("wire in -> g0 -> out");
  ops("lofi", std::move(adds));
  std::string text;
  const auto map = query("lofi", "map", &text);
  std::vector<std::string> shown;
  for (const auto& line : lines_of(text)) {
    if (line.starts_with("  ~ ")) {
      shown.push_back(line.substr(4));
    } else if (line.starts_with("  ") && !line.starts_with("  …")) {
      shown.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  EXPECT_EQ(item_ids(map), shown);
  EXPECT_EQ(map.at("items").as_array().size(), 500u + 2u);
  EXPECT_EQ(map.at("total").to_number<std::uint64_t>(), 507u + 2u);
  EXPECT_TRUE(map.at("truncated").as_bool());
  const auto list = query("lofi", "list @class:*~", &text);
  EXPECT_EQ(list.at("items").as_array().size(), 500u);
  EXPECT_EQ(list.at("total").to_number<std::uint64_t>(), 505u);
  EXPECT_NE(text.find("… 5 more"), std::string::npos);
  const auto stats = query("lofi", "stats", &text);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(objects: (\d+)\n)")));
  EXPECT_EQ(count(stats, "objects"), std::stoi(m[1]));
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(wires: (\d+))")));
  EXPECT_EQ(count(stats, "wires"), std::stoi(m[1]));
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

// A session of a protocol before 2025-06-18 gets today's results: no outputSchema, no
// structuredContent, the text alone.
class StructuredQueryOldProtocolTest : public StructuredQueryTest {
 protected:
  StructuredQueryOldProtocolTest() : StructuredQueryTest("2025-03-26") {}
};

TEST_F(StructuredQueryOldProtocolTest, NeitherOutputSchemaNorStructuredContent) {
  EXPECT_TRUE(schemas_.empty());
  call("drawio_session", {{"action", "new \"Shop\""}});
  ops("drawio", {"add box Cart"});
  const auto result = call("drawio_query", {{"q", "map"}});
  EXPECT_EQ(result.size(), 2u) << json::serialize(result);
  EXPECT_TRUE(result.contains("content"));
  EXPECT_FALSE(result.at("isError").as_bool());
  EXPECT_FALSE(result.contains("structuredContent"));
}

}  // namespace
}  // namespace fcp::mcp
