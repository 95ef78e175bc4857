// drawio queries (list, describe, connections, stats, map, find, pages, layers, types, themes)
// and the document's reports (status lines, help additions, structural warnings).
#include "domains/drawio/queries.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/event_log.hpp"
#include "core/file_access.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/meta.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

// Queries read no files; every path is refused.
using testing::NoFiles;

std::string vertex(std::string_view id, std::string_view label, double x, double y, double w,
                   double h, std::string_view style = "whiteSpace=wrap;",
                   std::string_view parent = "1", std::string_view extra = "") {
  return "<mxCell id=\"" + std::string(id) + "\" value=\"" + std::string(label) + "\" style=\"" +
         std::string(style) + "\" vertex=\"1\" parent=\"" + std::string(parent) + "\" " +
         std::string(extra) + "><mxGeometry x=\"" + std::to_string(x) + "\" y=\"" +
         std::to_string(y) + "\" width=\"" + std::to_string(w) + "\" height=\"" +
         std::to_string(h) + "\" as=\"geometry\"/></mxCell>";
}

std::string edge(std::string_view id, std::string_view source, std::string_view target,
                 std::string_view label = "", std::string_view style = "endArrow=classic;",
                 std::string_view geometry_children = "") {
  return "<mxCell id=\"" + std::string(id) + "\" value=\"" + std::string(label) + "\" style=\"" +
         std::string(style) + "\" edge=\"1\" parent=\"1\" source=\"" + std::string(source) +
         "\" target=\"" + std::string(target) + "\"><mxGeometry relative=\"1\" as=\"geometry\">" +
         std::string(geometry_children) + "</mxGeometry></mxCell>";
}

std::string page_xml(std::string_view name, std::string_view cells,
                     std::string_view diagram_attributes = "") {
  return "<diagram id=\"" + std::string(name) + "-id\" name=\"" + std::string(name) + "\" " +
         std::string(diagram_attributes) +
         "><mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>" +
         std::string(cells) + "</root></mxGraphModel></diagram>";
}

std::string file_xml(std::string_view pages) {
  return "<mxfile>" + std::string(pages) + "</mxfile>";
}

// The architecture sample: a Backend group holding Auth and UserDB, plus Gateway and Cache.
std::string architecture_cells() {
  return vertex("g1", "Backend", 100, 600, 470, 285, "rounded=0;container=1;") +
         vertex("s1", "Auth", 230, 50, 200, 80,
                "rounded=1;whiteSpace=wrap;html=1;fillColor=#dae8fc;strokeColor=#6c8ebf;", "g1") +
         // A badge and an alias as an older fcp wrote them (private fields, adopted at open).
         vertex("b1", "v2", 180, -10, 30, 20,
                "rounded=1;arcSize=50;whiteSpace=wrap;html=1;fontSize=10;fillColor=#f8cecc;"
                "strokeColor=#b85450;fcpBadge=top-right;",
                "s1") +
         vertex("s2", "UserDB", 40, 180, 120, 80, "shape=cylinder3;whiteSpace=wrap;", "g1") +
         vertex("s3", "Gateway", 320, 190, 120, 60, "shape=hexagon;whiteSpace=wrap;") +
         vertex("s4", "Cache", 700, 190, 120, 60, "rounded=1;", "1", "fcp-alias=\"redis\"") +
         edge("e1", "s3", "s1") +
         "<mxCell id=\"l1\" value=\"routes\" style=\"edgeLabel;\" vertex=\"1\" connectable=\"0\" "
         "parent=\"e1\"><mxGeometry x=\"-0.2\" relative=\"1\" as=\"geometry\"/></mxCell>" +
         edge("e2", "s1", "s2", "queries", "endArrow=classic;html=1;dashed=1;",
              "<Array as=\"points\"><mxPoint x=\"430\" y=\"760\"/><mxPoint x=\"200\" "
              "y=\"760\"/></Array>");
}

class QueriesTest : public ::testing::Test {
 protected:
  // Opens `xml` as the domain does (an older fcp's private fields adopted); `state`, when
  // given, replaces the state the file implies.
  void load(const std::string& xml, DocumentState state = {}) {
    auto diagram = read_drawio(xml);
    ASSERT_TRUE(diagram.has_value()) << diagram.error().message;
    DocumentState adopted = adopt_file_state(*diagram);
    if (state == DocumentState{}) state = std::move(adopted);
    doc_ = std::make_unique<DrawioDocument>(std::move(*diagram), std::move(state));
  }
  void load_page(const std::string& cells) { load(file_xml(page_xml("Page-1", cells))); }

  std::optional<core::Result<std::string>> raw(std::string_view query) const {
    auto answer = answer_of(query);
    if (!answer) return std::nullopt;
    if (!*answer) return core::Result<std::string>(answer->error());
    return core::Result<std::string>((*answer)->text);
  }
  std::optional<core::Result<core::QueryAnswer>> answer_of(std::string_view query) const {
    const auto space = query.find(' ');
    const std::string_view verb = query.substr(0, space);
    const std::string_view args =
        space == std::string_view::npos ? std::string_view() : query.substr(space + 1);
    return doc_->query(verb, args, ctx_);
  }
  std::string ask(std::string_view query) const {
    auto answer = raw(query);
    EXPECT_TRUE(answer.has_value()) << query;
    if (!answer) return {};
    EXPECT_TRUE(answer->has_value()) << query << ": " << answer->error().message;
    return answer->has_value() ? answer->value() : std::string();
  }
  core::Error fail(std::string_view query) const {
    auto answer = raw(query);
    EXPECT_TRUE(answer.has_value()) << query;
    if (!answer) return {};
    EXPECT_FALSE(answer->has_value()) << query << " answered: " << answer->value();
    return answer->has_value() ? core::Error() : answer->error();
  }

  core::EventLog log_;
  NoFiles paths_;
  core::EffectSink effects_;
  core::ProgressFn progress_;
  core::CallContext ctx_{log_, paths_, effects_, progress_};
  std::unique_ptr<DrawioDocument> doc_;
};

// ---- list, find -------------------------------------------------------------------------------

TEST_F(QueriesTest, ListShowsShapesInDocumentOrder) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("list"), "Auth(svc)\nUserDB(db)\nGateway(api)\nCache(svc)");
  EXPECT_EQ(ask("LIST"), ask("list"));
}

TEST_F(QueriesTest, ListOfEmptyPage) {
  load_page("");
  EXPECT_EQ(ask("list"), "No shapes on this page.");
}

TEST_F(QueriesTest, ListWithSelectors) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("list @type:svc"), "Auth(svc)\nCache(svc)");
  EXPECT_EQ(ask("list @group:Backend"), "Auth(svc)\nUserDB(db)");
  EXPECT_EQ(ask("list @type:svc @group:Backend"), "Auth(svc)");
  EXPECT_EQ(ask("list @orphan"), "Cache(svc)");
  EXPECT_EQ(ask("list @not:type:svc"), "UserDB(db)\nGateway(api)");
  EXPECT_EQ(ask("list @connected:Auth"), "UserDB(db)\nGateway(api)");
  // The same type repeated unites; different types intersect.
  EXPECT_EQ(ask("list @type:svc @type:db"), "Auth(svc)\nUserDB(db)\nCache(svc)");
  EXPECT_EQ(ask("list @type:svc @type:db @group:Backend"), "Auth(svc)\nUserDB(db)");
  EXPECT_EQ(ask("list @group:Backend @not:type:db"), "Auth(svc)");
}

TEST_F(QueriesTest, ListSelectorErrors) {
  load_page(architecture_cells());
  EXPECT_NE(fail("list @bogus").message.find("unknown selector"), std::string::npos);
  EXPECT_NE(fail("list @group:Nope").message.find("unknown group \"Nope\""), std::string::npos);
}

TEST_F(QueriesTest, ListMatchingNothingSaysWhatExists) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("list @type:queue"),
            "No shapes match @type:queue — there are 4 shapes: Auth(svc), UserDB(db), "
            "Gateway(api), Cache(svc)");
  EXPECT_EQ(ask("list @type:db @orphan"),
            "No shapes match @type:db @orphan — @orphan matches 1 shape: Cache(svc); @type:db "
            "matches 1 shape: UserDB(db)");
}

TEST_F(QueriesTest, ListWordsAreRefused) {
  load_page(architecture_cells());
  const core::Error word = fail("list Auth");
  EXPECT_NE(word.message.find("list takes selectors"), std::string::npos);
  EXPECT_EQ(word.hints.front(), "list");
}

TEST_F(QueriesTest, ListOtherPage) {
  load(file_xml(page_xml("Page-1", architecture_cells()) +
                page_xml("Notes", vertex("m1", "Memo", 0, 0, 80, 40))));
  EXPECT_EQ(ask("list @page:Notes"), "Memo(box)");
  EXPECT_EQ(ask("list @page:notes"), "Memo(box)");
  const core::Error unknown = fail("list @page:Nope");
  EXPECT_EQ(unknown.message, "unknown page \"Nope\"");
  EXPECT_EQ(unknown.hints.front(), "list @page:Page-1");
  // Other selectors choose among that page's shapes.
  EXPECT_EQ(ask("list @page:Notes @type:box"), "Memo(box)");
  EXPECT_EQ(ask("list @page:Notes @type:svc"),
            "No shapes match @type:svc — there is 1 shape: Memo(box)");
}

TEST_F(QueriesTest, UnlabelledShapesShowTheirId) {
  load_page(vertex("x9", "", 0, 0, 80, 40) + vertex("x10", "two&#10;lines", 100, 0, 80, 40));
  EXPECT_EQ(ask("list"), "#x9(box)\ntwo\\nlines(box)");
}

TEST_F(QueriesTest, FindMatchesLabelsAndAliases) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("find auth"), "Auth(svc)");
  EXPECT_EQ(ask("find A"), "Auth(svc)\nGateway(api)\nCache(svc)");
  EXPECT_EQ(ask("find REDIS"), "Cache(svc)");
  EXPECT_EQ(ask("find zzz top"), "No shapes matching \"zzz top\"");
  EXPECT_NE(fail("find").message.find("find needs text"), std::string::npos);
}

// ---- describe ---------------------------------------------------------------------------------

TEST_F(QueriesTest, DescribeShape) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("describe Auth"),
            "Auth (svc)\n"
            "  position: (330, 650)\n"
            "  size: 200x80\n"
            "  theme: blue\n"
            "  fill: #dae8fc\n"
            "  stroke: #6c8ebf\n"
            "  group: Backend\n"
            "  badges: v2\n"
            "  layer: Default\n"
            "  id: s1\n"
            "  edges: 1 out, 1 in");
  EXPECT_EQ(ask("describe Cache"),
            "Cache (svc)\n"
            "  position: (700, 190)\n"
            "  size: 120x60\n"
            "  layer: Default\n"
            "  alias: redis\n"
            "  id: s4\n"
            "  edges: none");
}

TEST_F(QueriesTest, DescribeResolvesThroughTheCascade) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("describe auth").substr(0, 10), "Auth (svc)");
  EXPECT_EQ(ask("describe user-db").substr(0, 11), "UserDB (db)");
  EXPECT_EQ(ask("describe Gate").substr(0, 13), "Gateway (api)");
  EXPECT_EQ(ask("describe redis").substr(0, 11), "Cache (svc)");
  EXPECT_EQ(ask("describe #s4").substr(0, 11), "Cache (svc)");
  EXPECT_EQ(ask("describe Backend/Auth").substr(0, 10), "Auth (svc)");
  EXPECT_EQ(ask("describe \"db:UserDB\"").substr(0, 11), "UserDB (db)");
}

TEST_F(QueriesTest, DescribeMultiWordReferenceWithoutQuotes) {
  load_page(vertex("s1", "Auth Service", 0, 0, 120, 60));
  EXPECT_EQ(ask("describe Auth Service").substr(0, 18), "Auth Service (box)");
}

TEST_F(QueriesTest, DescribeCustomProperties) {
  load_page(
      "<object id=\"o1\" label=\"Billing\" owner=\"alice\" tier=\"gold plan\">"
      "<mxCell style=\"rounded=1;\" vertex=\"1\" parent=\"1\">"
      "<mxGeometry x=\"10\" y=\"20\" width=\"120\" height=\"60\" as=\"geometry\"/>"
      "</mxCell></object>");
  const std::string text = ask("describe Billing");
  EXPECT_NE(text.find("\n  properties: owner=alice, tier=\"gold plan\"\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  id: o1\n"), std::string::npos) << text;
}

TEST_F(QueriesTest, DescribeAmbiguousListsCandidatesWithPasteableHints) {
  load_page(vertex("w1", "Worker1", 0, 0, 120, 60, "rounded=1;") +
            vertex("w2", "Worker2", 200, 0, 120, 60, "rounded=1;") +
            vertex("w3", "Worker3", 400, 0, 120, 60, "rounded=1;"));
  const core::Error error = fail("describe Work");
  EXPECT_EQ(error.message, "\"Work\" matches 3 shapes: Worker1(svc), Worker2(svc), Worker3(svc)");
  EXPECT_EQ(error.hints,
            (std::vector<std::string>{"describe Worker1", "describe Worker2", "describe Worker3"}));
}

TEST_F(QueriesTest, AmbiguousSameLabelIsQualifiedByType) {
  load_page(vertex("d1", "Dup", 0, 0, 120, 60, "shape=cylinder3;") +
            vertex("d2", "Dup", 200, 0, 120, 60, "rounded=1;"));
  const core::Error error = fail("describe Dup");
  EXPECT_EQ(error.message, "\"Dup\" matches 2 shapes: Dup(db), Dup(svc)");
  EXPECT_EQ(error.hints, (std::vector<std::string>{"describe \"db:Dup\"", "describe \"svc:Dup\""}));
  // The hints work when pasted.
  EXPECT_EQ(ask("describe \"svc:Dup\"").substr(0, 9), "Dup (svc)");
  EXPECT_EQ(ask("describe db:Dup").substr(0, 8), "Dup (db)");
}

TEST_F(QueriesTest, AmbiguousSameLabelAndTypeFallsBackToGroupOrId) {
  load_page(vertex("g1", "Left", 0, 0, 300, 300, "container=1;") +
            vertex("a1", "Node", 20, 40, 100, 40, "whiteSpace=wrap;", "g1") +
            vertex("a2", "Node", 400, 40, 100, 40));
  const core::Error error = fail("describe Node");
  EXPECT_EQ(error.hints, (std::vector<std::string>{"describe Left/Node", "describe #a2"}));
  EXPECT_EQ(ask("describe Left/Node").substr(0, 10), "Node (box)");
}

TEST_F(QueriesTest, DescribeNotFoundSuggestsClosest) {
  load_page(architecture_cells());
  const core::Error error = fail("describe Auht");
  EXPECT_EQ(error.message,
            "unknown shape \"Auht\" (shapes: Auth, Cache, Gateway, UserDB, redis, Backend)");
  ASSERT_FALSE(error.hints.empty());
  EXPECT_EQ(error.hints.front(), "describe Auth");
  const core::Error connections = fail("connections Cahce");
  EXPECT_EQ(connections.hints.front(), "connections Cache");
}

TEST_F(QueriesTest, DescribeOnEmptyPage) {
  load_page("");
  EXPECT_EQ(fail("describe X").message, "unknown shape \"X\": this page has no shapes");
  EXPECT_EQ(ask("describe *"), "No shapes on this page.");
  EXPECT_NE(fail("describe").message.find("describe needs a shape"), std::string::npos);
}

TEST_F(QueriesTest, DescribeGroup) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("describe Backend"),
            "Backend (group, 2 shapes)\n"
            "  position: (100, 600)\n"
            "  size: 470x285\n"
            "  members: Auth(svc), UserDB(db)\n"
            "  layer: Default\n"
            "  id: g1\n"
            "  edges: none");
}

TEST_F(QueriesTest, GroupWinsOnlyWhenItMatchesBetter) {
  load_page(vertex("g1", "Backend", 0, 0, 300, 300, "container=1;") +
            vertex("s1", "Backend API", 400, 0, 120, 60));
  EXPECT_EQ(ask("describe Backend").substr(0, 24), "Backend (group, 0 shapes");
  EXPECT_EQ(ask("describe backend a").substr(0, 17), "Backend API (box)");
}

TEST_F(QueriesTest, DescribeEdge) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("describe Auth -> UserDB"),
            "Auth -> UserDB (edge)\n"
            "  source: Auth\n"
            "  target: UserDB\n"
            "  label: \"queries\"\n"
            "  arrows: none -> arrow\n"
            "  routing: straight\n"
            "  style: dashed\n"
            "  waypoints: 2 (430, 760) (200, 760)\n"
            "  layer: Default\n"
            "  id: e2");
  EXPECT_NE(ask("describe Gateway -> Auth").find("  label: \"routes\"\n"), std::string::npos);
  EXPECT_EQ(ask("describe UserDB <-> Auth").substr(0, 21), "Auth -> UserDB (edge)");
}

TEST_F(QueriesTest, DescribeEdgeStyleWordsAndArrowKinds) {
  load_page(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 200, 0, 80, 40) +
            edge("e", "a", "b", "",
                 "startArrow=diamond;startFill=0;endArrow=ERmany;dashed=1;dashPattern=1 3;"
                 "curved=1;flowAnimation=1;strokeWidth=3;"));
  const std::string text = ask("describe A -> B");
  EXPECT_NE(text.find("  arrows: open-diamond -> crow-foot\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  style: dotted, curved, animated, thick\n"), std::string::npos) << text;
}

TEST_F(QueriesTest, DescribeMissingEdgeSuggestsReverse) {
  load_page(architecture_cells());
  const core::Error error = fail("describe UserDB -> Auth");
  EXPECT_EQ(error.message, "no edge from UserDB to Auth");
  EXPECT_EQ(error.hints.front(), "describe Auth -> UserDB");
}

TEST_F(QueriesTest, DescribeWildcardDescribesEveryShape) {
  load_page(architecture_cells());
  const std::string text = ask("describe *");
  EXPECT_EQ(text.rfind("Auth (svc)\n", 0), 0u);
  EXPECT_NE(text.find("\n\nUserDB (db)\n"), std::string::npos);
  EXPECT_NE(text.find("\n\nGateway (api)\n"), std::string::npos);
  EXPECT_NE(text.find("\n\nCache (svc)\n"), std::string::npos);
  EXPECT_EQ(ask("describe @type:db").substr(0, 11), "UserDB (db)");
}

TEST_F(QueriesTest, WildcardIsCapped) {
  std::string cells;
  for (int i = 0; i < 205; ++i)
    cells += vertex("n" + std::to_string(i), "N" + std::to_string(i), i * 200.0, 0, 100, 40);
  load_page(cells);
  const std::string text = ask("describe *");
  EXPECT_NE(text.find("\n\n… 5 more shapes"), std::string::npos);
  EXPECT_EQ(text.find("N200 (box)"), std::string::npos);
}

// ---- connections ------------------------------------------------------------------------------

TEST_F(QueriesTest, Connections) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("connections Auth"),
            "connections for Auth:\n  out: UserDB(\"queries\")\n  in: Gateway(\"routes\")");
  EXPECT_EQ(ask("connections Cache"), "connections for Cache:\n  out: (none)\n  in: (none)");
  const std::string all = ask("connections *");
  EXPECT_EQ(all.rfind("connections for Auth:", 0), 0u);
  EXPECT_NE(all.find("\n\nconnections for Gateway:\n  out: Auth(\"routes\")\n  in: (none)"),
            std::string::npos)
      << all;
}

TEST_F(QueriesTest, ConnectionsListsEdgesInDocumentOrder) {
  load_page(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 200, 0, 80, 40) +
            vertex("c", "C", 400, 0, 80, 40) + edge("e1", "a", "c") + edge("e2", "a", "b") +
            edge("e3", "a", "a"));
  EXPECT_EQ(ask("connections A"), "connections for A:\n  out: C, B, A\n  in: A");
}

// ---- stats, pages, layers, types, themes ------------------------------------------------------

TEST_F(QueriesTest, Stats) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("stats"),
            "shapes: 4, edges: 2, groups: 1, pages: 1\ntypes: 2 svc, 1 api, 1 db\nlayers: 1\n"
            "size: 720x695 at (100,190)");
}

TEST_F(QueriesTest, PagesAndLayers) {
  load(file_xml(
      page_xml("Page-1", architecture_cells() +
                             "<mxCell id=\"L2\" value=\"Notes\" style=\"locked=1;\" visible=\"0\" "
                             "parent=\"0\"/>") +
      page_xml("Notes", vertex("m1", "Memo", 0, 0, 80, 40))));
  EXPECT_EQ(ask("pages"),
            "pages:\n  Page-1 (active, 4 shapes, 2 edges)\n  Notes (1 shapes, 0 edges)");
  EXPECT_EQ(ask("layers"), "layers:\n  Default (active)\n  Notes (hidden, locked)");
  EXPECT_EQ(ask("stats"),
            "shapes: 4, edges: 2, groups: 1, pages: 2\ntypes: 2 svc, 1 api, 1 db\nlayers: 2\n"
            "size: 720x695 at (100,190)");
}

TEST_F(QueriesTest, TypesListsBuiltinsCustomAndLoadedStencils) {
  DocumentState state;
  state.custom_types["worker"] = CustomType{"worker", "svc", "green", "", std::nullopt};
  state.loaded_packs = {"k8s"};
  load(file_xml(page_xml("Page-1", "")), state);
  const std::string text = ask("types");
  EXPECT_EQ(text.rfind("types:\n  box — ", 0), 0u) << text;
  EXPECT_NE(text.find("\n  svc — Rounded rectangle, 140x60\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\ncustom types:\n  worker (base:svc theme:green)\n"), std::string::npos);
  EXPECT_NE(text.find("\nstencils k8s ("), std::string::npos) << text;
  EXPECT_NE(text.find("pod"), std::string::npos);
  EXPECT_NE(text.find("stencil packs not loaded (load PACK): aws, azure, gcp, cisco, ibm"),
            std::string::npos)
      << text;
}

TEST_F(QueriesTest, ThemesListsBuiltinAndCustom) {
  DocumentState state;
  state.custom_themes["brand"] = CustomTheme{"brand", "#112233", "#445566", "#ffffff"};
  load(file_xml(page_xml("Page-1", "")), state);
  const std::string text = ask("themes");
  EXPECT_EQ(text.rfind("themes:\n  blue fill:#dae8fc stroke:#6c8ebf\n", 0), 0u) << text;
  EXPECT_NE(text.find("\n  dark fill:#1a1a2e stroke:#16213e font:#e0e0e0\n"), std::string::npos);
  EXPECT_NE(text.find("\n  brand fill:#112233 stroke:#445566 font:#ffffff (custom)"),
            std::string::npos);
}

TEST_F(QueriesTest, UnknownWordsAreLeftToTheEngine) {
  load_page(architecture_cells());
  EXPECT_FALSE(raw("status").has_value());
  EXPECT_FALSE(raw("history 3").has_value());
  EXPECT_FALSE(raw("diff checkpoint:a").has_value());
  EXPECT_FALSE(raw("bogus").has_value());
}

TEST_F(QueriesTest, SpecsNameEveryQuery) {
  std::vector<std::string> names;
  for (const auto& spec : query_specs())
    names.push_back(spec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"list", "describe", "connections", "stats", "map",
                                             "find", "pages", "layers", "types", "themes"}));
  load_page(architecture_cells());
  for (const auto& name : names)
    EXPECT_TRUE(raw(name).has_value()) << name;
}

TEST_F(QueriesTest, QueriesDoNotChangeTheDocument) {
  load_page(architecture_cells());
  const std::string digest = doc_->digest();
  const Diagram before = doc_->diagram();
  for (const char* query : {"list", "describe *", "connections *", "stats", "map", "find a",
                            "pages", "layers", "types", "themes", "describe Auth -> UserDB"})
    ask(query);
  EXPECT_EQ(doc_->digest(), digest);
  EXPECT_TRUE(doc_->diagram() == before);
}

// ---- map --------------------------------------------------------------------------------------

TEST_F(QueriesTest, MapMatchesTheReferenceFormat) {
  load_page(architecture_cells());
  EXPECT_EQ(ask("map"),
            "map: 720x695 flow:TB | 4s 2e 1g\n"
            "\n"
            "  [Backend] bottom-left (100,600)-(570,885)\n"
            "    Auth(svc) @(330,650) | UserDB(db) @(140,780)\n"
            "\n"
            "  Gateway(api) @(320,190) — ungrouped\n"
            "  Cache(svc) @(700,190) — ungrouped");
}

TEST_F(QueriesTest, MapOfEmptyPage) {
  load_page("");
  EXPECT_EQ(ask("map"), "map: empty diagram");
}

TEST_F(QueriesTest, MapInfersLeftToRightAndSortsByX) {
  load_page(vertex("c", "C", 600, 0, 80, 40) + vertex("a", "A", 0, 50, 80, 40) +
            vertex("b", "B", 300, 20, 80, 40) + edge("e1", "a", "b") + edge("e2", "b", "c"));
  EXPECT_EQ(ask("map"),
            "map: 680x90 flow:LR | 3s 2e 0g\n"
            "  A(box) @(0,50) — ungrouped\n"
            "  B(box) @(300,20) — ungrouped\n"
            "  C(box) @(600,0) — ungrouped");
}

// The size map and the reply digest give is what the page draws: an edge routed round the
// shapes (waypoints 120 px above them) makes it taller (session 10).
TEST_F(QueriesTest, MapSizeIncludesEdgeRoutes) {
  load_page(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 300, 0, 80, 40) +
            edge("e1", "a", "b", "", "edgeStyle=orthogonalEdgeStyle;",
                 "<Array as=\"points\"><mxPoint x=\"40\" y=\"-120\"/><mxPoint x=\"340\" "
                 "y=\"-120\"/></Array>"));
  EXPECT_EQ(ask("map").substr(0, 25), "map: 380x160 flow:LR | 2s");
  EXPECT_NE(doc_->digest().find(" 380x160 "), std::string::npos) << doc_->digest();
  const std::string stats = ask("stats");
  EXPECT_NE(stats.find("\nsize: 380x160 at (0,-120)"), std::string::npos) << stats;
}

TEST_F(QueriesTest, MapInfersOtherDirections) {
  load_page(vertex("a", "A", 0, 400, 80, 40) + vertex("b", "B", 0, 0, 80, 40) +
            edge("e1", "a", "b"));
  EXPECT_EQ(ask("map").substr(0, 22), "map: 80x440 flow:BT | ");
  load_page(vertex("a", "A", 400, 0, 80, 40) + vertex("b", "B", 0, 0, 80, 40) +
            edge("e1", "a", "b"));
  EXPECT_EQ(ask("map").substr(0, 21), "map: 480x40 flow:RL |");
  load_page(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40));
  EXPECT_EQ(ask("map").substr(0, 21), "map: 480x40 flow:TB |");
}

TEST_F(QueriesTest, MapReadsTheFlowFromTheDrawingNotFromAPrivateAttribute) {
  // flowDirection is no draw.io attribute (older fcp versions wrote it): the edges decide.
  load(file_xml(page_xml(
      "P", vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) + edge("e1", "a", "b"),
      "flowDirection=\"bt\"")));
  EXPECT_EQ(ask("map").substr(0, 21), "map: 480x40 flow:LR |");
}

TEST_F(QueriesTest, MapRowsHoldThreeMembers) {
  std::string cells = vertex("g", "Team", 0, 0, 800, 300, "container=1;");
  for (int i = 0; i < 4; ++i)
    cells += vertex("m" + std::to_string(i), "M" + std::to_string(i), 20 + i * 150.0, 60, 100, 40,
                    "whiteSpace=wrap;", "g");
  load_page(cells);
  const std::string text = ask("map");
  EXPECT_NE(text.find("\n  [Team] middle-center (0,0)-(800,300)\n"
                      "    M0(box) @(20,60) | M1(box) @(170,60) | M2(box) @(320,60)\n"
                      "    M3(box) @(470,60)"),
            std::string::npos)
      << text;
}

TEST_F(QueriesTest, MapIsCappedOnLargePages) {
  std::string cells;
  for (int i = 0; i < 250; ++i)
    cells += vertex("n" + std::to_string(i), "N" + std::to_string(i), 0, i * 100.0, 100, 40);
  load_page(cells);
  const std::string text = ask("map");
  EXPECT_NE(text.find("\n  N199(box) @(0,19900) — ungrouped\n"
                      "  … 50 more shapes (list or find show them)"),
            std::string::npos)
      << text.substr(text.size() - 200);
  EXPECT_EQ(text.find("N200(box)"), std::string::npos);
}

// ---- status lines and help additions -----------------------------------------------------------

TEST(ReportsTest, StatusLinesForOnePage) {
  auto diagram = read_drawio(file_xml(page_xml("Page-1", architecture_cells())));
  ASSERT_TRUE(diagram.has_value());
  DrawioDocument doc(std::move(*diagram), DocumentState{});
  EXPECT_EQ(doc.status_lines(),
            (std::vector<std::string>{"page: Page-1 (4 shapes, 2 edges, 1 groups)",
                                      "  Backend: Auth(svc), UserDB(db)",
                                      "  Ungrouped: Gateway(api), Cache(svc)"}));
}

TEST(ReportsTest, StatusLinesMarkTheActivePageAndListRuntimeState) {
  auto diagram = read_drawio(file_xml(page_xml("Page-1", architecture_cells()) +
                                      page_xml("Notes", vertex("m1", "Memo", 0, 0, 80, 40))));
  ASSERT_TRUE(diagram.has_value());
  DocumentState state;
  state.title = "Demo";
  state.custom_types["worker"] = CustomType{"worker", "svc", "green", "", std::nullopt};
  state.custom_themes["brand"] = CustomTheme{"brand", "#112233", "#445566", ""};
  state.loaded_packs = {"aws", "k8s"};
  state.active_page = 1;
  DrawioDocument doc(std::move(*diagram), state);
  EXPECT_EQ(doc.status_lines(),
            (std::vector<std::string>{
                "page: Page-1 (4 shapes, 2 edges, 1 groups)",
                "page: Notes (active, 1 shapes, 0 edges, 0 groups)", "  Ungrouped: Memo(box)",
                "title: Demo", "custom types: worker (base:svc theme:green)",
                "custom themes: brand (#112233 / #445566)", "stencils: aws, k8s"}));
}

TEST(ReportsTest, HelpAdditionsEmptyWithoutRuntimeState) {
  auto diagram = read_drawio(file_xml(page_xml("Page-1", "")));
  ASSERT_TRUE(diagram.has_value());
  DrawioDocument doc(std::move(*diagram), DocumentState{});
  EXPECT_EQ(doc.help_additions(), "");
}

TEST(ReportsTest, HelpAdditionsListTypesThemesAndStencilsByCategory) {
  auto diagram = read_drawio(file_xml(page_xml("Page-1", "")));
  ASSERT_TRUE(diagram.has_value());
  DocumentState state;
  state.custom_types["worker"] = CustomType{"worker", "svc", "green", "", std::pair{200.0, 80.0}};
  state.custom_themes["brand"] = CustomTheme{"brand", "#112233", "#445566", "#ffffff"};
  state.loaded_packs = {"aws"};
  DrawioDocument doc(std::move(*diagram), state);
  const std::string text = doc.help_additions();
  EXPECT_EQ(text.rfind("### RUNTIME\nCustom types (add TYPE LABEL):\n"
                       "  worker (base:svc theme:green size:200x80)\n"
                       "Custom themes (theme:NAME):\n  brand (#112233 / #445566 font:#ffffff)\n"
                       "Stencils aws — Amazon Web Services (add TYPE LABEL):\n"
                       "  Compute: lambda, ec2, ",
                       0),
            0u)
      << text;
  EXPECT_EQ(text.find("Compute:"), text.rfind("Compute:"));  // one line per category
}

// ---- warnings ---------------------------------------------------------------------------------

class ReportsWarningsTest : public ::testing::Test {
 protected:
  void load(const std::string& cells) {
    auto diagram = read_drawio(file_xml(page_xml("Page-1", cells)));
    ASSERT_TRUE(diagram.has_value()) << diagram.error().message;
    doc_ = std::make_unique<DrawioDocument>(std::move(*diagram), DocumentState{});
  }
  // An event that created the given cells (as they are now) on page `page`.
  core::EventPtr created(const std::vector<std::string>& ids, std::size_t page = 0) const {
    std::vector<Change> changes;
    for (const auto& id : ids) {
      CellChange change;
      change.page = page;
      change.id = id;
      if (const Cell* cell = doc_->page().find(id)) change.after = *cell;
      changes.emplace_back(std::move(change));
    }
    return std::make_shared<DiagramEdit>("test", std::move(changes));
  }
  // An event that changed cell `id` to what it is now from what `was` makes of it.
  core::EventPtr changed(const std::string& id, const std::function<void(Cell&)>& was) const {
    CellChange change;
    change.id = id;
    change.after = *doc_->page().find(id);
    change.before = *change.after;
    was(*change.before);
    std::vector<Change> changes;
    changes.emplace_back(std::move(change));
    return std::make_shared<DiagramEdit>("test", std::move(changes));
  }
  static std::function<void(Cell&)> at(double x, double y) {
    return [x, y](Cell& cell) {
      cell.geometry->x = x;
      cell.geometry->y = y;
    };
  }
  std::vector<std::string> warnings(std::vector<core::EventPtr> events) const {
    return doc_->warnings(events, core::Applied::forward);
  }

  std::unique_ptr<DrawioDocument> doc_;
};

TEST_F(ReportsWarningsTest, OrphanOnlyWhenThePageHasEdges) {
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 200, 0, 80, 40) +
       vertex("c", "Cache", 400, 0, 80, 40) + edge("e", "a", "b"));
  EXPECT_EQ(warnings({created({"c"})}), (std::vector<std::string>{"Cache: no connections"}));
  EXPECT_TRUE(warnings({created({"a", "e"})}).empty());
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 200, 0, 80, 40));
  EXPECT_TRUE(warnings({created({"a", "b"})}).empty());
}

TEST_F(ReportsWarningsTest, Overlaps) {
  load(vertex("a", "A", 0, 0, 100, 60) + vertex("b", "B", 50, 30, 100, 60) +
       vertex("c", "C", 150, 90, 100, 60));  // C only touches B's corner
  EXPECT_EQ(warnings({created({"b"})}), (std::vector<std::string>{"B overlaps A"}));
  EXPECT_TRUE(warnings({created({"c"})}).empty());
  // A pair in which both shapes changed is reported once.
  EXPECT_EQ(warnings({created({"a"}), created({"b"})}), (std::vector<std::string>{"A overlaps B"}));
}

TEST_F(ReportsWarningsTest, NestedShapesAndBigShapesAreHandled) {
  std::string cells = vertex("bg", "Background", -5000, -5000, 20000, 20000);
  cells += vertex("p", "Parent", 0, 0, 200, 200, "whiteSpace=wrap;container=0;");
  cells += vertex("k", "Kid", 10, 10, 50, 50, "whiteSpace=wrap;", "p");
  for (int i = 0; i < 50; ++i)
    cells += vertex("n" + std::to_string(i), "N" + std::to_string(i), 400 + i * 100.0, 0, 60, 40);
  load(cells);
  // Kid is inside Parent (not an overlap) but both lie on the big background shape.
  EXPECT_EQ(warnings({created({"k"})}), (std::vector<std::string>{"Kid overlaps Background"}));
  const auto big = warnings({created({"bg"})});
  ASSERT_EQ(big.size(), 11u);
  EXPECT_EQ(big.back(), "… and 42 more warnings");
}

TEST_F(ReportsWarningsTest, LabelTooLong) {
  const std::string long_label(40, 'x');
  const std::string very_long(100, 'y');
  load(vertex("a", long_label, 0, 0, 120, 60, "rounded=1;") +
       vertex("b", long_label, 200, 0, 120, 60, "whiteSpace=wrap;") +
       vertex("c", very_long, 400, 0, 120, 60, "whiteSpace=wrap;") +
       vertex("d", "Twelve chars", 600, 0, 120, 60, "fontSize=24;") +
       vertex("e", "Twelve chars", 800, 0, 120, 60) +
       vertex("f", long_label, 1000, 0, 60, 60, "verticalLabelPosition=bottom;"));
  EXPECT_EQ(
      warnings({created({"a"})}),
      (std::vector<std::string>{"label of " + long_label + " is too long for its 120x60 box"}));
  EXPECT_TRUE(warnings({created({"b"})}).empty());
  EXPECT_EQ(warnings({created({"c"})}),
            (std::vector<std::string>{"label of " + std::string(40, 'y') +
                                      "… is too long for its 120x60 box"}));
  EXPECT_EQ(warnings({created({"d"})}),
            (std::vector<std::string>{"label of Twelve chars is too long for its 120x60 box"}));
  EXPECT_TRUE(warnings({created({"e"})}).empty());
  EXPECT_TRUE(warnings({created({"f"})}).empty());
}

// An orthogonal edge without waypoints is judged by the route draw.io gives it: from the sides
// facing each other along the wider gap, turning mid-way (a Z), not by the straight line between
// the centres.
TEST_F(ReportsWarningsTest, OrthogonalEdgeWithoutWaypointsIsJudgedByDrawiosRoute) {
  constexpr std::string_view kOrth = "edgeStyle=orthogonalEdgeStyle;endArrow=classic;";
  // A at (0,0), B at (400,200): the horizontal gap (320) is wider, so draw.io leaves A's right
  // side at y 20, turns at x 240 and reaches B's left side at y 220. Mid sits on the vertical run
  // (x 240, y 20 … 220); Corner sits where the straight centre line would pass, off the route.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 200, 80, 40) +
       vertex("mid", "Mid", 220, 100, 40, 40) + vertex("off", "Corner", 100, 60, 40, 40) +
       edge("e", "a", "b", "", kOrth));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{"edge A -> B passes through Mid"}));
  // Fixed ports change the route: out of A's bottom, into B's top, turning at y 120 (a Z that
  // runs x 40 … 440 at y 120): through Mid (220 … 260, 100 … 140), not through Corner.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 200, 80, 40) +
       vertex("mid", "Mid", 220, 100, 40, 40) + vertex("off", "Corner", 100, 30, 40, 40) +
       edge("e", "a", "b", "",
            "edgeStyle=orthogonalEdgeStyle;exitX=0.5;exitY=1;entryX=0.5;entryY=0;"));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{"edge A -> B passes through Mid"}));
  // Aligned ends: a straight run between the facing sides.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("mid", "Mid", 220, 0, 40, 40) + edge("e", "a", "b", "", kOrth));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{"edge A -> B passes through Mid"}));
}

// Trial 10: a route drawn exactly along another shape's outline was reported as "runs within 10
// px of Users DB" after a layout, and not at all after other ops; it reads as part of the shape.
TEST_F(ReportsWarningsTest, ARouteOnAShapesOutlineIsNamed) {
  constexpr std::string_view kOrth = "edgeStyle=orthogonalEdgeStyle;endArrow=classic;";
  // A and B level at y 0 … 40: the straight run is at y 20, the top of Lid (200 … 260, 20 … 60).
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("lid", "Lid", 200, 20, 60, 40) + edge("e", "a", "b", "", kOrth));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{
                "edge A -> B runs on the outline of Lid: it reads as part of the shape"}));
  // 2 px away it is not on the outline (the layout's clearance check is another matter).
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("lid", "Lid", 200, 22, 60, 40) + edge("e", "a", "b", "", kOrth));
  EXPECT_TRUE(warnings({created({"e"})}).empty());
  const std::vector<std::string> ids{"e"};
  EXPECT_TRUE(edges_through_shapes(doc_->page(), doc_->index(), ids, 0).empty());
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("lid", "Lid", 200, 20, 60, 40) + edge("e", "a", "b", "", kOrth));
  EXPECT_EQ(edges_through_shapes(doc_->page(), doc_->index(), ids, 10),
            (std::vector<std::string>{
                "edge A -> B runs on the outline of Lid: it reads as part of the shape"}));
}

TEST_F(ReportsWarningsTest, EdgeCrossingGroup) {
  load(vertex("g", "Backend", 200, 0, 200, 200, "container=1;") +
       vertex("in", "Inner", 50, 80, 60, 40, "whiteSpace=wrap;", "g") +
       vertex("a", "A", 0, 80, 60, 40) + vertex("b", "B", 600, 80, 60, 40) +
       vertex("c", "C", 0, 400, 60, 40) + edge("e1", "a", "b") + edge("e2", "a", "in") +
       edge("e3", "a", "c"));
  // A -> Inner lies on A -> B's line from A to Inner: far from A, a reader sees one edge. The
  // edge the batch made is offered ports that take it off that line.
  const std::string one_line =
      "edge A -> B runs on one line with edge A -> Inner for 180 px (under 4 px apart, over 40 "
      "px from A): a reader sees one edge; try: style ";
  EXPECT_EQ(warnings({created({"e1"})}),
            (std::vector<std::string>{"edge A -> B crosses group Backend",
                                      "edge A -> B passes through Inner",
                                      one_line + "A -> B exit:top entry:left"}));
  // Ends inside the group: no crossing (the line is A -> B's).
  EXPECT_EQ(warnings({created({"e2"})}),
            (std::vector<std::string>{one_line + "A -> Inner exit:top entry:left"}));
  EXPECT_TRUE(warnings({created({"e3"})}).empty());  // passes beside it
}

// The crossing is measured on the route as drawn, not on the line between the ends' centres
// (agent trial, session 10: "? edge … crosses group Data" for edges routed round the group).
TEST_F(ReportsWarningsTest, AnEdgeRoutedRoundAGroupDoesNotCrossIt) {
  const std::string group = vertex("g", "Data", 200, 0, 200, 200, "container=1;") +
                            vertex("a", "A", 0, 80, 60, 40) + vertex("b", "B", 600, 80, 60, 40);
  // Over the top of the group (y -40), through the gaps beside it.
  load(group + edge("e", "a", "b", "", "edgeStyle=orthogonalEdgeStyle;",
                    "<Array as=\"points\"><mxPoint x=\"100\" y=\"-40\"/><mxPoint x=\"500\" "
                    "y=\"-40\"/></Array>"));
  EXPECT_TRUE(warnings({created({"e"})}).empty());
  // The same ends with waypoints inside the group: a real crossing.
  load(group + edge("e", "a", "b", "", "edgeStyle=orthogonalEdgeStyle;",
                    "<Array as=\"points\"><mxPoint x=\"100\" y=\"100\"/><mxPoint x=\"500\" "
                    "y=\"100\"/></Array>"));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{"edge A -> B crosses group Data"}));
  // A straight edge whose ends' centres are level with the group's corner but whose line
  // runs along its border (touching, not entering): no crossing, but a line on the frame.
  load(vertex("g", "Data", 200, 0, 200, 200, "container=1;") + vertex("a", "A", 0, 200, 60, 40) +
       vertex("b", "B", 600, 200, 60, 40) +
       edge("e", "a", "b", "", "edgeStyle=orthogonalEdgeStyle;exitX=1;exitY=0;entryX=0;entryY=0;"));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{
                "edge A -> B runs along the frame of group Data for 200 px (0 px from it): it "
                "reads as part of the frame; set exit:/entry: or move a shape"}));
}

TEST_F(ReportsWarningsTest, OnlyCreatedEdgesAreCheckedForCrossings) {
  load(vertex("g", "Backend", 200, 0, 200, 200, "container=1;") + vertex("a", "A", 0, 80, 60, 40) +
       vertex("b", "B", 600, 80, 60, 40) + edge("e1", "a", "b"));
  auto event = created({"e1"});
  // The same edge merely changed (it existed before) is not re-checked.
  std::vector<Change> changes;
  CellChange change;
  change.id = "e1";
  change.before = *doc_->page().find("e1");
  change.after = *doc_->page().find("e1");
  changes.emplace_back(std::move(change));
  EXPECT_TRUE(warnings({std::make_shared<DiagramEdit>("modify", std::move(changes))}).empty());
  EXPECT_EQ(warnings({event}).size(), 1u);
}

// Warnings are about what the batch did (issue 13): an edit of a real file does not report the
// overlaps the file already had.
TEST_F(ReportsWarningsTest, OverlapsOnlyWhereTheBatchCreatedOrMovedSomething) {
  load(vertex("a", "A", 0, 0, 100, 60) + vertex("b", "B", 50, 30, 100, 60) +
       vertex("c", "C", 400, 0, 100, 60));
  // Renamed: the overlap was in the file.
  EXPECT_TRUE(warnings({changed("b", [](Cell& cell) { cell.value = "Old name"; })}).empty());
  // Moved within the overlap it already had: nothing new.
  EXPECT_TRUE(warnings({changed("b", at(40, 20))}).empty());
  // Moved onto A from where it overlapped nothing: said.
  EXPECT_EQ(warnings({changed("b", at(250, 0))}), (std::vector<std::string>{"B overlaps A"}));
  // C moved, but overlaps nothing: the A/B overlap is not C's doing.
  EXPECT_TRUE(warnings({changed("c", at(600, 0))}).empty());
}

TEST_F(ReportsWarningsTest, MembersMovedWithTheirGroupKeepTheirOldOverlaps) {
  load(vertex("g", "Backend", 600, 0, 400, 300, "container=1;") +
       vertex("a", "A", 20, 50, 100, 60, "whiteSpace=wrap;", "g") +
       vertex("b", "B", 60, 70, 100, 60, "whiteSpace=wrap;", "g") +
       vertex("x", "X", 700, 90, 100, 60));
  // The group moved right by 600 (its members with it): A and B overlapped before too, but
  // now both lie on X.
  const auto list = warnings({changed("g", at(0, 0))});
  EXPECT_EQ(list, (std::vector<std::string>{"A overlaps X", "B overlaps X"}));
}

TEST_F(ReportsWarningsTest, NoConnectionsOnlyForShapesTheBatchCreated) {
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 200, 0, 80, 40) +
       vertex("c", "Cache", 400, 0, 80, 40) + edge("e", "a", "b"));
  EXPECT_TRUE(warnings({changed("c", [](Cell& cell) { cell.value = "Redis"; })}).empty());
  EXPECT_TRUE(warnings({changed("c", at(400, 200))}).empty());
  // Created and connected later in the same batch: nothing to say.
  EXPECT_TRUE(warnings({created({"a"}), created({"e"})}).empty());
  // Once per batch however many ops touched it.
  EXPECT_EQ(warnings({created({"c"}), changed("c", at(400, 100))}),
            (std::vector<std::string>{"Cache: no connections"}));
}

TEST_F(ReportsWarningsTest, LabelsOnlyWhenTheBatchMadeThemTooLong) {
  const std::string long_label(40, 'x');
  load(vertex("a", long_label, 0, 0, 120, 60, "rounded=1;"));
  // Too long in the file already; the batch only coloured it.
  EXPECT_TRUE(
      warnings({changed("a", [](Cell& cell) { cell.style->set("fillColor", "#fff"); })}).empty());
  // The batch gave it the long label.
  EXPECT_EQ(warnings({changed("a", [](Cell& cell) { cell.value = "Short"; })}).size(), 1u);
  // The batch made its box smaller.
  EXPECT_EQ(warnings({changed("a", [](Cell& cell) { cell.geometry->width = 400; })}).size(), 1u);
}

TEST_F(ReportsWarningsTest, CrossingsWhereTheBatchMovedAnEndOrTheGroup) {
  load(vertex("g", "Backend", 200, 0, 200, 200, "container=1;") + vertex("a", "A", 0, 80, 60, 40) +
       vertex("b", "B", 600, 80, 60, 40) + edge("e1", "a", "b"));
  // B moved from below A (the edge passed beside the group) to the right of it.
  EXPECT_EQ(warnings({changed("b", at(0, 400))}),
            (std::vector<std::string>{"edge A -> B crosses group Backend"}));
  // The group moved onto the edge.
  EXPECT_EQ(warnings({changed("g", at(200, 400))}),
            (std::vector<std::string>{"edge A -> B crosses group Backend"}));
  // B moved, but the edge crossed the group before too.
  EXPECT_TRUE(warnings({changed("b", at(700, 80))}).empty());
}

// Issue 13: a label a line of another edge runs through cannot be told apart; the `?` line names
// both edges, as the label-on-label one does.
TEST_F(ReportsWarningsTest, LabelOnAnotherEdgesLine) {
  // A -> B runs straight at y 20; its "HTTPS" label sits mid-way, x 218.5 … 261.5, y 11 … 29.
  // C -> D runs down x 240 through it.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("c", "C", 220, -200, 40, 40) + vertex("d", "D", 220, 200, 40, 40) +
       edge("e1", "a", "b", "HTTPS") + edge("e2", "c", "d"));
  const std::vector<std::string> expected{
      "label \"HTTPS\" of edge A -> B lies on edge C -> D: a reader cannot tell whose label it "
      "is; set exit:/entry: on one of them or move a shape"};
  EXPECT_EQ(warnings({created({"e2"})}), expected);
  // D moved from the left (C -> D passed beside the label) to below C.
  EXPECT_EQ(warnings({changed("d", at(100, 200))}), expected);
  // The label's edge was re-routed onto the line: the same pair.
  EXPECT_EQ(warnings({changed("e1", [](Cell& cell) { cell.geometry->x = 0.8; })}), expected);
  // A batch that leaves the label where it was says nothing about it.
  EXPECT_TRUE(
      warnings({changed("e2", [](Cell& cell) { cell.style->set("dashed", "1"); })}).empty());
  // A line that crosses the label's box but not the edge's own bounds (it stops 5 px below
  // A -> B's line, inside the label) is still on the label.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("c", "C", 220, 25, 40, 40) + vertex("d", "D", 220, 300, 40, 40) +
       edge("e1", "a", "b", "HTTPS") +
       edge("e2", "c", "d", "", "endArrow=classic;",
            "<Array as=\"points\"><mxPoint x=\"240\" y=\"25\"/></Array>"));
  EXPECT_EQ(warnings({created({"e2"})}), expected);
  // C -> D passes beside the label: nothing.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("c", "C", 250, -200, 40, 40) + vertex("d", "D", 250, 200, 40, 40) +
       edge("e1", "a", "b", "HTTPS") + edge("e2", "c", "d"));
  EXPECT_TRUE(warnings({created({"e2"})}).empty());
  // A second edge between the same shapes is told apart from the first.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       edge("e1", "a", "b", "HTTPS") +
       edge("e2", "a", "b", "", "endArrow=classic;",
            "<Array as=\"points\"><mxPoint x=\"240\" y=\"-100\"/><mxPoint x=\"240\" "
            "y=\"100\"/></Array>"));
  EXPECT_EQ(warnings({created({"e2"})}),
            (std::vector<std::string>{
                "label \"HTTPS\" of edge A -> B lies on the other edge A -> B: a reader cannot "
                "tell whose label it is; set exit:/entry: on one of them or move a shape"}));
}

// Issue 13: an expert reviewer read labels 4-7 px beside a shape that was not their edge's end as
// that shape's ("reads" 4 px from Dispatch); the `?` line names the label, its edge and the shape.
TEST_F(ReportsWarningsTest, LabelBesideAShapeThatIsNotItsEdgesEnd) {
  // A -> B runs straight at y 20; its "reads" label's box is x 218.5 … 261.5, y 11 … 29. C's top
  // is 4 px under the box.
  const auto page = [](double c_y) {
    return vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
           vertex("c", "C", 220, c_y, 40, 40) + edge("e1", "a", "b", "reads");
  };
  const std::vector<std::string> expected{
      "label \"reads\" of edge A -> B sits 4 px from C: it may read as C's; move a shape or set "
      "exit:/entry:"};
  load(page(33));
  EXPECT_EQ(warnings({created({"e1"})}), expected);
  // C moved there from far below (it has no edges of its own).
  EXPECT_EQ(warnings({changed("c", at(220, 300))}), expected);
  // The label's edge was changed but its label sat there before: nothing new.
  EXPECT_TRUE(
      warnings({changed("e1", [](Cell& cell) { cell.style->set("dashed", "1"); })}).empty());
  // 11 px from the box: clear.
  load(page(40));
  EXPECT_TRUE(warnings({created({"e1"})}).empty());
  // By the edge's own ends (3.5 px from either) it reads as the edge's: nothing.
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 130, 0, 80, 40) +
       edge("e1", "a", "b", "reads"));
  EXPECT_TRUE(warnings({created({"e1"})}).empty());
}

// Issue 13 (judge 11): "events" 5 px above another edge's solid line read as that line's, and
// "HTTPS" under the Data title made its line read as the title's underline; a label across the
// Services frame belonged to neither side. The `?` line names the label, its edge and the other
// edge, title or frame, one line per label.
TEST_F(ReportsWarningsTest, LabelByAnotherEdgesLineATitleOrAFrame) {
  // A -> B runs straight at y 20; its "HTTPS" label's box is x 218.5 … 261.5, y 11 … 29.
  const std::string ab = vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
                         edge("e1", "a", "b", "HTTPS");
  const auto has = [](const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  // C -> D runs down x 265.5, 4 px right of the box.
  const auto beside = [&](double c_x) {
    return ab + vertex("c", "C", c_x - 20, -200, 40, 40) + vertex("d", "D", c_x - 20, 200, 40, 40) +
           edge("e2", "c", "d");
  };
  const std::vector<std::string> by_line{
      "label \"HTTPS\" of edge A -> B sits 4 px from edge C -> D: it may read as that edge's; "
      "move a shape or set exit:/entry:"};
  load(beside(265.5));
  EXPECT_EQ(warnings({created({"e2"})}), by_line);
  EXPECT_EQ(warnings({created({"e1"})}), by_line);
  // D moved there from the left, C -> D was slanted away from the label before.
  EXPECT_EQ(warnings({changed("d", at(-300, 200))}), by_line);
  // A batch that leaves the label and the line where they were says nothing.
  EXPECT_TRUE(
      warnings({changed("e1", [](Cell& cell) { cell.style->set("dashed", "1"); })}).empty());
  // 8.5 px off: clear.
  load(beside(270));
  EXPECT_TRUE(warnings({created({"e2"})}).empty());
  // Under the title of group Data (x 222 … 258, y -12 … 8): 3 px above the box.
  load(ab + vertex("g", "Data", 140, -12, 200, 100, "container=1;verticalAlign=top;"));
  const auto titled = warnings({created({"e1"})});
  EXPECT_TRUE(has(titled,
                  "label \"HTTPS\" of edge A -> B sits 3 px from the title of group Data: its line "
                  "may read as the title's underline; move a shape or set exit:/entry:"))
      << ::testing::PrintToString(titled);
  // The title in the middle of a taller group (draw.io's default, y 128 … 148) is far from the
  // label, and so is the frame's top, 23 px above it.
  load(ab + vertex("g", "Data", 140, -12, 200, 300, "container=1;"));
  for (const auto& line : warnings({created({"e1"})}))
    EXPECT_EQ(line.find("label \"HTTPS\""), std::string::npos) << line;
  // A frame 4 px right of the box, and one through it.
  load(ab + vertex("g", "Services", 265.5, -100, 100, 300, "container=1;"));
  const auto framed = warnings({created({"e1"})});
  EXPECT_TRUE(has(framed,
                  "label \"HTTPS\" of edge A -> B sits 4 px from the frame of group Services: it "
                  "may read as part of the frame; move a shape or set exit:/entry:"))
      << ::testing::PrintToString(framed);
  load(ab + vertex("g", "Services", 250, -100, 100, 300, "container=1;"));
  const auto across = warnings({created({"e1"})});
  EXPECT_TRUE(has(across,
                  "label \"HTTPS\" of edge A -> B lies on the frame of group Services: it may "
                  "read as part of the frame; move a shape or set exit:/entry:"))
      << ::testing::PrintToString(across);
  // A group drawn without a frame: nothing about its frame.
  load(ab + vertex("g", "", 250, -100, 100, 300, "container=1;strokeColor=none;"));
  for (const auto& line : warnings({created({"e1"})}))
    EXPECT_EQ(line.find("label \"HTTPS\""), std::string::npos) << line;
}

// Issue 13: a route 7 px above the Services frame for 620 px read as part of the frame, unwarned.
TEST_F(ReportsWarningsTest, RouteAlongAGroupsFrame) {
  // A -> B runs straight at y 93, 7 px above the frame's top (y 100), over its 400 px width.
  const auto page = [](double y, std::string_view group_style) {
    return vertex("g", "Services", 100, 100, 400, 200, group_style) +
           vertex("a", "A", 0, y - 20, 60, 40) + vertex("b", "B", 600, y - 20, 60, 40) +
           edge("e", "a", "b");
  };
  load(page(93, "container=1;strokeColor=#6c8ebf;"));
  EXPECT_EQ(warnings({created({"e"})}),
            (std::vector<std::string>{
                "edge A -> B runs along the frame of group Services for 400 px (7 px from it): it "
                "reads as part of the frame; set exit:/entry: or move a shape"}));
  // The group moved under the edge (it was 300 px lower).
  EXPECT_EQ(warnings({changed("g", at(100, 400))}).size(), 1u);
  // Inside the frame, 8 px below its top: still along it (and across the group).
  load(page(108, "container=1;"));
  const auto inside = warnings({created({"e"})});
  EXPECT_NE(std::find(inside.begin(), inside.end(),
                      "edge A -> B runs along the frame of group Services for 400 px (8 px from "
                      "it): it reads as part of the frame; set exit:/entry: or move a shape"),
            inside.end())
      << ::testing::PrintToString(inside);
  // 9 px off, a group drawn without a frame, or a route that was there before: nothing.
  load(page(91, "container=1;"));
  EXPECT_TRUE(warnings({created({"e"})}).empty());
  load(page(93, "container=1;strokeColor=none;"));
  EXPECT_TRUE(warnings({created({"e"})}).empty());
  load(page(93, "group;"));
  EXPECT_TRUE(warnings({created({"e"})}).empty());
  load(page(93, "container=1;"));
  EXPECT_TRUE(warnings({changed("e", [](Cell& cell) { cell.style->set("dashed", "1"); })}).empty());
  // Trial 14: the port rounded to exitY=0.67 sits 0.2 px below the waypoint the route runs to,
  // 5 px inside the frame for 400 px: drawn straight, so along the frame (it went unwarned).
  load(vertex("g", "Services", 100, 100, 400, 200, "container=1;") +
       vertex("a", "A", 0, 65, 60, 60) + vertex("b", "B", 600, 300, 60, 40) +
       edge("e", "a", "b", "", "edgeStyle=orthogonalEdgeStyle;exitX=1;exitY=0.67;",
            "<Array as=\"points\"><mxPoint x=\"550\" y=\"105\"/><mxPoint x=\"550\" "
            "y=\"320\"/></Array>"));
  const auto rounded = warnings({created({"e"})});
  EXPECT_NE(std::find(rounded.begin(), rounded.end(),
                      "edge A -> B runs along the frame of group Services for 400 px (5 px from "
                      "it): it reads as part of the frame; set exit:/entry: or move a shape"),
            rounded.end())
      << ::testing::PrintToString(rounded);
}

// Trial 11: a layout drew two edges on one line (under 4 px apart) and said nothing, because the
// pair had met on one line somewhere else before. A pair the batch drew again is judged where it
// runs now; only a pair drawn as it was (a rename, a restyle) is left unwarned.
TEST_F(ReportsWarningsTest, APairDrawnAgainOnOneLineIsWarnedWhereverItMetBefore) {
  constexpr std::string_view kOrth = "edgeStyle=orthogonalEdgeStyle;";
  const auto points = [](double y) {
    return "<Array as=\"points\"><mxPoint x=\"140\" y=\"" + std::to_string(y) +
           "\"/><mxPoint x=\"540\" y=\"" + std::to_string(y) + "\"/></Array>";
  };
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 600, 0, 80, 40) +
       vertex("c", "C", 0, 500, 80, 40) + vertex("d", "D", 600, 500, 80, 40) +
       edge("e1", "a", "b", "", kOrth, points(300)) + edge("e2", "c", "d", "", kOrth, points(302)));
  // Before the batch both ran at y 100 / 102: on one line there too, but not where they run now.
  const auto at_y = [](double y) {
    return [y](Cell& cell) {
      for (auto& point : *cell.geometry->points)
        point.y = y;
    };
  };
  EXPECT_EQ(warnings({changed("e1", at_y(100)), changed("e2", at_y(102))}),
            (std::vector<std::string>{"edge A -> B runs on one line with edge C -> D (under 4 px "
                                      "apart): try: style A -> B exit:right entry:left"}));
  // Drawn as it was (only its style changed): nothing.
  EXPECT_TRUE(
      warnings({changed("e1", [](Cell& cell) { cell.style->set("dashed", "1"); })}).empty());
}

// Issue 13: two edges out of one shape that run together far from it (here into X, where H -> Y
// turns down) read as one edge; a fork that splits near the shape is not warned.
TEST_F(ReportsWarningsTest, LongSharedRunsOfEdgesWithAShapeInCommon) {
  constexpr std::string_view kOrth = "edgeStyle=orthogonalEdgeStyle;exitX=1;exitY=0.5;";
  load(vertex("h", "H", 0, 0, 80, 40) + vertex("x", "X", 600, 0, 80, 40) +
       vertex("y", "Y", 560, 200, 80, 40) +
       edge("e1", "h", "x", "", std::string(kOrth) + "entryX=0;entryY=0.5;") +
       edge("e2", "h", "y", "", std::string(kOrth) + "entryX=0.5;entryY=0;"));
  // (H -> Y turns down at x 600, on X's left side: that is said too.)
  EXPECT_EQ(warnings({created({"e2"})}),
            (std::vector<std::string>{
                "edge H -> Y runs on the outline of X: it reads as part of the shape",
                "edge H -> X runs on one line with edge H -> Y for 480 px (under 4 px apart, "
                "over 40 px from H): a reader sees one edge; try: style H -> Y exit:bottom "
                "entry:left"}));
  // A fork: out of H's right side together, apart 60 px from it (at x 140).
  load(vertex("h", "H", 0, 0, 80, 40) + vertex("a", "A", 200, -100, 80, 40) +
       vertex("b", "B", 200, 100, 80, 40) +
       edge("e1", "h", "a", "", std::string(kOrth) + "entryX=0;entryY=0.5;") +
       edge("e2", "h", "b", "", std::string(kOrth) + "entryX=0;entryY=0.5;"));
  EXPECT_TRUE(warnings({created({"e2"})}).empty());
}

// Issue 13: the pinned layout's comparison counts labels that read as someone else's: on another
// edge's line, on another label, or within 2 px of a shape that is not an end of their edge.
TEST_F(ReportsWarningsTest, RouteFiguresCountMisplacedLabels) {
  load(vertex("a", "A", 0, 0, 80, 40) + vertex("b", "B", 400, 0, 80, 40) +
       vertex("c", "C", 220, -200, 40, 40) + vertex("d", "D", 220, 200, 40, 40) +
       vertex("p", "P", 0, 300, 80, 40) + vertex("q", "Q", 400, 300, 80, 40) +
       vertex("s", "Stop", 230, 330, 40, 40) + edge("e1", "a", "b", "HTTPS") +
       edge("e2", "c", "d") + edge("e3", "p", "q", "gRPC"));
  const std::vector<std::string> ids{"e1", "e2", "e3"};
  // HTTPS lies on C -> D; gRPC (x 222 … 258, y 311 … 329) 1 px above Stop.
  EXPECT_EQ(drawn_route_figures(doc_->page(), doc_->index(), ids, 0).labels, 2u);
  // Only the labels the compared edges have, or lie on: C -> D's line is HTTPS's problem too.
  EXPECT_EQ(
      drawn_route_figures(doc_->page(), doc_->index(), std::vector<std::string>{"e2"}, 0).labels,
      1u);
  EXPECT_EQ(
      drawn_route_figures(doc_->page(), doc_->index(), std::vector<std::string>{"e3"}, 0).labels,
      1u);
  // A misplaced label weighs more than crossings, less than a pair on one line.
  DrawnRouteFigures label, crossings, pair;
  label.labels = 1;
  crossings.crossings = 5;
  pair.one_line_pairs = 1;
  EXPECT_TRUE(label.worse_than(crossings));
  EXPECT_TRUE(pair.worse_than(label));
}

TEST_F(ReportsWarningsTest, CappedAtTenWithACount) {
  std::string cells =
      vertex("a", "A", 0, 0, 60, 40) + vertex("b", "B", 100, 0, 60, 40) + edge("e", "a", "b");
  std::vector<std::string> ids;
  for (int i = 0; i < 15; ++i) {
    ids.push_back("o" + std::to_string(i));
    cells += vertex(ids.back(), "O" + std::to_string(i), i * 100.0, 200, 60, 40);
  }
  load(cells);
  const auto list = warnings({created(ids)});
  ASSERT_EQ(list.size(), 11u);
  EXPECT_EQ(list.front(), "O0: no connections");
  EXPECT_EQ(list[9], "O9: no connections");
  EXPECT_EQ(list.back(), "… and 5 more warnings");
}

TEST_F(ReportsWarningsTest, IgnoresOtherPagesRemovedCellsAndEmptyEvents) {
  load(vertex("a", "A", 0, 0, 100, 60) + vertex("b", "B", 50, 30, 100, 60));
  CellChange removed;
  removed.id = "b";
  removed.before = *doc_->page().find("b");
  std::vector<Change> changes;
  changes.emplace_back(std::move(removed));
  EXPECT_TRUE(warnings({created({"b"}, 3), nullptr,
                        std::make_shared<DiagramEdit>("remove", std::move(changes))})
                  .empty());
}

}  // namespace
}  // namespace fcp::drawio
