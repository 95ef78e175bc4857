#include "domains/drawio/data/arrows.hpp"

#include <algorithm>
#include <array>

#include "domains/drawio/data/ascii.hpp"

namespace fcp::drawio::data {
namespace {

constexpr std::array<ArrowKind, 17> arrow_kind_table{{
    {"arrow", "classic", true},
    {"open-arrow", "open", false},
    {"diamond", "diamond", true},
    {"open-diamond", "diamond", false},
    {"circle", "oval", true},
    {"open-circle", "oval", false},
    {"crow-foot", "ERmany", false},
    {"one", "ERone", false},
    {"mandatory-one", "ERmandOne", false},
    {"zero-many", "ERzeroToMany", false},
    {"one-many", "ERoneToMany", false},
    {"zero-one", "ERzeroToOne", false},
    {"block", "block", true},
    {"open-block", "block", false},
    {"dash", "dash", false},
    {"cross", "cross", false},
    {"none", "none", false},
}};

// draw.io arrow values whose look does not depend on startFill/endFill.
constexpr std::array<std::string_view, 10> fill_ignored_arrows{
    "open",        "ERmany",      "ERone", "ERmandOne", "ERzeroToMany",
    "ERoneToMany", "ERzeroToOne", "dash",  "cross",     "none"};

}  // namespace

std::span<const ArrowKind> arrow_kinds() {
  return arrow_kind_table;
}

const ArrowKind* find_arrow_kind(std::string_view name) {
  const auto it = std::find_if(arrow_kind_table.begin(), arrow_kind_table.end(),
                               [&](const ArrowKind& k) { return detail::iequals(k.name, name); });
  return it == arrow_kind_table.end() ? nullptr : &*it;
}

const ArrowKind* arrow_kind_for(std::string_view drawio_arrow, bool filled) {
  const bool ignore_fill = std::find(fill_ignored_arrows.begin(), fill_ignored_arrows.end(),
                                     drawio_arrow) != fill_ignored_arrows.end();
  const auto it =
      std::find_if(arrow_kind_table.begin(), arrow_kind_table.end(), [&](const ArrowKind& k) {
        return k.drawio_arrow == drawio_arrow && (ignore_fill || k.filled == filled);
      });
  return it == arrow_kind_table.end() ? nullptr : &*it;
}

}  // namespace fcp::drawio::data
