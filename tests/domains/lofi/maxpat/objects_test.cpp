// The Max object table and the port rules computed from arguments.
#include "domains/lofi/maxpat/objects.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace fcp::lofi::maxpat {
namespace {

using Types = std::vector<std::string>;

std::size_t comma_pieces(std::string_view types) {
  return static_cast<std::size_t>(std::count(types.begin(), types.end(), ',')) + 1;
}

class ObjectEntryTest : public ::testing::TestWithParam<ObjectInfo> {};

TEST_P(ObjectEntryTest, IsConsistent) {
  const ObjectInfo& info = GetParam();
  EXPECT_EQ(find_object(info.maxclass)->maxclass, info.maxclass);
  EXPECT_GE(info.inlets, 0);
  EXPECT_GE(info.outlets, 0);
  if (info.outlets == 0) {
    EXPECT_TRUE(info.outlettype.empty());
  } else {
    EXPECT_EQ(comma_pieces(info.outlettype), static_cast<std::size_t>(info.outlets))
        << "one outlet type per outlet: " << info.outlettype;
  }
  EXPECT_FALSE(info.description.empty());
  EXPECT_GT(info.height, 0);
  if (info.ui) {
    EXPECT_GT(info.width, 0);
  } else {
    EXPECT_EQ(info.width, 0) << "newobj boxes take their width from the text";
  }
  EXPECT_TRUE(info.parameter_enable >= -1 && info.parameter_enable <= 1);
  // Without arguments an object has the table's ports, whatever its rule.
  const Ports ports = ports_for(info.maxclass, "");
  EXPECT_EQ(ports.inlets, info.inlets);
  EXPECT_EQ(ports.outlets, info.outlets);
  EXPECT_EQ(ports.outlettype.size(), static_cast<std::size_t>(info.outlets));
}

std::string entry_name(const ::testing::TestParamInfo<ObjectInfo>& param) {
  std::string name = std::to_string(param.index) + "_";
  for (char c : param.param.maxclass)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Table, ObjectEntryTest,
                         ::testing::ValuesIn(objects().begin(), objects().end()), entry_name);

TEST(ObjectTableTest, HoldsTheCommonObjectsOnce) {
  EXPECT_GE(objects().size(), 120u);
  std::set<std::string_view> names;
  for (const ObjectInfo& info : objects())
    EXPECT_TRUE(names.insert(info.maxclass).second) << "twice: " << info.maxclass;
  for (const char* name : {"cycle~",      "phasor~",      "saw~",
                           "rect~",       "tri~",         "noise~",
                           "*~",          "+~",           "-~",
                           "/~",          "dac~",         "adc~",
                           "plugin~",     "plugout~",     "lores~",
                           "svf~",        "biquad~",      "onepole~",
                           "delay~",      "tapin~",       "tapout~",
                           "comb~",       "allpass~",     "line~",
                           "curve~",      "adsr~",        "sig~",
                           "snapshot~",   "gain~",        "live.gain~",
                           "clip~",       "tanh~",        "degrade~",
                           "metro",       "counter",      "toggle",
                           "button",      "number",       "flonum",
                           "message",     "comment",      "panel",
                           "slider",      "dial",         "bang",
                           "loadbang",    "trigger",      "t",
                           "pack",        "unpack",       "route",
                           "select",      "sel",          "gate",
                           "switch",      "scale",        "expr",
                           "js",          "v8",           "p",
                           "bpatcher",    "coll",         "dict",
                           "udpsend",     "udpreceive",   "print",
                           "live.dial",   "live.slider",  "live.numbox",
                           "live.toggle", "live.button",  "live.tab",
                           "live.menu",   "live.text",    "live.meter~",
                           "live.scope~", "live.comment", "live.thisdevice",
                           "live.object", "live.path",    "live.observer",
                           "dbtoa",       "atodb",        "gate~",
                           "selector~",   "matrix~",      "dspstate~",
                           "translate",   "scale~",       "clip",
                           "mtof",        "ftom",         "prepend"}) {
    EXPECT_NE(find_object(name), nullptr) << name;
  }
}

TEST(ObjectTableTest, LookupIsExact) {
  EXPECT_EQ(find_object("cycle"), nullptr);
  EXPECT_EQ(find_object(""), nullptr);
  EXPECT_EQ(find_object("Cycle~"), nullptr);
  const ObjectInfo* dial = find_object("live.dial");
  ASSERT_NE(dial, nullptr);
  EXPECT_TRUE(dial->ui);
  EXPECT_EQ(dial->parameter_enable, 1);
  EXPECT_EQ(dial->outlettype, ",float");
  EXPECT_FALSE(find_object("cycle~")->ui);
  EXPECT_EQ(find_object("p")->rule, PortRule::contents);
  EXPECT_EQ(find_object("pack")->rule, PortRule::args);
}

TEST(PortsForTest, UnknownObjectsHaveOneInletAndOneOutlet) {
  EXPECT_EQ(ports_for("my.external~", "1 2 3"), (Ports{1, 1, {""}}));
  EXPECT_EQ(ports_for("", ""), (Ports{1, 1, {""}}));
}

TEST(PortsForTest, FixedObjectsIgnoreArguments) {
  EXPECT_EQ(ports_for("cycle~", "440"), (Ports{2, 1, {"signal"}}));
  EXPECT_EQ(ports_for("live.gain~", ""), (Ports{2, 5, {"signal", "signal", "", "float", "list"}}));
  EXPECT_EQ(ports_for("counter", "0 1 8"), (Ports{5, 4, {"int", "", "", "int"}}));
  EXPECT_EQ(ports_for("print", "hello"), (Ports{1, 0, {}}));
}

TEST(PortsForTest, PackAndUnpackFollowTheirArguments) {
  EXPECT_EQ(ports_for("pack", ""), (Ports{2, 1, {""}}));
  EXPECT_EQ(ports_for("pack", "0 0 0 0"), (Ports{4, 1, {""}}));
  EXPECT_EQ(ports_for("pak", "A: 0 %"), (Ports{3, 1, {""}}));
  EXPECT_EQ(ports_for("unpack", "0 0. s f i sym"),
            (Ports{1, 6, {"int", "float", "", "float", "int", ""}}));
  EXPECT_EQ(ports_for("unpack", ""), (Ports{1, 2, {"int", "int"}}));
}

TEST(PortsForTest, TriggerOutletsAreTypedByArguments) {
  EXPECT_EQ(ports_for("t", "b i f l s a"), (Ports{1, 6, {"bang", "int", "float", "", "", ""}}));
  EXPECT_EQ(ports_for("trigger", "bang 0 0.5 clear"),
            (Ports{1, 4, {"bang", "int", "float", "clear"}}));
  EXPECT_EQ(ports_for("t", ""), (Ports{1, 2, {"int", "int"}}));
}

TEST(PortsForTest, RouteAndSelectHaveAnInletAndOutletPerCase) {
  EXPECT_EQ(ports_for("route", "a b"), (Ports{3, 3, {"", "", ""}}));
  EXPECT_EQ(ports_for("route", ""), (Ports{2, 2, {"", ""}}));
  EXPECT_EQ(ports_for("sel", "0 1 2 3"), (Ports{5, 5, {"bang", "bang", "bang", "bang", ""}}));
  EXPECT_EQ(ports_for("select", "x"), (Ports{2, 2, {"bang", ""}}));
}

TEST(PortsForTest, GateSwitchJoin) {
  EXPECT_EQ(ports_for("gate", ""), (Ports{2, 1, {""}}));
  EXPECT_EQ(ports_for("gate", "4 1"), (Ports{2, 4, {"", "", "", ""}}));
  EXPECT_EQ(ports_for("switch", "4"), (Ports{5, 1, {""}}));
  EXPECT_EQ(ports_for("switch", ""), (Ports{3, 1, {""}}));
  EXPECT_EQ(ports_for("join", "3 @triggers 0"), (Ports{3, 1, {""}}));
  EXPECT_EQ(ports_for("gate", "banana"), (Ports{2, 1, {""}}));
  EXPECT_EQ(ports_for("gate", "99999999"), (Ports{2, 1, {""}}));
}

TEST(PortsForTest, FormatAndExpressionInlets) {
  EXPECT_EQ(ports_for("sprintf", "%i-%i-%i").inlets, 3);
  EXPECT_EQ(ports_for("sprintf", "100%% %s").inlets, 1);
  EXPECT_EQ(ports_for("sprintf", "plain").inlets, 1);
  EXPECT_EQ(ports_for("expr", "$i1 + $f3 * $s2").inlets, 3);
  EXPECT_EQ(ports_for("expr", "random(0, 10)").inlets, 1);
  EXPECT_EQ(ports_for("expr", "$").inlets, 1);
}

TEST(PortsForTest, AudioChannelsFollowArguments) {
  EXPECT_EQ(ports_for("dac~", ""), (Ports{2, 0, {}}));
  EXPECT_EQ(ports_for("dac~", "1 2 3 4"), (Ports{4, 0, {}}));
  EXPECT_EQ(ports_for("adc~", "1"), (Ports{1, 1, {"signal"}}));
  EXPECT_EQ(ports_for("tapout~", "100 500 1000"), (Ports{3, 3, {"signal", "signal", "signal"}}));
  EXPECT_EQ(ports_for("groove~", "loop 2"), (Ports{3, 3, {"signal", "signal", "signal"}}));
  EXPECT_EQ(ports_for("play~", "sample 2"), (Ports{1, 3, {"signal", "signal", "bang"}}));
  EXPECT_EQ(ports_for("sfplay~", "@audiofile x.aif"), (Ports{2, 2, {"signal", "bang"}}));
}

// Counts as Max saves them (patchers in public repositories: "gate~ 5 1" 2/5, "selector~ 10 2"
// 11/1, "matrix~ 3 2" 3/3).
TEST(PortsForTest, SignalRoutingFollowsItsArguments) {
  EXPECT_EQ(ports_for("gate~", ""), (Ports{2, 1, {"signal"}}));
  EXPECT_EQ(ports_for("gate~", "5 1"), (Ports{2, 5, Types(5, "signal")}));
  EXPECT_EQ(ports_for("selector~", ""), (Ports{2, 1, {"signal"}}));
  EXPECT_EQ(ports_for("selector~", "10 2"), (Ports{11, 1, {"signal"}}));
  EXPECT_EQ(ports_for("matrix~", "3 2"), (Ports{3, 3, {"signal", "signal", "list"}}));
  EXPECT_EQ(ports_for("matrix~", "2 1 1."), (Ports{2, 2, {"signal", "list"}}));
}

TEST(SignalInletTest, ControlObjectsTakeMessagesOnly) {
  for (const char* name : {"/", "*", "pack", "print", "live.dial", "dbtoa", "message", "js"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(signal_inlet(name, 0), SignalInlet::messages_only);
  }
  EXPECT_EQ(signal_inlet("js", 5), SignalInlet::messages_only);  // every inlet a script makes
}

TEST(SignalInletTest, MspInletsAreMessagesOnlyWhereMaxSaysSo) {
  EXPECT_EQ(signal_inlet("line~", 0), SignalInlet::messages_only);
  EXPECT_EQ(signal_inlet("curve~", 2), SignalInlet::messages_only);
  EXPECT_EQ(signal_inlet("snapshot~", 0), SignalInlet::takes_signal);
  EXPECT_EQ(signal_inlet("snapshot~", 1), SignalInlet::messages_only);
  EXPECT_EQ(signal_inlet("*~", 1), SignalInlet::unknown);  // not refused
  EXPECT_EQ(signal_inlet("outlet", 0), SignalInlet::takes_signal);
}

TEST(SignalInletTest, ContentsAndUnknownClassesCannotTell) {
  for (const char* name : {"p", "bpatcher", "gen~", "poly~", "MyAbstraction", "my.external~"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(signal_inlet(name, 0), SignalInlet::unknown);
  }
}

TEST(SignalInletTest, SignalVersionsAreTableClasses) {
  EXPECT_EQ(signal_version("/"), "/~");
  EXPECT_EQ(signal_version("*"), "*~");
  EXPECT_EQ(signal_version("scale"), "scale~");
  EXPECT_EQ(signal_version("dbtoa"), "dbtoa~");
  EXPECT_EQ(signal_version("print"), "");
  EXPECT_EQ(signal_version("/~"), "");
  for (const ObjectInfo& info : objects()) {
    const std::string_view version = signal_version(info.maxclass);
    if (!version.empty()) {
      EXPECT_NE(find_object(version), nullptr) << version;
    }
  }
  EXPECT_TRUE(is_signal_type("signal"));
  EXPECT_TRUE(is_signal_type("multichannelsignal"));
  EXPECT_FALSE(is_signal_type("tapconnect"));
  EXPECT_FALSE(is_signal_type(""));
}

TEST(CloseClassesTest, TyposFindTheClassMeant) {
  EXPECT_EQ(close_classes("cylce~").front(), "cycle~");
  EXPECT_EQ(close_classes("cycle").front(), "cycle~");
  EXPECT_EQ(close_classes("Cycle~").front(), "cycle~");
  EXPECT_EQ(close_classes("live.panel").front(), "panel");  // Max for Live has no live.panel
  EXPECT_EQ(close_classes("dial~").front(), "dial");
  EXPECT_EQ(close_classes("livedial").front(), "live.dial");
  EXPECT_TRUE(close_classes("cycle~").empty());  // a table class is no typo
  EXPECT_TRUE(close_classes("MyAbstraction").empty());
  EXPECT_TRUE(close_classes("").empty());
  EXPECT_LE(close_classes("x", 2).size(), 2u);
}

TEST(PortsForTest, ArithmeticOutletTypeFollowsAFloatArgument) {
  EXPECT_EQ(ports_for("*", "0."), (Ports{2, 1, {"float"}}));
  EXPECT_EQ(ports_for("+", "1"), (Ports{2, 1, {"int"}}));
  EXPECT_EQ(ports_for("/", "1000."), (Ports{2, 1, {"float"}}));
  EXPECT_EQ(ports_for("-", ""), (Ports{2, 1, {"int"}}));
  EXPECT_EQ(ports_for("maximum", "0."), (Ports{2, 2, {"float", "int"}}));
  EXPECT_EQ(ports_for(">", "0."), (Ports{2, 1, {"int"}}));  // comparisons answer 0 or 1
}

TEST(PortsForTest, AttributesAreNotArguments) {
  EXPECT_EQ(ports_for("pack", "0 0 @embed 1 2 3").inlets, 2);
  EXPECT_EQ(ports_for("route", "@x a b").inlets, 2);
}

TEST(SplitAtomsTest, SplitsLikeMax) {
  EXPECT_EQ(split_atoms("notein \"IAC Driver Bus 1\"  2"),
            (Types{"notein", "IAC Driver Bus 1", "2"}));
  EXPECT_EQ(split_atoms("a @b c", true), (Types{"a"}));
  EXPECT_EQ(split_atoms("a @b c"), (Types{"a", "@b", "c"}));
  EXPECT_EQ(split_atoms("\"say \\\"hi\\\"\" x"), (Types{"say \"hi\"", "x"}));
  EXPECT_EQ(split_atoms("\"unterminated"), (Types{"unterminated"}));
  EXPECT_EQ(split_atoms("  \t"), Types{});
  EXPECT_EQ(split_atoms("@ x", true), (Types{"@", "x"}));
}

}  // namespace
}  // namespace fcp::lofi::maxpat
