// Path policies for tests and benchmarks that do not go through the daemon's allowed roots.
#pragma once

#include <filesystem>
#include <string_view>

#include "core/file_access.hpp"

namespace fcp::testing {

// Every file access fails: for documents that are never opened or saved.
class NoFiles final : public core::PathPolicy {
 public:
  core::Result<std::filesystem::path> for_reading(std::string_view) const override {
    return core::make_error("no files in this test");
  }
  core::Result<std::filesystem::path> for_writing(std::string_view) const override {
    return core::make_error("no files in this test");
  }
};

// Every path is allowed as given: for benchmarks and tests that use temporary files.
class AllowAll final : public core::PathPolicy {
 public:
  core::Result<std::filesystem::path> for_reading(std::string_view path) const override {
    return std::filesystem::path(path);
  }
  core::Result<std::filesystem::path> for_writing(std::string_view path) const override {
    return std::filesystem::path(path);
  }
};

}  // namespace fcp::testing
