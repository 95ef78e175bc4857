#include "domains/lofi/device.hpp"

#include <algorithm>
#include <cmath>

namespace fcp::lofi {

std::string live_shortname(const std::string& parameter) {
  if (parameter.ends_with(']')) {
    const auto open = parameter.rfind('[');
    if (open != std::string::npos && open + 2 < parameter.size())
      return parameter.substr(open + 1, parameter.size() - open - 2);
  }
  return parameter;
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
  objects_[object.id] = std::move(object);
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

bool Device::has_wire(const Wire& wire) const {
  return std::find(wires_.begin(), wires_.end(), wire) != wires_.end();
}

void Device::add_wire(const Wire& wire) {
  if (!has_wire(wire)) wires_.push_back(wire);
}

void Device::erase_wire(const Wire& wire) {
  std::erase(wires_, wire);
}

std::vector<Wire> Device::wires_of(const std::string& id) const {
  std::vector<Wire> out;
  for (const auto& wire : wires_) {
    if (wire.source == id || wire.destination == id) out.push_back(wire);
  }
  return out;
}

}  // namespace fcp::lofi
