#include "domains/drawio/data/stencils.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <utility>
#include <vector>

#include "domains/drawio/data/ascii.hpp"
#include "domains/drawio/data/stencil_tables.hpp"

namespace fcp::drawio::data {
namespace {

constexpr std::array<std::string_view, 1> aws_libraries{"mxgraph.aws4"};
constexpr std::array<std::string_view, 2> azure_libraries{"mxgraph.azure", "mxgraph.mscae.cloud"};
constexpr std::array<std::string_view, 1> gcp_libraries{"mxgraph.gcp2"};
constexpr std::array<std::string_view, 1> k8s_libraries{"mxgraph.kubernetes"};
constexpr std::array<std::string_view, 1> cisco_libraries{"mxgraph.cisco19"};
constexpr std::array<std::string_view, 2> ibm_libraries{"mxgraph.ibm", "mxgraph.ibm_cloud"};

const std::array<StencilPack, 6>& packs() {
  static const std::array<StencilPack, 6> table{{
      {"aws", "Amazon Web Services", "mxgraph.aws4", detail::aws_stencils()},
      {"azure", "Microsoft Azure", "mxgraph.azure", detail::azure_stencils()},
      {"gcp", "Google Cloud Platform", "mxgraph.gcp2", detail::gcp_stencils()},
      {"k8s", "Kubernetes", "mxgraph.kubernetes", detail::k8s_stencils()},
      {"cisco", "Cisco Networking", "mxgraph.cisco19", detail::cisco_stencils()},
      {"ibm", "IBM Cloud", "mxgraph.ibm", detail::ibm_stencils()},
  }};
  return table;
}

// The value of `key=` in a draw.io style (first occurrence of the exact key), empty if absent.
std::string_view style_value(std::string_view style, std::string_view key) {
  while (!style.empty()) {
    const std::size_t end = style.find(';');
    const std::string_view token = style.substr(0, end);
    if (token.size() > key.size() && token[key.size()] == '=' && token.starts_with(key)) {
      return token.substr(key.size() + 1);
    }
    if (end == std::string_view::npos) break;
    style.remove_prefix(end + 1);
  }
  return {};
}

// What identifies a stencil: its library and its name inside the library. "shape=mxgraph.x.y" is
// {mxgraph.x, y}; an icon parameter names the stencil instead of the shape:
// resIcon=mxgraph.aws4.lambda is {mxgraph.aws4, lambda}, shape=mxgraph.gcp2.hexIcon;prIcon=bigquery
// is {mxgraph.gcp2, bigquery}.
struct StencilKey {
  std::string_view library;
  std::string_view name;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads defaulted <=>.
  auto operator<=>(const StencilKey&) const = default;
};

std::pair<std::string_view, std::string_view> split_last_dot(std::string_view qualified) {
  const std::size_t dot = qualified.rfind('.');
  if (dot == std::string_view::npos) return {{}, qualified};
  return {qualified.substr(0, dot), qualified.substr(dot + 1)};
}

StencilKey stencil_key(std::string_view style) {
  if (const std::string_view res_icon = style_value(style, "resIcon"); !res_icon.empty()) {
    const auto [library, name] = split_last_dot(res_icon);
    return {library, name};
  }
  const auto [library, shape_name] = split_last_dot(style_value(style, "shape"));
  if (const std::string_view pr_icon = style_value(style, "prIcon"); !pr_icon.empty()) {
    return {library, pr_icon};
  }
  return {library, shape_name};
}

// Lookup tables over all packs, sorted once on first use (ids and stencil keys are unique).
struct StencilIndex {
  std::vector<std::pair<std::string_view, StencilMatch>> by_id;
  std::vector<std::pair<StencilKey, StencilMatch>> by_key;
};

const StencilIndex& index() {
  static const StencilIndex built = [] {
    StencilIndex idx;
    for (const StencilPack& pack : packs()) {
      for (const StencilEntry& entry : pack.entries) {
        idx.by_id.emplace_back(entry.id, StencilMatch{&pack, &entry});
        idx.by_key.emplace_back(stencil_key(entry.style), StencilMatch{&pack, &entry});
      }
    }
    std::sort(idx.by_id.begin(), idx.by_id.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::sort(idx.by_key.begin(), idx.by_key.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return idx;
  }();
  return built;
}

}  // namespace

std::span<const StencilPack> stencil_packs() {
  return packs();
}

const StencilPack* find_stencil_pack(std::string_view id) {
  const auto& table = packs();
  const auto it = std::find_if(table.begin(), table.end(),
                               [&](const StencilPack& p) { return detail::iequals(p.id, id); });
  return it == table.end() ? nullptr : &*it;
}

StencilMatch find_stencil_anywhere(std::string_view id) {
  const auto& by_id = index().by_id;
  const auto it =
      std::lower_bound(by_id.begin(), by_id.end(), id,
                       [](const auto& e, std::string_view key) { return e.first < key; });
  if (it == by_id.end() || it->first != id) return {};
  return it->second;
}

const StencilEntry* find_stencil(const StencilPack& pack, std::string_view id) {
  const StencilMatch match = find_stencil_anywhere(id);
  return match.pack == &pack ? match.entry : nullptr;
}

std::span<const std::string_view> stencil_libraries(const StencilPack& pack) {
  if (pack.id == "aws") return aws_libraries;
  if (pack.id == "azure") return azure_libraries;
  if (pack.id == "gcp") return gcp_libraries;
  if (pack.id == "k8s") return k8s_libraries;
  if (pack.id == "cisco") return cisco_libraries;
  if (pack.id == "ibm") return ibm_libraries;
  return {};
}

const StencilPack* stencil_pack_for_style(std::string_view style) {
  const StencilKey key = stencil_key(style);
  if (key.library.empty()) return nullptr;
  for (const StencilPack& pack : packs()) {
    const auto libraries = stencil_libraries(pack);
    if (std::find(libraries.begin(), libraries.end(), key.library) != libraries.end()) return &pack;
  }
  return nullptr;
}

StencilMatch stencil_for_style(std::string_view style) {
  const StencilKey key = stencil_key(style);
  if (key.library.empty() || key.name.empty()) return {};
  const auto& by_key = index().by_key;
  const auto it = std::lower_bound(by_key.begin(), by_key.end(), key,
                                   [](const auto& e, const StencilKey& k) { return e.first < k; });
  if (it == by_key.end() || it->first != key) return {};
  return it->second;
}

}  // namespace fcp::drawio::data
