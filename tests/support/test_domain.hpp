// A small domain that exists only for tests ("deck": named cards with a colour and links).
// It exercises every engine path end to end — verbs, selectors, events, undo, warnings, files,
// queries, external effects — without depending on any real domain.
#pragma once

#include <memory>

#include "core/domain.hpp"

namespace fcp::testing {

// Verbs: add NAME [color:C] [count:N] · remove REF|@sel · set REF|@sel color:C · rename REF NEW ·
// link A -> B [-> C] · fail [MESSAGE] (always fails) · sleep MS (blocks, for concurrency tests) ·
// emit TEXT (an external effect: "fail" is refused by the fake executor, "slow" takes 300 ms) ·
// deal NAME [at:SLOT] [top:true] (add; at: places the card, and does not go with top:).
// Files: ".deck" text, one card per line: NAME<TAB>COLOR<TAB>LINK,LINK.
std::unique_ptr<core::Domain> make_deck_domain();

}  // namespace fcp::testing
