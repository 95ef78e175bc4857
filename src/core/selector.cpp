#include "core/selector.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_set>

#include "core/resolve.hpp"
#include "core/response.hpp"

namespace fcp::core {
namespace {

constexpr std::size_t kMaxRecentOps = 1'000'000;
constexpr std::size_t kMaxNearby = 2;  // relaxed selections shown when nothing matched

// The built-in selectors, as the card and the unknown-type error list them.
const std::vector<SelectorType>& builtin_types() {
  static const std::vector<SelectorType> types{
      {"all", SelectorValue::none, "", "", "", {}},
      {"recent", SelectorValue::optional, "N", "", "", {}},
      {"type", SelectorValue::required, "T", "", "type", {}},
  };
  return types;
}

// One selector ready to evaluate.
struct Compiled {
  std::string family;
  std::string raw;  // as written; empty for the catalog's implicit default type
  bool negated = false;
  EntityTest test;
};

// Compiled selectors of one family: an entity is in the family's set when any test holds.
struct Family {
  std::string name;
  std::vector<const Compiled*> members;
  bool is_implicit() const { return members.size() == 1 && members.front()->raw.empty(); }
};

std::string plural_noun(std::string_view noun) {
  return std::string(noun) + "s";
}

std::string usage(const SelectorType& type, std::string_view hint) {
  std::string out = "@" + type.name;
  if (type.value == SelectorValue::required) out += ":" + std::string(hint);
  if (type.value == SelectorValue::optional) out += "[:" + std::string(hint) + "]";
  return out;
}

std::string usage(const SelectorType& type) {
  return usage(type, type.value_hint);
}

const SelectorType* find_type(const SelectorCatalog& catalog, std::string_view name) {
  for (const auto& type : catalog.types) {
    if (type.name == name) return &type;
  }
  for (const auto& type : builtin_types()) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

// `written` with the selector `raw` replaced, for a pasteable hint.
std::string replaced(std::string_view written, std::string_view raw, std::string_view with) {
  std::string out(written);
  if (const auto at = out.find(raw); at != std::string::npos) out.replace(at, raw.size(), with);
  return out;
}

Error unknown_type(const Selector& selector, const SelectorCatalog& catalog,
                   std::string_view written) {
  std::vector<std::string> names;
  std::string listed;
  for (const auto& type : builtin_types()) {
    names.push_back(type.name);
    listed += " " + usage(type, type.name == "type" ? catalog.type_hint : type.value_hint);
  }
  for (const auto& type : catalog.types) {
    names.push_back(type.name);
    listed += " " + usage(type);
  }
  listed += " @not:TYPE[:VALUE]";
  std::vector<std::string> hints;
  for (const auto& name : closest_matches(selector.type, names, 2)) {
    const std::string fixed = "@" + std::string(selector.negated ? "not:" : "") + name +
                              (selector.value.empty() ? "" : ":" + selector.value);
    hints.push_back(replaced(written, selector.raw, fixed));
  }
  return make_error(
      "unknown selector @" + selector.type + "; " + catalog.noun + " selectors:" + listed,
      std::move(hints));
}

Result<std::size_t> recent_count(const Selector& selector, std::string_view written) {
  if (selector.value.empty()) return std::size_t{1};
  std::size_t count = 0;
  const char* end = selector.value.data() + selector.value.size();
  auto [ptr, ec] = std::from_chars(selector.value.data(), end, count);
  if (ec != std::errc() || ptr != end || count == 0 || count > kMaxRecentOps) {
    return make_error("@recent:N needs a count of ops from 1, got \"" + selector.value + "\"",
                      {replaced(written, selector.raw,
                                std::string(selector.negated ? "@not:" : "@") + "recent:3")});
  }
  return count;
}

// Keys of the entities the last `count` applied ops touched.
std::unordered_set<std::string> recently_touched(const EventLog& log, std::size_t count) {
  std::unordered_set<std::string> keys;
  for (const auto& event : log.recent(count)) {
    for (auto& key : event->touched_entities())
      keys.insert(std::move(key));
  }
  return keys;
}

EntityTest type_test(const SelectorScope& scope, std::string_view type) {
  return [&scope, wanted = to_lower(type)](std::size_t index) {
    return to_lower(scope.type_of(index)) == wanted;
  };
}

Result<EntityTest> builtin_test(const Selector& selector, const SelectorScope& scope,
                                const EventLog& log, std::string_view written) {
  if (selector.type == "all") return EntityTest([](std::size_t) { return true; });
  if (selector.type == "type") return type_test(scope, selector.value);
  auto count = recent_count(selector, written);
  if (!count) return count.error();
  return EntityTest([&scope, keys = recently_touched(log, *count)](std::size_t index) {
    return keys.contains(scope.key_of(index));
  });
}

Result<Compiled> compile(const Selector& selector, const SelectorScope& scope, const EventLog& log,
                         std::string_view written) {
  const SelectorCatalog& catalog = scope.catalog();
  const SelectorType* type = find_type(catalog, selector.type);
  if (type == nullptr) return unknown_type(selector, catalog, written);
  const std::string shown =
      usage(*type, type->name == "type" ? catalog.type_hint : type->value_hint);
  if (type->value == SelectorValue::none && !selector.value.empty())
    return make_error(selector.raw + ": @" + type->name + " takes no value",
                      {replaced(written, selector.raw,
                                std::string(selector.negated ? "@not:" : "@") + type->name)});
  if (type->value == SelectorValue::required && selector.value.empty())
    return make_error(selector.raw + " needs a value: " + shown);
  Compiled out;
  out.family = type->family.empty() ? type->name : type->family;
  out.raw = selector.raw;
  out.negated = selector.negated;
  auto test = type->compile ? type->compile(scope, selector.value)
                            : builtin_test(selector, scope, log, written);
  if (!test) return test.error();
  out.test = std::move(*test);
  return out;
}

bool in_family(const Family& family, std::size_t index) {
  for (const Compiled* member : family.members) {
    if (member->test(index)) return true;
  }
  return false;
}

std::vector<std::size_t> evaluate(const SelectorScope& scope,
                                  const std::vector<const Family*>& families,
                                  const std::vector<const Compiled*>& negatives) {
  std::vector<std::size_t> out;
  const std::size_t size = scope.size();
  for (std::size_t index = 0; index < size; ++index) {
    const bool chosen =
        std::all_of(families.begin(), families.end(),
                    [&](const Family* family) { return in_family(*family, index); }) &&
        std::none_of(negatives.begin(), negatives.end(),
                     [&](const Compiled* negative) { return negative->test(index); });
    if (chosen) out.push_back(index);
  }
  return out;
}

// The selectors as written, in order, for messages.
std::string written_selectors(const std::vector<const Family*>& families,
                              const std::vector<const Compiled*>& negatives,
                              std::size_t* count = nullptr) {
  std::string out;
  std::size_t n = 0;
  for (const Family* family : families) {
    for (const Compiled* member : family->members) {
      if (member->raw.empty()) continue;
      out += (out.empty() ? "" : " ") + member->raw;
      ++n;
    }
  }
  for (const Compiled* negative : negatives) {
    out += (out.empty() ? "" : " ") + negative->raw;
    ++n;
  }
  if (count != nullptr) *count = n;
  return out;
}

// "no notes match @track:Piano @pitch:C2 — @track:Piano matches 4 notes: …": what was asked,
// then what each selection with one selector type left out matches, or what exists at all.
std::string nothing_matched(const SelectorScope& scope, const std::vector<Family>& families,
                            const std::vector<const Compiled*>& negatives, std::string_view nouns) {
  std::vector<const Family*> all;
  for (const Family& family : families)
    all.push_back(&family);
  std::string out = "no " + std::string(nouns) + " match " + written_selectors(all, negatives);
  std::vector<std::string> nearby;
  std::size_t explicit_families = 0;
  for (const Family& family : families)
    explicit_families += family.is_implicit() ? 0 : 1;
  if (explicit_families >= 2) {
    for (const Family& left_out : families) {
      if (left_out.is_implicit() || nearby.size() >= kMaxNearby) continue;
      std::vector<const Family*> rest;
      for (const Family& family : families) {
        if (&family != &left_out) rest.push_back(&family);
      }
      const auto relaxed = evaluate(scope, rest, negatives);
      if (relaxed.empty()) continue;
      std::size_t shown = 0;
      const std::string text = written_selectors(rest, negatives, &shown);
      nearby.push_back(text + (shown == 1 ? " matches " : " match ") + scope.describe(relaxed));
    }
  }
  std::size_t written_positives = 0;
  const std::string positives = written_selectors(all, {}, &written_positives);
  if (nearby.empty() && !negatives.empty() && written_positives > 0) {
    // What the @not: selectors took away.
    const auto without_negatives = evaluate(scope, all, {});
    if (!without_negatives.empty()) {
      nearby.push_back(positives + (written_positives == 1 ? " matches " : " match ") +
                       scope.describe(without_negatives));
    }
  }
  if (nearby.empty()) {
    std::vector<const Family*> implicit;
    for (const Family& family : families) {
      if (family.is_implicit()) implicit.push_back(&family);
    }
    const auto everything = evaluate(scope, implicit, {});
    if (everything.empty()) {
      nearby.push_back("there are no " + std::string(nouns));
    } else {
      nearby.push_back((everything.size() == 1 ? "there is " : "there are ") +
                       scope.describe(everything));
    }
  }
  out += " — ";
  for (std::size_t i = 0; i < nearby.size(); ++i)
    out += (i ? "; " : "") + nearby[i];
  return out;
}

}  // namespace

std::string SelectorScope::describe(std::span<const std::size_t> members) const {
  std::map<std::string, std::size_t> per_type;
  for (std::size_t index : members)
    ++per_type[type_of(index)];
  std::string out = plural(members.size(), catalog().noun);
  if (per_type.size() == 1 && per_type.begin()->first == catalog().noun) return out;
  std::string types;
  for (const auto& [type, count] : per_type)
    types += (types.empty() ? "" : ", ") + std::to_string(count) + " " + type;
  return types.empty() ? out : out + ": " + types;
}

Result<Selection> select(std::span<const Selector> selectors, const SelectorScope& scope,
                         const EventLog& log, std::string_view written) {
  const SelectorCatalog& catalog = scope.catalog();
  std::vector<Compiled> compiled;
  compiled.reserve(selectors.size() + 1);
  for (const Selector& selector : selectors) {
    auto one = compile(selector, scope, log, written);
    if (!one) return one.error();
    compiled.push_back(std::move(*one));
  }
  const bool names_a_type = std::any_of(compiled.begin(), compiled.end(), [](const Compiled& c) {
    return !c.negated && c.family == "type";
  });
  const bool implicit_type = !catalog.default_type.empty() && !names_a_type;
  if (implicit_type)
    compiled.push_back({"type", "", false, type_test(scope, catalog.default_type)});

  std::vector<Family> families;
  std::vector<const Compiled*> negatives;
  for (const Compiled& selector : compiled) {
    if (selector.negated) {
      negatives.push_back(&selector);
      continue;
    }
    auto family = std::find_if(families.begin(), families.end(),
                               [&](const Family& f) { return f.name == selector.family; });
    if (family == families.end()) family = families.insert(families.end(), {selector.family, {}});
    family->members.push_back(&selector);
  }
  std::vector<const Family*> positive;
  for (const Family& family : families)
    positive.push_back(&family);
  Selection out;
  out.members = evaluate(scope, positive, negatives);
  if (out.members.empty()) {
    const std::string nouns = plural_noun(implicit_type ? catalog.default_type : catalog.noun);
    out.nothing_matched = nothing_matched(scope, families, negatives, nouns);
  }
  return out;
}

std::string nothing_matched_warning(std::string_view nothing_matched, std::string_view verb) {
  return warning_line(std::string(nothing_matched) + "; " + std::string(verb) + " changed nothing");
}

std::string selector_card(const SelectorCatalog& catalog) {
  const std::string nouns = plural_noun(catalog.noun);
  struct Row {
    std::string usage, meaning;
  };
  std::vector<Row> rows{
      {"@all", "every " + (catalog.default_type.empty() ? catalog.noun : catalog.default_type)},
      {"@recent[:N]", nouns + " the last N ops (default 1) created or changed"},
      {"@type:" + catalog.type_hint, catalog.type_meaning},
  };
  for (const auto& type : catalog.types)
    rows.push_back({usage(type), type.description});
  rows.push_back({"@not:TYPE[:VALUE]", "subtracts what that selector matches"});
  std::size_t width = 0;
  for (const auto& row : rows)
    width = std::max(width, row.usage.size());
  std::string out = "SELECTORS (" + nouns +
                    "): the same type repeated adds alternatives (@type:a,b is @type:a @type:b), "
                    "different types intersect, @not: subtracts";
  if (catalog.names_add_to_selection)
    out += "; " + nouns + " named beside selectors are added to what they choose";
  if (!catalog.default_type.empty()) {
    out += "; without @type: (or another kind selector) they choose " +
           plural_noun(catalog.default_type);
  }
  out +=
      "; a change whose selectors match nothing changes nothing and answers `?` with what "
      "exists\n";
  for (const auto& row : rows) {
    std::string usage = row.usage;
    usage.resize(width + 2, ' ');
    out += "  " + usage + row.meaning + "\n";
  }
  return out;
}

}  // namespace fcp::core
