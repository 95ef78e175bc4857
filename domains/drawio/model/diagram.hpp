// A whole draw.io file: <mxfile> attributes, its pages, and collision-free id allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "domains/drawio/model/attributes.hpp"
#include "domains/drawio/model/page.hpp"
#include "domains/drawio/model/xml_node.hpp"

namespace fcp::drawio {

// What the file was read from. Writers always produce a standard <mxfile>; the format is kept
// so a caller can report it or choose to write a bare model (write_graph_model) back.
enum class SourceFormat : std::uint8_t {
  mxfile,       // <mxfile> with <diagram> pages (.drawio, .xml)
  graph_model,  // a bare <mxGraphModel> (.xml templates); read as one page
  svg,          // .drawio.svg / .dio.svg: the mxfile in the <svg content="…"> attribute
  png,          // .drawio.png / .dio.png: the mxfile in a PNG text chunk
};

// Transparent hashing so string_view lookups need no temporary string.
struct IdHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
};

// Thread: not thread-safe; owned by one session.
class Diagram {
 public:
  Attributes& file_attributes() { return file_attributes_; }
  const Attributes& file_attributes() const { return file_attributes_; }
  // Children of <mxfile> other than <diagram>, verbatim (written after the pages).
  std::vector<XmlNode>& file_extras() { return file_extras_; }
  const std::vector<XmlNode>& file_extras() const { return file_extras_; }

  std::vector<Page>& pages() { return pages_; }
  const std::vector<Page>& pages() const { return pages_; }
  // Appends a page and reserves its ids.
  Page& add_page(Page page);

  SourceFormat source_format() const { return source_format_; }
  void set_source_format(SourceFormat format) { source_format_ = format; }

  // A fresh id ("fcp-1", "fcp-2", … by default) that no cell or page of this diagram uses and
  // that was never handed out or reserved before, so even erased cells' ids are not reused.
  // O(1) expected per call (a set lookup plus one index lookup per page).
  std::string allocate_id();
  // Marks ids as taken: one id, or every cell and page id currently in the diagram (readers
  // call the latter after loading). Only an id the allocator could still hand out (the prefix,
  // '-' and a number not yet passed) is remembered: a file's own ids cost nothing.
  void reserve_id(std::string_view id);
  void reserve_ids_in_use();
  // The prefix of allocated ids; draw.io itself uses a random 20-character prefix per session.
  // Set it before ids are reserved: ids reserved under another prefix are not remembered.
  void set_id_prefix(std::string prefix) { id_prefix_ = std::move(prefix); }

  // Same content: file attributes, extras and pages (not the allocator state).
  bool operator==(const Diagram& other) const;

 private:
  bool id_in_use(std::string_view id) const;

  Attributes file_attributes_;
  std::vector<XmlNode> file_extras_;
  std::vector<Page> pages_;
  SourceFormat source_format_ = SourceFormat::mxfile;
  std::string id_prefix_ = "fcp";
  std::uint64_t next_id_ = 1;
  // Reserved ids `prefix-N` with N >= next_id_, by N (the only ones allocate_id could make).
  std::unordered_set<std::uint64_t> reserved_numbers_;
};

}  // namespace fcp::drawio
