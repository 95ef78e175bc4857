// The name and version fcp reports in clientInfo and --version.
#pragma once

#include <string_view>

namespace fcp::cli {

#ifdef FCP_VERSION
inline constexpr std::string_view client_version = FCP_VERSION;
#else
// Keep in step with project(fcp VERSION …) in the top-level CMakeLists.txt.
inline constexpr std::string_view client_version = "0.1.0";
#endif
inline constexpr std::string_view client_name = "fcp";
// The MCP revision fcp asks for in initialize.
inline constexpr std::string_view protocol_version = "2025-11-25";

}  // namespace fcp::cli
