// Internal: the per-pack entry tables, each defined in its own stencils_<pack>.cpp.
#pragma once

#include <span>

#include "domains/drawio/data/stencils.hpp"

namespace fcp::drawio::data::detail {

std::span<const StencilEntry> aws_stencils();
std::span<const StencilEntry> azure_stencils();
std::span<const StencilEntry> gcp_stencils();
std::span<const StencilEntry> k8s_stencils();
std::span<const StencilEntry> cisco_stencils();
std::span<const StencilEntry> ibm_stencils();

}  // namespace fcp::drawio::data::detail
