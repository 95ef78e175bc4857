// Shared helpers for the drawio export tests: pages from XML, PNG headers, the corpus.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/model/diagram.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::drawio::render::testing {

using fcp::testing::source_dir;

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Diagram diagram_from(std::string_view xml) {
  auto diagram = read_drawio(xml);
  EXPECT_TRUE(diagram.has_value()) << (diagram ? "" : diagram.error().message);
  return diagram ? std::move(*diagram) : Diagram();
}

// An <mxfile> with one page whose root holds "0", layer "1" and `cells`.
inline std::string mxfile_with(std::string_view cells) {
  return "<mxfile><diagram id=\"p1\" name=\"Page-1\"><mxGraphModel><root>"
         "<mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>" +
         std::string(cells) + "</root></mxGraphModel></diagram></mxfile>";
}

inline bool is_png(std::string_view bytes) {
  return bytes.size() > 24 && bytes.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8) &&
         bytes.substr(12, 4) == "IHDR";
}

inline std::uint32_t big_endian(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value = (value << 8) | static_cast<std::uint8_t>(bytes[at + i]);
  return value;
}

// Width and height from the IHDR chunk.
inline std::pair<std::uint32_t, std::uint32_t> png_size(std::string_view png) {
  return {big_endian(png, 16), big_endian(png, 20)};
}

inline std::size_t count(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + 1))
    ++n;
  return n;
}

// Runs `xmllint --noout` (libxml2, an independent parser) on `xml`; nullopt when not installed.
inline std::optional<bool> xmllint_accepts(const std::string& xml) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) return std::nullopt;
  char path[] = "/tmp/fcp-export-test-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return std::nullopt;
  close(fd);
  std::ofstream(path, std::ios::binary) << xml;
  const int status = std::system(("xmllint --noout " + std::string(path) + " 2>/dev/null").c_str());
  std::remove(path);
  return status == 0;
}

inline std::vector<std::filesystem::path> corpus_files() {
  const auto dir = source_dir() / ".." / "shared" / "corpus" / "drawio";
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace fcp::drawio::render::testing
