// One box of a Max file ⇄ one object of the device model, in Max's own fields (see
// device_io.cpp for where each part of the model lives in the file).
#pragma once

#include <array>
#include <boost/json/object.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "domains/lofi/device.hpp"
#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi {

// The string at `key`, "" when absent or not a string.
std::string string_of(const boost::json::object& object, std::string_view key);
// The [x, y, width, height] at `key` when it is four numbers.
std::optional<std::array<double, 4>> rect_of(const boost::json::object& object,
                                             std::string_view key);
// Writes `rect` at `key` unless the object already holds those numbers (so their spelling stays).
void update_rect(boost::json::object& object, std::string_view key,
                 const std::array<double, 4>& rect);

// True for the classes whose box text is their content, kept as the object's args: message,
// comment, live.comment, textedit.
bool text_is_content(std::string_view cls);
// What the model keeps as the args of a box: a newobj's text after its class, the text of a
// message, comment, live.comment or textedit, else "".
std::string content_of(const maxpat::Box& box);

// The box `object` was opened from, while it still is that box (same class and args): then
// the file's own numinlets, numoutlets, text and attributes describe it. Null for new objects
// and objects whose class or args changed since.
const maxpat::Box* kept_box(const Device& device, const MaxObject& object);

// What one box of a file says about its object. The object's id is left to the caller (it
// depends on the other boxes' varnames).
struct BoxMeaning {
  MaxObject object;       // class, args (without an injected script), place, attributes as text
  std::string script;     // the injected script's absolute path ("" = none)
  std::string parameter;  // the Live parameter it is (its parameter_longname; "" = none)
};
BoxMeaning meaning_of(const maxpat::Box& box);

// The box for `object` of `device`: `old` (its box in the source file) where the class and
// arguments still match, changed only where the model differs from what `old` says, so that
// the rest keeps its bytes; else a new box made like Max makes them (with `old`'s id, or
// `fresh_id()` when there is no old box).
maxpat::Box box_for(const Device& device, const MaxObject& object, const maxpat::Box* old,
                    const std::function<std::string()>& fresh_id);

// The box `object` of `device` is saved as (its box in the source file, changed where the
// model differs from it, or a new one).
maxpat::Box saved_box(const Device& device, const MaxObject& object);
// Every attribute of that box as text, the rectangles, presentation and parameter_enable
// included (not its varname, which is the object's id, nor a jsui's script file): what Max
// will read.
std::map<std::string, std::string> saved_attributes(const Device& device, const MaxObject& object);

}  // namespace fcp::lofi
