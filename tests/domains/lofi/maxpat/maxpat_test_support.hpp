// Shared helpers for the .maxpat/.amxd tests: the corpus, files, JSON walks.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/value.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/patcher.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi::maxpat::testing {

using fcp::testing::source_dir;

inline std::filesystem::path corpus_dir() {
  return source_dir().parent_path() / "shared" / "corpus" / "maxpat";
}

inline std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir(), ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The patcher of a file's bytes: an .amxd container's or a bare .maxpat's (the test fails on
// a file that does not read).
inline Patcher patcher_of(const std::string& bytes) {
  if (bytes.starts_with("ampf")) return read_amxd(bytes).value().patcher;
  return read_maxpat(bytes).value();
}

inline bool is_amxd(const std::filesystem::path& path) {
  return path.extension() == ".amxd";
}

inline Patcher read_ok(std::string_view text) {
  auto patcher = read_maxpat(text);
  EXPECT_TRUE(patcher.has_value()) << (patcher ? "" : patcher.error().message);
  return patcher ? *patcher : Patcher{};
}

inline std::string read_error(std::string_view text) {
  auto patcher = read_maxpat(text);
  EXPECT_FALSE(patcher.has_value());
  return patcher ? "" : patcher.error().message;
}

inline std::string amxd_error(std::string_view bytes) {
  auto file = read_amxd(bytes);
  EXPECT_FALSE(file.has_value());
  return file ? "" : file.error().message;
}

// Calls `visit` on every box of `patcher` and of the subpatchers inside its boxes.
inline void for_each_box(const boost::json::object& patcher,
                         const std::function<void(const Box&)>& visit) {
  const boost::json::value* boxes = patcher.if_contains("boxes");
  if (boxes == nullptr || !boxes->is_array()) return;
  for (const boost::json::value& element : boxes->get_array()) {
    const boost::json::value* box = element.as_object().if_contains("box");
    if (box == nullptr) continue;
    const Box model{box->as_object()};
    visit(model);
    if (const boost::json::object* sub = model.subpatcher()) for_each_box(*sub, visit);
  }
}

// Little-endian bytes of `value`, for hand-made containers.
inline std::string le32(std::uint32_t value) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  return out;
}

inline std::string be32(std::uint32_t value) {
  std::string out;
  for (int i = 3; i >= 0; --i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  return out;
}

}  // namespace fcp::lofi::maxpat::testing
