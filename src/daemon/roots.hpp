// The allowed-roots path policy: every path a tool reads or writes must resolve (symlinks
// included) to a place inside one of the roots given with --root.
#pragma once

#include <filesystem>
#include <vector>

#include "core/file_access.hpp"

namespace fcp::daemon {

// Thread: immutable after construction; safe to share.
class RootPolicy final : public core::PathPolicy {
 public:
  // Roots must exist; they are canonicalised once. Relative tool paths resolve against the first.
  static core::Result<RootPolicy> make(const std::vector<std::string>& roots);

  core::Result<std::filesystem::path> for_reading(std::string_view path) const override;
  core::Result<std::filesystem::path> for_writing(std::string_view path) const override;
  const std::vector<std::filesystem::path>& roots() const { return roots_; }

 private:
  explicit RootPolicy(std::vector<std::filesystem::path> roots) : roots_(std::move(roots)) {}
  bool inside(const std::filesystem::path& canonical) const;
  core::Error outside(std::string_view path) const;
  std::filesystem::path absolute(std::string_view path) const;

  std::vector<std::filesystem::path> roots_;
};

}  // namespace fcp::daemon
