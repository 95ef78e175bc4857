// Where the repository is, for tests that read fixtures.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace fcp::testing {

// The repository root: $FCP_SOURCE_DIR (set by CTest), else the source directory the test was
// built from (FCP_SOURCE_DIR_FALLBACK, defined for every unit-test target).
inline std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("FCP_SOURCE_DIR"); dir != nullptr && *dir != '\0') return dir;
  return FCP_SOURCE_DIR_FALLBACK;
}

}  // namespace fcp::testing
