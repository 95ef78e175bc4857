#include "domains/lofi/device.hpp"

#include <algorithm>
#include <array>
#include <boost/container_hash/hash.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <string>

#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi {

std::string live_shortname(const std::string& parameter) {
  if (parameter.ends_with(']')) {
    const auto open = parameter.rfind('[');
    if (open != std::string::npos && open + 2 < parameter.size())
      return parameter.substr(open + 1, parameter.size() - open - 2);
  }
  return parameter;
}

namespace {
std::string number_text(double value) {
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
  return {text.data(), end};
}
}  // namespace

std::string device_size_text(const DeviceInfo& info, const std::array<double, 2>& size) {
  const std::string window = number_text(size[0]) + "x" + number_text(size[1]);
  if (info.devicewidth <= 0) return info.name + ", window " + window;
  return info.name + ", device width " + number_text(info.devicewidth) + ", window " + window;
}

const Mapping* mapping_of(const std::map<std::string, Mapping>& mappings,
                          const std::string& object) {
  for (const auto& [parameter, mapping] : mappings) {
    if (mapping.object == object) return &mapping;
  }
  return nullptr;
}

const MaxObject* Device::object(const std::string& id) const {
  auto it = objects_.find(id);
  return it == objects_.end() ? nullptr : &it->second;
}

void Device::put_object(MaxObject object) {
  if (object.order == 0) object.order = next_order_++;
  next_order_ = std::max(next_order_, std::floor(object.order) + 1);
  note_box_id(object.box);
  objects_[object.id] = std::move(object);
}

void Device::note_box_id(const std::string& box) {
  if (!box.starts_with("obj-") || box.size() > 20) return;
  long long number = 0;
  for (std::size_t i = 4; i < box.size(); ++i) {
    if (box[i] < '0' || box[i] > '9') return;
    number = number * 10 + (box[i] - '0');
  }
  next_box_ = std::max(next_box_, number + 1);
}

void Device::erase_object(const std::string& id) {
  objects_.erase(id);
}

int layer_z(std::string_view layer) {
  int value = 0;
  std::size_t digits = 0;
  while (digits < layer.size() && digits < 6 && layer[digits] >= '0' && layer[digits] <= '9') {
    value = value * 10 + (layer[digits] - '0');
    ++digits;
  }
  return digits == 0 ? 50 : value;
}

bool names_a_background(std::string_view layer) {
  if (!layer.empty() && layer.front() >= '0' && layer.front() <= '9' && layer_z(layer) == 0)
    return true;
  // The words of the name: runs of letters ("01_bg2" → "bg").
  std::size_t at = 0;
  while (at < layer.size()) {
    while (at < layer.size() && std::isalpha(static_cast<unsigned char>(layer[at])) == 0)
      ++at;
    std::size_t end = at;
    while (end < layer.size() && std::isalpha(static_cast<unsigned char>(layer[end])) != 0)
      ++end;
    std::string word(layer.substr(at, end - at));
    for (char& c : word)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (word == "bg" || word == "background") return true;
    at = end;
  }
  return false;
}

double Device::layer_order(const std::string& layer) const {
  const int z = layer_z(layer);
  double previous = 0;
  for (const MaxObject* object : in_order()) {
    if (object->ui && layer_z(object->layer.empty() ? object->id : object->layer) > z)
      return (previous + object->order) / 2;
    previous = object->order;
  }
  return next_order_;
}

std::vector<const MaxObject*> Device::in_order() const {
  std::vector<const MaxObject*> out;
  out.reserve(objects_.size());
  for (const auto& [id, object] : objects_)
    out.push_back(&object);
  std::sort(out.begin(), out.end(),
            [](const MaxObject* a, const MaxObject* b) { return a->order < b->order; });
  return out;
}

const maxpat::Box* Device::source_box(const std::string& id) const {
  if (source == nullptr) return nullptr;
  if (source_boxes_ == nullptr || indexed_source_ != source.get()) return source->find_box(id);
  auto it = source_boxes_->find(id);
  return it == source_boxes_->end() ? nullptr : it->second;
}

void Device::index_source() {
  indexed_source_ = source.get();
  if (source == nullptr) {
    source_boxes_.reset();
    return;
  }
  auto boxes = std::make_shared<std::unordered_map<std::string, const maxpat::Box*>>();
  boxes->reserve(source->boxes.size());
  for (const maxpat::Box& box : source->boxes) {
    // find_box's rule: a box whose "id" is a string, the first of each id.
    const auto* value = box.json.if_contains("id");
    if (value != nullptr && value->is_string()) {
      boxes->try_emplace(std::string(value->get_string()), &box);
      note_box_id(std::string(value->get_string()));
    }
  }
  source_boxes_ = std::move(boxes);
}

bool Device::has_wire(const Wire& wire) const {
  return wires_.contains(wire);
}

void Device::add_wire(const Wire& wire) {
  wires_.add(wire);
}

void Device::erase_wire(const Wire& wire) {
  wires_.erase(wire);
}

std::vector<Wire> Device::wires_of(const std::string& id) const {
  return wires_.of(id);
}

std::size_t WireList::WireHash::operator()(const Wire& wire) const {
  std::size_t seed = std::hash<std::string>()(wire.source);
  boost::hash_combine(seed, wire.outlet);
  boost::hash_combine(seed, std::hash<std::string>()(wire.destination));
  boost::hash_combine(seed, wire.inlet);
  return seed;
}

bool WireList::add(const Wire& wire) {
  const auto slot = static_cast<std::uint32_t>(slots_.size());
  if (!index_.try_emplace(wire, slot).second) return false;
  slots_.emplace_back(wire);
  by_end_[wire.source].insert(slot);
  by_end_[wire.destination].insert(slot);
  return true;
}

bool WireList::erase(const Wire& wire) {
  const auto found = index_.find(wire);
  if (found == index_.end()) return false;
  const std::uint32_t slot = found->second;
  index_.erase(found);
  for (const std::string* end : {&slots_[slot]->source, &slots_[slot]->destination}) {
    const auto slots = by_end_.find(*end);
    if (slots == by_end_.end()) continue;  // the source, when it is the destination too
    slots->second.erase(slot);
    if (slots->second.empty()) by_end_.erase(slots);
  }
  slots_[slot].reset();
  if (slots_.size() > 64 && slots_.size() > 2 * index_.size()) compact();
  return true;
}

// Drops the empty slots: every wire gets its place in the order again.
void WireList::compact() {
  std::vector<Slot> kept;
  kept.reserve(index_.size());
  for (Slot& slot : slots_) {
    if (slot) kept.push_back(std::move(slot));
  }
  slots_ = std::move(kept);
  by_end_.clear();
  for (std::uint32_t slot = 0; slot < slots_.size(); ++slot) {
    index_[*slots_[slot]] = slot;
    by_end_[slots_[slot]->source].insert(slot);
    by_end_[slots_[slot]->destination].insert(slot);
  }
}

std::vector<Wire> WireList::of(const std::string& id) const {
  std::vector<Wire> out;
  const auto found = by_end_.find(id);
  if (found == by_end_.end()) return out;
  std::vector<std::uint32_t> slots(found->second.begin(), found->second.end());
  std::sort(slots.begin(), slots.end());
  out.reserve(slots.size());
  for (const std::uint32_t slot : slots)
    out.push_back(*slots_[slot]);
  return out;
}

bool WireList::operator==(const WireList& other) const {
  return std::equal(begin(), end(), other.begin(), other.end());
}

}  // namespace fcp::lofi
