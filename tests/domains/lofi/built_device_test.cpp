// A device built through the ops, linked to the Max simulator over real UDP: plugin~ → delay~ →
// plugout~, four live.dial parameters with names, ranges, unit styles and initial values, a
// panel, a comment, presentation mode and a device width. The bytes Max receives keep the types
// and spellings of what was written (the box text "/ 100.", numbers as numbers, one /lofi/ui per
// call, undo messages that say so); the saved .amxd, read back with a plain JSON parser, holds
// every field where Max keeps it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <future>
#include <thread>

#include "core/session.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/domains/lofi/maxpat/maxpat_test_support.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using maxpat::testing::read_file;

// The patcher JSON of an .amxd, found with nothing but the container layout: the "ptch" chunk
// holds the JSON text (then a NUL).
json::object amxd_patcher(const std::string& bytes) {
  EXPECT_TRUE(bytes.starts_with("ampf"));
  const auto chunk = bytes.find("ptch");
  EXPECT_NE(chunk, std::string::npos);
  const auto begin = bytes.find('{', chunk);
  const auto end = bytes.rfind('}');
  EXPECT_TRUE(begin != std::string::npos && end != std::string::npos && end > begin);
  return json::parse(bytes.substr(begin, end - begin + 1)).as_object().at("patcher").as_object();
}

const json::object& box_with(const json::object& patcher, std::string_view key,
                             std::string_view value) {
  for (const auto& entry : patcher.at("boxes").as_array()) {
    const json::object& box = entry.as_object().at("box").as_object();
    if (const auto* found = box.if_contains(key);
        found && found->is_string() && found->get_string() == value)
      return box;
  }
  ADD_FAILURE() << "no box with " << key << " " << value;
  static const json::object none;
  return none;
}

const json::object& valueof(const json::object& box) {
  return box.at("saved_attribute_attributes").as_object().at("valueof").as_object();
}

json::array doubles(std::initializer_list<double> values) {
  json::array out;
  for (double v : values)
    out.emplace_back(v);
  return out;
}

class BuiltDevice : public ::testing::Test {
 protected:
  BuiltDevice()
      : work_(io_.get_executor()),
        thread_([this] { io_.run(); }),
        dir_(fs::temp_directory_path() / ("fcp-built-device-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
    bridge::SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;
    simulator_ = bridge::Simulator::start(io_, options).value();
    const json::object settings{
        {"port", simulator_->port()}, {"reply_port", 0}, {"timeout_ms", 800}, {"probe_ms", 800}};
    domain_ = make_lofi_domain(io_, settings);
    session_ = std::make_unique<core::Session>(*domain_, paths_);
  }
  ~BuiltDevice() override {
    session_.reset();
    domain_.reset();
    simulator_->stop();
    work_.reset();
    io_.stop();
    thread_.join();
    fs::remove_all(dir_);
  }

  core::ToolReply finish(core::CallResult result) {
    if (!result.pending) return result.reply;
    auto* executor = session_->effect_executor();
    if (executor == nullptr) return session_->confirm(std::move(*result.pending));
    std::promise<core::Result<void>> delivered;
    executor->deliver(result.pending->effects, {},
                      [&](core::Result<void> outcome) { delivered.set_value(std::move(outcome)); });
    auto outcome = delivered.get_future().get();
    return outcome ? session_->confirm(std::move(*result.pending))
                   : session_->fail(std::move(*result.pending), outcome.error());
  }
  std::string ops(std::vector<std::string> list) {
    auto reply = finish(session_->run_ops(list, {}));
    EXPECT_FALSE(reply.is_error) << reply.text;
    return reply.text;
  }
  std::string action(std::string_view text) {
    auto reply = finish(session_->run_session(text, {}));
    EXPECT_FALSE(reply.is_error) << text << "\n" << reply.text;
    return reply.text;
  }

  // The messages the simulator received since the last clear: address and parsed payload.
  std::vector<std::pair<std::string, json::object>> received() const {
    std::vector<std::pair<std::string, json::object>> out;
    for (const auto& line : simulator_->log()) {
      const auto space = line.find(' ');
      out.emplace_back(line.substr(0, space), json::parse(line.substr(space + 1)).as_object());
    }
    return out;
  }
  std::vector<json::object> received(std::string_view address) const {
    std::vector<json::object> out;
    for (auto& [at, payload] : received()) {
      if (at == address) out.push_back(std::move(payload));
    }
    return out;
  }

  void build() {
    action("new \"Wow\" width:600 height:170");
    simulator_->clear_log();
    const std::string rate =
        "ui 30_rate live.dial at:20,30 size:44x48 parameter_longname:\"Wow Rate\" "
        "parameter_shortname:Rate parameter_mmin:0.05 parameter_mmax:4 "
        "parameter_unitstyle:hertz parameter_initial:0.5 parameter_exponent:2";
    const std::string depth =
        "ui 31_depth live.dial at:80,30 size:44x48 parameter_longname:Depth "
        "parameter_mmax:100 parameter_unitstyle:% parameter_initial:25";
    const std::string time =
        "ui 32_time live.dial at:140,30 size:44x48 parameter_longname:Time parameter_mmin:1 "
        "parameter_mmax:1000 parameter_unitstyle:time parameter_initial:100 parameter_type:int";
    const std::string trim =
        "ui 33_trim live.dial at:200,30 size:44x48 parameter_longname:Trim "
        "parameter_mmin:-70 parameter_mmax:6 parameter_unitstyle:4 parameter_initial:0";
    ops({"add plugin~ in at:40,40", "add delay~ dly at:40,100 args:\"44100 4410\"",
         "add plugout~ out at:40,160", "add / half at:200,100 args:100.", "wire in -> dly -> out",
         "wire dly -> out in:1", "ui 00_bg panel at:0,0 size:600x170 bgcolor:\"0.1 0.1 0.1 1\"",
         "ui 10_title comment at:10,4 size:200x20 args:\"Wow & Flutter\"", rate, depth, time, trim,
         "wire 32_time -> dly in:1", "modify device openinpresentation:1 devicewidth:600"});
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  fs::path dir_;
  std::unique_ptr<bridge::Simulator> simulator_;
  std::unique_ptr<core::Domain> domain_;
  testing::AllowAll paths_;
  std::unique_ptr<core::Session> session_;
};

TEST_F(BuiltDevice, MaxReceivesTypedAtomsAndOneUiMessagePerCall) {
  build();
  // The box text as the file saves it, beside the arguments.
  const auto creates = received("/lofi/create");
  ASSERT_EQ(creates.size(), 4u);
  EXPECT_EQ(creates[1].at("text"), json::value("delay~ 44100 4410"));
  EXPECT_EQ(creates[3].at("class"), json::value("/"));
  EXPECT_EQ(creates[3].at("text"), json::value("/ 100."));
  bool raw_text = false;
  for (const auto& line : simulator_->log())
    raw_text = raw_text || line.find("\"text\":\"/ 100.\"") != std::string::npos;
  EXPECT_TRUE(raw_text) << "the bytes carry the spelling 100.";
  EXPECT_EQ(simulator_->model().objects().at("half").text, "/ 100.");

  // One z-sorted /lofi/ui for the call, attributes typed as Max saves them.
  const auto ui = received("/lofi/ui");
  ASSERT_EQ(ui.size(), 1u);
  const json::array& layers = ui[0].at("layers").as_array();
  ASSERT_EQ(layers.size(), 6u);
  EXPECT_EQ(layers[0].at("name"), json::value("00_bg"));
  EXPECT_EQ(layers[0].at("attrs").at("bgcolor"), doubles({0.1, 0.1, 0.1, 1.0}));
  EXPECT_EQ(layers[0].at("attrs").at("background"), json::value(1)) << "named as a background";
  for (std::size_t i = 1; i < layers.size(); ++i)
    EXPECT_FALSE(layers[i].at("attrs").as_object().contains("background")) << layers[i];
  EXPECT_EQ(layers[1].at("text"), json::value("Wow & Flutter"));
  const json::object& rate = layers[2].at("attrs").as_object();
  EXPECT_EQ(rate.at("parameter_longname"), json::value("Wow Rate"));
  EXPECT_TRUE(rate.at("parameter_mmax").is_double());
  EXPECT_EQ(rate.at("parameter_mmax").as_double(), 4.0);
  EXPECT_EQ(rate.at("parameter_unitstyle"), json::value(3)) << "hertz is sent as Max's code";
  EXPECT_EQ(rate.at("parameter_initial"), doubles({0.5}));
  EXPECT_EQ(rate.at("parameter_initial_enable"), json::value(1));
  EXPECT_EQ(layers[4].at("name"), json::value("32_time"));
  EXPECT_EQ(layers[4].at("attrs").at("parameter_type"), json::value(1)) << "int is Max's code 1";

  const auto device = received("/lofi/device");
  ASSERT_EQ(device.size(), 1u);
  EXPECT_EQ(device[0].at("openinpresentation"), json::value(1));
  EXPECT_EQ(device[0].at("devicewidth"), json::value(600));
  EXPECT_EQ(simulator_->model().settings().at("devicewidth"), json::value(600));
}

TEST_F(BuiltDevice, UndoMessagesSayTheyUndoAndCarryThePreviousValue) {
  build();
  simulator_->clear_log();
  ops({"modify 30_rate parameter_mmax:8 bgcolor:\"1 0 0 1\""});
  const auto sets = received("/lofi/set");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_FALSE(sets[0].contains("undo"));
  simulator_->clear_log();
  action("undo");
  std::map<std::string, json::object> undone;
  for (auto& payload : received("/lofi/set"))
    undone[std::string(payload.at("attr").as_string())] = payload;
  ASSERT_EQ(undone.size(), 2u);
  EXPECT_EQ(undone["parameter_mmax"].at("value").as_double(), 4.0);
  EXPECT_EQ(undone["parameter_mmax"].at("undo"), json::value(true));
  // bgcolor was not set before: Max is asked to restore what it had.
  EXPECT_EQ(undone["bgcolor"].at("unset"), json::value(true));
  EXPECT_EQ(undone["bgcolor"].at("undo"), json::value(true));
  EXPECT_FALSE(undone["bgcolor"].contains("value"));

  simulator_->clear_log();
  action("undo");  // the last op of the build: modify device
  const auto settings = received("/lofi/device");
  ASSERT_EQ(settings.size(), 1u);
  EXPECT_EQ(settings[0].at("openinpresentation"), json::value(0));
  EXPECT_EQ(settings[0].at("devicewidth"), json::value(0));
  EXPECT_EQ(settings[0].at("undo"), json::value(true));
  EXPECT_EQ(simulator_->model().settings().at("openinpresentation"), json::value(0));
}

// Issue 12: modify with a new parameter_longname renames a mapped dial's Live parameter in Max
// too (the old mapping goes, the new one names the same object with the short name given), and
// undo gives Max the old name back.
TEST_F(BuiltDevice, RenamingALiveParameterReachesMaxAndUndoes) {
  build();
  const std::string renamed =
      ops({"modify 31_depth parameter_longname:\"Wow Depth\" parameter_shortname:\"Wow D\""});
  EXPECT_NE(renamed.find("* renamed the Live parameter Depth to \"Wow Depth\""), std::string::npos)
      << renamed;
  const auto model = simulator_->model();
  const auto& mappings = model.mappings();
  EXPECT_FALSE(mappings.contains("Depth"));
  ASSERT_TRUE(mappings.contains("Wow Depth"));
  EXPECT_EQ(mappings.at("Wow Depth").object_id, "31_depth");
  const json::object& attrs = model.objects().at("31_depth").attrs;
  EXPECT_EQ(attrs.at("parameter_longname"), json::value("Wow Depth"));
  EXPECT_EQ(attrs.at("parameter_shortname"), json::value("Wow D"));

  action("undo");
  const auto undone = simulator_->model();
  EXPECT_TRUE(undone.mappings().contains("Depth"));
  EXPECT_FALSE(undone.mappings().contains("Wow Depth"));
  EXPECT_EQ(undone.objects().at("31_depth").attrs.at("parameter_longname"), json::value("Depth"));
  // The short name given with the rename leaves with it (the dial had none of its own).
  EXPECT_FALSE(undone.objects().at("31_depth").attrs.contains("parameter_shortname"));
}

TEST_F(BuiltDevice, TheSavedAmxdHoldsEveryFieldWhereMaxKeepsIt) {
  build();
  const fs::path file = dir_ / "Wow.amxd";
  action("save as:" + file.string());
  const std::string bytes = read_file(file);
  EXPECT_EQ(bytes.find("\"fcp\""), std::string::npos);
  const json::object patcher = amxd_patcher(bytes);

  EXPECT_EQ(patcher.at("openinpresentation"), json::value(1));
  EXPECT_TRUE(patcher.at("devicewidth").is_double());
  EXPECT_EQ(patcher.at("devicewidth").as_double(), 600.0);
  // The window holds every box in both views (40 px right, 80 below), so that the device
  // opens with its objects in sight: new asked for 600x170, the UI layers reach x=940.
  double right = 0, bottom = 0;
  for (const auto& entry : patcher.at("boxes").as_array()) {
    const json::object& box = entry.as_object().at("box").as_object();
    for (const char* key : {"patching_rect", "presentation_rect"}) {
      if (!box.contains(key)) continue;
      const auto& r = box.at(key).as_array();
      right = std::max(right, r[0].to_number<double>() + r[2].to_number<double>());
      bottom = std::max(bottom, r[1].to_number<double>() + r[3].to_number<double>());
    }
  }
  EXPECT_EQ(right, 940.0);
  EXPECT_EQ(patcher.at("rect"), doubles({100, 100, right + 40, std::max(170.0, bottom + 80)}));
  EXPECT_EQ(patcher.at("openrect"), doubles({0, 0, 0, 169}));
  // The "parameters" dictionary Max writes: one [longname, shortname, 0] per Live parameter.
  const json::object& parameters = patcher.at("parameters").as_object();
  std::size_t entries = 0;
  for (const auto& entry : parameters) {
    if (!entry.key().starts_with("obj-")) continue;
    ++entries;
    const json::object& box = box_with(patcher, "id", entry.key());
    EXPECT_EQ(entry.value().as_array()[0], valueof(box).at("parameter_longname"));
    EXPECT_EQ(entry.value().as_array()[2], json::value(0));
  }
  EXPECT_EQ(entries, 4u) << json::serialize(parameters);
  EXPECT_EQ(parameters.at("inherited_shortname"), json::value(1));
  // The bank lists the parameters in the order they were made (Live and Push show it so).
  EXPECT_EQ(parameters.at("parameterbanks").at("0").at("parameters"),
            (json::array{"Wow Rate", "Depth", "Time", "Trim", "-", "-", "-", "-"}));

  EXPECT_EQ(box_with(patcher, "varname", "in").at("text"), json::value("plugin~"));
  EXPECT_EQ(box_with(patcher, "varname", "out").at("text"), json::value("plugout~"));
  EXPECT_EQ(box_with(patcher, "varname", "dly").at("text"), json::value("delay~ 44100 4410"));
  EXPECT_EQ(box_with(patcher, "varname", "half").at("text"), json::value("/ 100."));
  EXPECT_EQ(box_with(patcher, "varname", "half").at("outlettype"), (json::array{"float"}));

  const json::object& panel = box_with(patcher, "varname", "00_bg");
  EXPECT_EQ(panel.at("maxclass"), json::value("panel"));
  EXPECT_EQ(panel.at("bgcolor"), doubles({0.1, 0.1, 0.1, 1.0}));
  EXPECT_EQ(panel.at("presentation"), json::value(1));
  EXPECT_EQ(panel.at("presentation_rect"), doubles({0, 0, 600, 170}));
  // Named 00_bg: Max's background layer, behind the controls in both views.
  EXPECT_EQ(panel.at("background"), json::value(1));

  const json::object& title = box_with(patcher, "varname", "10_title");
  EXPECT_EQ(title.at("maxclass"), json::value("comment"));
  EXPECT_EQ(title.at("text"), json::value("Wow & Flutter"));
  EXPECT_EQ(title.at("presentation"), json::value(1));
  EXPECT_EQ(title.at("presentation_rect"), doubles({10, 4, 200, 20}));

  struct Dial {
    const char* id;
    const char* longname;
    double x, minimum, maximum;
    int unitstyle;
    double initial;
  };
  for (const Dial& d :
       {Dial{"30_rate", "Wow Rate", 20, 0.05, 4, 3, 0.5},
        Dial{"31_depth", "Depth", 80, 0, 100, 5, 25}, Dial{"32_time", "Time", 140, 1, 1000, 2, 100},
        Dial{"33_trim", "Trim", 200, -70, 6, 4, 0}}) {
    SCOPED_TRACE(d.id);
    const json::object& dial = box_with(patcher, "varname", d.id);
    EXPECT_EQ(dial.at("maxclass"), json::value("live.dial"));
    EXPECT_EQ(dial.at("parameter_enable"), json::value(1));
    EXPECT_FALSE(dial.contains("background"));
    EXPECT_EQ(dial.at("presentation"), json::value(1));
    EXPECT_EQ(dial.at("presentation_rect"), doubles({d.x, 30, 44, 48}));
    // In the patching view the controls keep their arrangement, right of the audio objects.
    EXPECT_EQ(dial.at("patching_rect"), doubles({d.x + 340, 30, 44, 48}));
    const json::object& values = valueof(dial);
    EXPECT_EQ(values.at("parameter_longname"), json::value(d.longname));
    if (d.minimum != 0) {
      EXPECT_TRUE(values.at("parameter_mmin").is_double());
      EXPECT_EQ(values.at("parameter_mmin").as_double(), d.minimum);
    } else {
      EXPECT_FALSE(values.contains("parameter_mmin")) << "Max's default stays unwritten";
    }
    EXPECT_TRUE(values.at("parameter_mmax").is_double());
    EXPECT_EQ(values.at("parameter_mmax").as_double(), d.maximum);
    EXPECT_TRUE(values.at("parameter_unitstyle").is_int64());
    EXPECT_EQ(values.at("parameter_unitstyle"), json::value(d.unitstyle));
    EXPECT_EQ(values.at("parameter_initial"), doubles({d.initial}));
    EXPECT_EQ(values.at("parameter_initial_enable"), json::value(1));
    std::string previous;
    for (const auto& [key, value] : values) {
      EXPECT_LT(previous, std::string(key)) << "Max writes valueof alphabetically";
      previous = key;
    }
  }
  EXPECT_EQ(valueof(box_with(patcher, "varname", "30_rate")).at("parameter_shortname"),
            json::value("Rate"));
  EXPECT_EQ(valueof(box_with(patcher, "varname", "30_rate")).at("parameter_exponent"),
            json::value(2.0));
  EXPECT_EQ(valueof(box_with(patcher, "varname", "32_time")).at("parameter_type"), json::value(1));
  EXPECT_EQ(valueof(box_with(patcher, "varname", "30_rate")).at("parameter_type"), json::value(0))
      << "float, Max's default, is written as Max writes it";

  // The wires, including the dial into the delay time (boxes by their varname).
  std::set<std::string> lines;
  std::map<std::string, std::string> id_of;
  for (const auto& entry : patcher.at("boxes").as_array()) {
    const json::object& box = entry.as_object().at("box").as_object();
    id_of[std::string(box.at("id").as_string())] = std::string(box.at("varname").as_string());
  }
  for (const auto& entry : patcher.at("lines").as_array()) {
    const json::object& line = entry.as_object().at("patchline").as_object();
    const auto& source = line.at("source").as_array();
    const auto& destination = line.at("destination").as_array();
    lines.insert(id_of[std::string(source[0].as_string())] + ":" +
                 std::to_string(source[1].to_number<int>()) + " -> " +
                 id_of[std::string(destination[0].as_string())] + ":" +
                 std::to_string(destination[1].to_number<int>()));
  }
  EXPECT_EQ(lines, (std::set<std::string>{"in:0 -> dly:0", "dly:0 -> out:0", "dly:0 -> out:1",
                                          "32_time:0 -> dly:1"}));

  // Reopened, the device says the same and saves the same bytes.
  action("open " + file.string() + " discard:true");
  const std::string device = session_->run_query("describe device").text;
  EXPECT_NE(device.find("openinpresentation: 1"), std::string::npos) << device;
  EXPECT_NE(device.find("devicewidth: 600"), std::string::npos) << device;
  const std::string rate = session_->run_query("describe 30_rate").text;
  for (const char* line : {"presentation: 1", "parameter_enable: 1", "parameter_unitstyle: 3",
                           "presentation_rect: 20 30 44 48", "parameter_initial: 0.5"})
    EXPECT_NE(rate.find(line), std::string::npos) << line << " not in\n" << rate;
  action("save");
  EXPECT_EQ(read_file(file), bytes);
  // An opened file keeps its window whatever the edit (resize alone changes it).
  ops({"add cycle~ far at:3000,3000 args:1"});
  action("save");
  EXPECT_EQ(amxd_patcher(read_file(file)).at("rect"), patcher.at("rect"));
  ops({"resize to:700x180"});
  action("save");
  EXPECT_EQ(amxd_patcher(read_file(file)).at("rect"), doubles({100, 100, 700, 180}));
}

// A panel's bgfillcolor is its solid fill, which Max saves as "bgcolor": [r, g, b, a] (real
// files: a panel box holds bgcolor, with saved_attribute_attributes naming bgfillcolor).
TEST_F(BuiltDevice, APanelsFillIsSavedAsMaxSavesIt) {
  build();
  const std::string reply = ops({"modify 00_bg bgfillcolor:\"0.2 0.3 0.4 1\""});
  EXPECT_NE(reply.find("* modify 00_bg: bgcolor:\"0.2 0.3 0.4 1\"\n"
                       "  bgfillcolor is a panel's solid fill: Max saves it as bgcolor"),
            std::string::npos)
      << reply;
  const fs::path file = dir_ / "Fill.amxd";
  action("save as:" + file.string());
  const json::object patcher = amxd_patcher(read_file(file));
  const json::object& panel = box_with(patcher, "varname", "00_bg");
  EXPECT_EQ(panel.at("bgcolor"), doubles({0.2, 0.3, 0.4, 1}));
  EXPECT_FALSE(panel.contains("bgfillcolor"));
  EXPECT_FALSE(panel.contains("bgfillcolor_color"));
  // Outside a panel it is a pattern the tools do not write: refused, with the solid colour.
  auto refused =
      session_->run_ops(std::vector<std::string>{"modify 30_rate bgfillcolor:\"1 0 0 1\""}, {});
  EXPECT_TRUE(refused.reply.is_error);
  EXPECT_NE(refused.reply.text.find("try: modify 30_rate bgcolor:\"1 0 0 1\""), std::string::npos)
      << refused.reply.text;
}

TEST_F(BuiltDevice, UiLayersInThePatchingViewCoverNoAudioObject) {
  build();
  const fs::path file = dir_ / "Wow.maxpat";
  action("save as:" + file.string());
  const json::value saved = json::parse(read_file(file));
  std::vector<json::object> layers, audio;
  for (const auto& entry : saved.at("patcher").at("boxes").as_array()) {
    const json::object& box = entry.at("box").as_object();
    (box.contains("presentation") ? layers : audio).push_back(box);
  }
  ASSERT_FALSE(layers.empty());
  ASSERT_FALSE(audio.empty());
  for (const auto& layer : layers) {
    const auto& a = layer.at("patching_rect").as_array();
    for (const auto& object : audio) {
      const auto& b = object.at("patching_rect").as_array();
      const bool apart =
          a[0].to_number<double>() >= b[0].to_number<double>() + b[2].to_number<double>() ||
          b[0].to_number<double>() >= a[0].to_number<double>() + a[2].to_number<double>() ||
          a[1].to_number<double>() >= b[1].to_number<double>() + b[3].to_number<double>() ||
          b[1].to_number<double>() >= a[1].to_number<double>() + a[3].to_number<double>();
      EXPECT_TRUE(apart) << layer.at("varname") << " covers " << object.at("varname");
    }
  }
}

}  // namespace
}  // namespace fcp::lofi
