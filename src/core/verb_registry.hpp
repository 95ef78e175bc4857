// The verb table: the single source of truth for every verb, query word and session command of a
// domain — positionals, declared keys, synonyms, help text and (for verbs) the handler. Parsing
// checks ops against it, and the reference card, the tool descriptions and `try:` suggestions are
// generated from it.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// What a key's value must look like. The engine checks integer, number, boolean and choice
// values; text values are checked by the verb's handler (references, positions, colours …).
enum class ValueKind { text, integer, number, boolean, choice };

// One key:value a verb (or query, or session command) declares.
struct KeySpec {
  std::string name;                  // "theme"
  std::string value;                 // the value's form on the card: "T", "X,Y|REGION"
  std::string description;           // optional, for _help
  ValueKind kind = ValueKind::text;  // choice: `choices` lists the accepted values
  std::vector<std::string> choices;
  bool required = false;
  std::string default_value;  // shown on the card ("" = none)
  // The default decides where the work lands (a note's position): when the op leaves the key
  // out, the engine says in the reply which default was used.
  bool places_work = false;
  std::vector<std::string> aliases;  // other spellings accepted as this key (`channel` → `ch`)
  // The forms (first positional words, lowercased) this key belongs to, e.g. {"rename"} for
  // `track rename NAME to:NEW`; empty: every form of the verb.
  std::vector<std::string> forms;
  // Integer and number keys: the values accepted, inclusive (the engine refuses others).
  std::optional<double> minimum, maximum;
  // Keys this one does not go with (a position, and a key that says the op covers a range): an
  // op giving both is refused, offering the op without this key; and a placement default is not
  // announced when one of them is given.
  std::vector<std::string> apart;

  KeySpec& require() {
    required = true;
    return *this;
  }
  KeySpec& also(std::initializer_list<const char*> other_names);  // adds aliases
  KeySpec& only_for(std::initializer_list<const char*> form_words);
  KeySpec& apart_from(std::initializer_list<const char*> other_keys);
  KeySpec& by_default(std::string value_text) {
    default_value = std::move(value_text);
    return *this;
  }
  // `default_place` is what the default is, as the reply says it: "1.1", "the next free spot".
  KeySpec& places(std::string default_place) {
    places_work = true;
    default_value = std::move(default_place);
    return *this;
  }
  // Integer and number keys: only LOW..HIGH; the card shows the range when the value form is "N".
  KeySpec& between(double low, double high);
  KeySpec& about(std::string text) {
    description = std::move(text);
    return *this;
  }
  // "theme:T" or "[theme:T]"
  std::string card_text() const;
};

// "LOW..HIGH" of a key with a range; `value` moved into that range, as the key takes it.
std::string range_text(const KeySpec& spec);
std::string clamped_value(const KeySpec& spec, double value);

// Builders for the common kinds of keys.
KeySpec key(std::string name, std::string value, std::string description = {});
KeySpec integer_key(std::string name, std::string value = "N", std::string description = {});
KeySpec number_key(std::string name, std::string value = "N", std::string description = {});
KeySpec bool_key(std::string name, std::string description = {});
KeySpec choice_key(std::string name, std::vector<std::string> choices,
                   std::string description = {});

// Keys a verb accepts beyond its declared ones (draw.io style keys, Max attributes): a test and
// the card text that describes them.
struct OpenKeys {
  OpenKeys() = default;
  OpenKeys(std::string card, std::function<bool(std::string_view key)> test,
           std::span<const std::string_view> known = {})
      : card_text(std::move(card)), accepts(std::move(test)), names(known) {}

  std::string card_text;  // "any draw.io style key (fillColor, rounded, …)"
  std::function<bool(std::string_view key)> accepts;
  std::span<const std::string_view> names;  // offered for a misspelt key (may be empty)
  explicit operator bool() const { return static_cast<bool>(accepts); }
};

struct VerbSpec {
  VerbSpec() = default;
  VerbSpec(std::string verb, std::string positionals, std::string card_section, std::string summary)
      : name(std::move(verb)),
        usage(std::move(positionals)),
        category(std::move(card_section)),
        description(std::move(summary)) {}

  std::string name;         // lowercase verb, e.g. "add"
  std::string usage;        // the positionals: "TYPE LABEL", "SRC -> TGT [-> TGT…]"; no keys
  std::string category;     // card section, e.g. "shapes"
  std::string description;  // one short line
  std::vector<KeySpec> keys;
  std::vector<std::string> examples;  // complete ops that work
  bool takes_arrows = false;          // `A->B` written without spaces is split into A -> B
  bool destructive = false;           // never suggested for a word that only looks like it
  bool free_text = false;  // the argument is text (`find a:b`): no key:value is read from it
  // The op's work is its keys (`style`, `modify`): a suggestion that drops a key it cannot fix
  // is not offered when no key would be left, since that op would change nothing.
  bool works_through_keys = false;
  // A query whose answer also carries structured data (MCP structuredContent: counts and the
  // entities its text shows); the domain's Document::query fills QueryAnswer::data for it.
  bool structured = false;
  OpenKeys open_keys;

  VerbSpec& with(KeySpec spec) {
    keys.push_back(std::move(spec));
    return *this;
  }
  VerbSpec& with_all(std::vector<KeySpec> specs);
  VerbSpec& arrows() {
    takes_arrows = true;
    return *this;
  }
  VerbSpec& deletes() {
    destructive = true;
    return *this;
  }
  VerbSpec& through_keys() {
    works_through_keys = true;
    return *this;
  }
  VerbSpec& text_argument() {
    free_text = true;
    return *this;
  }
  VerbSpec& with_structured_answer() {
    structured = true;
    return *this;
  }
  VerbSpec& example(std::string op) {
    examples.push_back(std::move(op));
    return *this;
  }
  VerbSpec& accepting(OpenKeys open) {
    open_keys = std::move(open);
    return *this;
  }

  // The declared key named `name` or carrying it as an alias; null when undeclared.
  const KeySpec* find_key(std::string_view name) const;
  // "add TYPE LABEL [theme:T] [near:REF]": generated from usage and keys.
  std::string syntax() const;
};

// A word agents use that a domain spells differently, and the complete replacement.
struct Synonym {
  std::string word;         // "rename", "below", "database"
  std::string replacement;  // "label", "near:{} dir:below" ({} = the value written), "db"
  std::string verb;         // key synonyms: only for this verb ("" = any verb declaring the keys)
};

// Thread: immutable after construction by its domain; safe to share between sessions.
class VerbRegistry {
 public:
  void add(VerbSpec spec);
  const VerbSpec* find(std::string_view verb) const;
  const std::vector<VerbSpec>& all() const { return specs_; }  // registration order
  std::vector<std::string> names() const;
  // Categories in first-registration order.
  std::vector<std::string> categories() const;

  // Verb words agents use for this domain's verbs ("delete" → "remove", "rename" → "label"),
  // also a verb with its first word ("add track" → "track add"), which is tried first.
  void add_verb_synonym(std::string word, std::string replacement);
  // Key words agents use: "below" → "near:{} dir:below", "velocity" → "vel:{}"; {1} and {2}
  // take the ends of a range value ("range" → "min:{1} max:{2}").
  void add_key_synonym(std::string word, std::string replacement, std::string verb = {});
  const std::string* verb_synonym(std::string_view word) const;
  const std::vector<Synonym>& key_synonyms() const { return key_synonyms_; }

 private:
  std::vector<VerbSpec> specs_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::vector<Synonym> verb_synonyms_;
  std::vector<Synonym> key_synonyms_;
};

// A registry whose verbs also carry their handlers: each verb is registered once, with its
// syntax, keys and the code that runs it. `Context` is the domain's per-op context.
template <class Context>
class VerbTable : public VerbRegistry {
 public:
  using Handler = Result<void> (*)(Context&);

  void add(VerbSpec spec, Handler run) {
    handlers_.emplace(spec.name, run);
    VerbRegistry::add(std::move(spec));
  }
  Handler handler(std::string_view verb) const {
    auto it = handlers_.find(std::string(verb));
    return it == handlers_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string, Handler> handlers_;
};

}  // namespace fcp::core
