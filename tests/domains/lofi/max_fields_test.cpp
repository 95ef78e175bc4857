// A device built with the lofi ops is saved the way Max saves it: attributes in the box with
// Max's value types, Live parameter attributes in saved_attribute_attributes.valueof, mappings
// as parameter names, injected scripts as the script object's file, no private keys; reopening
// gives the same model back, and undo reaches the file.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/session.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/patcher.hpp"
#include "tests/domains/lofi/maxpat/maxpat_test_support.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
using maxpat::testing::patcher_of;
using maxpat::testing::read_file;
namespace json = boost::json;

const json::object& box_named(const maxpat::Patcher& patcher, std::string_view varname) {
  for (const auto& box : patcher.boxes) {
    if (const auto* name = box.json.if_contains("varname");
        name && name->is_string() && name->get_string() == varname)
      return box.json;
  }
  ADD_FAILURE() << "no box with varname " << varname;
  static const json::object none;
  return none;
}

const json::object& valueof(const json::object& box) {
  return box.at("saved_attribute_attributes").as_object().at("valueof").as_object();
}

class MaxFields : public ::testing::Test {
 protected:
  MaxFields()
      : domain_(make_lofi_domain(io_, json::object{{"connect_on_new", false}})),
        session_(*domain_, paths_),
        dir_(fs::temp_directory_path() / ("fcp-max-fields-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~MaxFields() override { fs::remove_all(dir_); }

  std::string session(const std::string& action) {
    auto result = session_.run_session(action, {});
    EXPECT_FALSE(result.reply.is_error) << action << "\n" << result.reply.text;
    return result.reply.text;
  }
  std::string ops(std::vector<std::string> list) {
    auto reply = testing::call_ops(session_, std::move(list));
    EXPECT_FALSE(reply.is_error) << reply.text;
    return reply.text;
  }
  std::string query(const std::string& q) { return session_.run_query(q).text; }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // The wow device: a parameter dial set up with modify, a mapped UI dial, a coloured panel and
  // an injected script.
  void build() {
    session("new \"Wow\" discard:true");
    const fs::path script = fcp::testing::source_dir() / "fixtures" / "lofi" / "lfo.js";
    const std::string set_up_wowrate =
        "modify wowrate parameter_longname:\"Wow Rate\" parameter_shortname:Wow "
        "parameter_mmin:0.05 parameter_mmax:4 parameter_unitstyle:3 parameter_type:0 "
        "parameter_initial_enable:1 parameter_initial:0.5 parameter_exponent:2 "
        "bgcolor:\"0.2 0.2 0.2 1\"";
    ops({"add live.dial wowrate at:100,40", set_up_wowrate,
         "ui 30_depth live.dial at:20,20 size:44x48", "map Depth 30_depth",
         "ui 00_bg panel at:0,0 size:300x170 bgcolor:\"0.1 0.1 0.1 1\"", "add v8 brain at:200,40",
         "inject brain path:" + script.string()});
  }

  // Every field the ops set, where Max keeps it, with Max's types; no "fcp" key.
  void expect_max_fields(const std::string& bytes) {
    EXPECT_EQ(bytes.find("\"fcp\""), std::string::npos);
    const maxpat::Patcher patcher = patcher_of(bytes);
    EXPECT_FALSE(patcher.json.contains("fcp"));

    const json::object& wow = box_named(patcher, "wowrate");
    EXPECT_EQ(wow.at("maxclass"), json::value("live.dial"));
    EXPECT_EQ(wow.at("parameter_enable"), json::value(1));
    EXPECT_EQ(wow.at("bgcolor"), (json::array{0.2, 0.2, 0.2, 1.0}));
    EXPECT_TRUE(wow.at("bgcolor").as_array()[3].is_double());
    const json::object& values = valueof(wow);
    EXPECT_EQ(values.at("parameter_longname"), json::value("Wow Rate"));
    EXPECT_EQ(values.at("parameter_shortname"), json::value("Wow"));
    EXPECT_TRUE(values.at("parameter_mmin").is_double());
    EXPECT_EQ(values.at("parameter_mmin").as_double(), 0.05);
    EXPECT_TRUE(values.at("parameter_mmax").is_double());
    EXPECT_EQ(values.at("parameter_mmax").as_double(), 4.0);
    EXPECT_TRUE(values.at("parameter_unitstyle").is_int64());
    EXPECT_EQ(values.at("parameter_unitstyle"), json::value(3));
    EXPECT_EQ(values.at("parameter_type"), json::value(0));
    EXPECT_EQ(values.at("parameter_initial_enable"), json::value(1));
    EXPECT_EQ(values.at("parameter_initial"), (json::array{0.5}));
    EXPECT_EQ(values.at("parameter_exponent"), json::value(2.0));
    // Max writes these keys alphabetically.
    std::string previous;
    for (const auto& [key, value] : values) {
      EXPECT_LT(previous, std::string(key));
      previous = key;
    }
    EXPECT_FALSE(wow.contains("parameter_longname")) << "parameter attributes go in valueof";

    const json::object& depth = box_named(patcher, "30_depth");
    EXPECT_EQ(depth.at("presentation"), json::value(1));
    EXPECT_EQ(depth.at("presentation_rect"), (json::array{20.0, 20.0, 44.0, 48.0}));
    EXPECT_EQ(depth.at("parameter_enable"), json::value(1));
    EXPECT_EQ(valueof(depth).at("parameter_longname"), json::value("Depth"));
    EXPECT_EQ(valueof(depth).at("parameter_shortname"), json::value("Depth"));

    const json::object& panel = box_named(patcher, "00_bg");
    EXPECT_EQ(panel.at("bgcolor"), (json::array{0.1, 0.1, 0.1, 1.0}));

    const json::object& brain = box_named(patcher, "brain");
    const std::string script =
        (fcp::testing::source_dir() / "fixtures" / "lofi" / "lfo.js").string();
    EXPECT_EQ(brain.at("text"), json::value("v8 " + script));
  }

  // What describe shows after a reopen: the same fields.
  void expect_model() {
    const std::string wow = query("describe wowrate");
    for (const char* line :
         {"parameter_longname: Wow Rate", "parameter_shortname: Wow", "parameter_mmin: 0.05",
          "parameter_mmax: 4", "parameter_unitstyle: 3", "parameter_initial: 0.5",
          "parameter_initial_enable: 1", "parameter_exponent: 2", "bgcolor: 0.2 0.2 0.2 1",
          "mapped: Wow Rate (value)"})
      EXPECT_NE(wow.find(line), std::string::npos) << line << " not in\n" << wow;
    const std::string depth = query("describe 30_depth");
    EXPECT_NE(depth.find("ui layer: 30_depth"), std::string::npos) << depth;
    EXPECT_NE(depth.find("mapped: Depth (value)"), std::string::npos) << depth;
    EXPECT_NE(query("describe 00_bg").find("bgcolor: 0.1 0.1 0.1 1"), std::string::npos);
    EXPECT_NE(query("describe brain").find("script: /"), std::string::npos);
    EXPECT_NE(query("describe brain").find("args: none"), std::string::npos);
  }

  boost::asio::io_context io_;
  testing::AllowAll paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
  fs::path dir_;
};

TEST_F(MaxFields, SavedDevicesKeepEveryFieldWhereMaxKeepsIt) {
  build();
  for (const char* name : {"wow.amxd", "wow.maxpat"}) {
    SCOPED_TRACE(name);
    session("save as:" + path(name));
    const std::string bytes = read_file(path(name));
    EXPECT_EQ(bytes.starts_with("ampf"), std::string(name).ends_with(".amxd"));
    expect_max_fields(bytes);
  }
}

TEST_F(MaxFields, ReopenedDevicesShowTheFieldsAndSaveThemUnchanged) {
  build();
  for (const char* name : {"wow.amxd", "wow.maxpat"}) {
    SCOPED_TRACE(name);
    session("save as:" + path(name));
    const std::string saved = read_file(path(name));
    session("open " + path(name) + " discard:true");
    expect_model();
    EXPECT_NE(query("stats").find("mappings: 2"), std::string::npos) << query("stats");
    EXPECT_NE(query("stats").find("scripts: 1"), std::string::npos) << query("stats");
    session("save");
    EXPECT_EQ(read_file(path(name)), saved);
  }
}

// Issue 12: a parameter fcp makes is saved as Max saves one: parameter_type and (for classes
// with a Unit Style) parameter_unitstyle in valueof even at their defaults. A box that is a
// parameter in its file already gets nothing it did not have.
TEST_F(MaxFields, NewParametersAreSavedWithTheKeysMaxWritesAtTheirDefaults) {
  session("new \"Defaults\" discard:true");
  ops({"ui 30_rate live.dial at:20,20 size:44x48 parameter_longname:Rate",
       "ui 31_freq live.dial at:80,20 size:44x48 parameter_unitstyle:hertz",
       "ui 32_on live.text at:140,20 size:40x20 parameter_longname:On",
       "ui 33_depth live.dial at:200,20 size:44x48", "map Depth 33_depth",
       "ui 34_gain live.gain~ at:260,20 size:48x136 parameter_longname:Gain"});
  session("save as:" + path("defaults.maxpat"));
  const maxpat::Patcher patcher = patcher_of(read_file(path("defaults.maxpat")));
  const json::object& rate = valueof(box_named(patcher, "30_rate"));
  EXPECT_EQ(rate.at("parameter_type"), json::value(0));
  EXPECT_EQ(rate.at("parameter_unitstyle"), json::value(0));
  const json::object& freq = valueof(box_named(patcher, "31_freq"));
  EXPECT_EQ(freq.at("parameter_type"), json::value(0));
  EXPECT_EQ(freq.at("parameter_unitstyle"), json::value(3));
  const json::object& on = valueof(box_named(patcher, "32_on"));
  EXPECT_EQ(on.at("parameter_type"), json::value(2));
  EXPECT_FALSE(on.contains("parameter_unitstyle"));
  const json::object& depth = valueof(box_named(patcher, "33_depth"));
  EXPECT_EQ(depth.at("parameter_longname"), json::value("Depth"));
  EXPECT_EQ(depth.at("parameter_type"), json::value(0));
  EXPECT_EQ(depth.at("parameter_unitstyle"), json::value(0));
  EXPECT_EQ(valueof(box_named(patcher, "34_gain")).at("parameter_unitstyle"), json::value(4));

  // A parameter box of a file without them (as older fcp wrote it) keeps its keys when edited.
  std::string bytes = read_file(path("defaults.maxpat"));
  json::value file = json::parse(bytes);
  for (auto& box : file.at("patcher").at("boxes").as_array()) {
    auto& fields = box.at("box").as_object();
    if (fields.at("varname") != json::value("30_rate")) continue;
    auto& values = fields.at("saved_attribute_attributes").at("valueof").as_object();
    values.erase("parameter_type");
    values.erase("parameter_unitstyle");
  }
  {
    std::ofstream out(path("older.maxpat"), std::ios::binary);
    out << json::serialize(file);
  }
  session("open " + path("older.maxpat") + " discard:true");
  ops({"modify 30_rate parameter_mmax:8"});
  session("save");
  const maxpat::Patcher reopened = patcher_of(read_file(path("older.maxpat")));
  const json::object& older = valueof(box_named(reopened, "30_rate"));
  EXPECT_EQ(older.at("parameter_mmax"), json::value(8.0));
  EXPECT_FALSE(older.contains("parameter_type"));
  EXPECT_FALSE(older.contains("parameter_unitstyle"));
}

TEST_F(MaxFields, UndoOfModifyReachesTheFile) {
  build();
  session("save as:" + path("wow.maxpat"));
  const std::string before = read_file(path("wow.maxpat"));
  ops({"modify wowrate parameter_mmax:8 bgcolor:\"1 0 0 1\""});
  session("save");
  const maxpat::Patcher modified = patcher_of(read_file(path("wow.maxpat")));
  EXPECT_EQ(valueof(box_named(modified, "wowrate")).at("parameter_mmax"), json::value(8.0));
  EXPECT_EQ(box_named(modified, "wowrate").at("bgcolor"), (json::array{1.0, 0.0, 0.0, 1.0}));
  session("undo");
  session("save");
  EXPECT_EQ(read_file(path("wow.maxpat")), before);

  // The same on a reopened file, whose fields were read from the boxes.
  session("open " + path("wow.maxpat") + " discard:true");
  ops({"modify wowrate parameter_mmax:8"});
  session("save");
  EXPECT_EQ(
      valueof(box_named(patcher_of(read_file(path("wow.maxpat"))), "wowrate")).at("parameter_mmax"),
      json::value(8.0));
  session("undo");
  session("save");
  EXPECT_EQ(read_file(path("wow.maxpat")), before);
}

// Max keeps one name per Live parameter, so map, unmap and modify keep the object's
// parameter_longname and the mapping the same: what their replies say is what the file says.
TEST_F(MaxFields, MappingsAndParameterNamesAgreeInTheFile) {
  build();
  // A mapped object given another long name renames its Live parameter (issue 12: the trial's
  // "modify 31_depth parameter_longname:\"Wow Depth\"" was refused); the short name Live derived
  // follows it, and undo gives both back.
  const std::string renamed = ops({"modify 30_depth parameter_longname:Other"});
  EXPECT_NE(renamed.find("* renamed the Live parameter Depth to Other"), std::string::npos)
      << renamed;
  EXPECT_EQ(renamed.find("removed"), std::string::npos) << renamed;
  EXPECT_NE(query("map").find("map Other -> 30_depth.value"), std::string::npos);
  session("undo");
  EXPECT_NE(query("map").find("map Depth -> 30_depth.value"), std::string::npos);
  auto taken = testing::call_ops(session_, {"modify 30_depth parameter_longname:\"Wow Rate\""});
  EXPECT_TRUE(taken.is_error) << taken.text;
  EXPECT_NE(taken.text.find("try: unmap \"Wow Rate\""), std::string::npos) << taken.text;

  // wowrate is the Live parameter "Wow Rate" (its box has a long name): it is renamed by unmap
  // then map, and keeps the short name it has.
  auto already = testing::call_ops(session_, {"map Speed wowrate"});
  EXPECT_TRUE(already.is_error) << already.text;
  EXPECT_NE(already.text.find("try: unmap \"Wow Rate\""), std::string::npos) << already.text;
  const std::string mapped = ops({"unmap \"Wow Rate\"", "map Speed wowrate"});
  EXPECT_NE(mapped.find("+ map Speed -> wowrate.value"), std::string::npos) << mapped;
  const std::string unmapped = ops({"unmap Depth"});
  EXPECT_NE(unmapped.find("- map Depth"), std::string::npos) << unmapped;
  const std::string other_property = ops({"map Level 30_depth prop:gain"});
  EXPECT_NE(other_property.find("? prop:gain is not kept"), std::string::npos) << other_property;
  session("save as:" + path("wow.maxpat"));

  const maxpat::Patcher patcher = patcher_of(read_file(path("wow.maxpat")));
  EXPECT_EQ(valueof(box_named(patcher, "wowrate")).at("parameter_longname"), json::value("Speed"));
  EXPECT_EQ(valueof(box_named(patcher, "wowrate")).at("parameter_shortname"), json::value("Wow"));
  EXPECT_EQ(valueof(box_named(patcher, "30_depth")).at("parameter_longname"), json::value("Level"));
  session("open " + path("wow.maxpat") + " discard:true");
  const std::string map = query("map");
  EXPECT_NE(map.find("map Speed -> wowrate.value"), std::string::npos) << map;
  EXPECT_NE(map.find("map Level -> 30_depth.value"), std::string::npos) << map;
  EXPECT_EQ(map.find("Depth"), std::string::npos) << map;

  ops({"unmap Level"});
  session("save");
  const maxpat::Patcher unmapped_patcher = patcher_of(read_file(path("wow.maxpat")));
  EXPECT_FALSE(box_named(unmapped_patcher, "30_depth").contains("saved_attribute_attributes"));
  session("open " + path("wow.maxpat") + " discard:true");
  EXPECT_EQ(query("map").find("Level"), std::string::npos) << query("map");
}

TEST_F(MaxFields, AMappingThatMovesLeavesItsFormerObject) {
  build();
  const std::string moved = ops({"unmap \"Wow Rate\"", "map Depth wowrate"});
  EXPECT_NE(moved.find("* map Depth -> wowrate.value"), std::string::npos) << moved;
  session("save as:" + path("wow.amxd"));
  const maxpat::Patcher patcher = patcher_of(read_file(path("wow.amxd")));
  EXPECT_EQ(valueof(box_named(patcher, "wowrate")).at("parameter_longname"), json::value("Depth"));
  EXPECT_FALSE(box_named(patcher, "30_depth").contains("saved_attribute_attributes"))
      << json::serialize(box_named(patcher, "30_depth")) << moved;
  session("open " + path("wow.amxd") + " discard:true");
  EXPECT_NE(query("map").find("map Depth -> wowrate.value"), std::string::npos) << query("map");
}

TEST_F(MaxFields, AScriptInjectedIntoJsuiIsItsFilename) {
  session("new \"Scope\" discard:true");
  const fs::path script = fcp::testing::source_dir() / "fixtures" / "lofi" / "lfo.js";
  ops({"add jsui scope at:20,20", "inject scope path:" + script.string()});
  session("save as:" + path("scope.maxpat"));
  const maxpat::Patcher patcher = patcher_of(read_file(path("scope.maxpat")));
  EXPECT_EQ(box_named(patcher, "scope").at("filename"), json::value(script.string()));
  session("open " + path("scope.maxpat") + " discard:true");
  EXPECT_NE(query("describe scope").find("script: " + script.string()), std::string::npos)
      << query("describe scope");
  EXPECT_EQ(query("describe scope").find("filename:"), std::string::npos);
}

TEST_F(MaxFields, ValuesMaxCannotTakeAreRefused) {
  build();
  auto colour = testing::call_ops(session_, {"modify wowrate bgcolor:red"});
  EXPECT_TRUE(colour.is_error);
  EXPECT_NE(colour.text.find("bgcolor takes a colour"), std::string::npos) << colour.text;
  auto unit = testing::call_ops(session_, {"modify wowrate parameter_unitstyle:furlongs"});
  EXPECT_TRUE(unit.is_error);
  ops({"modify wowrate parameter_unitstyle:dB"});
  session("save as:" + path("wow.maxpat"));
  EXPECT_EQ(valueof(box_named(patcher_of(read_file(path("wow.maxpat"))), "wowrate"))
                .at("parameter_unitstyle"),
            json::value(4));
}

// A device an older fcp wrote keeps what it said in its private "fcp" key: read as a fallback,
// kept byte for byte by a save with no edit, written into Max's own fields by one with an edit.
TEST_F(MaxFields, FilesOfOlderFcpOpenAndLoseThePrivateKeyAtTheFirstEdit) {
  for (const char* name : {"flutter-fcp1.maxpat", "flutter-fcp1.amxd"}) {
    SCOPED_TRACE(name);
    const std::string old_bytes =
        read_file(fcp::testing::source_dir() / "fixtures" / "lofi" / name);
    ASSERT_NE(old_bytes.find("\"fcp\""), std::string::npos);
    std::ofstream(path(name), std::ios::binary) << old_bytes;
    session("open " + path(name) + " discard:true");
    EXPECT_NE(query("stats").find("device: Flutter"), std::string::npos) << query("stats");
    const std::string amount = query("describe 30_amount");
    EXPECT_NE(amount.find("parameter_longname: Amount"), std::string::npos) << amount;
    EXPECT_NE(amount.find("mapped: Amount (value)"), std::string::npos) << amount;
    EXPECT_NE(query("describe 00_bg").find("bgcolor: 0.1 0.1 0.1 1"), std::string::npos);
    EXPECT_NE(query("describe brain").find("script: /Users/me/Devices/lfo.js"), std::string::npos);
    session("save");
    EXPECT_EQ(read_file(path(name)), old_bytes);

    ops({"move in by:10,0"});
    session("save");
    const std::string bytes = read_file(path(name));
    EXPECT_EQ(bytes.find("\"fcp\""), std::string::npos);
    const maxpat::Patcher patcher = patcher_of(bytes);
    EXPECT_EQ(valueof(box_named(patcher, "30_amount")).at("parameter_longname"),
              json::value("Amount"));
    EXPECT_EQ(box_named(patcher, "00_bg").at("bgcolor"), (json::array{0.1, 0.1, 0.1, 1.0}));
    EXPECT_EQ(box_named(patcher, "brain").at("text"), json::value("v8 /Users/me/Devices/lfo.js"));
  }
}

}  // namespace
// The trial's rename (issue 12): a dial made a Live parameter by ui … parameter_longname:Depth,
// renamed by modify with both names. The parameter takes the new name, the short name the user
// gave stays (not overwritten with the long name), range, unit and initial value stay, and undo
// gives back both names.
TEST_F(MaxFields, ModifyRenamesTheLiveParameterOfAMappedDial) {
  session("new \"Tape Wobble\" discard:true");
  ops(
      {"ui 31_depth live.dial at:70,20 size:44x48 parameter_longname:Depth "
       "parameter_mmax:100 parameter_unitstyle:5 parameter_initial:30"});
  session("save as:" + path("wobble.maxpat"));
  const std::string before = read_file(path("wobble.maxpat"));
  const std::string renamed =
      ops({"modify 31_depth parameter_longname:\"Wow Depth\" parameter_shortname:\"Wow D\""});
  EXPECT_NE(renamed.find("* renamed the Live parameter Depth to \"Wow Depth\""), std::string::npos)
      << renamed;
  session("save");
  const json::object renamed_box =
      valueof(box_named(patcher_of(read_file(path("wobble.maxpat"))), "31_depth"));
  EXPECT_EQ(renamed_box.at("parameter_longname"), json::value("Wow Depth"));
  EXPECT_EQ(renamed_box.at("parameter_shortname"), json::value("Wow D"));
  EXPECT_EQ(renamed_box.at("parameter_mmax"), json::value(100.0));
  EXPECT_EQ(renamed_box.at("parameter_initial"), json::value(json::array{30.0}));
  EXPECT_NE(query("map").find("map Wow Depth -> 31_depth.value"), std::string::npos);

  session("undo");
  session("save");
  EXPECT_EQ(read_file(path("wobble.maxpat")), before);
  EXPECT_NE(query("map").find("map Depth -> 31_depth.value"), std::string::npos);
}

namespace {

// varname → box id of every box of the file at `file`.
std::map<std::string, std::string> box_ids(const std::string& file) {
  std::map<std::string, std::string> ids;
  for (const auto& box : patcher_of(read_file(file)).boxes) {
    if (const auto* name = box.json.if_contains("varname"); name && name->is_string())
      ids[std::string(name->get_string())] = box.id();
  }
  return ids;
}

}  // namespace

// Issue 12: adding a dial shifted the ids of the comments saved after it (obj-30…33 became
// obj-31…34). Every box keeps its id across saves; a new box takes the next free number, and the
// parameters dictionary and the wires use the same ids.
TEST_F(MaxFields, EveryBoxKeepsItsIdAcrossSaves) {
  session("new \"Tape Wobble\" discard:true");
  ops({"add plugin~ in at:40,40", "add plugout~ out at:40,200", "wire in -> out",
       "ui 00_bg panel at:0,0 size:260x169",
       "ui 30_rate live.dial at:20,20 size:44x48 parameter_longname:Rate",
       "ui 40_lbl_rate comment at:20,70 size:44x18 args:Rate",
       "ui 41_lbl_depth comment at:70,70 size:44x18 args:Depth"});
  session("save as:" + path("ids.maxpat"));
  const auto before = box_ids(path("ids.maxpat"));
  ASSERT_EQ(before.size(), 6U);

  // The new dial goes in front of the labels (its z prefix 34 < 40), the LFO after them.
  ops({"ui 34_flutter live.dial at:200,20 size:44x48 parameter_longname:Flutter",
       "add cycle~ flut at:120,40 args:7", "wire flut -> out"});
  session("save");
  const auto after = box_ids(path("ids.maxpat"));
  for (const auto& [name, id] : before)
    EXPECT_EQ(after.at(name), id) << name;
  EXPECT_EQ(after.at("34_flutter"), "obj-7");
  EXPECT_EQ(after.at("flut"), "obj-8");

  const maxpat::Patcher patcher = patcher_of(read_file(path("ids.maxpat")));
  const auto& parameters = patcher.json.at("parameters").as_object();
  EXPECT_TRUE(parameters.contains(after.at("30_rate"))) << json::serialize(parameters);
  EXPECT_TRUE(parameters.contains(after.at("34_flutter"))) << json::serialize(parameters);
  bool flut_wired = false;
  for (const auto& line : patcher.lines)
    flut_wired = flut_wired ||
                 (line.source_id() == after.at("flut") && line.destination_id() == after.at("out"));
  EXPECT_TRUE(flut_wired);

  // Undo and redo of the add keep the id it was given.
  session("undo");
  session("redo");
  session("save");
  EXPECT_EQ(box_ids(path("ids.maxpat")), after);

  // Reopened, the file's ids are the boxes' ids; a new box (in front of the labels again) takes
  // the number after the file's highest.
  session("open " + path("ids.maxpat") + " discard:true");
  ops({"ui 35_wide live.dial at:150,20 size:44x48"});
  session("save");
  const auto reopened = box_ids(path("ids.maxpat"));
  for (const auto& [name, id] : after)
    EXPECT_EQ(reopened.at(name), id) << name;
  EXPECT_EQ(reopened.at("35_wide"), "obj-9");
}

}  // namespace fcp::lofi
