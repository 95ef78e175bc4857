#include "domains/lofi/selection.hpp"

#include <unordered_set>

#include "core/response.hpp"

namespace fcp::lofi {
namespace {

constexpr std::size_t kMaxDescribed = 6;  // objects named in a nothing-matched answer

// The device's objects in z-order.
class ObjectScope final : public core::SelectorScope {
 public:
  explicit ObjectScope(const Device& device) : device_(device), objects_(device.in_order()) {}

  const core::SelectorCatalog& catalog() const override { return selector_catalog(); }
  std::size_t size() const override { return objects_.size(); }
  std::string type_of(std::size_t i) const override { return objects_[i]->cls; }
  std::string key_of(std::size_t i) const override { return objects_[i]->id; }
  std::string describe(std::span<const std::size_t> members) const override {
    std::string out = core::plural(members.size(), "object") + ":";
    for (std::size_t n = 0; n < members.size() && n < kMaxDescribed; ++n) {
      const MaxObject& object = *objects_[members[n]];
      out += (n ? ", " : " ") + object.id + "(" + object.cls + ")";
    }
    if (members.size() > kMaxDescribed) out += ", …";
    return out;
  }

  const Device& device() const { return device_; }
  const MaxObject& object(std::size_t i) const { return *objects_[i]; }

 private:
  const Device& device_;
  std::vector<const MaxObject*> objects_;
};

core::Result<core::EntityTest> ui_test(const ObjectScope& scope, std::string_view) {
  return core::EntityTest([&scope](std::size_t i) { return scope.object(i).ui; });
}

core::Result<core::EntityTest> unwired_test(const ObjectScope& scope, std::string_view) {
  std::unordered_set<std::string> wired;
  for (const auto& wire : scope.device().wires()) {
    wired.insert(wire.source);
    wired.insert(wire.destination);
  }
  return core::EntityTest([&scope, wired = std::move(wired)](std::size_t i) {
    return !wired.contains(scope.object(i).id);
  });
}

core::Result<core::EntityTest> class_test(const ObjectScope& scope, std::string_view value) {
  return core::EntityTest(
      [&scope, cls = std::string(value)](std::size_t i) { return scope.object(i).cls == cls; });
}

}  // namespace

const core::SelectorCatalog& selector_catalog() {
  using core::SelectorValue;
  static const core::SelectorCatalog catalog{
      "object",
      "CLS",
      "the Max class: cycle~, live.dial, panel …",
      "",
      {{"class", SelectorValue::required, "CLS", "the Max class, as @type:CLS", "type",
        core::scoped_compile(&class_test)},
       {"ui", SelectorValue::none, "", "UI layers (made with ui)", "",
        core::scoped_compile(&ui_test)},
       {"unwired", SelectorValue::none, "", "objects without wires", "",
        core::scoped_compile(&unwired_test)}},
      true};
  return catalog;
}

core::Result<ObjectSelection> select_objects(const Device& device,
                                             std::span<const core::Selector> selectors,
                                             const core::EventLog& log, std::string_view written) {
  const ObjectScope scope(device);
  auto selection = core::select(selectors, scope, log, written);
  if (!selection) return selection.error();
  ObjectSelection out;
  out.ids.reserve(selection->members.size());
  for (std::size_t i : selection->members)
    out.ids.push_back(scope.object(i).id);
  out.nothing_matched = std::move(selection->nothing_matched);
  return out;
}

}  // namespace fcp::lofi
