// Files stay their owners' files (issue 13): open → save without an edit gives every file of the
// shared corpus and the fixtures back byte for byte; after edits a saved file carries draw.io's
// own fields only — no private fcp attribute or style key, checked with pugixml on the written
// XML (compressed pages and SVG-embedded files decoded) — and every op's draw.io keys are where
// draw.io reads them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <pugixml.hpp>
#include <sstream>
#include <vector>

#include "core/parsed_op.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/domain.hpp"
#include "domains/drawio/io/codec.hpp"
#include "tests/domains/drawio/model/png_test_support.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::drawio {
namespace {

namespace fs = std::filesystem;
using fcp::testing::NoFiles;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The draw.io files of the shared corpus and of the project's fixtures, sorted.
std::vector<fs::path> drawio_files() {
  std::vector<fs::path> files;
  for (const fs::path& dir : {fcp::testing::source_dir() / ".." / "shared" / "corpus" / "drawio",
                              fcp::testing::source_dir() / "fixtures" / "drawio"}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && !name.ends_with(".py")) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// "" when equal, else where the bytes first differ (a file can be a megabyte: not printed).
std::string first_difference(const std::string& written, const std::string& original) {
  if (written == original) return {};
  const auto at = std::mismatch(written.begin(), written.end(), original.begin(), original.end());
  return "written " + std::to_string(written.size()) + " bytes, read " +
         std::to_string(original.size()) + "; first difference at byte " +
         std::to_string(at.first - written.begin());
}

std::map<std::string, std::string> style_keys(std::string_view style) {
  std::map<std::string, std::string> keys;
  while (!style.empty()) {
    const auto end = style.find(';');
    const std::string_view item = style.substr(0, end);
    const auto equals = item.find('=');
    keys.emplace(std::string(item.substr(0, equals)),
                 equals == std::string_view::npos ? "" : std::string(item.substr(equals + 1)));
    style = end == std::string_view::npos ? std::string_view() : style.substr(end + 1);
  }
  return keys;
}

// Every private field in a written file: attributes and style keys whose names start with
// "fcp", in the XML as written and inside compressed pages and SVG-embedded files.
void collect_private_fields(const pugi::xml_node& node, std::vector<std::string>& found) {
  for (const auto& attribute : node.attributes()) {
    const std::string name = attribute.name();
    if (name.starts_with("fcp")) found.push_back(name + " on <" + node.name() + ">");
    if (name == "style") {
      for (const auto& [key, value] : style_keys(attribute.value())) {
        if (key.starts_with("fcp")) found.push_back("style key " + key);
      }
    }
  }
  if (std::string_view(node.name()) == "svg" && node.attribute("content")) {
    pugi::xml_document inner;
    EXPECT_TRUE(inner.load_string(node.attribute("content").value())) << "SVG content";
    collect_private_fields(inner, found);
  }
  if (std::string_view(node.name()) == "diagram" && !node.child("mxGraphModel") &&
      *node.text().get() != '\0') {
    InflateBudget budget;
    auto page = decode_page_text(node.text().get(), budget);
    EXPECT_TRUE(page.has_value()) << "a compressed page that does not decode";
    pugi::xml_document inner;
    if (page) {
      EXPECT_TRUE(inner.load_string(page->xml.c_str())) << "a compressed page's XML";
    }
    collect_private_fields(inner, found);
  }
  for (const auto& child : node.children())
    collect_private_fields(child, found);
}

class SavedFilesTest : public ::testing::Test {
 protected:
  void open(const fs::path& path) {
    auto loaded = domain_->load(path, read_file(path), {});
    ASSERT_TRUE(loaded.has_value()) << path << ": " << loaded.error().message;
    document_.reset(static_cast<DrawioDocument*>(loaded->release()));
  }
  void create() {
    core::SessionCommand command;
    command.command = "new";
    document_.reset(static_cast<DrawioDocument*>(domain_->create(command).value().release()));
  }
  core::Result<core::OpOutcome> run(const std::string& text) {
    auto op = core::parse_op(text, domain_->parse_hooks());
    if (!op) return op.error();
    core::EffectSink effects;
    core::ProgressFn progress;
    core::CallContext ctx{log_, paths_, effects, progress};
    return document_->execute(*op, ctx);
  }
  void must(const std::string& text) {
    auto outcome = run(text);
    ASSERT_TRUE(outcome.has_value()) << text << ": " << outcome.error().message;
  }
  // Also checks that the save's stream (write_file, in pieces) gives the same bytes.
  std::string save(const fs::path& as) const {
    auto bytes = document_->serialize(as);
    EXPECT_TRUE(bytes.has_value()) << as;
    std::string streamed;
    auto written = document_->write_file(as, [&](std::string_view piece) {
      streamed += piece;
      return true;
    });
    EXPECT_TRUE(written.has_value()) << as;
    if (bytes) {
      EXPECT_EQ(first_difference(streamed, *bytes), "") << as << ", streamed";
    }
    return bytes ? *bytes : std::string();
  }

  std::unique_ptr<core::Domain> domain_ = make_drawio_domain();
  std::unique_ptr<DrawioDocument> document_;
  core::EventLog log_;
  NoFiles paths_;
};

TEST_F(SavedFilesTest, OpenThenSaveWithoutAnEditGivesEveryFileBackByteForByte) {
  const auto files = drawio_files();
  std::size_t identical = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    open(path);
    if (!document_) continue;
    const std::string original = read_file(path);
    EXPECT_EQ(first_difference(save(path), original), "");
    // An op that changes nothing (a selector matching nothing) is no edit.
    if (run("remove @type:nothing-has-this-type")) {
      EXPECT_EQ(first_difference(save(path), original), "");
    }
    // An edit undone is no edit either (the same number of cells: compared in full).
    for (const char* op : {"add svc FcpUndone at:0,0", "page add FcpUndonePage"}) {
      auto edited = run(op);
      ASSERT_TRUE(edited.has_value() && edited->event) << op;
      EXPECT_NE(save(path), original) << op;
      core::EffectSink effects;
      document_->revert(*edited->event, effects);
      EXPECT_EQ(first_difference(save(path), original), "") << "after undo of " << op;
    }
    ++identical;
  }
  std::printf("  %zu of %zu draw.io files saved back byte for byte\n", identical, files.size());
  EXPECT_GE(identical, 20u);
}

// A save after an edit hands the text to its file in pieces of about a megabyte as it is made
// (never whole beside the model), the same bytes as serialize; after the file refused a piece
// no more are made.
TEST_F(SavedFilesTest, ASaveAfterAnEditStreamsItsTextInPieces) {
  std::string text = R"(<mxfile host="test"><diagram id="d" name="Page-1"><mxGraphModel>)"
                     R"(<root><mxCell id="0"/><mxCell id="1" parent="0"/>)";
  for (int i = 0; i < 20000; ++i) {
    text += R"(<mxCell id="v)" + std::to_string(i) + R"(" value="N)" + std::to_string(i) +
            R"(" vertex="1" parent="1"><mxGeometry x=")" + std::to_string(i % 100 * 160) +
            R"(" y=")" + std::to_string(i / 100 * 100) +
            R"(" width="120" height="60" as="geometry"/></mxCell>)";
  }
  text += "</root></mxGraphModel></diagram></mxfile>\n";
  auto loaded = domain_->load("big.drawio", text, {});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  document_.reset(static_cast<DrawioDocument*>(loaded->release()));
  must(R"(label #v7 "Renamed")");
  const std::string whole = document_->serialize("big.drawio").value();
  ASSERT_GT(whole.size(), std::size_t{3} << 20);
  std::vector<std::size_t> pieces;
  std::string streamed;
  ASSERT_TRUE(document_->write_file("big.drawio", [&](std::string_view piece) {
    pieces.push_back(piece.size());
    streamed += piece;
    return true;
  }));
  EXPECT_EQ(first_difference(streamed, whole), "");
  EXPECT_GE(pieces.size(), 3u);
  for (std::size_t size : pieces)
    EXPECT_LT(size, std::size_t{1} << 21) << "a piece of about a megabyte";
  std::size_t calls = 0;
  ASSERT_TRUE(document_->write_file("big.drawio", [&](std::string_view) {
    ++calls;
    return false;
  }));
  EXPECT_EQ(calls, 1u) << "nothing more after the file refused a piece";
  // Unchanged: the bytes read, in one piece.
  auto again = domain_->load("big.drawio", text, {});
  ASSERT_TRUE(again.has_value());
  pieces.clear();
  ASSERT_TRUE((*again)->write_file("big.drawio", [&](std::string_view piece) {
    pieces.push_back(piece.size());
    return piece == text;
  }));
  EXPECT_EQ(pieces, std::vector<std::size_t>{text.size()});
}

// A save after edits compares only the cells the edits touched with how they were read (no
// second read of the file): a cell changed and put back gives the bytes read again; the same
// cells in another order do not.
TEST_F(SavedFilesTest, EditsPutBackGiveTheBytesReadAndAnOrderChangeDoesNot) {
  const auto files = drawio_files();
  ASSERT_FALSE(files.empty());
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    open(path);
    if (!document_) continue;
    const std::string original = read_file(path);
    const Page& page = document_->page();
    if (page.cell_count() < 2) continue;
    const Cell first = page.cells().front();
    if (first.id.empty() || page.find(first.id) != &page.cells().front()) continue;
    const std::string next(page.next_id(first.id));
    auto edit = [&](const std::function<void(Edit&)>& change) {
      Edit step(*document_);
      change(step);
      step.commit("test");
    };
    edit([&](Edit& e) { e.update(first.id, [](Cell& cell) { cell.value = "FcpChanged"; }); });
    EXPECT_NE(save(path), original);
    edit([&](Edit& e) { e.update(first.id, [&](Cell& cell) { cell = first; }); });
    EXPECT_EQ(first_difference(save(path), original), "") << "after the label was put back";
    edit([&](Edit& e) {
      e.erase(first.id);
      e.insert(first);  // on top: the same cells, another order
    });
    EXPECT_NE(save(path), original) << "after the first cell moved on top";
    edit([&](Edit& e) {
      e.erase(first.id);
      e.insert(first, next);
    });
    EXPECT_EQ(first_difference(save(path), original), "") << "after it moved back";
  }
}

// The frame grid is built at the first spatial query, from the page as edits left it, and kept
// current by the edits after it.
TEST_F(SavedFilesTest, TheFrameGridBuiltAtFirstUseHasTheEditsBeforeAndAfterIt) {
  std::size_t checked = 0;
  for (const fs::path& path : drawio_files()) {
    SCOPED_TRACE(path.filename().string());
    open(path);
    if (!document_) continue;
    std::string shape;
    for (const Cell& cell : document_->page().cells()) {
      if (document_->index().kind(cell.id) != CellKind::shape || !cell.geometry ||
          cell.geometry->relative || cell.geometry->width.value_or(0) <= 0 ||
          cell.geometry->height.value_or(0) <= 0 || document_->page().find(cell.id) != &cell)
        continue;
      shape = cell.id;
      break;
    }
    if (shape.empty()) continue;
    auto move_to = [&](double x) {
      Edit step(*document_);
      step.update(shape, [x](Cell& cell) { cell.geometry->x = x; });
      step.commit("move");
    };
    move_to(12345);  // before the grid exists
    const FrameGrid::Item* item = document_->index().grid().find(shape);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(item->rect.x, 12345);
    move_to(23456);  // after
    item = document_->index().grid().find(shape);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(item->rect.x, 23456);
    {
      Edit step(*document_);
      step.erase(shape);
      step.commit("remove");
    }
    EXPECT_EQ(document_->index().grid().find(shape), nullptr);
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

// The XML of a saved file: the file itself, or the diagram in a .drawio.png's tEXt "mxfile"
// chunk (decoded here, not by the reader under test).
std::string xml_of_saved_file(const std::string& bytes) {
  auto chunks = testing::png_chunks(bytes);
  if (!chunks) return bytes;
  for (const auto& chunk : *chunks) {
    if (chunk.type != "tEXt" || !chunk.data.starts_with(std::string("mxfile") + '\0')) continue;
    return testing::percent_decode(std::string_view(chunk.data).substr(7)).value_or("");
  }
  return {};
}

// The ops that once wrote private fields (title, define, load, custom types, aliases, badges,
// edge ports) and the edge and group edits of issue 13, on every file: the saved file has
// draw.io's fields only, in the file's own form and as a plain .drawio.
TEST_F(SavedFilesTest, EditsWriteNoPrivateFieldsIntoAnyFile) {
  const auto files = drawio_files();
  ASSERT_FALSE(files.empty());
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    open(path);
    if (!document_) continue;
    std::string first_shape;
    for (const Cell& cell : document_->page().cells()) {
      if (document_->index().kind(cell.id) == CellKind::shape) {
        first_shape = cell.id;
        break;
      }
    }
    for (const std::string op :
         {"title \"Edited by fcp\"", "define cache base:db theme:red badge:hot size:100x80",
          "define theme brand fill:#fde2e4 stroke:#c9184a", "load aws",
          "add cache FcpRedis at:-400,-400", "add svc fcpgw label:\"FCP Gateway\" at:-200,-400",
          "add lambda FcpFn at:-400,-200", "badge fcpgw v2", "resize fcpgw to:200x80",
          "connect fcpgw -> FcpRedis label:reads", "connect fcpgw -> FcpRedis",
          "style fcpgw -> FcpRedis exitX:1 exitY:0.5 jumpStyle:arc",
          "modify fcpgw -> FcpRedis rounded:0 prop.protocol:resp",
          "group FcpRedis fcpgw as:\"FCP Tier\" theme:brand", "modify fcpgw alias:gw2"}) {
      must(op);
    }
    if (!first_shape.empty()) {
      must("label #" + first_shape + " \"Renamed by fcp\"");
      must("connect #" + first_shape + " -> FcpFn style:dashed");
      must("move #" + first_shape + " by:10,10");
    }
    for (const fs::path& as : {path, fs::path("edited.drawio")}) {
      const std::string bytes = save(as);
      pugi::xml_document xml;
      ASSERT_TRUE(xml.load_string(xml_of_saved_file(bytes).c_str())) << as;
      std::vector<std::string> found;
      collect_private_fields(xml, found);
      EXPECT_TRUE(found.empty()) << as << ": " << ::testing::PrintToString(found);
      EXPECT_NE(bytes, read_file(path));
    }
  }
}

// The <mxGraphModel> attributes of the first page of a saved file, by name.
std::map<std::string, std::string> model_settings(const std::string& bytes) {
  pugi::xml_document xml;
  EXPECT_TRUE(xml.load_string(bytes.c_str()));
  std::map<std::string, std::string> found;
  for (const auto& a : xml.child("mxfile").child("diagram").child("mxGraphModel").attributes())
    found[a.name()] = a.value();
  return found;
}

// A new document carries what draw.io writes for a new diagram (page view on, grid, guides,
// A4 page); the page grows to cover a diagram larger than A4. A file read keeps its settings
// through an edit, and a page added to it gets draw.io's defaults.
TEST_F(SavedFilesTest, NewPagesCarryDrawioSettingsAndReadPagesKeepTheirs) {
  create();
  must("add svc Web at:40,40");
  auto settings = model_settings(save("new.drawio"));
  const std::map<std::string, std::string> defaults = {
      {"grid", "1"},      {"gridSize", "10"},   {"guides", "1"},        {"tooltips", "1"},
      {"connect", "1"},   {"arrows", "1"},      {"fold", "1"},          {"page", "1"},
      {"pageScale", "1"}, {"pageWidth", "827"}, {"pageHeight", "1169"}, {"math", "0"},
      {"shadow", "0"}};
  EXPECT_EQ(settings, defaults);
  must("add svc Far at:2600,900");
  settings = model_settings(save("new.drawio"));
  EXPECT_EQ(settings["page"], "1");
  EXPECT_GE(std::stod(settings["pageWidth"]), 2600 + 120);
  EXPECT_GE(std::stod(settings["pageHeight"]), 900 + 60);
  must("move Far to:900,100");  // fits A4 landscape now
  settings = model_settings(save("new.drawio"));
  EXPECT_EQ(settings["pageWidth"], "1169");
  EXPECT_EQ(settings["pageHeight"], "827");

  const fs::path path = fs::temp_directory_path() / "fcp-own-settings.drawio";
  std::ofstream(path, std::ios::binary)
      << "<mxfile><diagram id=\"p1\" name=\"P\"><mxGraphModel dx=\"5\" page=\"0\">"
         "<root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/></root></mxGraphModel>"
         "</diagram></mxfile>";
  open(path);
  must("add svc Wide at:3000,3000");
  settings = model_settings(save(path));
  EXPECT_EQ(settings, (std::map<std::string, std::string>{{"dx", "5"}, {"page", "0"}}));
  must("page add Second");
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(save(path).c_str()));
  const auto second = xml.child("mxfile").child("diagram").next_sibling("diagram");
  EXPECT_STREQ(second.child("mxGraphModel").attribute("pageWidth").value(), "827");
  EXPECT_STREQ(second.child("mxGraphModel").attribute("grid").value(), "1");
}

// Issue 13: a new file's <mxfile> carries the attributes draw.io writes when it saves (host,
// agent, version, type: EditorUi's file data), naming fcp, its version, and "device" (a file on
// disk) — no draw.io version fcp is not. A file that was opened keeps its own <mxfile>
// attributes through an edit, whatever wrote them.
TEST_F(SavedFilesTest, NewFilesSayFcpWroteThemAndOpenedFilesKeepTheirFileAttributes) {
  create();
  must("add svc Web at:40,40");
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(save("new.drawio").c_str()));
  const pugi::xml_node file = xml.child("mxfile");
  std::vector<std::pair<std::string, std::string>> attributes;
  for (const pugi::xml_attribute& attribute : file.attributes())
    attributes.emplace_back(attribute.name(), attribute.value());
  const std::string version = file.attribute("version").value();
  EXPECT_FALSE(version.empty());
  EXPECT_EQ(version.find_first_not_of("0123456789."), std::string::npos) << version;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"host", "fcp"}, {"agent", "fcpd/" + version}, {"version", version}, {"type", "device"}};
  EXPECT_EQ(attributes, expected);

  const fs::path path = fs::temp_directory_path() / "fcp-drawio-attributes.drawio";
  const std::string drawio_file =
      "<mxfile host=\"Electron\" agent=\"Mozilla/5.0 draw.io/24.7.17\" version=\"24.7.17\" "
      "type=\"device\">\n  <diagram id=\"p1\" name=\"Page-1\">\n    <mxGraphModel>\n"
      "      <root>\n        <mxCell id=\"0\"/>\n        <mxCell id=\"1\" parent=\"0\"/>\n"
      "      </root>\n    </mxGraphModel>\n  </diagram>\n</mxfile>\n";
  std::ofstream(path, std::ios::binary) << drawio_file;
  open(path);
  must("add svc Api at:40,40");
  const std::string saved = save(path);
  fs::remove(path);
  EXPECT_EQ(saved.rfind("<mxfile host=\"Electron\" agent=\"Mozilla/5.0 draw.io/24.7.17\" "
                        "version=\"24.7.17\" type=\"device\">\n",
                        0),
            0U)
      << saved.substr(0, 200);
}

// An older fcp kept private fields in the file; they are read at open, and the first save with
// an edit leaves them out (without an edit the file comes back as it was).
TEST_F(SavedFilesTest, PrivateFieldsOfAnOlderFcpAreReadAndDroppedAtTheFirstEdit) {
  const fs::path path = fs::temp_directory_path() / "fcp-older-version.drawio";
  const std::string older =
      "<mxfile host=\"fcp\" agent=\"fcpd\" fcp-meta=\"{&quot;title&quot;:&quot;Shop&quot;,"
      "&quot;customTypes&quot;:{&quot;cache&quot;:{&quot;base&quot;:&quot;db&quot;}},"
      "&quot;loadedStencilPacks&quot;:[&quot;aws&quot;]}\">\n"
      "  <diagram id=\"p1\" name=\"Page-1\">\n"
      "    <mxGraphModel>\n      <root>\n        <mxCell id=\"0\"/>\n"
      "        <mxCell id=\"1\" parent=\"0\"/>\n"
      "        <mxCell id=\"s1\" value=\"Redis\" style=\"shape=cylinder3;whiteSpace=wrap;\" "
      "parent=\"1\" vertex=\"1\" fcp-type=\"cache\" fcp-alias=\"r\">\n"
      "          <mxGeometry x=\"10\" y=\"10\" width=\"100\" height=\"80\" as=\"geometry\"/>\n"
      "        </mxCell>\n"
      "        <mxCell id=\"b1\" value=\"hot\" style=\"rounded=1;arcSize=50;whiteSpace=wrap;"
      "html=1;fontSize=10;fillColor=#f8cecc;strokeColor=#b85450;fcpBadge=top-right;\" "
      "parent=\"s1\" vertex=\"1\">\n"
      "          <mxGeometry x=\"85\" y=\"-10\" width=\"30\" height=\"20\" as=\"geometry\"/>\n"
      "        </mxCell>\n      </root>\n    </mxGraphModel>\n  </diagram>\n</mxfile>\n";
  std::ofstream(path, std::ios::binary) << older;
  open(path);
  ASSERT_TRUE(document_);
  EXPECT_EQ(document_->title(), "Shop");
  EXPECT_TRUE(document_->state().custom_types.contains("cache"));
  const Cell* redis = document_->page().find("s1");
  ASSERT_NE(redis, nullptr);
  EXPECT_EQ(shape_type(*redis), "cache");
  EXPECT_EQ(document_->index().kind("b1"), CellKind::badge);
  EXPECT_EQ(save(path), older);  // no edit: as it was
  must("add cache Memcached at:300,10");
  must("label r \"Redis 7\"");  // the alias still names it
  const std::string saved = save(path);
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(saved.c_str()));
  std::vector<std::string> found;
  collect_private_fields(xml, found);
  EXPECT_TRUE(found.empty()) << ::testing::PrintToString(found);
  EXPECT_NE(saved.find("value=\"Redis 7\""), std::string::npos);
  fs::remove(path);
}

// ---- each op's draw.io keys, read back from the saved XML ------------------------------------

class OpKeysTest : public SavedFilesTest {
 protected:
  void SetUp() override {
    create();
    for (const char* op : {"add svc Web at:100,100", "add svc API at:400,100"})
      must(op);
  }
  // The saved file, parsed by pugixml.
  pugi::xml_document saved() const {
    pugi::xml_document xml;
    const std::string bytes = save("diagram.drawio");
    EXPECT_TRUE(xml.load_string(bytes.c_str()));
    return xml;
  }
  static std::string id_of(const pugi::xml_document& xml, std::string_view label) {
    const auto cell = xml.select_node(
        ("//*[@value='" + std::string(label) + "' or @label='" + std::string(label) + "']")
            .c_str());
    return cell ? cell.node().attribute("id").value() : std::string();
  }
  // The style keys of the edges from `source` to `target`, in document order.
  std::vector<std::map<std::string, std::string>> edges(std::string_view source,
                                                        std::string_view target) const {
    const pugi::xml_document xml = saved();
    const std::string from = id_of(xml, source), to = id_of(xml, target);
    std::vector<std::map<std::string, std::string>> out;
    for (const auto& node : xml.select_nodes("//mxCell[@edge='1']")) {
      if (node.node().attribute("source").value() == from &&
          node.node().attribute("target").value() == to) {
        auto keys = style_keys(node.node().attribute("style").value());
        keys["(value)"] = node.node().attribute("value").value();
        out.push_back(std::move(keys));
      }
    }
    return out;
  }
  std::map<std::string, std::string> style_of(std::string_view label) const {
    const pugi::xml_document xml = saved();
    const auto cell = xml.select_node(("//mxCell[@id='" + id_of(xml, label) + "']").c_str());
    return cell ? style_keys(cell.node().attribute("style").value())
                : std::map<std::string, std::string>();
  }
};

TEST_F(OpKeysTest, EdgePortsAndRoutingAreDrawiosKeys) {
  must("connect Web -> API exit:top entry:bottom");
  auto edge = edges("Web", "API").at(0);
  EXPECT_EQ(edge["exitX"], "0.5");
  EXPECT_EQ(edge["exitY"], "0");
  EXPECT_EQ(edge["entryX"], "0.5");
  EXPECT_EQ(edge["entryY"], "1");

  must("style Web -> API exit:right@0.25");
  edge = edges("Web", "API").at(0);
  EXPECT_EQ(edge["exitX"], "1");
  EXPECT_EQ(edge["exitY"], "0.25");
  EXPECT_EQ(edge["exitDx"], "0");

  must("style Web -> API jumpStyle:arc edgeStyle:elbowEdgeStyle elbow:vertical exitY:0.75");
  edge = edges("Web", "API").at(0);
  EXPECT_EQ(edge["jumpStyle"], "arc");
  EXPECT_EQ(edge["edgeStyle"], "elbowEdgeStyle");
  EXPECT_EQ(edge["elbow"], "vertical");
  EXPECT_EQ(edge["exitY"], "0.75");

  auto restyled = run("modify Web -> API rounded:0 curved:yes label:calls");
  ASSERT_TRUE(restyled.has_value()) << restyled.error().message;
  edge = edges("Web", "API").at(0);
  EXPECT_EQ(edge["rounded"], "0");
  EXPECT_EQ(edge["curved"], "1");
  EXPECT_EQ(edge["(value)"], "calls");

  // Undo of the modify: the edge's keys as they were.
  core::EffectSink effects;
  document_->revert(*restyled->event, effects);
  edge = edges("Web", "API").at(0);
  EXPECT_EQ(edge["rounded"], "1");
  EXPECT_EQ(edge.count("curved"), 0u);
  EXPECT_EQ(edge["(value)"], "");
}

TEST_F(OpKeysTest, ARepeatedConnectWritesOneEdgeAndNewTrueASecond) {
  must("connect Web -> API label:calls");
  auto again = run("connect Web -> API label:calls");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->event, nullptr);
  EXPECT_EQ(edges("Web", "API").size(), 1u);
  must("connect Web -> API label:calls new:true edgeStyle:none");
  const auto both = edges("Web", "API");
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1].at("edgeStyle"), "none");
}

TEST_F(OpKeysTest, AGroupThemeIsInTheMembersFillColor) {
  must("add svc Own at:700,100 theme:red");
  must("group Web API Own as:Tier theme:green");
  EXPECT_EQ(style_of("Tier")["fillColor"], "#d5e8d4");
  EXPECT_EQ(style_of("Web")["fillColor"], "#d5e8d4");
  EXPECT_EQ(style_of("Web")["strokeColor"], "#82b366");
  EXPECT_EQ(style_of("Own")["fillColor"], "#f8cecc");  // its own colours stay
  must("style Tier theme:purple members:none");
  EXPECT_EQ(style_of("Tier")["fillColor"], "#e1d5e7");
  EXPECT_EQ(style_of("Web")["fillColor"], "#d5e8d4");
}

}  // namespace
}  // namespace fcp::drawio
