// The table of common Max, MSP and Max for Live objects: inlets, outlets, outlet types, sizes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::lofi::maxpat {

// Where an object's inlet and outlet counts come from.
enum class PortRule {
  fixed,     // always the counts in the table
  args,      // computed from the box's arguments by ports_for (the table has the no-argument case)
  contents,  // decided by what the object holds (subpatcher, script, abstraction, gen code);
             // the table has what a new, empty one gets
};

struct ObjectInfo {
  std::string_view maxclass;  // a UI class ("live.dial", "toggle") or a "newobj" text's first word
  int inlets;
  int outlets;
  std::string_view outlettype;  // one entry per outlet, comma-separated: "signal,bang", "," = 2×""
  bool ui;                      // a box with its own maxclass (not "newobj")
  double width, height;         // default patching size; 0 width: from the text (newobj)
  std::string_view description;
  PortRule rule = PortRule::fixed;
  int parameter_enable = -1;  // the "parameter_enable" a new box gets; -1: the key is absent
  // Which inlets take a signal, one character per inlet: 's' yes, 'm' messages only, '?' the
  // table cannot tell; a final '*' repeats the character before it for the remaining inlets.
  // "": the default — every inlet of a class without '~' takes messages only ('m'), except
  // for classes whose contents decide; a '~' class's inlets are '?'.
  std::string_view signal_inlets = {};
};

// Every entry of the table, in the table's order (grouped MSP, Max, UI, Max for Live).
std::span<const ObjectInfo> objects();

// The entry for a class name ("cycle~", "t", "live.dial"); nullptr when the table lacks it.
const ObjectInfo* find_object(std::string_view name);

struct Ports {
  int inlets = 1;
  int outlets = 1;
  std::vector<std::string> outlettype;  // one per outlet

  friend bool operator==(const Ports&, const Ports&) = default;
};

// The ports of object `name` created with argument text `args` (attributes such as
// "@embed 1" are not arguments). Objects the table lacks get 1 inlet and 1 outlet of type "".
Ports ports_for(std::string_view name, std::string_view args);

// Whether an inlet takes a signal (MSP audio) or only messages.
enum class SignalInlet { takes_signal, messages_only, unknown };

// Whether inlet `inlet` of class `name` takes a signal: from the table's signal_inlets; unknown
// for classes the table lacks.
SignalInlet signal_inlet(std::string_view name, int inlet);

// True for the outlet types that carry audio: "signal", "multichannelsignal".
bool is_signal_type(std::string_view outlettype);

// The MSP class that does on signals what control class `name` does on numbers ("/" → "/~",
// "scale" → "scale~"); "" when there is none in the table.
std::string_view signal_version(std::string_view name);

// Classes of the table that `name` (not one of them) was probably meant to be, best first: the
// same name in another case, with or without '~' or the "live." prefix, then names within a
// small edit distance. Empty when none is close.
std::vector<std::string> close_classes(std::string_view name, std::size_t limit = 3);

// The atoms of a Max argument text: split at spaces, "double quoted" atoms kept whole (without
// the quotes). Stops at the first attribute ("@name") when `positional_only`.
std::vector<std::string> split_atoms(std::string_view text, bool positional_only = false);

}  // namespace fcp::lofi::maxpat
