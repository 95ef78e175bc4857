// The 6 stencil packs (aws azure gcp k8s cisco ibm): extra TYPE names, each a real draw.io stencil.
#pragma once

#include <span>
#include <string_view>

namespace fcp::drawio::data {

struct StencilEntry {
  // "lambda", "azure-vm", "pod" — what the user types as a TYPE after `load`
  std::string_view id;
  std::string_view label;     // "Lambda"
  std::string_view category;  // "Compute"
  std::string_view style;     // the full draw.io style string using the REAL stencil name
  double width, height;
};

struct StencilPack {
  std::string_view id;      // "aws"
  std::string_view name;    // "Amazon Web Services"
  std::string_view prefix;  // "mxgraph.aws4"
  std::span<const StencilEntry> entries;
};

// The 6 packs in this order: aws azure gcp k8s cisco ibm.
std::span<const StencilPack> stencil_packs();

// The pack with this id, ignoring ASCII case; nullptr if unknown.
const StencilPack* find_stencil_pack(std::string_view id);

// The entry of this pack with exactly this id (O(log n) over all packs); nullptr if none.
const StencilEntry* find_stencil(const StencilPack& pack, std::string_view id);

// A stencil entry together with the pack that holds it; both null when nothing matched.
struct StencilMatch {
  const StencilPack* pack = nullptr;
  const StencilEntry* entry = nullptr;
};

// The entry with exactly this id in any pack (ids are unique across packs).
StencilMatch find_stencil_anywhere(std::string_view id);

// Every draw.io shape library a pack's styles draw from, its prefix first: azure also uses
// "mxgraph.mscae.cloud" (draw.io's current Azure service icons) and ibm "mxgraph.ibm_cloud".
std::span<const std::string_view> stencil_libraries(const StencilPack& pack);

// The pack whose libraries a draw.io style's shape (or resIcon) belongs to, nullptr if none. Use
// this rather than searching for pack.prefix: not every azure style contains "mxgraph.azure".
const StencilPack* stencil_pack_for_style(std::string_view style);

// The entry drawing the same stencil as a draw.io style (same library and shape/resIcon/prIcon
// name; colours and other keys are ignored), for describing shapes of opened files.
StencilMatch stencil_for_style(std::string_view style);

}  // namespace fcp::drawio::data
