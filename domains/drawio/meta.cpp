#include "domains/drawio/meta.hpp"

#include <boost/json.hpp>

#include "domains/drawio/export/drawio_svg.hpp"
#include "domains/drawio/io/writer.hpp"

namespace fcp::drawio {
namespace {

namespace json = boost::json;

std::string string_at(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

struct SavedState {
  std::string title;
  std::map<std::string, CustomType> types;
  std::map<std::string, CustomTheme> themes;
  std::vector<std::string> packs;
  bool operator==(const SavedState&) const = default;
};

SavedState saved_part(const DocumentState& state) {
  return {state.title, state.custom_types, state.custom_themes, state.loaded_packs};
}

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

std::string format_meta(const SavedState& saved) {
  json::object object;
  if (!saved.title.empty()) object["title"] = saved.title;
  if (!saved.types.empty()) {
    json::object types;
    for (const auto& [name, type] : saved.types) {
      json::object spec{{"base", type.base}};
      if (!type.theme.empty()) spec["theme"] = type.theme;
      if (!type.badge.empty()) spec["badge"] = type.badge;
      if (type.size) spec["size"] = json::array{type.size->first, type.size->second};
      types[name] = std::move(spec);
    }
    object["customTypes"] = std::move(types);
  }
  if (!saved.themes.empty()) {
    json::object themes;
    for (const auto& [name, theme] : saved.themes) {
      json::object spec{{"fill", theme.fill}, {"stroke", theme.stroke}};
      if (!theme.font_color.empty()) spec["fontColor"] = theme.font_color;
      themes[name] = std::move(spec);
    }
    object["customThemes"] = std::move(themes);
  }
  if (!saved.packs.empty()) {
    json::array packs;
    for (const auto& pack : saved.packs)
      packs.emplace_back(pack);
    object["loadedStencilPacks"] = std::move(packs);
  }
  return object.empty() ? std::string() : json::serialize(object);
}

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

DocumentState read_meta(const Diagram& diagram) {
  DocumentState state;
  if (auto text = diagram.file_attributes().get(kMetaAttribute)) {
    SavedState saved = parse_meta(*text);
    state.title = std::move(saved.title);
    state.custom_types = std::move(saved.types);
    state.custom_themes = std::move(saved.themes);
    state.loaded_packs = std::move(saved.packs);
  }
  return state;
}

void write_meta(Diagram& diagram, const DocumentState& state) {
  const SavedState wanted = saved_part(state);
  if (auto text = diagram.file_attributes().get(kMetaAttribute)) {
    if (parse_meta(*text) == wanted) return;
  } else if (wanted == SavedState{}) {
    return;
  }
  const std::string text = format_meta(wanted);
  if (text.empty()) {
    diagram.file_attributes().erase(kMetaAttribute);
  } else {
    diagram.file_attributes().set(kMetaAttribute, text);
  }
}

core::Result<std::string> serialize_diagram(const Diagram& diagram,
                                            const std::filesystem::path& path,
                                            const render::PngOriginal* original) {
  std::string name = path.filename().string();
  for (char& c : name)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ends_with(name, ".svg")) return render::write_drawio_svg(diagram);
  if (ends_with(name, ".png")) return render::write_drawio_png(diagram, original);
  if (diagram.source_format() == SourceFormat::graph_model && ends_with(name, ".xml") &&
      diagram.pages().size() == 1)
    return write_graph_model(diagram.pages().front());
  return write_drawio(diagram);
}

}  // namespace fcp::drawio
