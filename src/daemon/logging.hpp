// Logging set-up: spdlog to stderr (never stdout, which belongs to the protocol), plus a file.
#pragma once

#include <optional>
#include <string>

#include "core/result.hpp"

namespace fcp::daemon {

core::Result<void> setup_logging(const std::string& level, const std::optional<std::string>& file);

}  // namespace fcp::daemon
