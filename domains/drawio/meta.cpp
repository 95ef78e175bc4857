#include "domains/drawio/meta.hpp"

#include <algorithm>
#include <boost/json.hpp>

#include "core/call_scope.hpp"
#include "domains/drawio/export/drawio_svg.hpp"
#include "domains/drawio/io/writer.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {
namespace {

namespace json = boost::json;

std::string string_at(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

// The names older fcp versions wrote into files.
constexpr std::string_view kLegacyMeta = "fcp-meta";    // <mxfile> attribute, JSON
constexpr std::string_view kLegacyType = "fcp-type";    // cell attribute
constexpr std::string_view kLegacyAlias = "fcp-alias";  // cell attribute
constexpr std::string_view kLegacyBadge = "fcpBadge";   // badge style key

struct SavedState {
  std::string title;
  std::map<std::string, CustomType> types;
  std::map<std::string, CustomTheme> themes;
  std::vector<std::string> packs;
};

SavedState parse_meta(std::string_view text) {
  SavedState saved;
  boost::system::error_code ec;
  json::value root = json::parse(text, ec);
  if (ec || !root.is_object()) return saved;
  const json::object& object = root.get_object();
  saved.title = string_at(object, "title");
  if (const auto* types = object.if_contains("customTypes"); types && types->is_object()) {
    for (const auto& [name, value] : types->get_object()) {
      if (!value.is_object()) continue;
      const auto& spec = value.get_object();
      CustomType type{std::string(name), string_at(spec, "base"), string_at(spec, "theme"),
                      string_at(spec, "badge"), std::nullopt};
      if (const auto* size = spec.if_contains("size");
          size && size->is_array() && size->get_array().size() == 2) {
        const auto& pair = size->get_array();
        if (pair[0].is_number() && pair[1].is_number())
          type.size = std::pair{pair[0].to_number<double>(), pair[1].to_number<double>()};
      }
      if (!type.base.empty()) saved.types.emplace(type.name, std::move(type));
    }
  }
  if (const auto* themes = object.if_contains("customThemes"); themes && themes->is_object()) {
    for (const auto& [name, value] : themes->get_object()) {
      if (!value.is_object()) continue;
      const auto& spec = value.get_object();
      saved.themes.emplace(std::string(name),
                           CustomTheme{std::string(name), string_at(spec, "fill"),
                                       string_at(spec, "stroke"), string_at(spec, "fontColor")});
    }
  }
  if (const auto* packs = object.if_contains("loadedStencilPacks"); packs && packs->is_array()) {
    for (const auto& pack : packs->get_array()) {
      if (pack.is_string()) saved.packs.emplace_back(pack.get_string());
    }
  }
  return saved;
}

// The cells of one page that carry an older fcp's private fields lose them to their notes.
void adopt_cell_fields(Page& page) {
  for (const Cell& cell : page.cells()) {
    const bool legacy = cell.attributes.get(kLegacyType) || cell.attributes.get(kLegacyAlias) ||
                        (cell.style && cell.style->has_key(kLegacyBadge));
    if (!legacy) continue;
    Cell* changed = page.find(cell.id);
    if (auto type = changed->attributes.get(kLegacyType)) {
      changed->set_note_type(std::string(*type));
      changed->attributes.erase(kLegacyType);
    }
    if (auto alias = changed->attributes.get(kLegacyAlias)) {
      changed->set_note_alias(std::string(*alias));
      changed->attributes.erase(kLegacyAlias);
    }
    if (changed->style) changed->style->erase(kLegacyBadge);
  }
}

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

DocumentState adopt_file_state(Diagram& diagram) {
  DocumentState state;
  if (auto text = diagram.file_attributes().get(kLegacyMeta)) {
    SavedState saved = parse_meta(*text);
    state.title = std::move(saved.title);
    state.custom_types = std::move(saved.types);
    state.custom_themes = std::move(saved.themes);
    state.loaded_packs = std::move(saved.packs);
    diagram.file_attributes().erase(kLegacyMeta);
  }
  for (Page& page : diagram.pages()) {
    adopt_cell_fields(page);
    for (const Cell& cell : page.cells()) {
      const std::string_view pack = stencil_pack_of(cell);
      if (!pack.empty() && std::find(state.loaded_packs.begin(), state.loaded_packs.end(), pack) ==
                               state.loaded_packs.end())
        state.loaded_packs.emplace_back(pack);
    }
  }
  return state;
}

SourceFormat written_format(const Diagram& diagram, const std::filesystem::path& path) {
  std::string name = path.filename().string();
  for (char& c : name)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ends_with(name, ".svg")) return SourceFormat::svg;
  if (ends_with(name, ".png")) return SourceFormat::png;
  if (diagram.source_format() == SourceFormat::graph_model && ends_with(name, ".xml") &&
      diagram.pages().size() == 1)
    return SourceFormat::graph_model;
  return SourceFormat::mxfile;
}

namespace {

core::Result<std::string> write_diagram(const Diagram& diagram, const std::filesystem::path& path) {
  switch (written_format(diagram, path)) {
    case SourceFormat::svg:
      return render::write_drawio_svg(diagram);
    case SourceFormat::png:
      return render::write_drawio_png(diagram);
    case SourceFormat::graph_model:
      return write_graph_model(diagram.pages().front());
    case SourceFormat::mxfile:
      break;
  }
  return write_drawio(diagram);
}

}  // namespace

core::Result<std::string> serialize_diagram(const Diagram& diagram,
                                            const std::filesystem::path& path) {
  auto text = write_diagram(diagram, path);
  // The writers end early inside a call that must stop: their text is incomplete then.
  if (auto stop = core::stop_error("writing the diagram", "nothing was written")) return *stop;
  return text;
}

}  // namespace fcp::drawio
