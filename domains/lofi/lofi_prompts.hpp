// The lofi domain's MCP prompts.
#pragma once

#include <vector>

#include "core/domain.hpp"

namespace fcp::lofi {

std::vector<core::Prompt> lofi_prompts();

}  // namespace fcp::lofi
