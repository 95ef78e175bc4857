#include "daemon/roots.hpp"

namespace fcp::daemon {
namespace fs = std::filesystem;
using core::make_error;
using core::Result;

Result<RootPolicy> RootPolicy::make(const std::vector<std::string>& roots) {
  std::vector<fs::path> canonical;
  for (const auto& root : roots.empty() ? std::vector<std::string>{"."} : roots) {
    std::error_code ec;
    auto path = fs::canonical(root, ec);
    if (ec || !fs::is_directory(path)) {
      return make_error("--root \"" + root + "\" is not an existing directory");
    }
    canonical.push_back(path);
  }
  return RootPolicy(std::move(canonical));
}

bool RootPolicy::inside(const fs::path& candidate) const {
  for (const auto& root : roots_) {
    auto [root_end, candidate_it] =
        std::mismatch(root.begin(), root.end(), candidate.begin(), candidate.end());
    if (root_end == root.end()) return true;
  }
  return false;
}

core::Error RootPolicy::outside(std::string_view path) const {
  std::string list;
  for (const auto& root : roots_)
    list += (list.empty() ? "" : ", ") + root.string();
  return make_error("path \"" + std::string(path) + "\" is outside the allowed roots (" + list +
                        "); use a path inside them, or start fcpd with --root DIR",
                    {roots_.front().string() + "/" + fs::path(path).filename().string()});
}

fs::path RootPolicy::absolute(std::string_view path) const {
  fs::path p(path);
  return p.is_absolute() ? p : roots_.front() / p;
}

Result<fs::path> RootPolicy::for_reading(std::string_view path) const {
  if (path.empty()) return make_error("empty path");
  std::error_code ec;
  auto canonical = fs::canonical(absolute(path), ec);
  if (ec) {
    // Say "outside" before "missing", so a client cannot probe what exists outside the roots.
    std::error_code weak_ec;
    if (!inside(fs::weakly_canonical(absolute(path), weak_ec))) return outside(path);
    return make_error("cannot open \"" + std::string(path) + "\": " + ec.message());
  }
  if (!inside(canonical)) return outside(path);
  return canonical;
}

Result<fs::path> RootPolicy::for_writing(std::string_view path) const {
  if (path.empty()) return make_error("empty path");
  const fs::path target = absolute(path);
  const auto name = target.filename();
  if (name.empty() || name == "." || name == "..") {
    return make_error("\"" + std::string(path) + "\" names a directory, not a file");
  }
  std::error_code ec;
  auto parent = fs::canonical(target.parent_path(), ec);
  if (ec) {
    std::error_code weak_ec;
    if (!inside(fs::weakly_canonical(target, weak_ec))) return outside(path);
    return make_error("cannot write \"" + std::string(path) + "\": its directory does not exist (" +
                      ec.message() + ")");
  }
  fs::path resolved = parent / name;
  // Writing replaces the file by rename; an existing symlink is followed so its target, not the
  // link, must be inside the roots (and is what gets replaced).
  if (fs::is_symlink(resolved, ec)) {
    resolved = fs::weakly_canonical(resolved, ec);
    if (ec) return make_error("cannot resolve \"" + std::string(path) + "\": " + ec.message());
  }
  if (!inside(resolved)) return outside(path);
  if (fs::is_directory(resolved, ec)) {
    return make_error("\"" + std::string(path) + "\" is a directory, not a file");
  }
  return resolved;
}

}  // namespace fcp::daemon
