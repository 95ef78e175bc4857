// Devices opened from real files are modelled from the file: every box's ports are the counts
// its file gives (subpatchers, bpatchers, gen~, poly~, abstractions, classes the object table
// lacks), a message's or comment's text is its content, parameters are seen, and no wire the
// file has is against the rules that new wires are checked by.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/wiring.hpp"
#include "tests/domains/lofi/maxpat/maxpat_test_support.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;
using maxpat::testing::corpus_dir;
using maxpat::testing::corpus_files;
using maxpat::testing::read_file;

// The readable Max files of the corpus and of the project's fixtures, opened as devices.
struct Opened {
  std::string name;
  Device device;
};

std::vector<Opened> opened_files() {
  std::vector<fs::path> files = corpus_files();
  for (const auto& entry :
       fs::directory_iterator(fcp::testing::source_dir() / "fixtures" / "lofi")) {
    const auto extension = entry.path().extension();
    if (extension == ".maxpat" || extension == ".amxd") files.push_back(entry.path());
  }
  std::vector<Opened> out;
  for (const fs::path& path : files) {
    auto device = read_device(read_file(path), path.stem().string());
    if (device) out.push_back({path.filename().string(), std::move(*device)});
  }
  return out;
}

#define SKIP_WITHOUT_CORPUS()                                                      \
  if (corpus_files().empty()) GTEST_SKIP() << "no Max corpus at " << corpus_dir(); \
  static_assert(true)

TEST(OpenedModelTest, EveryBoxHasThePortsItsFileGives) {
  SKIP_WITHOUT_CORPUS();
  std::size_t checked = 0, beyond_table = 0;
  for (const Opened& file : opened_files()) {
    SCOPED_TRACE(file.name);
    for (const auto& [id, object] : file.device.objects()) {
      const maxpat::Box* box = kept_box(file.device, object);
      if (box == nullptr || box->numinlets() < 0) continue;  // an older fcp's script box
      const ObjectPorts ports = ports_of(file.device, object);
      EXPECT_TRUE(ports.known && ports.from_file) << id;
      EXPECT_EQ(ports.ports.inlets, box->numinlets()) << id << " " << object.cls;
      EXPECT_EQ(ports.ports.outlets, box->numoutlets()) << id << " " << object.cls;
      EXPECT_EQ(ports.ports.outlettype.size(), static_cast<std::size_t>(box->numoutlets()));
      ++checked;
      const maxpat::ObjectInfo* info = maxpat::find_object(object.cls);
      if (info == nullptr || info->rule == maxpat::PortRule::contents) ++beyond_table;
    }
  }
  std::printf(
      "  %zu opened boxes with their file's ports, %zu of them subpatchers, scripts, "
      "abstractions or classes the table lacks\n",
      checked, beyond_table);
  EXPECT_GT(checked, 300u);
  EXPECT_GT(beyond_table, 20u);
}

TEST(OpenedModelTest, NoWireOfAFileBreaksTheRules) {
  SKIP_WITHOUT_CORPUS();
  std::size_t wires = 0;
  for (const Opened& file : opened_files()) {
    SCOPED_TRACE(file.name);
    for (const Wire& wire : file.device.wires()) {
      const MaxObject& source = *file.device.object(wire.source);
      const MaxObject& destination = *file.device.object(wire.destination);
      auto legal = check_wire(file.device, source, wire.outlet, destination, wire.inlet, "");
      EXPECT_TRUE(legal) << wire.source << ":" << wire.outlet << " -> " << wire.destination << ":"
                         << wire.inlet << ": " << (legal ? "" : legal.error().message);
      ++wires;
    }
  }
  std::printf("  %zu wires of real files pass the wiring rules\n", wires);
  EXPECT_GT(wires, 150u);
}

TEST(OpenedModelTest, TextBoxesKeepTheirTextAsContent) {
  SKIP_WITHOUT_CORPUS();
  std::size_t texts = 0;
  for (const Opened& file : opened_files()) {
    SCOPED_TRACE(file.name);
    for (const auto& [id, object] : file.device.objects()) {
      if (!text_is_content(object.cls)) continue;
      const maxpat::Box* box = kept_box(file.device, object);
      ASSERT_NE(box, nullptr) << id;
      EXPECT_EQ(object.args, box->text()) << id;
      EXPECT_FALSE(object.attrs.contains("text")) << id;
      ++texts;
    }
  }
  std::printf("  %zu message, comment, live.comment and textedit boxes\n", texts);
  EXPECT_GT(texts, 50u);
}

// The subpatchers of the corpus (not gen code, whose operators are no Max classes), each opened
// as a device of its own: more real wires for the rules.
std::vector<Opened> opened_subpatchers() {
  std::vector<Opened> out;
  std::function<void(const boost::json::object&, const std::string&)> walk =
      [&](const boost::json::object& patcher, const std::string& where) {
        const auto* boxes = patcher.if_contains("boxes");
        if (boxes == nullptr || !boxes->is_array()) return;
        for (const auto& element : boxes->as_array()) {
          const auto& box = element.as_object().at("box").as_object();
          const auto* inner = box.if_contains("patcher");
          if (inner == nullptr || !inner->is_object()) continue;
          const std::string name = where + "/" + std::string(box.at("id").as_string());
          const auto* space = inner->as_object().if_contains("classnamespace");
          if (space == nullptr || !space->is_string() || space->as_string() == "box") {
            auto device =
                read_device(boost::json::serialize(boost::json::object{{"patcher", *inner}}), name);
            if (device) out.push_back({name, std::move(*device)});
          }
          walk(inner->as_object(), name);
        }
      };
  for (const fs::path& path : corpus_files()) {
    const std::string bytes = read_file(path);
    auto device = read_device(bytes, path.stem().string());
    if (device && device->source) walk(maxpat::patcher_to_json(*device->source), path.stem());
  }
  return out;
}

TEST(OpenedModelTest, NoWireOfASubpatcherBreaksTheRules) {
  SKIP_WITHOUT_CORPUS();
  std::size_t wires = 0, patchers = 0;
  for (const Opened& file : opened_subpatchers()) {
    SCOPED_TRACE(file.name);
    ++patchers;
    for (const Wire& wire : file.device.wires()) {
      auto legal = check_wire(file.device, *file.device.object(wire.source), wire.outlet,
                              *file.device.object(wire.destination), wire.inlet, "");
      EXPECT_TRUE(legal) << (legal ? "" : legal.error().message);
      ++wires;
    }
  }
  std::printf("  %zu wires of %zu subpatchers pass the wiring rules\n", wires, patchers);
  EXPECT_GT(wires, 200u);
}

// The device of issue 12: its p has the inlet its file gives, its message says "active $1",
// and its seven Live parameters are parameters.
TEST(OpenedModelTest, CpuReporterIsModelledFromItsFile) {
  const fs::path path = corpus_dir() / "Ableton__maxdevtools__CPU_Reporter.amxd";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  auto device = read_device(read_file(path), "CPU_Reporter");
  ASSERT_TRUE(device) << device.error().message;
  const MaxObject* loadmess = device->object("obj-263");
  const MaxObject* p = device->object("obj-155");
  ASSERT_TRUE(loadmess && p);
  EXPECT_EQ(p->cls, "p");
  EXPECT_TRUE(check_wire(*device, *loadmess, 0, *p, 0, ""));
  EXPECT_FALSE(check_wire(*device, *loadmess, 0, *p, 1, ""));  // the p has one inlet
  EXPECT_EQ(device->object("obj-262")->args, "active $1");
  EXPECT_EQ(device->mappings().size(), 7u);
  EXPECT_EQ(device->mappings().at("Long Record Time").object, "obj-116");
}

}  // namespace
}  // namespace fcp::lofi
