// What open and sync push to Max for a device opened from a file, against the Max simulator over
// real UDP: message and comment boxes with their text, each box as its file saved it (class of
// box, text, the attributes no /lofi/set sends), subpatchers with their contents (so the wires
// into a p find its inlet), and Live parameters with the short names the file gives.
#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <future>
#include <thread>

#include "core/session.hpp"
#include "core/tokenizer.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/domains/lofi/maxpat/maxpat_test_support.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

class OpenedSync : public ::testing::Test {
 protected:
  OpenedSync() : work_(io_.get_executor()), thread_([this] { io_.run(); }) {
    bridge::SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;
    simulator_ = bridge::Simulator::start(io_, options).value();
    const json::object settings{{"port", simulator_->port()},
                                {"reply_port", 0},
                                {"timeout_ms", 2000},
                                {"probe_ms", 2000},
                                {"connect_on_new", false}};
    domain_ = make_lofi_domain(io_, settings);
    session_ = std::make_unique<core::Session>(*domain_, paths_);
  }
  ~OpenedSync() override {
    session_.reset();
    domain_.reset();
    simulator_->stop();
    work_.reset();
    io_.stop();
    thread_.join();
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
  std::string action(const std::string& text) {
    auto reply = finish(session_->run_session(text, {}));
    EXPECT_FALSE(reply.is_error) << text << "\n" << reply.text;
    return reply.text;
  }
  // Opens `path`, links to the simulator and pushes the device.
  void open_and_sync(const fs::path& path) {
    action("open " + core::quote_token(path.string()));
    action("connect port:" + std::to_string(simulator_->port()));
    simulator_->clear_log();
    action("sync");
  }
  std::vector<json::object> received(std::string_view address) const {
    std::vector<json::object> out;
    for (const auto& line : simulator_->log()) {
      const auto space = line.find(' ');
      if (line.substr(0, space) == address)
        out.push_back(json::parse(line.substr(space + 1)).as_object());
    }
    return out;
  }
  // The /lofi/create payload of object `id`, or of the /lofi/ui layer named so.
  json::object made(std::string_view id) const {
    for (const auto& create : received("/lofi/create")) {
      if (create.at("id").as_string() == id) return create;
    }
    for (const auto& ui : received("/lofi/ui")) {
      for (const auto& layer : ui.at("layers").as_array()) {
        if (layer.at("name").as_string() == id) return layer.as_object();
      }
    }
    ADD_FAILURE() << "nothing made " << id;
    return {};
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  std::unique_ptr<bridge::Simulator> simulator_;
  std::unique_ptr<core::Domain> domain_;
  testing::AllowAll paths_;
  std::unique_ptr<core::Session> session_;
};

TEST_F(OpenedSync, MessageBoxesAndParametersAreMadeAsTheFileSavedThem) {
  open_and_sync(fcp::testing::source_dir() / "fixtures" / "lofi" / "opened.maxpat");
  const auto model = simulator_->model();
  EXPECT_EQ(model.objects().size(), 20u);
  EXPECT_EQ(model.wires().size(), 11u) << "every wire of the file reached Max";

  // A message box: its text, never empty, as one string Max parses.
  const json::object message = made("obj-262");
  EXPECT_EQ(message.at("text"), json::value("active $1"));
  EXPECT_EQ(message.at("maxclass"), json::value("message"));
  EXPECT_EQ(message.at("args"), (json::array{"active", "$1"}));
  EXPECT_EQ(model.objects().at("obj-262").text, "active $1");
  EXPECT_EQ(made("obj-246").at("text"), json::value("Average CPU"));  // a live.comment layer
  EXPECT_EQ(made("obj-419").at("text"), json::value("scream"));       // a textedit layer
  EXPECT_EQ(made("obj-419").at("box").at("keymode"), json::value(1));
  // A layer's patching_rect is its file's, apart from its presentation_rect.
  EXPECT_EQ(made("obj-419").at("attrs").at("patching_rect"), (json::array{534, 42, 100, 50}));
  EXPECT_EQ(made("obj-419").at("x"), json::value(410));

  // The box text as saved, quotes and typed atoms included.
  EXPECT_EQ(made("obj-13").at("text"), json::value("prepend set \"Recording Time:\""));
  EXPECT_EQ(made("obj-370").at("text"), json::value("poly~ ease.synth_voice 4"));

  // A p with its contents: the file's wire into its inlet is accepted.
  const json::object p = made("obj-155");
  EXPECT_EQ(p.at("maxclass"), json::value("newobj"));
  const json::array& inside = p.at("patcher").at("boxes").as_array();
  ASSERT_EQ(inside.size(), 5u);
  EXPECT_EQ(inside[2].at("maxclass"), json::value("message"));
  EXPECT_EQ(inside[2].at("text"), json::value("$1 seconds"));
  EXPECT_EQ(p.at("patcher").at("lines").as_array().size(), 4u);
  EXPECT_EQ(model.objects().at("obj-155").boxes_inside, 5u);
  EXPECT_EQ(model.objects().at("obj-155").inlets, 1);
  EXPECT_TRUE(model.wires().contains({"obj-116", 0, "obj-155", 0}));
  EXPECT_EQ(made("obj-212").at("patcher").at("classnamespace"), json::value("dsp.gen"));

  // Parameters: every attribute typed as saved, and the short name the file gives.
  const json::object numbox = made("live.numbox[6]");
  EXPECT_EQ(numbox.at("attrs").at("parameter_longname"), json::value("live.numbox[5]"));
  EXPECT_EQ(numbox.at("attrs").at("parameter_unitstyle"), json::value(5));
  EXPECT_EQ(numbox.at("box").at("parameter_enable"), json::value(1));
  ASSERT_EQ(model.mappings().size(), 3u);
  EXPECT_EQ(model.mappings().at("live.numbox[5]").shortname, "live.numbox[1]");
  EXPECT_EQ(model.mappings().at("Long Record Time").object_id, "obj-116");
  EXPECT_EQ(model.mappings().at("live.gain~").shortname, "live.gain~");
}

// The device of issue 12: 64 boxes, 68 wires (ten into and out of subpatchers), 7 parameters.
TEST_F(OpenedSync, CpuReporterSyncsWithEveryWire) {
  const fs::path path = maxpat::testing::corpus_dir() / "Ableton__maxdevtools__CPU_Reporter.amxd";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  open_and_sync(path);
  const auto model = simulator_->model();
  EXPECT_EQ(model.objects().size(), 64u);
  EXPECT_EQ(model.wires().size(), 68u);
  EXPECT_EQ(model.mappings().size(), 7u);
  EXPECT_EQ(model.objects().at("obj-262").text, "active $1");
  EXPECT_EQ(model.objects().at("obj-84").outlets, 4) << "p Active: its four outlet boxes";
  for (const auto& create : received("/lofi/create")) {
    if (create.at("maxclass") == json::value("message")) {
      EXPECT_FALSE(create.at("text").as_string().empty()) << create.at("id");
    }
  }
  // The objects in the order Max makes them (/lofi/create, and the layers of each /lofi/ui).
  std::vector<std::string> made;
  for (const auto& line : simulator_->log()) {
    const auto space = line.find(' ');
    const json::object payload = json::parse(line.substr(space + 1)).as_object();
    if (line.starts_with("/lofi/create ")) made.emplace_back(payload.at("id").as_string());
    if (!line.starts_with("/lofi/ui ")) continue;
    for (const auto& layer : payload.at("layers").as_array())
      made.emplace_back(layer.at("name").as_string());
  }
  // The file lists its boxes front to back; Max puts each new box in front, so they are made
  // from the file's last box (the backmost, its LCD panel obj-195 behind the meter obj-194) to
  // its first.
  const std::string bytes = maxpat::testing::read_file(path);
  const maxpat::Patcher file = maxpat::testing::patcher_of(bytes);
  const auto device = read_device(bytes, "CPU_Reporter");
  ASSERT_TRUE(device);
  std::map<std::string, std::string> object_of_box;
  for (const auto& [id, object] : device->objects())
    object_of_box[object.box] = id;
  std::vector<std::string> back_to_front;
  for (auto it = file.boxes.rbegin(); it != file.boxes.rend(); ++it)
    back_to_front.push_back(object_of_box[it->id()]);
  EXPECT_EQ(made, back_to_front);
}

}  // namespace
}  // namespace fcp::lofi
