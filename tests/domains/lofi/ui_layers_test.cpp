// UI layers across calls: a layer's z prefix places it among the layers earlier calls made (in
// the model, the saved file and the order Max is told), its patching place covers no audio
// object, and a control past an explicit devicewidth is warned about.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

class UiLayers : public ::testing::Test {
 protected:
  UiLayers()
      : domain_(make_lofi_domain(io_, json::object{{"connect_on_new", false}})),
        session_(*domain_, paths_),
        dir_(fs::temp_directory_path() / ("fcp-ui-layers-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
    (void)session_.run_session("new \"Layers\" width:600 height:170", {});
  }
  ~UiLayers() override { fs::remove_all(dir_); }

  // undo / redo, confirmed as the MCP layer does.
  std::string history(std::string_view command) {
    auto result = session_.run_session(command, {});
    const core::ToolReply reply =
        result.pending ? session_.confirm(std::move(*result.pending)) : result.reply;
    EXPECT_FALSE(reply.is_error) << reply.text;
    return reply.text;
  }

  std::string run(std::vector<std::string> ops) {
    auto result = session_.run_ops(ops, {});
    const core::ToolReply reply =
        result.pending ? session_.confirm(std::move(*result.pending)) : result.reply;
    EXPECT_FALSE(reply.is_error) << reply.text;
    return reply.text;
  }
  // The ui ids of `lofi_query map`, in its (z) order.
  std::vector<std::string> z_order() {
    std::istringstream lines(session_.run_query("map").text);
    std::vector<std::string> out;
    for (std::string line; std::getline(lines, line);) {
      if (line.find(" ui ") == std::string::npos) continue;
      std::istringstream words(line);
      std::string id;
      words >> id;
      out.push_back(id);
    }
    return out;
  }

  boost::asio::io_context io_;
  testing::AllowAll paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
  fs::path dir_;
};

TEST_F(UiLayers, ALaterBackgroundLandsBehindTheDialsOfEarlierCalls) {
  run({"ui 30_rate live.dial at:20,20 size:44x48", "ui 31_depth live.dial at:80,20 size:44x48"});
  run({"ui 00_bg panel at:0,0 size:600x170"});
  run({"ui 01_bg2 panel at:10,10 size:200x100", "ui 90_label comment at:10,140 size:80x20"});
  const std::vector<std::string> expected{"00_bg", "01_bg2", "30_rate", "31_depth", "90_label"};
  EXPECT_EQ(z_order(), expected);
  // The saved file lists the boxes as Max does, front to back (Max writes the newest box first
  // and a background box last; corpus: freesound-search, chord-builder, Test.amxd).
  const fs::path file = dir_ / "Layers.maxpat";
  ASSERT_FALSE(session_.run_session("save as:" + file.string(), {}).reply.is_error);
  std::ifstream in(file);
  std::stringstream bytes;
  bytes << in.rdbuf();
  std::vector<std::string> saved;
  const json::value parsed = json::parse(bytes.str());
  for (const auto& entry : parsed.at("patcher").at("boxes").as_array())
    saved.emplace_back(entry.at("box").at("varname").as_string());
  EXPECT_EQ(saved, (std::vector<std::string>(expected.rbegin(), expected.rend())));
  // Reopened, the file gives the same z-order back.
  ASSERT_FALSE(session_.run_session("open " + file.string() + " discard:true", {}).reply.is_error);
  EXPECT_EQ(z_order(), expected);
  ASSERT_FALSE(session_.run_session("close discard:true", {}).reply.is_error);
  ASSERT_FALSE(session_.run_session("new \"Layers\"", {}).reply.is_error);
  run({"ui 30_rate live.dial at:20,20 size:44x48", "ui 31_depth live.dial at:80,20 size:44x48"});
  run({"ui 00_bg panel at:0,0 size:600x170"});
  run({"ui 01_bg2 panel at:10,10 size:200x100", "ui 90_label comment at:10,140 size:80x20"});
  // Undo takes the last call back; the order of the rest stays.
  ASSERT_FALSE(session_.run_session("undo", {}).reply.is_error);
  EXPECT_EQ(z_order(), (std::vector<std::string>{"00_bg", "01_bg2", "30_rate", "31_depth"}));
}

TEST_F(UiLayers, PatchingPlacesAreRightOfTheAudioObjects) {
  run({"add plugin~ in at:40,40", "add *~ vol at:300,100", "add plugout~ out at:40,160"});
  const std::string reply = run({"ui 30_rate live.dial at:20,20 size:44x48"});
  // *~ at x 300 is the rightmost audio object (100 wide as far as the model knows): 440 + 20.
  EXPECT_NE(reply.find("patching_rect:\"460 20 44 48\""), std::string::npos) << reply;
  EXPECT_NE(reply.find("presentation_rect:\"20 20 44 48\""), std::string::npos) << reply;
}

TEST_F(UiLayers, AControlPastTheDeviceWidthIsWarnedAbout) {
  ASSERT_FALSE(session_.run_session("close discard:true", {}).reply.is_error);
  ASSERT_FALSE(session_.run_session("new \"Narrow\" devicewidth:300", {}).reply.is_error);
  std::string reply = run({"ui 30_a live.dial at:20,20 size:44x48"});
  EXPECT_EQ(reply.find("devicewidth"), std::string::npos) << reply;
  reply = run({"ui 31_b live.dial at:280,20 size:44x48"});
  EXPECT_NE(reply.find("? 31_b: reaches x=324, past the devicewidth 300 Live shows (modify device "
                       "devicewidth:324, or devicewidth:0 to fit the presentation)"),
            std::string::npos)
      << reply;
}

// Issue 12: an undo that leaves a control past the devicewidth says so, as the batch did.
TEST_F(UiLayers, AnUndoThatLeavesAControlPastTheDeviceWidthIsWarnedAbout) {
  ASSERT_FALSE(session_.run_session("close discard:true", {}).reply.is_error);
  ASSERT_FALSE(session_.run_session("new \"Narrow\" devicewidth:300", {}).reply.is_error);
  run({"ui 30_a live.dial at:260,20 size:44x48"});  // past 300: warned
  std::string reply = run({"modify device devicewidth:310"});
  EXPECT_EQ(reply.find("past the devicewidth"), std::string::npos) << reply;
  reply = history("undo");
  EXPECT_NE(reply.find("undone: modify device devicewidth:310"), std::string::npos) << reply;
  EXPECT_NE(reply.find("? 30_a: reaches x=304, past the devicewidth 300 Live shows"),
            std::string::npos)
      << reply;
  reply = history("redo");
  EXPECT_EQ(reply.find("past the devicewidth"), std::string::npos) << reply;
  // Undoing a move brings the control back past the width: warned about too.
  run({"modify 30_a presentation_rect:\"280 20 44 48\""});
  reply = run({"modify 30_a presentation_rect:\"200 20 44 48\""});
  EXPECT_EQ(reply.find("past the devicewidth"), std::string::npos) << reply;
  reply = history("undo");
  EXPECT_NE(reply.find("? 30_a: reaches x=324, past the devicewidth 310"), std::string::npos)
      << reply;
}

// Issue 12: a label Max would wrap (Arial 12 "Wow Rate" is about 64 px with Max's padding) is
// said when the op gave its size; one made without a size is as wide as its text.
TEST_F(UiLayers, ACommentTooNarrowForItsTextIsWarnedAboutOrWidened) {
  std::string reply = run({"ui 40_wow comment at:20,80 size:58x18 args:\"Wow Rate\""});
  EXPECT_NE(reply.find("? 40_wow: \"Wow Rate\" needs a box about 64 wide at 12 pt; in 58 Max "
                       "wraps it and shows its first line (ui 40_wow comment at:20,80 "
                       "size:64x18)"),
            std::string::npos)
      << reply;
  // The suggested op fits it.
  reply = run({"ui 40_wow comment at:20,80 size:64x18"});
  EXPECT_EQ(reply.find("needs a box"), std::string::npos) << reply;
  // A live.comment at its 9 pt fits in less; a fontsize the op gives counts.
  reply = run({"ui 41_wow live.comment at:90,80 size:58x18 args:\"Wow Rate\""});
  EXPECT_EQ(reply.find("needs a box"), std::string::npos) << reply;
  reply = run({"ui 41_wow live.comment at:90,80 size:58x18 fontsize:14"});
  EXPECT_NE(reply.find("? 41_wow: \"Wow Rate\" needs a box about 74 wide at 14 pt"),
            std::string::npos)
      << reply;
  // add without size: the box is as wide as the text; with a size too narrow: said.
  run({"add comment note at:40,200 args:\"Wow Rate and Flutter Depth\""});
  ASSERT_FALSE(
      session_.run_session("save as:" + (dir_ / "labels.maxpat").string(), {}).reply.is_error);
  std::ifstream in(dir_ / "labels.maxpat");
  std::stringstream text;
  text << in.rdbuf();
  const json::value file = json::parse(text.str());
  for (const auto& box : file.at("patcher").at("boxes").as_array()) {
    const auto& fields = box.at("box").as_object();
    if (fields.at("varname") != json::value("note")) continue;
    EXPECT_EQ(fields.at("patching_rect").as_array()[2], json::value(160.0)) << text.str();
  }
  reply = run({"add comment note2 at:40,240 size:60x20 args:\"Wow Rate\""});
  EXPECT_NE(reply.find("(modify note2 patching_rect:\"40 240 64 20\")"), std::string::npos)
      << reply;
}

// Trial 10-2: new text given by modify is checked like text given by ui or add.
TEST_F(UiLayers, ModifyingACommentsTextToOneThatDoesNotFitIsWarnedAbout) {
  std::string reply = run({"ui 20_lbl comment at:74,14 size:64x20 args:Depth"});
  EXPECT_EQ(reply.find("needs a box"), std::string::npos) << reply;
  reply = run({"modify 20_lbl args:\"Wow Depth\""});
  EXPECT_NE(reply.find("? 20_lbl: \"Wow Depth\" needs a box about"), std::string::npos) << reply;
  EXPECT_NE(reply.find("(ui 20_lbl comment at:74,14 size:"), std::string::npos) << reply;
  // A font size that makes it fit again says nothing.
  reply = run({"modify 20_lbl fontsize:9"});
  EXPECT_EQ(reply.find("needs a box"), std::string::npos) << reply;
  run({"add comment plain at:40,200 size:40x20 args:Hi"});
  reply = run({"modify plain args:\"Hello there\""});
  EXPECT_NE(reply.find("(modify plain patching_rect:\"40 200 "), std::string::npos) << reply;
}

}  // namespace
}  // namespace fcp::lofi
