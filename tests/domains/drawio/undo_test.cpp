// Every drawio verb's event must revert to exactly the diagram before the op and replay to
// exactly the diagram after it, and a failing op must leave the diagram untouched. The index
// must match one rebuilt from scratch after each step.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/parsed_op.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/domain.hpp"
#include "domains/drawio/io/writer.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

using testing::NoFiles;

class UndoTest : public ::testing::Test {
 protected:
  UndoTest() : domain_(make_drawio_domain()) {
    core::SessionCommand command;
    command.command = "new";
    document_.reset(static_cast<DrawioDocument*>(domain_->create(command).value().release()));
  }

  std::string file() const { return write_drawio(document_->diagram()); }

  // What a freshly built index says about the current diagram, to compare with the live one.
  std::string rebuilt_view() const {
    DrawioDocument fresh(document_->diagram(), document_->state());
    return fresh.digest() + "|" + listing(fresh);
  }
  std::string live_view() const { return document_->digest() + "|" + listing(*document_); }
  static std::string listing(const DrawioDocument& doc) {
    core::EventLog log;
    NoFiles paths;
    core::EffectSink effects;
    core::ProgressFn progress;
    core::CallContext ctx{log, paths, effects, progress};
    auto answer = doc.query("list", "", ctx);
    return answer && *answer ? (*answer)->text : std::string("?");
  }

  core::Result<core::OpOutcome> run(const std::string& text) {
    auto op = core::parse_op(text, domain_->parse_hooks());
    if (!op) return op.error();
    core::EffectSink effects;
    core::ProgressFn progress;
    core::CallContext ctx{log_, paths_, effects, progress};
    return document_->execute(*op, ctx);
  }

  // Applies `text`, then checks revert/replay of its event.
  void check(const std::string& text) {
    SCOPED_TRACE(text);
    const std::string before = file();
    auto outcome = run(text);
    ASSERT_TRUE(outcome) << outcome.error().message;
    const std::string after = file();
    EXPECT_EQ(live_view(), rebuilt_view());
    if (!outcome->event) {
      EXPECT_EQ(before, after) << "an op without an event changed the diagram";
      return;
    }
    core::EffectSink effects;
    document_->revert(*outcome->event, effects);
    EXPECT_EQ(file(), before) << "revert did not restore the diagram";
    EXPECT_EQ(live_view(), rebuilt_view()) << "index after revert";
    document_->replay(*outcome->event, effects);
    EXPECT_EQ(file(), after) << "replay did not reproduce the diagram";
    EXPECT_EQ(live_view(), rebuilt_view()) << "index after replay";
  }

  void check_failure(const std::string& text) {
    SCOPED_TRACE(text);
    const std::string before = file();
    const std::string view = live_view();
    auto outcome = run(text);
    EXPECT_FALSE(outcome) << "expected " << text << " to fail";
    EXPECT_EQ(file(), before) << "a failed op changed the diagram";
    EXPECT_EQ(live_view(), view);
  }

  std::unique_ptr<core::Domain> domain_;
  std::unique_ptr<DrawioDocument> document_;
  core::EventLog log_;
  NoFiles paths_;
};

TEST_F(UndoTest, EveryVerbRevertsAndReplaysExactly) {
  for (const char* op : {
           "add svc Auth",
           "add db Users near:Auth dir:right",
           "add queue Events near:Users dir:below theme:orange",
           "add box Worker count:3 at:100,500",
           "add svc gw label:\"API Gateway\" at:top-left",
           "define gateway base:api theme:purple badge:edge size:160x70",
           "add gateway Edge near:Auth dir:above",
           "define theme brand fill:#fde2e4 stroke:#c9184a",
           "connect Auth -> Users -> Events label:calls",
           "connect gw <-> Auth style:dashed,thick",
           "connect Events -> @type:box style:curved",
           "style Auth fill:#ff0000 bold shadow",
           "style @type:db theme:yellow",
           "style Auth -> Users dotted stroke:#00ff00",
           "style Auth -> Users exit:top@0.25 entryX:0 entryY:0.5 jumpStyle:arc",
           "modify Auth -> Users rounded:0 edgeStyle:elbowEdgeStyle label:reads prop.proto:sql",
           "connect Auth -> Users",  // exists: nothing added, no event
           "connect Auth -> Users new:true label:writes exitX:1 exitY:0.5",
           "label Auth \"Auth Service\"",
           "label \"Auth Service\" -> Users \"reads\"",
           "badge Users v2",
           "badge Users clear",
           "move Users to:600,200",
           "move Worker1 to:100,100",
           "move Worker2 by:10,10 strict:true",
           "resize Users to:200x100",
           "swap Worker1 Worker3",
           "align Worker1 Worker2 Worker3 left",
           "distribute Worker1 Worker2 Worker3 vertical gap:30",
           "group Worker1 Worker2 as:Pool theme:green",
           "group Pool Worker3 as:Outer",
           "add svc Extra in:Pool",
           "move Pool by:50,0",
           "style Pool fill:#eeeeee",
           "style Pool theme:orange",
           "modify Pool theme:red members:all",
           "ungroup Outer",
           "layout @all algo:layered dir:LR",
           "layout Pool algo:tree dir:TB",
           "orient TB",
           "modify Users label:Accounts width:150 prop.owner:alice",
           "copy Accounts Events by:0,200",
           "repeat Edge count:2",
           "disconnect Events -> @type:box all",
           "remove Worker3",
           "remove Pool",
           "page add Second",
           "add svc OnSecond",
           "page duplicate Second as:Third",
           "page rename Third as:Fourth",
           "page switch Page-1",
           "page remove Fourth",
           "layer create Notes",
           "layer switch Notes",
           "add box Note",
           "layer hide Notes",
           "layer lock Notes",
           "layer move Events to:Notes",
           "layer rename Notes as:Annotations",
           "title \"Undo Test\"",
           "load aws",
           "add lambda Fn",

           "remove @all",
       }) {
    check(op);
  }
}

TEST_F(UndoTest, FailingOpsChangeNothing) {
  check("add svc Auth");
  check("add db Users near:Auth dir:right");
  check("connect Auth -> Users");
  for (const char* op :
       {"add foo Bar", "connect Auth -> Nowhere", "connect Auth -> Users -> Nope",
        "style Auth fill:notacolor", "move Auth to:nowhere", "group Auth Users",
        "remove Auth Nowhere", "layout @all algo:radial", "add svc X count:3 theme:pink",
        "page remove Page-1", "layer remove Default", "modify Auth rounded:x;y",
        "modify Auth exitX:top", "style Auth -> Users edgeStyle:wobbly",
        "modify Auth -> Nowhere rounded:0", "modify Users -> Auth rounded:0",
        "modify Auth -> Users x:10", "connect Auth -> Users new:maybe"}) {
    check_failure(op);
  }
}

// A reference means in ops what it means in queries: a group whose name matches exactly wins
// over a shape whose label it only begins.
TEST_F(UndoTest, AGroupNamedExactlyWinsOverAShapeItPrefixes) {
  check("add svc \"Backend API\" at:100,100");
  check("add svc Web at:400,100");
  check("group Web as:Backend");
  check("label Backend \"Services\"");
  EXPECT_NE(file().find("value=\"Services\""), std::string::npos) << file();
  EXPECT_NE(file().find("value=\"Backend API\""), std::string::npos) << file();
}

// Ports fcp chose follow the shapes; what marks them lives in memory, never in the file.
// Alone on facing sides of shapes that overlap across the gap, the two ports meet on one line,
// so the edge runs straight (trial 14: a 60 px service beside an 80 px store got a 10 px jog).
TEST_F(UndoTest, AutomaticPortsFollowMovesAndLeaveNoTraceInTheFile) {
  check("add svc Auth at:100,100");  // 140x60
  check("add db Users at:400,100");  // 120x80: centres at y 130 and 140
  check("connect Auth -> Users");
  // Both at y 136: 100 + 0.6 x 60 = 100 + 0.45 x 80.
  EXPECT_NE(file().find("exitX=1;exitY=0.6;"), std::string::npos) << file();
  EXPECT_NE(file().find("entryX=0;entryY=0.45;"), std::string::npos) << file();
  EXPECT_EQ(file().find("fcpPorts"), std::string::npos) << "a private key in the file: " << file();
  check("move Users to:100,400");  // now below: the edge leaves Auth at the bottom
  // Both at x 167.2: 100 + 0.48 x 140 = 100 + 0.56 x 120.
  EXPECT_NE(file().find("exitX=0.48;exitY=1;"), std::string::npos) << file();
  EXPECT_NE(file().find("entryX=0.56;entryY=0;"), std::string::npos) << file();
  check("style Auth -> Users exit:right");  // the user's choice stays put
  check("move Users to:100,700");
  EXPECT_NE(file().find("exitX=1;exitY=0.5;"), std::string::npos) << file();
}

// Trial 15: a labelled connect re-spread the labels of the edges already leaving its source,
// moving one onto a bend of its route, unsaid. Only the new edge's label is placed now.
TEST_F(UndoTest, ALabelledConnectLeavesItsSiblingsLabelsWhereTheyAre) {
  check("add svc Gateway at:0,200");
  check("add svc Auth at:400,0");
  check("add svc Trip at:400,400");
  check("connect Gateway -> Auth label:gRPC");
  const auto cell_of = [this](std::string_view target) {
    const std::string xml = file();
    const auto at = xml.find("target=\"" + std::string(target) + "\"");
    EXPECT_NE(at, std::string::npos) << xml;
    const auto begin = xml.find("<mxGeometry", at);  // the label's place (ports may spread)
    return xml.substr(begin, xml.find("</mxCell>", at) - begin);
  };
  const std::string first = cell_of("fcp-3");
  check("connect Gateway -> Trip label:HTTPS");
  EXPECT_EQ(cell_of("fcp-3"), first);  // Gateway -> Auth's label did not move
  EXPECT_NE(cell_of("fcp-4").find("x=\"-0.3\""), std::string::npos)
      << "the new label takes the free slot of the spread: " << cell_of("fcp-4");
}

// Trial 16: agents who followed "set exit:/entry:" put edges on one line again. The op a warning
// offers (`try: style A -> B exit:F entry:G`) must parse, apply, and leave that edge on no line
// with (nor side by side with, nor through) anything: its own batch warns nothing of the kind.
TEST_F(UndoTest, TheOpAWarningOffersTakesTheEdgeOffTheLine) {
  // A 4 x 4 grid: an edge between the two middle shapes of a row (or column), then one between
  // its outer shapes, drawn on the first one's line through them; and a few others.
  std::vector<std::string> names;
  for (int i = 0; i < 16; ++i) {
    names.emplace_back(1, static_cast<char>('A' + i));
    check("add svc " + names.back() + " at:" + std::to_string(i % 4 * 260) + "," +
          std::to_string(i / 4 * 200));
  }
  const std::vector<std::pair<int, int>> pairs{{5, 6},  {4, 7},  {1, 5}, {9, 13}, {1, 13},
                                               {6, 10}, {2, 14}, {0, 5}, {8, 11}, {3, 15}};
  std::size_t offered = 0;
  for (const auto& [from, to] : pairs) {
    const std::string text = "connect " + names[from] + " -> " + names[to];
    auto outcome = run(text);
    ASSERT_TRUE(outcome) << text << ": " << outcome.error().message;
    const std::vector<core::EventPtr> batch{outcome->event};
    for (const auto& warning : document_->warnings(batch, core::Applied::forward)) {
      const auto at = warning.find("try: style ");
      if (at == std::string::npos) continue;
      ++offered;
      const std::string op = warning.substr(at + 5);
      SCOPED_TRACE(warning);
      auto fixed = run(op);
      ASSERT_TRUE(fixed) << op << ": " << fixed.error().message;
      // "style A -> B exit:…": the edge as warnings name it.
      const std::string edge = "edge " + op.substr(6, op.find(" exit:") - 6);
      const std::vector<core::EventPtr> fix_batch{fixed->event};
      for (const auto& after : document_->warnings(fix_batch, core::Applied::forward)) {
        if (after.find(edge) == std::string::npos) continue;
        EXPECT_EQ(after.find("on one line"), std::string::npos) << after;
        EXPECT_EQ(after.find(" px from edge"), std::string::npos) << after;
        EXPECT_EQ(after.find("passes through"), std::string::npos) << after;
      }
    }
  }
  EXPECT_GE(offered, 2U) << "the diagram should give warnings with an op to check";
}

// The shortest route for the offered ports (H -> I straight from the middle of its sides) would
// lie on W -> X's line: the op offered is another, and it leaves H -> I on no line.
TEST_F(UndoTest, TheOpAWarningOffersAvoidsARouteOnAnotherEdgesLine) {
  for (const char* add : {"add svc F at:100,100", "add svc G at:500,100", "add svc H at:100,165",
                          "add svc I at:500,165", "add svc W at:-200,165", "add svc X at:800,165",
                          "connect F -> G exit:right@1 entry:left@1", "connect W -> X"})
    check(add);
  auto outcome = run("connect H -> I exit:right@0 entry:left@0");
  ASSERT_TRUE(outcome) << outcome.error().message;
  const std::vector<core::EventPtr> batch{outcome->event};
  const auto warnings = document_->warnings(batch, core::Applied::forward);
  const auto offered = std::find_if(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("edge H -> I runs 5 px from edge F -> G") == 0;
  });
  ASSERT_NE(offered, warnings.end());
  const auto at = offered->find("try: style H -> I ");
  ASSERT_NE(at, std::string::npos) << *offered;
  const std::string op = offered->substr(at + 5);
  EXPECT_NE(op, "style H -> I exit:right entry:left");  // on W -> X's line
  auto fixed = run(op);
  ASSERT_TRUE(fixed) << op << ": " << fixed.error().message;
  const std::vector<core::EventPtr> fix_batch{fixed->event};
  for (const auto& after : document_->warnings(fix_batch, core::Applied::forward)) {
    EXPECT_EQ(after.find("on one line"), std::string::npos) << after;
    EXPECT_EQ(after.find(" px from edge"), std::string::npos) << after;
  }
}

}  // namespace
}  // namespace fcp::drawio
