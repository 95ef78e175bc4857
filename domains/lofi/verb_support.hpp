// What the lofi verb handlers share: reading positions and sizes, resolving the objects an op
// names, and the words of their replies.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "domains/lofi/lofi_verbs.hpp"

namespace fcp::lofi {

// A finite number of at most 1e6 ("+4" and "4." included), or nullopt.
std::optional<double> plain_number(std::string_view text);

// A bool key (`external:true`): true for true, yes, on, 1 (the engine has checked the value).
bool flag(const LofiOp& ctx, std::string_view key);

// `key:A,B` (separator ',') or `key:AxB` (separator 'x') as two numbers.
core::Result<std::pair<double, double>> pair_param(const LofiOp& ctx, std::string_view key,
                                                   char separator);

// The object `id` names (exact, else core's resolution cascade with its errors).
core::Result<const MaxObject*> resolve(const LofiOp& ctx, std::string_view id);

// The objects an op names: its ids, united with what its selectors choose together (core's
// engine, see selection.hpp). Deduplicated: named ones first, then the selection in z-order.
struct Targets {
  std::vector<std::string> ids;
  std::string nothing_matched;  // the selectors matched nothing (named ids still count)
};
core::Result<Targets> targets(const LofiOp& ctx);

// Adds the `?` line when the selectors matched nothing; true when nothing is left to change.
bool nothing_to_change(LofiOp& ctx, const Targets& chosen);

// "20,40": a coordinate pair as written in ops.
std::string xy(double x, double y);
// "44x48": a size as written in ops.
std::string wxh(double width, double height);

// A comment or live.comment whose text is wider than its box at its font size (Max wraps it and
// shows the first line): the warning line naming the width it needs and the op that gives it
// (`fix`, given that width); nullopt when the text fits or `object` is no comment. The width is
// maxpat::comment_width's estimate.
std::optional<std::string> narrow_comment(const Device& device, const MaxObject& object,
                                          const std::function<std::string(int)>& fix);

// Letters, digits, _ - . (an object id becomes its scripting name); "device" names the device.
bool valid_id(std::string_view id);

// The word that names the device itself in `modify device …` and `describe device`.
inline constexpr std::string_view kDeviceWord = "device";

// `modify device openinpresentation:1 devicewidth:600` (device_verbs.cpp; verb_modify hands an
// op naming `device` to it).
core::Result<void> modify_device(LofiOp& ctx);

// What changed between two sets of saved attributes, as key:value tokens an op would take
// ("parameter_mmax:4 parameter_unitstyle:3 (hertz) bgcolor:\"1 0 0 1\""), then the keys that
// went ("; removed parameter_longname, parameter_shortname"). "" when nothing changed.
std::string attribute_changes(const std::map<std::string, std::string>& before,
                              const std::map<std::string, std::string>& after);

// The values an op gave that were so already, as key:value tokens ("bgcolor:\"0.2 0.2 0.2 1\"
// fontsize:12"), so that a reply names everything the op said: each of `given` (a saved name and
// the value as written) whose saved value is the same in `before` and `after`, or absent from
// both. "" when none.
std::string already_given(const std::map<std::string, std::string>& before,
                          const std::map<std::string, std::string>& after,
                          const std::vector<std::pair<std::string, std::string>>& given);

}  // namespace fcp::lofi
