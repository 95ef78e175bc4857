// The device's own settings: `modify device …` (openinpresentation, devicewidth) and resize.
// Saved in the patcher where Max keeps them; sent to Max as /lofi/device.
#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/attributes.hpp"
#include "domains/lofi/verb_support.hpp"

namespace fcp::lofi {

using maxpat::AttributeOwners;
using maxpat::AttributeSpec;

// `modify device openinpresentation:1 devicewidth:600`.
core::Result<void> modify_device(LofiOp& ctx) {
  if (ctx.op.params.empty())
    return core::make_error("modify device requires settings",
                            {"modify device openinpresentation:1 devicewidth:600"});
  DeviceInfo next = ctx.edit.device().info();
  for (const auto& param : ctx.op.params) {
    const AttributeSpec* spec = maxpat::find_attribute(param.key);
    if (spec == nullptr || spec->owners != AttributeOwners::device) {
      std::vector<std::string> hints;
      for (const auto& close :
           core::closest_matches(param.key, {"openinpresentation", "devicewidth"}, 1))
        hints.push_back(core::replace_param_token(
            ctx.op.raw, param.key, close + ":" + core::param_token_value(ctx.op.raw, param.key)));
      return core::make_error("the device has no setting \"" + param.key +
                                  "\"; its settings: openinpresentation: devicewidth: (its "
                                  "window size: resize to:WxH; an object's attributes: modify ID "
                                  "KEY:VALUE)",
                              std::move(hints));
    }
    if (auto problem = maxpat::attribute_value_problem(param.key, param.value); !problem.empty()) {
      const std::string fix = maxpat::attribute_value_fix(param.key, param.value);
      std::vector<std::string> hints;
      if (!fix.empty())
        hints.push_back(core::replace_param_token(ctx.op.raw, param.key, param.key + ":" + fix));
      return core::make_error(problem, std::move(hints));
    }
    const std::string text = maxpat::canonical_attribute_text(param.key, param.value);
    if (param.key == "openinpresentation") {
      next.openinpresentation = std::stoi(text);
    } else {
      next.devicewidth = std::stod(text);
    }
  }
  const auto before = saved_device_fields(ctx.edit.device());
  ctx.edit.update_info([&](DeviceInfo& info) { info = next; });
  const auto after = saved_device_fields(ctx.edit.device());
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& param : ctx.op.params)
    given.emplace_back(param.key, param.value);
  const std::string already = already_given(before, after, given);
  const std::string changes = attribute_changes(before, after);
  ctx.lines.push_back(
      changes.empty()
          ? core::warning_line("modify device: nothing changed, it already has " + already)
          : core::property_changed("modify device: " + changes +
                                   (already.empty() ? "" : " (already: " + already + ")")));
  return {};
}

core::Result<void> verb_resize(LofiOp& ctx) {
  auto size = pair_param(ctx, "to", 'x');
  if (!size) return size.error();
  if (size->first < 10 || size->first > 4000 || size->second < 10 || size->second > 4000)
    return core::make_error("resize to:" + xy(size->first, size->second) +
                            ": a device is 10 to 4000 wide and high");
  const auto before = saved_device_fields(ctx.edit.device());
  ctx.edit.update_info([&](DeviceInfo& info) {
    info.width = size->first;
    info.height = size->second;
    info.devicewidth = size->first;
  });
  const std::string shown = wxh(size->first, size->second);
  const std::string changes = attribute_changes(before, saved_device_fields(ctx.edit.device()));
  // A new device's window holds its objects: a smaller size leaves it larger, as the reply says.
  const auto window = saved_window(ctx.edit.device());
  const std::string grown =
      window[0] != size->first || window[1] != size->second
          ? "; the window stays " + wxh(window[0], window[1]) + " to hold the objects"
          : "";
  ctx.lines.push_back(
      changes.empty()
          ? core::warning_line("device size " + shown + ": nothing changed" + grown)
          : core::property_changed("device size " + shown + ": " + changes +
                                   " (devicewidth: the width Live gives the device; rect: the "
                                   "patcher window)" +
                                   grown));
  return {};
}

}  // namespace fcp::lofi
