// The device model: a Max for Live device as data — objects (class, args, position, attributes),
// UI layers, wires, injected scripts and parameter mappings — so it can be queried, saved,
// reopened and undone without Max running.
#pragma once

#include <array>
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fcp::lofi {

namespace maxpat {
struct Box;
struct Patcher;
struct AmxdFile;
}  // namespace maxpat

struct MaxObject {
  std::string id;       // the scripting name (varname) the tools use
  std::string cls;      // "cycle~", "live.dial", "panel"
  std::string args;     // "440"
  double x = 0, y = 0;  // patching position
  std::optional<std::array<double, 2>> size;
  std::map<std::string, std::string> attrs;  // Max attributes set with set/modify or ui
  bool ui = false;                           // created as a UI layer (presentation)
  std::string layer;                         // the UI layer name ("30_rate_dial"), z-order key
  // Z-order, back to front (the order of creation in Max, where each new box lands in front;
  // the file lists the boxes the other way round, front to back): creation order, except that a
  // UI layer goes behind the layers with a higher z prefix (layer_z) made before it.
  double order = 0;
  std::string box;  // the box id in the file it came from ("" = new)
  bool operator==(const MaxObject&) const = default;
};

struct Wire {
  std::string source;
  int outlet = 0;
  std::string destination;
  int inlet = 0;
  auto operator<=>(const Wire&) const = default;
};

struct Mapping {
  std::string parameter;  // the Live parameter name
  std::string object;
  std::string property;  // e.g. "value"
  bool operator==(const Mapping&) const = default;
};

// The wires of a device in the order they were made (and are written), indexed by their ends:
// adding, erasing, finding one and listing an object's wires cost O(1) (plus that object's
// wires), so removing every object is linear in the wires, not quadratic. An erased wire leaves
// an empty slot until they outnumber the wires. Iterates as Wires.
class WireList {
  using Slot = std::optional<Wire>;

 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Wire;
    using difference_type = std::ptrdiff_t;
    using reference = const Wire&;
    using pointer = const Wire*;
    Iterator() = default;
    Iterator(const Slot* at, const Slot* end) : at_(at), end_(end) { skip(); }
    const Wire& operator*() const { return **at_; }
    const Wire* operator->() const { return &**at_; }
    Iterator& operator++() {
      ++at_;
      skip();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    void skip() {
      while (at_ != end_ && !*at_)
        ++at_;
    }
    const Slot* at_ = nullptr;
    const Slot* end_ = nullptr;
  };

  Iterator begin() const { return {slots_.data(), slots_.data() + slots_.size()}; }
  Iterator end() const { return {slots_.data() + slots_.size(), slots_.data() + slots_.size()}; }
  std::size_t size() const { return index_.size(); }
  bool empty() const { return index_.empty(); }
  bool contains(const Wire& wire) const { return index_.contains(wire); }
  // Adds `wire` last; false when it is there already.
  bool add(const Wire& wire);
  // False when `wire` is not there.
  bool erase(const Wire& wire);
  // The wires from or to object `id`, in the order they were made.
  std::vector<Wire> of(const std::string& id) const;
  // The same wires in the same order.
  bool operator==(const WireList& other) const;

 private:
  struct WireHash {
    std::size_t operator()(const Wire& wire) const;
  };
  void compact();

  std::vector<Slot> slots_;                                         // by age; erased: empty
  boost::unordered_flat_map<Wire, std::uint32_t, WireHash> index_;  // wire → its slot
  // Object → the slots of the wires from or to it.
  boost::unordered_flat_map<std::string, boost::unordered_flat_set<std::uint32_t>> by_end_;
};

// A UI layer's z prefix: the number its name starts with ("01_bg2" → 1), 50 without one.
int layer_z(std::string_view layer);

// True when a UI layer's name makes it the device's background: a 0 z prefix ("00_bg",
// "0_panel") or the word bg or background in it ("01_bg2", "bg_main", "20_background"). A panel
// so named is saved with Max's "background": 1 (drawn behind every control in both views).
bool names_a_background(std::string_view layer);

// The short name Live shows for a parameter: "Filter[cut]" → "cut", else the name itself (as
// the Max daemon derives it when it maps a parameter).
std::string live_shortname(const std::string& parameter);

// The object mapped to a Live parameter in `mappings`, or null.
const Mapping* mapping_of(const std::map<std::string, Mapping>& mappings,
                          const std::string& object);

// The device's own settings, saved in its patcher as Max saves them.
struct DeviceInfo {
  std::string name = "Untitled";
  double width = 600, height = 400;  // the patcher window: the size in the patcher's "rect"
  std::string type = "aaaa";         // amxd device type: audio effect
  int openinpresentation = 0;        // "openinpresentation": 1 = opens (and shows in Live) in
                                     // presentation
  double devicewidth = 0;            // "devicewidth": the width Live gives the device; 0 = the
                                     // width of its presentation
  bool operator==(const DeviceInfo&) const = default;
};

// "Tape Wobble, window 480x322" (`window`: the size its saved "rect" holds), or with a
// devicewidth set "Tape Wobble, device width 250, window 260x169": the sizes the saved patcher
// holds, each under its own name.
std::string device_size_text(const DeviceInfo& info, const std::array<double, 2>& window);

// Thread: owned by one session.
class Device {
 public:
  DeviceInfo& info() { return info_; }
  const DeviceInfo& info() const { return info_; }

  const std::map<std::string, MaxObject>& objects() const { return objects_; }
  const MaxObject* object(const std::string& id) const;
  void put_object(MaxObject object);  // insert or replace; keeps `order` when replacing
  void erase_object(const std::string& id);
  // Objects in creation (z) order.
  std::vector<const MaxObject*> in_order() const;
  double next_order() const { return next_order_; }
  // The order for a new UI layer named `layer`: between the objects in front of which its z
  // prefix puts it; next_order() when no layer has a higher prefix.
  double layer_order(const std::string& layer) const;
  // The box id ("obj-N") for a new object: one past the highest N of the objects and of the
  // source file's boxes. A box keeps its id for its life (Max does; saves diff cleanly).
  std::string next_box_id() const { return "obj-" + std::to_string(next_box_); }

  const WireList& wires() const { return wires_; }
  bool has_wire(const Wire& wire) const;
  void add_wire(const Wire& wire);
  void erase_wire(const Wire& wire);
  std::vector<Wire> wires_of(const std::string& id) const;

  const std::map<std::string, Mapping>& mappings() const { return mappings_; }
  void put_mapping(const Mapping& mapping) { mappings_[mapping.parameter] = mapping; }
  void erase_mapping(const std::string& parameter) { mappings_.erase(parameter); }

  const std::map<std::string, std::string>& scripts() const { return scripts_; }  // object → path
  void put_script(const std::string& object, const std::string& path) { scripts_[object] = path; }
  void erase_script(const std::string& object) { scripts_.erase(object); }

  // The file the device was opened from, so a save keeps every box attribute, subpatcher and
  // line detail the model does not interpret. Null for new devices.
  std::shared_ptr<const maxpat::Patcher> source;
  std::shared_ptr<const maxpat::AmxdFile> source_amxd;
  // The box `id` of the source file (the first of that id), or null. O(1) once index_source()
  // ran after `source` was set (a scan per lookup made opening 20 000 boxes take 1.9 s).
  const maxpat::Box* source_box(const std::string& id) const;
  void index_source();
  // How many objects, wires, mappings and scripts the device had as read from `source`: one
  // with other counts no longer says what its file says (a save need not rebuild the device
  // from the file to tell).
  std::array<std::size_t, 4> sizes() const {
    return {objects_.size(), wires_.size(), mappings_.size(), scripts_.size()};
  }
  std::array<std::size_t, 4> source_sizes{};

  bool operator==(const Device&) const = default;

 private:
  DeviceInfo info_;
  std::map<std::string, MaxObject> objects_;
  WireList wires_;  // in the order they were made (and are written)
  // The boxes of *source by id; points into it, shared with copies of the device as it is.
  std::shared_ptr<const std::unordered_map<std::string, const maxpat::Box*>> source_boxes_;
  const maxpat::Patcher* indexed_source_ = nullptr;  // the source source_boxes_ was built from
  std::map<std::string, Mapping> mappings_;
  std::map<std::string, std::string> scripts_;
  double next_order_ = 1;
  long long next_box_ = 1;  // see next_box_id
  void note_box_id(const std::string& box);
};

}  // namespace fcp::lofi
