// Every file of the shared Max corpus: opens (or fails clearly when the manifest marks it
// unreadable), writes back unchanged, agrees with the object table; new boxes look like Max's.
#include <boost/json/value.hpp>
#include <cstdio>
#include <map>
#include <set>

#include "domains/lofi/maxpat/json_io.hpp"
#include "maxpat_test_support.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using testing::corpus_dir;
using testing::corpus_files;
using testing::for_each_box;
using testing::is_amxd;
using testing::read_file;

// Files the corpus manifest marks "NEGATIVE" (e.g. an encrypted device): they must not open.
std::set<std::string> negative_files() {
  std::set<std::string> names;
  std::istringstream manifest(read_file(corpus_dir().parent_path() / "MANIFEST.tsv"));
  std::string line;
  while (std::getline(manifest, line)) {
    if (!line.starts_with("maxpat/") || line.find("NEGATIVE") == std::string::npos) continue;
    names.insert(line.substr(7, line.find('\t') - 7));
  }
  return names;
}

// The patcher of a corpus file, with the JSON text it was read from.
struct Opened {
  Patcher patcher;
  std::string json_text;
};

core::Result<Opened> open(const fs::path& path) {
  const std::string bytes = read_file(path);
  if (!is_amxd(path)) {
    auto patcher = read_maxpat(bytes);
    if (!patcher) return patcher.error();
    return Opened{std::move(*patcher), bytes};
  }
  auto file = read_amxd(bytes);
  if (!file) return file.error();
  return Opened{file->patcher, bytes.substr(file->raw_header.size(), file->json_size)};
}

#define SKIP_WITHOUT_CORPUS()                                                      \
  if (corpus_files().empty()) GTEST_SKIP() << "no Max corpus at " << corpus_dir(); \
  static_assert(true)

TEST(MaxCorpusTest, EveryFileOpensOrFailsClearly) {
  SKIP_WITHOUT_CORPUS();
  const std::set<std::string> negatives = negative_files();
  EXPECT_FALSE(negatives.empty()) << "the manifest lists the encrypted device as NEGATIVE";
  std::size_t opened = 0;
  for (const fs::path& path : corpus_files()) {
    SCOPED_TRACE(path.filename().string());
    auto result = open(path);
    if (negatives.contains(path.filename().string())) {
      ASSERT_FALSE(result.has_value());
      EXPECT_NE(result.error().message.find("encrypted"), std::string::npos)
          << result.error().message;
      std::printf("  %-58s refused: %s\n", path.filename().c_str(), result.error().message.c_str());
      continue;
    }
    ASSERT_TRUE(result.has_value()) << result.error().message;
    ++opened;
    std::size_t nested = 0;
    for_each_box(patcher_to_json(result->patcher), [&](const Box&) { ++nested; });
    std::printf("  %-58s %3zu boxes %3zu lines %4zu with subpatchers, %s\n",
                path.filename().c_str(), result->patcher.boxes.size(), result->patcher.lines.size(),
                nested, result->patcher.style == JsonStyle::tabs ? "tabs" : "spaces");
  }
  EXPECT_EQ(opened + negatives.size(), corpus_files().size());
}

TEST(MaxCorpusTest, OpenWriteOpenKeepsBoxesLinesAndAttributes) {
  SKIP_WITHOUT_CORPUS();
  for (const fs::path& path : corpus_files()) {
    SCOPED_TRACE(path.filename().string());
    auto original = open(path);
    if (!original) continue;  // the negatives, checked above
    const std::string written = write_maxpat(original->patcher);
    auto reread = read_maxpat(written);
    ASSERT_TRUE(reread.has_value()) << reread.error().message;
    EXPECT_EQ(reread->boxes, original->patcher.boxes);
    EXPECT_EQ(reread->lines, original->patcher.lines);
    EXPECT_EQ(reread->json, original->patcher.json);
    EXPECT_EQ(*reread, original->patcher);
    // The written text is the same JSON document as the file's, key order included.
    auto before = parse_json(original->json_text);
    auto after = parse_json(written);
    ASSERT_TRUE(before && after);
    EXPECT_EQ(*after, *before);
    EXPECT_EQ(format_json(*after, JsonStyle::spaces), format_json(*before, JsonStyle::spaces));
  }
}

TEST(MaxCorpusTest, UnchangedFilesAreWrittenBackByteForByte) {
  SKIP_WITHOUT_CORPUS();
  std::size_t exact = 0, files = 0;
  for (const fs::path& path : corpus_files()) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = read_file(path);
    std::string written;
    if (is_amxd(path)) {
      auto file = read_amxd(bytes);
      if (!file) continue;
      written = write_amxd(*file);
      auto reread = read_amxd(written);
      ASSERT_TRUE(reread.has_value()) << reread.error().message;
      EXPECT_EQ(*reread, *file);
    } else {
      auto patcher = read_maxpat(bytes);
      ASSERT_TRUE(patcher.has_value());
      written = write_maxpat(*patcher);
    }
    ++files;
    exact += written == bytes ? 1 : 0;
    EXPECT_EQ(written, bytes);
  }
  std::printf("  %zu of %zu readable files written back byte for byte\n", exact, files);
}

TEST(MaxCorpusTest, EditedDevicesKeepTheirContainerConsistent) {
  SKIP_WITHOUT_CORPUS();
  for (const fs::path& path : corpus_files()) {
    if (!is_amxd(path)) continue;
    SCOPED_TRACE(path.filename().string());
    auto file = read_amxd(read_file(path));
    if (!file) continue;
    AmxdFile edited = *file;
    edited.patcher.boxes.push_back(make_box(edited.patcher.next_box_id(), "cycle~", "440", 20, 20));
    edited.patcher.lines.push_back(
        make_line(edited.patcher.boxes.back().id(), 0, edited.patcher.boxes.front().id(), 0));
    const std::string written = write_amxd(edited);
    auto reread = read_amxd(written);
    ASSERT_TRUE(reread.has_value()) << reread.error().message;
    EXPECT_EQ(reread->patcher, edited.patcher);
    EXPECT_EQ(reread->device_type, file->device_type);
    // The container's own length field covers exactly the rest of the file.
    EXPECT_EQ(written.size(),
              reread->raw_header.size() + reread->json_size + reread->raw_trailer.size());
    EXPECT_EQ(reread->raw_trailer.size(), file->raw_trailer.size());
    // Writing the edit again is stable.
    EXPECT_EQ(write_amxd(*reread), written);
  }
}

// Outlet types that depend on the connections, not on the object: an inlet takes the type of
// what it is connected to.
bool outlettype_varies(std::string_view cls) {
  return cls == "inlet";
}

TEST(MaxCorpusTest, PortsAgreeWithTheObjectTable) {
  SKIP_WITHOUT_CORPUS();
  std::size_t checked = 0;
  std::set<std::string> classes;
  std::vector<std::string> mismatches;
  for (const fs::path& path : corpus_files()) {
    auto opened = open(path);
    if (!opened) continue;
    for_each_box(patcher_to_json(opened->patcher), [&](const Box& box) {
      const auto expected = expected_ports(box);
      if (!expected) return;
      ++checked;
      classes.insert(box.class_name());
      const std::string where = path.filename().string() + " " + box.id() + " [" +
                                (box.maxclass() == "newobj" ? box.text() : box.maxclass()) + "]";
      if (expected->inlets != box.numinlets() || expected->outlets != box.numoutlets()) {
        mismatches.push_back(where + ": table " + std::to_string(expected->inlets) + "/" +
                             std::to_string(expected->outlets) + ", file " +
                             std::to_string(box.numinlets()) + "/" +
                             std::to_string(box.numoutlets()));
        return;
      }
      const ObjectInfo* info = find_object(box.class_name());
      if (info->rule == PortRule::contents || outlettype_varies(box.class_name())) return;
      std::vector<std::string> saved;
      if (const auto* types = box.json.if_contains("outlettype")) {
        for (const json::value& type : types->as_array())
          saved.emplace_back(type.as_string());
      }
      if (saved != expected->outlettype) {
        std::string text = where + ": outlet types differ:";
        for (const auto& type : expected->outlettype)
          text += " '" + type + "'";
        mismatches.push_back(text);
      }
    });
  }
  for (const std::string& mismatch : mismatches)
    ADD_FAILURE() << mismatch;
  std::printf("  %zu corpus boxes of %zu table classes checked, %zu mismatches\n", checked,
              classes.size(), mismatches.size());
  EXPECT_GT(checked, 500u);
}

// The first corpus box of each class, for comparing shapes.
std::map<std::string, Box> corpus_examples() {
  std::map<std::string, Box> examples;
  for (const fs::path& path : corpus_files()) {
    auto opened = open(path);
    if (!opened) continue;
    for_each_box(patcher_to_json(opened->patcher),
                 [&](const Box& box) { examples.emplace(box.class_name(), box); });
  }
  return examples;
}

std::vector<std::string> keys_of(const json::object& object) {
  std::vector<std::string> keys;
  for (const auto& member : object)
    keys.emplace_back(member.key());
  return keys;
}

TEST(MaxCorpusTest, NewBoxesHaveTheShapeOfMaxBoxes) {
  SKIP_WITHOUT_CORPUS();
  const std::map<std::string, Box> examples = corpus_examples();
  const std::vector<std::string> classes = {
      "cycle~",       "phasor~",     "plugout~",  "live.thisdevice", "t",         "route",
      "sel",          "pack",        "unpack",    "message",         "comment",   "live.toggle",
      "live.numbox",  "live.slider", "kslider",   "button",          "number",    "flonum",
      "panel",        "umenu",       "live.dial", "live.tab",        "live.text", "live.gain~",
      "live.comment", "live.menu",   "inlet",     "outlet",          "p"};
  for (const std::string& cls : classes) {
    SCOPED_TRACE(cls);
    const auto example = examples.find(cls);
    ASSERT_NE(example, examples.end()) << "no corpus box of this class";
    const Box& max_box = example->second;
    const Box made = make_box("obj-1", cls, max_box.args(), 10, 20);
    EXPECT_EQ(made.maxclass(), max_box.maxclass());
    if (find_object(cls)->rule != PortRule::contents) {  // a p's ports come from its contents
      EXPECT_EQ(made.numinlets(), max_box.numinlets());
      EXPECT_EQ(made.numoutlets(), max_box.numoutlets());
      EXPECT_EQ(made.json.contains("outlettype"), max_box.json.contains("outlettype"));
    }
    if (made.json.contains("outlettype") && cls != "inlet") {
      EXPECT_EQ(made.json.at("outlettype"), max_box.json.at("outlettype"));
    }
    EXPECT_EQ(made.json.contains("parameter_enable"), max_box.json.contains("parameter_enable"));
    // Every key we write is one Max writes for this class, in Max's order. (Max leaves out
    // the optional varname of a parameter object that never got a name.)
    std::vector<std::string> max_keys = keys_of(max_box.json);
    std::vector<std::string> shared;
    for (const std::string& key : keys_of(made.json)) {
      const bool found = std::find(max_keys.begin(), max_keys.end(), key) != max_keys.end();
      EXPECT_TRUE(found || key == "varname") << key;
      if (found) shared.push_back(key);
    }
    std::vector<std::string> max_order;
    for (const std::string& key : max_keys) {
      if (made.json.contains(key)) max_order.push_back(key);
    }
    EXPECT_EQ(shared, max_order);
  }
}

TEST(MaxCorpusTest, NewPatcherIsMaxsDefaultPatcher) {
  const fs::path default_file = corpus_dir() / "Ableton__maxdevtools__default.maxpat";
  if (!fs::exists(default_file)) GTEST_SKIP() << "no " << default_file;
  const std::string max_text = read_file(default_file);
  Patcher made = make_patcher(640, 480);
  const Patcher max_patcher = testing::read_ok(max_text);
  made.json["rect"] = max_patcher.json.at("rect");  // only the window position differs
  EXPECT_EQ(write_maxpat(made), max_text);
}

TEST(MaxCorpusTest, NewDeviceHasMaxsProjectBlock) {
  const fs::path device = corpus_dir() / "Ableton__maxdevtools__DoneLoading.amxd";
  if (!fs::exists(device)) GTEST_SKIP() << "no " << device;
  auto max_file = read_amxd(read_file(device));
  ASSERT_TRUE(max_file.has_value());
  const AmxdFile made = make_amxd(make_patcher(400, 169), "aaaa");
  const json::object& made_project = made.patcher.json.at("project").as_object();
  const json::object& max_project = max_file->patcher.json.at("project").as_object();
  EXPECT_EQ(keys_of(made_project), keys_of(max_project));
  EXPECT_EQ(made_project.at("amxdtype"), max_project.at("amxdtype"));
  EXPECT_EQ(made_project.at("contents"), max_project.at("contents"));
  // The device keys sit where Max 8.6 puts them: after the dependencies, before autosave.
  std::vector<std::string> max_keys = keys_of(patcher_to_json(max_file->patcher));
  std::vector<std::string> made_keys = keys_of(patcher_to_json(made.patcher));
  const auto tail = [](const std::vector<std::string>& keys) {
    return std::vector<std::string>(std::find(keys.begin(), keys.end(), "dependency_cache"),
                                    keys.end());
  };
  EXPECT_EQ(tail(made_keys), tail(max_keys));
}

}  // namespace
}  // namespace fcp::lofi::maxpat
