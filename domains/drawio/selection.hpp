// drawio's selectors for core's selector engine: the shapes of one page, typed by node type,
// with @orphan @group:NAME @connected:REF @layer:NAME, and @page:NAME for queries (it picks the
// page they read). Verbs and queries both choose through select_shapes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/selector.hpp"
#include "domains/drawio/document.hpp"

namespace fcp::drawio {

const core::SelectorCatalog& selector_catalog();

// The shapes selectors chose, in document order.
struct ShapeSelection {
  std::vector<std::string> ids;
  std::string nothing_matched;  // set when ids is empty: what was asked and what exists
};

// Chooses shapes of page `page` with core's engine. `written` is the op or query as written
// (for hints). A @page: selector is an error here: queries take it out first (page_selector).
core::Result<ShapeSelection> select_shapes(const DrawioDocument& doc, std::size_t page,
                                           std::span<const core::Selector> selectors,
                                           const core::EventLog& log, std::string_view written);

// The page a query's selectors read: the page @page:NAME names, which it takes out of
// `selectors`; the active page without one. `verb` starts the hints (`list @page:Main`).
core::Result<std::size_t> page_selector(const DrawioDocument& doc,
                                        std::vector<core::Selector>& selectors,
                                        std::string_view verb);

}  // namespace fcp::drawio
