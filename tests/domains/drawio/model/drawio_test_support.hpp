// Shared helpers for the drawio tests: fixture paths, file reading, model diffs.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/model/diagram.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::drawio::testing {

using fcp::testing::source_dir;

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string fixture(std::string_view name) {
  const auto path = source_dir() / "fixtures" / "drawio" / name;
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return read_file(path);
}

// Runs `xmllint --noout` (libxml2, an independent parser) on `xml`; nullopt when not installed.
inline std::optional<bool> xmllint_accepts(const std::string& xml) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) return std::nullopt;
  char path[] = "/tmp/fcp-drawio-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return std::nullopt;
  close(fd);
  std::ofstream(path, std::ios::binary) << xml;
  const int status = std::system(("xmllint --noout " + std::string(path) + " 2>&1").c_str());
  std::remove(path);
  return status == 0;
}

inline Diagram read_ok(std::string_view bytes) {
  auto diagram = read_drawio(bytes);
  EXPECT_TRUE(diagram.has_value()) << (diagram ? "" : diagram.error().message);
  return diagram ? std::move(*diagram) : Diagram();
}

inline std::string read_error(std::string_view bytes) {
  auto diagram = read_drawio(bytes);
  EXPECT_FALSE(diagram.has_value());
  return diagram ? std::string() : diagram.error().message;
}

// The first difference between two diagrams, for failure messages ("" when equal).
namespace detail {

inline std::string describe_cell_difference(const Cell& a, const Cell& b) {
  std::string where = "cell \"" + a.id + "\": ";
  if (a.id != b.id) return where + "id differs (\"" + b.id + "\")";
  if (a.value != b.value) return where + "value differs";
  if (a.style != b.style) {
    return where + "style \"" + (a.style ? a.style->str() : "-") + "\" vs \"" +
           (b.style ? b.style->str() : "-") + "\"";
  }
  if (a.parent != b.parent || a.source != b.source || a.target != b.target) {
    return where + "parent/source/target differ";
  }
  if (a.vertex != b.vertex || a.edge != b.edge) return where + "vertex/edge flags differ";
  if (a.attributes != b.attributes) return where + "other attributes differ";
  if (a.order != b.order) return where + "attribute order differs";
  if (a.geometry != b.geometry) return where + "geometry differs";
  if (a.children != b.children) return where + "children differ";
  if (a.wrapper != b.wrapper) return where + "wrapper differs";
  return {};
}

inline std::string describe_page_difference(const Page& a, const Page& b) {
  if (a.diagram_attributes() != b.diagram_attributes()) return "diagram attributes differ";
  if (a.model_attributes() != b.model_attributes()) return "mxGraphModel attributes differ";
  if (a.has_model() != b.has_model()) return "has_model differs";
  if (a.diagram_extras() != b.diagram_extras() || a.model_extras() != b.model_extras() ||
      a.root_extras() != b.root_extras() || a.root_attributes() != b.root_attributes()) {
    return "extras differ";
  }
  if (a.cell_count() != b.cell_count()) {
    return "cell count " + std::to_string(a.cell_count()) + " vs " + std::to_string(b.cell_count());
  }
  auto left = a.cells().begin();
  for (auto right = b.cells().begin(); right != b.cells().end(); ++left, ++right) {
    if (std::string diff = detail::describe_cell_difference(*left, *right); !diff.empty())
      return diff;
  }
  return {};
}

}  // namespace detail

inline std::string first_difference(const Diagram& a, const Diagram& b) {
  if (a.file_attributes() != b.file_attributes()) return "mxfile attributes differ";
  if (a.file_extras() != b.file_extras()) return "mxfile extras differ";
  if (a.pages().size() != b.pages().size()) return "page count differs";
  for (std::size_t i = 0; i < a.pages().size(); ++i) {
    if (std::string diff = detail::describe_page_difference(a.pages()[i], b.pages()[i]);
        !diff.empty()) {
      return "page " + std::to_string(i + 1) + ": " + diff;
    }
  }
  return a == b ? std::string() : "operator== disagrees";
}

}  // namespace fcp::drawio::testing
