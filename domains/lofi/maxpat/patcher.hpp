// A lossless model of a Max patcher (.maxpat): boxes and patch lines over the JSON they came from.
//
// Plain values, no threads: a Patcher is owned and touched by whoever holds it. Everything the
// model does not interpret stays in the JSON objects, so open → save keeps every attribute,
// the key order and (for files Max wrote) the exact bytes.
#pragma once

#include <array>
#include <boost/json/object.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "domains/lofi/maxpat/json_io.hpp"
#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi::maxpat {

struct Box {
  boost::json::object json;  // the whole "box" object, every attribute kept (subpatchers too)

  std::string id() const;        // "obj-3"
  std::string maxclass() const;  // "newobj", "live.dial", "message", …
  std::string text() const;      // the "text" attribute (newobj, message, comment); "" if absent

  std::string class_name() const;  // maxclass, or for "newobj" the first atom of its text
  std::string args() const;        // for "newobj", the text after the class name; else ""
  int numinlets() const;           // the saved counts; -1 when absent
  int numoutlets() const;
  std::optional<std::array<double, 4>> patching_rect() const;
  const boost::json::object* subpatcher() const;  // the embedded "patcher" (p, bpatcher, gen~)

  friend bool operator==(const Box&, const Box&) = default;
};

struct Line {
  boost::json::object json;  // the whole "patchline" object ("source", "destination", "order", …)

  std::string source_id() const;
  int source_outlet() const;
  std::string destination_id() const;
  int destination_inlet() const;

  friend bool operator==(const Line&, const Line&) = default;
};

struct Patcher {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  boost::json::object json;  // the "patcher" object minus "boxes" and "lines"
  std::vector<Box> boxes;
  std::vector<Line> lines;

  JsonStyle style = JsonStyle::tabs;  // the layout write_maxpat uses (read keeps the file's own)
  // Where "boxes" and "lines" stood among the patcher's keys, so that a write keeps the order.
  // npos: after "assistshowspatchername" (where Max puts them), else at the end.
  std::size_t boxes_key_index = npos;
  std::size_t lines_key_index = npos;

  const Box* find_box(std::string_view id) const;
  Box* find_box(std::string_view id);
  std::string next_box_id() const;  // "obj-N", N one past the highest "obj-" number in use
  // The index in `json` before which a key lands right after "lines" in the written file (the
  // key index patcher_to_json then puts "lines" before). Pins boxes_key_index and
  // lines_key_index to where they are written now, so that inserting there moves neither.
  std::size_t after_lines_index();

  friend bool operator==(const Patcher&, const Patcher&) = default;
};

// Reads a .maxpat ({"patcher": {…}}). Subpatchers stay inside their box's JSON. Errors name the
// problem: invalid JSON (line and column), no "patcher" object, a box or line of the wrong shape.
core::Result<Patcher> read_maxpat(std::string_view bytes);

// The model of one "patcher" object, e.g. a subpatcher taken from Box::subpatcher().
core::Result<Patcher> patcher_from_json(boost::json::object patcher);

// The "patcher" object again, boxes and lines back in their places.
boost::json::object patcher_to_json(const Patcher& patcher);

// The file text, laid out like Max (see JsonStyle).
std::string write_maxpat(const Patcher& patcher);

// A new box like Max saves it, keys in Max's (alphabetical) order: id, maxclass ("newobj"
// with text "CLS ARGS" unless `cls` is a UI class of the object table), numinlets,
// numoutlets, outlettype (ports_for), parameter_enable (UI objects that have it),
// patching_rect [x, y, default width or the text's width, height], presentation +
// presentation_rect when given, text, varname (= id, for Live parameter objects so Live has a
// stable name). message, comment, live.comment and textedit take `args` as their text; "p" gets an
// empty embedded subpatcher.
Box make_box(std::string id, std::string_view cls, std::string_view args, double x, double y,
             std::optional<std::array<double, 4>> presentation_rect = std::nullopt);

// {"destination": [destination, inlet], "source": [source, outlet]}.
Line make_line(std::string source, int outlet, std::string destination, int inlet);

// An empty patcher with the attributes a new Max 8 patcher saves: fileversion 1, appversion
// 8.5.5, rect [100, 100, width, height], fonts, grid, toolbars, empty boxes/lines/dependencies.
Patcher make_patcher(double width, double height);

// The ports the box should have: from the object table and its arguments, or for a subpatcher
// (p, bpatcher, gen~) from the inlet/outlet objects inside. nullopt when neither can tell
// (an object the table lacks, a script or abstraction whose file decides). Outlet types of a
// subpatcher are "" (Max derives them from what feeds the outlets).
std::optional<Ports> expected_ports(const Box& box);

}  // namespace fcp::lofi::maxpat
