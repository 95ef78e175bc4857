#include "domains/drawio/export/svg_stencil_library.hpp"

#include <cctype>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace fcp::drawio::render::detail {
namespace {

std::string registry_key(std::string_view text) {
  std::string key;
  key.reserve(text.size());
  for (char c : text)
    key += c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

struct StencilLibrary {
  std::vector<std::unique_ptr<pugi::xml_document>> documents;
  std::unordered_map<std::string, pugi::xml_node> shapes;
};

StencilLibrary load_library() {
  StencilLibrary library;
  for (std::string_view text : vendored_stencil_files()) {
    auto document = std::make_unique<pugi::xml_document>();
    if (!document->load_buffer(text.data(), text.size())) continue;
    const pugi::xml_node set = document->child("shapes");
    const std::string prefix = registry_key(set.attribute("name").value()) + ".";
    for (const pugi::xml_node& shape : set.children("shape"))
      library.shapes.emplace(prefix + registry_key(shape.attribute("name").value()), shape);
    library.documents.push_back(std::move(document));
  }
  return library;
}

}  // namespace

pugi::xml_node vendored_stencil(std::string_view name) {
  static const StencilLibrary library = load_library();
  const auto found = library.shapes.find(registry_key(name));
  return found == library.shapes.end() ? pugi::xml_node() : found->second;
}

}  // namespace fcp::drawio::render::detail
