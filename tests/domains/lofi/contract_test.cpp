// The op contract over every lofi verb (edited offline): undeclared keys and attributes are
// refused, never dropped, and the words agents use get the complete op.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "core/session.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/lofi/maxpat/attributes.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

using testing::call_ops;
using testing::try_lines;

// Reads the fixture files (lfo.js for inject); writes nothing.
class FixtureFiles final : public core::PathPolicy {
 public:
  core::Result<std::filesystem::path> for_reading(std::string_view path) const override {
    return fcp::testing::source_dir() / "fixtures" / "lofi" / path;
  }
  core::Result<std::filesystem::path> for_writing(std::string_view) const override {
    return core::make_error("no writing in this test");
  }
};

class LofiContract : public ::testing::Test {
 protected:
  LofiContract()
      : domain_(make_lofi_domain(io_, boost::json::object{{"connect_on_new", false}})),
        session_(*domain_, paths_) {
    prepare(session_);
  }

  // A device every example and suggestion can work on.
  static void prepare(core::Session& session) {
    session.run_session("new \"Contract\" discard:true", {});
    call_ops(session, {"add cycle~ osc1 at:40,40", "add *~ vol at:40,100",
                       "add plugout~ out at:40,160", "add v8 brain at:200,40", "wire osc1 -> vol",
                       "ui cutoff live.dial at:20,20 size:44x48",
                       "ui 30_mix live.dial at:80,20 size:44x48"});
  }
  core::ToolReply ops(std::vector<std::string> list) { return call_ops(session_, std::move(list)); }
  // The reply's suggestions, each of which must run without error on the prepared device.
  std::vector<std::string> working_hints(const core::ToolReply& reply) {
    EXPECT_TRUE(reply.is_error) << reply.text;
    auto hints = try_lines(reply.text);
    for (const auto& hint : hints) {
      core::Session fresh(*domain_, paths_);
      prepare(fresh);
      const auto run = call_ops(fresh, {hint});
      EXPECT_FALSE(run.is_error) << hint << "\n" << run.text;
    }
    return hints;
  }

  boost::asio::io_context io_;
  FixtureFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_F(LofiContract, EveryVerbRefusesAnUndeclaredKey) {
  testing::expect_every_verb_refuses_undeclared_keys(*domain_, session_);
}

TEST_F(LofiContract, CardListsExactlyTheDeclaredKeys) {
  testing::expect_card_lists_declared_keys(*domain_, session_);
  EXPECT_NE(session_.help().find("  modify ID…|@SELECTOR|device [args:\"…\"] [class:CLS] "
                                 "[external:true|false] [any Max box or Live parameter attribute"),
            std::string::npos)
      << session_.help();
}

TEST_F(LofiContract, UnwireOfTheWrongInletSuggestsTheWireThatIsThere) {
  auto reply = ops({"unwire osc1 -> vol in:1"});
  EXPECT_EQ(working_hints(reply), std::vector<std::string>{"unwire osc1 -> vol out:0 in:0"});
  auto none = ops({"unwire osc1 -> out"});
  EXPECT_TRUE(none.is_error);
  EXPECT_TRUE(try_lines(none.text).empty()) << none.text;  // a query is no op to paste
  EXPECT_NE(none.text.find("are not wired (lofi_query wires osc1)"), std::string::npos)
      << none.text;
}

// Max's rules and class typos: each suggestion is an op that works on its own.
TEST_F(LofiContract, RuleErrorsOfferOpsThatWork) {
  using Hints = std::vector<std::string>;
  EXPECT_EQ(working_hints(ops({"wire osc1 -> cutoff"})), Hints{"add snapshot~ osc1_value args:20"});
  EXPECT_EQ(working_hints(ops({"wire osc1 -> brain"})), Hints{"add snapshot~ osc1_value args:20"});
  EXPECT_EQ(working_hints(ops({"add cylce~ lfo args:2"})), Hints{"add cycle~ lfo args:2"});
  EXPECT_EQ(working_hints(ops({"ui 40_bg live.panel at:0,0 size:10x10"})),
            Hints{"ui 40_bg panel at:0,0 size:10x10"});
  EXPECT_EQ(working_hints(ops({"modify vol class:tanh"})), Hints{"modify vol class:tanh~"});
  EXPECT_FALSE(ops({"add cylce~ lfo external:true"}).is_error);
}

TEST_F(LofiContract, EveryExampleWorks) {
  testing::expect_examples_work(*domain_, prepare, session_);
}

TEST_F(LofiContract, UnknownAttributesAreRefusedNotDropped) {
  const std::string before = *session_.digest();
  auto foo = ops({"modify osc1 foo:1"});
  EXPECT_TRUE(foo.is_error);
  EXPECT_NE(foo.text.find("modify has no key \"foo:\"; its keys: args: class: external:, and any "
                          "Max box or Live parameter attribute"),
            std::string::npos)
      << foo.text;
  auto range = ops({"modify 30_mix range:0-100"});
  EXPECT_EQ(working_hints(range),
            (std::vector<std::string>{"modify 30_mix parameter_mmin:0 parameter_mmax:100"}));
  auto map = ops({"map \"Dry/Wet\" 30_mix range:0-100"});
  EXPECT_NE(map.text.find("map has no key \"range:\"; its keys: prop:"), std::string::npos)
      << map.text;
  EXPECT_EQ(working_hints(map), (std::vector<std::string>{"map \"Dry/Wet\" 30_mix"}));
  auto typo = ops({"modify cutoff bgcolour:\"0.1 0.1 0.1 1\""});
  EXPECT_EQ(working_hints(typo),
            (std::vector<std::string>{"modify cutoff bgcolor:\"0.1 0.1 0.1 1\""}));
  auto ui = ops({"ui 40_x live.dial at:0,0 size:44x48 colour:\"1 0 0 1\""});
  EXPECT_EQ(working_hints(ui),
            (std::vector<std::string>{"ui 40_x live.dial at:0,0 size:44x48 bgcolor:\"1 0 0 1\""}));
  EXPECT_EQ(*session_.digest(), before);
  // Real attributes go through, in either spelling of the parameter ones.
  for (const char* op : {"modify cutoff parameter_longname:Cutoff parameter_mmax:100",
                         "modify cutoff _parameter_shortname:Cut presentation_rect:\"0 0 44 48\"",
                         "modify osc1 args:220"})
    EXPECT_FALSE(ops({op}).is_error) << op;
}

TEST_F(LofiContract, QueriesAndSessionCommandsTakeTheirDeclaredKeys) {
  EXPECT_FALSE(session_.run_query("find osc").is_error);
  EXPECT_FALSE(session_.run_query("find a:b").is_error);  // text, not a key
  EXPECT_TRUE(session_.run_query("list zzbogus:1").is_error);
  auto created = session_.run_session("new \"Dev\" width:300 height:120 discard:true", {});
  EXPECT_FALSE(created.reply.is_error) << created.reply.text;
  EXPECT_TRUE(session_.run_session("new \"Dev\" depth:3 discard:true", {}).reply.is_error);
}

TEST_F(LofiContract, AttributeTableHasNoDuplicatesAndNoBoxSize) {
  const auto names = maxpat::box_attributes();
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_FALSE(names[i].empty());
    for (std::size_t j = i + 1; j < names.size(); ++j)
      EXPECT_NE(names[i], names[j]) << "twice: " << names[i];
  }
  EXPECT_FALSE(maxpat::is_box_attribute("size"));
  EXPECT_FALSE(maxpat::is_box_attribute("_bgcolor"));
  EXPECT_TRUE(maxpat::is_box_attribute("_parameter_longname"));
}

TEST_F(LofiContract, VerbSynonymsGiveTheCompleteOpAndNeverDestroyByAccident) {
  using Case = std::pair<const char*, const char*>;
  for (const auto& [op, hint] : {
           Case{"connect osc1 -> out", "wire osc1 -> out"},
           Case{"connect osc1->out", "wire osc1->out"},
           Case{"set osc1 args:220", "modify osc1 args:220"},
           Case{"delete brain", "remove brain"},
           Case{"create cycle~ lfo", "add cycle~ lfo"},
           Case{"disconnect osc1 -> vol", "unwire osc1 -> vol"},
           Case{"duplicate osc1 as:osc2", "copy osc1 as:osc2"},
       }) {
    const auto hints = working_hints(ops({op}));
    ASSERT_FALSE(hints.empty()) << op;
    EXPECT_EQ(hints.front(), hint) << op;
  }
  for (const char* op : {"rename osc1 as:osc2", "rewire osc1 -> out"}) {
    for (const auto& hint : try_lines(ops({op}).text))
      EXPECT_FALSE(hint.starts_with("remove") || hint.starts_with("unwire")) << op << " → " << hint;
  }
}

TEST_F(LofiContract, KeySynonymsGiveTheCompleteOp) {
  using Case = std::pair<const char*, const char*>;
  for (const auto& [op, hint] : {
           Case{"add cycle~ lfo position:200,40", "add cycle~ lfo at:200,40"},
           Case{"wire osc1 -> vol inlet:1", "wire osc1 -> vol in:1"},
           Case{"copy osc1 name:osc2", "copy osc1 as:osc2"},
           Case{"repeat cutoff times:3", "repeat cutoff count:3"},
           Case{"modify cutoff name:Cutoff", "modify cutoff parameter_longname:Cutoff"},
           Case{"modify cutoff min:0", "modify cutoff parameter_mmin:0"},
           Case{"inject brain file:lfo.js", "inject brain path:lfo.js"},
       }) {
    const auto hints = working_hints(ops({op}));
    ASSERT_FALSE(hints.empty()) << op;
    EXPECT_EQ(hints.front(), hint) << op;
  }
}

}  // namespace
}  // namespace fcp::lofi
