#include "domains/drawio/model/diagram.hpp"

#include <algorithm>

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
    std::string candidate = id_prefix_ + "-" + std::to_string(next_id_++);
    if (id_in_use(candidate)) continue;
    reserved_ids_.insert(candidate);
    return candidate;
  }
}

bool Diagram::id_in_use(std::string_view id) const {
  if (reserved_ids_.contains(id)) return true;
  return std::any_of(pages_.begin(), pages_.end(),
                     [&](const Page& page) { return page.id() == id || page.contains(id); });
}

void Diagram::reserve_id(std::string_view id) {
  if (!id.empty()) reserved_ids_.emplace(id);
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
