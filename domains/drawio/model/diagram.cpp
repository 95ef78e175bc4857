#include "domains/drawio/model/diagram.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace fcp::drawio {

Page& Diagram::add_page(Page page) {
  pages_.push_back(std::move(page));
  Page& added = pages_.back();
  reserve_id(added.id());
  for (const Cell& cell : added.cells())
    reserve_id(cell.id);
  return added;
}

std::string Diagram::allocate_id() {
  while (true) {
    const std::uint64_t number = next_id_++;
    // Numbers below next_id_ are never made again: a reservation is done with once passed.
    if (reserved_numbers_.erase(number) > 0) continue;
    std::string candidate = id_prefix_ + "-" + std::to_string(number);
    if (id_in_use(candidate)) continue;
    return candidate;
  }
}

bool Diagram::id_in_use(std::string_view id) const {
  return std::any_of(pages_.begin(), pages_.end(),
                     [&](const Page& page) { return page.id() == id || page.contains(id); });
}

void Diagram::reserve_id(std::string_view id) {
  // Only `prefix-N`, N written as std::to_string writes it, can be allocated.
  if (id.size() <= id_prefix_.size() + 1 || !id.starts_with(id_prefix_) ||
      id[id_prefix_.size()] != '-')
    return;
  const std::string_view digits = id.substr(id_prefix_.size() + 1);
  if (digits.front() == '0') return;
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (error != std::errc() || end != digits.data() + digits.size() || number < next_id_) return;
  reserved_numbers_.insert(number);
}

void Diagram::reserve_ids_in_use() {
  for (const Page& page : pages_) {
    reserve_id(page.id());
    for (const Cell& cell : page.cells())
      reserve_id(cell.id);
  }
}

bool Diagram::operator==(const Diagram& other) const {
  return file_attributes_ == other.file_attributes_ && file_extras_ == other.file_extras_ &&
         pages_ == other.pages_;
}

}  // namespace fcp::drawio
