// The selector engine: how `@[not:]TYPE[:VALUE]` selectors choose a domain's entities, with the
// same rules in every domain and for verbs and queries alike (fcp-core.md §2):
//   - selectors of one type (or one family) are alternatives: they unite (@pitch:C4 @pitch:E4);
//   - different types intersect (@type:svc @group:Backend);
//   - @not:TYPE[:VALUE] subtracts;
//   - @all is every entity, @recent[:N] what the last N applied ops touched (from the event log),
//     @type:T the entity's type — built in, so every domain has them.
// A domain supplies only its typed predicates (a SelectorCatalog) and its entities for one call
// (a SelectorScope). `core::parse_selector` (parsed_op.hpp) is the one parser of the grammar.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/event_log.hpp"
#include "core/parsed_op.hpp"
#include "core/result.hpp"

namespace fcp::core {

class SelectorScope;

// Whether entity `index` of a scope is chosen by one selector.
using EntityTest = std::function<bool(std::size_t index)>;

enum class SelectorValue { none, optional, required };

// One typed selector a domain offers (@group:NAME, @pitch:P, @ui).
struct SelectorType {
  std::string name;  // lower case, as written after '@'
  SelectorValue value = SelectorValue::required;
  std::string value_hint;   // "NAME", for the card and errors
  std::string description;  // one line for the card
  // Selectors of one family are alternatives of each other, as repeated types are (midi's
  // `@cc:volume @bend` unite). Empty: the type is its own family; "type" joins @type:.
  std::string family;
  // The test for VALUE over `scope`, which is the scope class of the catalog's domain. A value
  // that names nothing (an unknown group, a malformed range) is an error that says what exists;
  // a valid value that happens to match nothing is not an error.
  std::function<Result<EntityTest>(const SelectorScope& scope, std::string_view value)> compile;
};

// A domain's selector vocabulary: one immutable instance per domain.
struct SelectorCatalog {
  std::string noun;          // what selectors choose, singular: "shape", "event", "object"
  std::string type_hint;     // the @type: value as the card shows it: "T", "KIND", "CLASS"
  std::string type_meaning;  // "node type (svc, db, …)"
  // Without a selector of the "type" family only entities of this type are chosen (midi:
  // "note", so `@track:Bass` means the notes of Bass). Empty: every entity.
  std::string default_type;
  std::vector<SelectorType> types;  // in card order
  // The domain's ops also take entities by name beside selectors (drawio `remove Auth @type:db`):
  // the named ones are added to what the selectors choose, and the card says so.
  bool names_add_to_selection = false;
};

// What selectors choose from during one call: a domain's entities as indices 0..size()-1 in the
// domain's own order (document order, time order, z-order). A domain builds one per call over
// the model it references, so it must not outlive that call. Thread: the session's.
class SelectorScope {
 public:
  virtual ~SelectorScope() = default;
  virtual const SelectorCatalog& catalog() const = 0;
  virtual std::size_t size() const = 0;
  // What @type: compares with, case-insensitively: node type, event kind, Max class.
  virtual std::string type_of(std::size_t index) const = 0;
  // The entity's key as the domain's events list it in Event::touched_entities() (@recent).
  virtual std::string key_of(std::size_t index) const = 0;
  // A short account of some entities for the nothing-matched answer, count and noun first:
  // "2 shapes: Auth(svc), Pay(svc)". Default: the count and how many there are of each type.
  virtual std::string describe(std::span<const std::size_t> members) const;
};

// The entities selectors chose.
struct Selection {
  std::vector<std::size_t> members;  // scope indices, ascending
  // When nothing matched: what was asked and what exists near it, e.g. "no shapes match
  // @type:queue @group:G — @group:G matches 2 shapes: Auth(svc), Users(db)".
  std::string nothing_matched;
  bool empty() const { return members.empty(); }
};

// Chooses entities of `scope` with `selectors`; no selectors choose every entity (of the
// catalog's default type). `written` is the op or query as the user wrote it: error hints are
// that text corrected. Errors: an unknown selector type (listing the domain's selectors), a
// missing or unexpected value, a bad @recent count, and the domain's own value errors. A valid
// choice that matches nothing is not an error: Selection::nothing_matched says what exists.
Result<Selection> select(std::span<const Selector> selectors, const SelectorScope& scope,
                         const EventLog& log, std::string_view written);

// The `? ` line a mutation answers when its selectors matched nothing (Selection's
// nothing_matched): the op changes nothing and the batch goes on.
std::string nothing_matched_warning(std::string_view nothing_matched, std::string_view verb);

// The reference card's selector section: the rules, the built-in and the domain's selectors.
std::string selector_card(const SelectorCatalog& catalog);

// Wraps a compile function written against the domain's own scope class `Scope` (the class
// whose catalog() lists this type) for SelectorType::compile.
template <class Scope>
std::function<Result<EntityTest>(const SelectorScope&, std::string_view)> scoped_compile(
    Result<EntityTest> (*compile)(const Scope& scope, std::string_view value)) {
  return [compile](const SelectorScope& scope, std::string_view value) {
    return compile(static_cast<const Scope&>(scope), value);
  };
}

}  // namespace fcp::core
