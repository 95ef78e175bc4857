#include "domains/midi/theory/velocity.hpp"

#include <array>
#include <string>
#include <vector>

#include "core/resolve.hpp"
#include "domains/midi/theory/text.hpp"

namespace fcp::midi::theory {
namespace {

constexpr std::array<std::pair<std::string_view, int>, 8> dynamics{{
    {"ppp", 16},
    {"pp", 33},
    {"p", 49},
    {"mp", 64},
    {"mf", 80},
    {"f", 96},
    {"ff", 112},
    {"fff", 127},
}};

}  // namespace

std::optional<int> velocity_by_name(std::string_view name) {
  for (const auto& [dynamic, value] : dynamics) {
    if (detail::iequals(dynamic, name)) return value;
  }
  return std::nullopt;
}

core::Result<int> parse_velocity(std::string_view text) {
  if (const auto named = velocity_by_name(text)) return *named;
  // Signs other than '-' are refused: "+10" is a velocity change, which the verbs read themselves.
  const bool negative = text.size() > 1 && text.front() == '-';
  if (const auto number = detail::parse_digits(negative ? text.substr(1) : text)) {
    if (*number == 0) {
      return core::make_error("velocity 0 would make a silent note: use 1..127 or ppp..fff",
                              {"1", "ppp"});
    }
    if (negative || *number > 127) {
      return core::make_error("velocity " + std::string(text) + " is out of range (1..127)",
                              {negative ? "1" : "127", negative ? "ppp" : "fff"});
    }
    return static_cast<int>(*number);
  }
  std::vector<std::string> names;
  for (const auto& dynamic : dynamics)
    names.emplace_back(dynamic.first);
  std::vector<std::string> hints = core::closest_matches(text, names);
  if (hints.empty()) hints = {"mf", "80"};
  return core::make_error(
      "unknown velocity " + detail::quoted(text) + ": use 1..127 or ppp pp p mp mf f ff fff",
      std::move(hints));
}

std::span<const std::pair<std::string_view, int>> velocity_names() {
  return dynamics;
}

}  // namespace fcp::midi::theory
