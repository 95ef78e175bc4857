// Document verbs: title, load (stencil packs), export (SVG/PNG/PDF).
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "core/call_scope.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/export/drawio_cli.hpp"
#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/export/svg_renderer.hpp"
#include "domains/drawio/io/writer.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/scene.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

std::string size_text(std::size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + "B";
  return std::to_string((bytes + 512) / 1024) + "KB";
}

constexpr std::size_t kPlaceholdersNamed = 6;  // the rest are counted ("… and 9 more")
constexpr std::size_t kShapeNameShown = 48;    // long names (inline stencils) are cut

// "? 4 shapes drawn as placeholders: Router (shape=mxgraph.cisco.routers.router), …": the native
// renderer has no drawing for these; the agent learns the file is fine, the picture is not.
std::string placeholder_line(const Page& page, const std::vector<render::Placeholder>& shapes) {
  std::string text =
      core::plural(shapes.size(), "shape") +
      (shapes.size() == 1 ? " drawn as a placeholder: " : " drawn as placeholders: ");
  for (std::size_t i = 0; i < shapes.size() && i < kPlaceholdersNamed; ++i) {
    const render::Placeholder& shape = shapes[i];
    const Cell* cell = page.find(shape.cell_id);
    std::string name = cell != nullptr ? cell_label(*cell) : std::string();
    if (name.empty()) name = shape.cell_id;
    std::string style = shape.shape;
    if (style.size() > kShapeNameShown) style = style.substr(0, kShapeNameShown) + "…";
    text += (i == 0 ? "" : ", ") + quote_token(name) + " (shape=" + style + ")";
  }
  if (shapes.size() > kPlaceholdersNamed)
    text += ", … and " + std::to_string(shapes.size() - kPlaceholdersNamed) + " more";
  return core::warning_line(text);
}

std::string lower_extension(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : core::to_lower(path.substr(dot + 1));
}

// The export op that writes what `op` asked for to a file instead of the reply.
// Why the export must stop now (its call was cancelled, ran past its time limit, or the daemon
// is shutting down): the rendering below stops early then, and no image or file results.
std::optional<core::Error> export_stopped() {
  return core::stop_error("export", "no image was made and no file written");
}

std::string export_to_file_op(const core::ParsedOp& op, const std::string& format) {
  std::string text = "export file as:diagram." + format;
  for (const char* key : {"page", "width", "height", "engine"}) {
    if (const std::string* value = op.param(key)) text += " " + std::string(key) + ":" + *value;
  }
  return text;
}

}  // namespace

core::Result<void> verb_title(OpContext& ctx) {
  if (ctx.op.positionals.size() != 1 || ctx.op.positionals[0].empty())
    return core::make_error("title requires the title text", {"title \"System Architecture\""});
  const std::string title = ctx.op.positionals[0];
  ctx.edit.update_state([&](DocumentState& state) { state.title = title; });
  ctx.lines.push_back(core::property_changed(
      "title set to \"" + title +
      "\" (for this session: a draw.io file keeps no title, its file name is the title)"));
  return {};
}

core::Result<void> verb_load(OpContext& ctx) {
  const std::string what = ctx.op.positionals.empty() ? "list" : ctx.op.positionals[0];
  if (what == "list") {
    ctx.lines.push_back(core::meta("Available stencil packs:"));
    for (const auto& pack : data::stencil_packs()) {
      std::string id(pack.id);
      id.resize(std::max<std::size_t>(id.size(), 8), ' ');
      const bool loaded =
          std::find(ctx.doc.state().loaded_packs.begin(), ctx.doc.state().loaded_packs.end(),
                    pack.id) != ctx.doc.state().loaded_packs.end();
      ctx.lines.push_back(core::detail_line(id + " " + std::string(pack.name) + " (" +
                                            std::to_string(pack.entries.size()) + " types)" +
                                            (loaded ? " — loaded" : "")));
    }
    return {};
  }
  const auto* pack = data::find_stencil_pack(what);
  if (pack == nullptr) {
    std::vector<std::string> names;
    for (const auto& p : data::stencil_packs())
      names.emplace_back(p.id);
    return core::unknown_reference({"stencil pack", ctx.op.raw}, what, names);
  }
  const std::string id(pack->id);
  const auto& loaded = ctx.doc.state().loaded_packs;
  if (std::find(loaded.begin(), loaded.end(), id) != loaded.end()) {
    ctx.lines.push_back(
        core::warning_line("stencil pack \"" + std::string(pack->name) + "\" is already loaded"));
    return {};
  }
  ctx.edit.update_state([&](DocumentState& state) { state.loaded_packs.push_back(id); });
  std::map<std::string, std::string> by_category;
  std::vector<std::string> order;
  for (const auto& entry : pack->entries) {
    const std::string category(entry.category);
    if (!by_category.contains(category)) order.push_back(category);
    auto& list = by_category[category];
    list += (list.empty() ? "" : ", ") + std::string(entry.id);
  }
  ctx.lines.push_back(core::created("loaded \"" + std::string(pack->name) + "\" (" +
                                    std::to_string(pack->entries.size()) + " types)"));
  for (const auto& category : order)
    ctx.lines.push_back(core::detail_line(category + ": " + by_category[category]));
  return {};
}

core::Result<void> verb_export(OpContext& ctx) {
  const auto& op = ctx.op;
  bool to_file = false;
  for (const auto& word : op.positionals) {
    if (word == "file") {
      to_file = true;
    } else if (word != "inline") {
      return core::make_error("export: unknown word \"" + word + "\" — use inline or file",
                              {"export fmt:png", "export file as:diagram.png"});
    }
  }
  const std::string* as = op.param("as");
  if (to_file && as == nullptr)
    return core::make_error("export file requires as:PATH", {"export file as:diagram.png"});
  if (as != nullptr) to_file = true;
  std::string format = op.param_or("fmt", as ? lower_extension(*as) : "png");
  if (format != "png" && format != "svg" && format != "pdf")
    return core::make_error("export: unsupported format \"" + format + "\" — use png, svg or pdf",
                            {"export fmt:png"});
  const auto& pages = ctx.doc.diagram().pages();
  std::size_t page = ctx.doc.active_page_index();
  if (const std::string* text = op.param("page")) {
    auto number = parse_number(*text, "page");
    if (!number || *number < 1 || *number > static_cast<double>(pages.size()) ||
        std::floor(*number) != *number)
      return core::make_error("export: invalid page " + *text + " — diagram has " +
                              std::to_string(pages.size()) + " page(s)");
    page = static_cast<std::size_t>(*number) - 1;
  }
  int width = 0, height = 0;
  for (auto [key, slot] : {std::pair{"width", &width}, std::pair{"height", &height}}) {
    if (const std::string* text = op.param(key)) {
      auto value = parse_number(*text, key);
      if (!value || *value < 16 || *value > 8192)
        return core::make_error("export: invalid " + std::string(key) + ":" + *text +
                                " — 16 to 8192 px");
      *slot = static_cast<int>(*value);
    }
  }
  if (ctx.doc.index(page).shapes() == 0 && ctx.doc.index(page).groups() == 0)
    return core::make_error("export: empty page — add shapes first");

  // auto: the draw.io desktop app when it is installed (pixel-exact), else the native renderer.
  std::string engine = op.param_or("engine", "auto");
  if (engine == "auto") engine = render::find_drawio_cli() ? "drawio" : "native";
  std::string bytes;
  std::vector<render::Placeholder> placeholders;
  if (engine == "drawio") {
    auto cli = render::find_drawio_cli();
    if (!cli)
      return core::make_error(
          "export engine:drawio needs the draw.io desktop app (set "
          "DRAWIO_PATH or put drawio on PATH); engine:native works without it",
          {"export fmt:" + format});
    const auto image = format == "svg"   ? render::ImageFormat::svg
                       : format == "pdf" ? render::ImageFormat::pdf
                                         : render::ImageFormat::png;
    const std::string xml = write_drawio(ctx.doc.diagram());
    if (auto stop = export_stopped()) return *stop;
    auto out =
        render::export_with_drawio_cli(*cli, xml, image, static_cast<int>(page), width, height);
    if (auto stop = export_stopped()) return *stop;
    if (!out) return core::make_error("export failed: " + out.error().message);
    bytes = std::move(*out);
  } else if (engine == "native") {
    render::SvgOptions options;
    if (format == "svg") {
      if (width) options.width = width;
      if (height) options.height = height;
    }
    auto rendered = render::render_svg_report(pages[page], options);
    if (auto stop = export_stopped()) return *stop;
    if (!rendered) return core::make_error("export failed: " + rendered.error().message);
    placeholders = std::move(rendered->placeholders);
    if (format == "svg") {
      bytes = std::move(rendered->svg);
    } else {
      // librsvg and cairo cannot be interrupted: the call stops before and after them.
      auto out = format == "png" ? render::svg_to_png(rendered->svg, width, height)
                                 : render::svg_to_pdf(rendered->svg, width, height);
      if (auto stop = export_stopped()) return *stop;
      if (!out) return core::make_error("export failed: " + out.error().message);
      bytes = std::move(*out);
    }
  } else {
    return core::make_error("export: unknown engine \"" + engine + "\" — auto, native or drawio");
  }
  std::string upper = format;
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string detail = size_text(bytes.size()) + " " + upper +
                             (width ? " " + std::to_string(width) + "px" : std::string());
  if (to_file) {
    auto path = ctx.call.paths.for_writing(*as);
    if (!path) return path.error();
    if (auto written = core::write_file_atomically(*path, bytes); !written) return written.error();
    ctx.lines.push_back(core::created("exported " + *as + " (" + detail + ")"));
    if (!placeholders.empty()) ctx.lines.push_back(placeholder_line(pages[page], placeholders));
    return {};
  }
  if (auto fits = core::check_reply_size(ctx.call, bytes.size(), "the " + upper,
                                         {export_to_file_op(ctx.op, format)});
      !fits)
    return fits.error();
  const std::string mime = format == "png"   ? "image/png"
                           : format == "svg" ? "image/svg+xml"
                                             : "application/pdf";
  ctx.attachments.push_back({mime, std::move(bytes)});
  // A success: `+` (the image exists now, in this reply); `!` would read as an error.
  ctx.lines.push_back(core::created("exported page " + std::to_string(page + 1) + " (" + detail +
                                    ", in this reply)"));
  if (!placeholders.empty()) ctx.lines.push_back(placeholder_line(pages[page], placeholders));
  return {};
}

}  // namespace fcp::drawio
