#include "domains/drawio/domain.hpp"

#include "core/call_scope.hpp"
#include "domains/drawio/data/node_types.hpp"
#include "domains/drawio/data/regions.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/data/themes.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/meta.hpp"
#include "domains/drawio/queries.hpp"
#include "domains/drawio/selection.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

std::string make_card_sections() {
  std::string out = "NODE TYPES:\n";
  for (const auto& type : data::node_types()) {
    std::string name(type.name);
    name.resize(std::max<std::size_t>(name.size(), 9), ' ');
    out += "  " + name + std::string(type.description) + "\n";
  }
  out +=
      "  (no TYPE: inferred from the label — UserDB → db, Login? → decision, "
      "Customer → actor, EventQueue → queue, CDN → cloud, Report → doc)\n";
  out += "\nTHEMES (FILL / STROKE):\n";
  for (const auto& theme : data::themes()) {
    std::string name(theme.name);
    name.resize(std::max<std::size_t>(name.size(), 8), ' ');
    out += "  " + name + std::string(theme.fill) + " / " + std::string(theme.stroke) + "\n";
  }
  out += "  colours: #RGB, #RRGGBB, CSS names (red, steelblue), none, or a theme name\n";
  out +=
      "  on a group: the container and the members without colours of their own (add's "
      "default, or the group's earlier theme; a shape you coloured this session — theme: on "
      "add, fill: or theme: in style or modify — keeps its own); members:all recolours every "
      "member, "
      "members:none only the container; shapes added in:GROUP take its theme\n";
  out +=
      "\nEDGES:\n"
      "  arrows: -> (one way)  <-> (both)  -- (none)\n"
      "  style: dashed dotted solid animated curved straight orthogonal elbow thick thin\n"
      "  arrow kinds: arrow open-arrow diamond open-diamond circle open-circle crow-foot "
      "one mandatory-one zero-many block open-block dash cross none\n"
      "  ports: exit:/entry: top|bottom|left|right[@0..1]; chosen automatically otherwise\n"
      "  connecting an edge that exists (same ends, same label if given) adds nothing; "
      "new:true adds another\n"
      "  change one later: style SRC -> TGT dashed exit:top entry:bottom, "
      "modify SRC -> TGT label:\"x\" rounded:0\n"
      "  many at once: an end may be a selector — style Kafka -> @all dashed, "
      "style @all -> Kafka dashed, modify @group:Data -> Kafka rounded:1; the reply names "
      "every edge it changed\n"
      "  draw.io keys work in connect, style and modify: edgeStyle:elbowEdgeStyle "
      "jumpStyle:arc rounded:0 exitX:0.5 exitY:1 …\n";
  out +=
      "\nPLACEMENT:\n"
      "  near:REF dir:below|above|left|right|below-right|below-left|above-right|above-left "
      "(60px gap)\n  at:X,Y  at:REGION (";
  bool first = true;
  for (const auto region : data::region_names()) {
    out += (first ? "" : " ") + std::string(region);
    first = false;
  }
  out +=
      ")\n  without at: (add): beside near:REF, else beside the most recently changed shape (in "
      "the group with in:), else the group's top or 200,200; dir: defaults to the page's flow "
      "(orient: TB below, LR right, BT above, RL left)\n"
      "  that slot taken (something within 30px): the first free one further that way — never "
      "on a shape or on a group the shape is not in; the reply says where and why\n"
      "  in:GROUP grows the group; what it then covers moves out of its way (the reply names "
      "it); at: is the user's: a shape put on another is warned (? X overlaps Y)\n";
  out += "\nSTENCIL PACKS (load PACK, then use the ids as TYPE):\n";
  for (const auto& pack : data::stencil_packs()) {
    out += "  " + std::string(pack.id) + " — " + std::string(pack.name) + " (" +
           std::to_string(pack.entries.size()) + ")\n";
  }
  out +=
      "\nREFERENCES:\n"
      "  Label, alias, case-insensitive, prefix; type:Label (db:Users), Group/Label "
      "(Backend/Auth), #id\n";
  out += "\n" + core::selector_card(selector_catalog());
  out +=
      "\nFILES (open PATH, save as:PATH; the format follows the name):\n"
      "  .drawio .dio .xml  draw.io XML; each page stays compressed or not as read; a bare "
      "<mxGraphModel> .xml stays bare\n"
      "  .drawio.svg        picture of page 1 with the whole diagram inside; draw.io opens it\n"
      "  .drawio.png        picture of page 1 with the whole diagram in its \"mxfile\" text chunk; "
      "draw.io opens it; saved unchanged, the file keeps its bytes\n";
  out +=
      "\nEXAMPLE:\n"
      "  drawio_session: new \"Checkout\"\n"
      "  drawio: [\"add actor Customer\", \"add svc Web near:Customer dir:right\", "
      "\"add db Orders near:Web dir:right\", \"connect Customer -> Web -> Orders\", "
      "\"group Web Orders as:Backend\", \"layout @all dir:LR\"]\n"
      "  drawio_session: save as:checkout.drawio\n";
  return out;
}

class DrawioDomain final : public core::Domain {
 public:
  DrawioDomain() : card_(make_card_sections()) {
    hooks_.is_positional = [](std::string_view token) {
      // type:Label references stay positionals (`connect db:Users -> svc:Auth`).
      const auto colon = token.find(':');
      if (colon == std::string_view::npos || colon == 0) return false;
      const std::string_view type = token.substr(0, colon);
      return data::find_node_type(type) != nullptr || type == "text";
    };
  }

  std::string_view name() const override { return "drawio"; }
  std::string_view display_name() const override { return "draw.io diagrams"; }
  const core::VerbRegistry& verbs() const override { return verb_table(); }
  const core::ParseHooks* parse_hooks() const override { return &hooks_; }
  std::string card_sections() const override { return card_; }
  std::vector<core::VerbSpec> queries() const override { return query_specs(); }
  std::vector<core::Synonym> query_synonyms() const override {
    return {
        {"shapes", "list", {}},       {"nodes", "list", {}},        {"edges", "connections", {}},
        {"links", "connections", {}}, {"wires", "connections", {}}, {"info", "describe", {}},
        {"show", "describe", {}},     {"search", "find", {}},       {"overview", "map", {}},
        {"summary", "map", {}},       {"page", "pages", {}},        {"layer", "layers", {}},
        {"theme", "themes", {}},      {"type", "types", {}}};
  }
  std::vector<std::string> file_extensions() const override {
    return {"drawio", "xml", "drawio.svg", "drawio.png", "dio"};
  }
  // draw.io registers application/vnd.jgraph.mxfile for its .drawio files.
  std::string file_mime_type(const std::filesystem::path& path,
                             std::string_view bytes) const override {
    (void)bytes;
    const std::string name = path.filename().string();
    if (name.ends_with(".svg")) return "image/svg+xml";
    if (name.ends_with(".png")) return "image/png";
    if (name.ends_with(".xml")) return "application/xml";
    return "application/vnd.jgraph.mxfile";
  }
  std::vector<core::ResourceForm> resource_forms() const override {
    return {{".svg", "image/svg+xml", "diagram picture (SVG)",
             "The diagram's current page as SVG, drawn by the native exporter (export fmt:svg)"}};
  }
  core::Result<core::Attachment> render_resource(std::string_view suffix, core::Document& document,
                                                 core::CallContext& ctx) const override {
    if (suffix != ".svg") return core::make_error("no " + std::string(suffix) + " form");
    // The `export` op in the reply, as the session command runs it; it changes nothing.
    auto op = core::parse_op("export inline fmt:svg engine:native", &hooks_);
    if (!op) return op.error();
    auto outcome = document.execute(*op, ctx);
    if (!outcome) return outcome.error();
    if (outcome->attachments.empty()) return core::make_error("the export made no SVG");
    return std::move(outcome->attachments.front());
  }
  std::vector<core::VerbSpec> session_extensions() const override {
    core::VerbSpec export_file{"export", "", "",
                               "write a page as an image file inside the allowed roots (the "
                               "drawio verb `export` also returns images)"};
    export_file.with(core::key("as", "PATH").require())
        .with(core::choice_key("fmt", {"png", "svg", "pdf"}))
        .with(core::integer_key("page"))
        .with(core::integer_key("width"))
        .with(core::integer_key("height"))
        .with(core::choice_key("engine", {"auto", "native", "drawio"}));
    return {export_file};
  }

  core::Result<std::vector<std::string>> run_session_extension(
      const core::SessionCommand& command, core::Document* document,
      core::CallContext& ctx) const override {
    if (document == nullptr)
      return core::make_error("no diagram open", {"drawio_session new \"Diagram\""});
    if (command.command != "export")
      return core::make_error("unknown session command \"" + command.command + "\"");
    if (command.param("as") == nullptr)
      return core::make_error("export needs as:PATH", {"export as:diagram.png"});
    // The same code as the `export file` op; exporting changes nothing, so no event results.
    std::string text = "export file";
    for (const auto& [key, value] : command.params)
      text += " " + key + ":" + quote_token(value);
    auto op = core::parse_op(text, &hooks_);
    if (!op) return op.error();
    auto outcome = document->execute(*op, ctx);
    if (!outcome) return outcome.error();
    return std::move(outcome->lines);
  }

  core::Result<std::unique_ptr<core::Document>> create(
      const core::SessionCommand& command) const override {
    Diagram diagram;
    // What draw.io writes on <mxfile> when it saves (EditorUi's file data): host (the app's
    // host: "Electron", "app.diagrams.net"), agent (the browser's user agent), version (of the
    // editor that wrote it), type (where it is kept: "device" for a file on disk) — here fcp's
    // own, true of fcpd. draw.io's modified and etag are left out: they would change the saved
    // bytes on every save of the same diagram. An opened file keeps its own attributes.
    diagram.file_attributes().set("host", "fcp");
    diagram.file_attributes().set("agent", "fcpd/" FCP_VERSION);
    diagram.file_attributes().set("version", FCP_VERSION);
    diagram.file_attributes().set("type", "device");
    diagram.add_page(Page::make_blank(diagram.allocate_id(), "Page-1"));
    DocumentState state;
    state.sized_pages.insert(std::string(diagram.pages().front().id()));
    if (const std::string* title = command.arg("title")) state.title = *title;
    auto document = std::make_unique<DrawioDocument>(std::move(diagram), std::move(state));
    return std::unique_ptr<core::Document>(std::move(document));
  }

  std::size_t estimated_bytes_for_file(std::size_t file_bytes) const override {
    return file_bytes * kBytesPerFileByte;
  }

  core::Result<std::unique_ptr<core::Document>> load(
      const std::filesystem::path& path, const core::FileBytes& bytes,
      const core::ProgressFn& progress) const override {
    if (progress) progress(0, 0, "parsing");
    auto diagram = read_drawio(bytes.view());
    if (!diagram) return diagram.error();
    DocumentState state = adopt_file_state(*diagram);
    auto document = std::make_unique<DrawioDocument>(std::move(*diagram), std::move(state),
                                                     DrawioDocument::FromFile{});
    // Its indexes are incomplete when the call had to stop while they were built.
    if (auto stop = core::stop_error("reading the diagram", "no document was opened")) return *stop;
    document->keep_source(bytes);
    std::string name = path.filename().string();
    for (std::string_view suffix : {".drawio.svg", ".dio.svg", ".drawio.png", ".dio.png", ".drawio",
                                    ".dio", ".xml", ".svg", ".png"}) {
      if (name.size() > suffix.size() && name.ends_with(suffix)) {
        name.resize(name.size() - suffix.size());
        break;
      }
    }
    document->set_fallback_title(std::move(name));
    return std::unique_ptr<core::Document>(std::move(document));
  }

 private:
  std::string card_;
  core::ParseHooks hooks_;
};

}  // namespace

std::unique_ptr<core::Domain> make_drawio_domain() {
  return std::make_unique<DrawioDomain>();
}

}  // namespace fcp::drawio
