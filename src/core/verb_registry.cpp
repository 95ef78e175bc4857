#include "core/verb_registry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fcp::core {

KeySpec& KeySpec::also(std::initializer_list<const char*> other_names) {
  for (const char* other : other_names)
    aliases.emplace_back(other);
  return *this;
}

KeySpec& KeySpec::only_for(std::initializer_list<const char*> form_words) {
  for (const char* word : form_words)
    forms.emplace_back(word);
  return *this;
}

KeySpec& KeySpec::apart_from(std::initializer_list<const char*> other_keys) {
  for (const char* other : other_keys)
    apart.emplace_back(other);
  return *this;
}

std::string KeySpec::card_text() const {
  std::string form = name + ":";
  if (kind == ValueKind::choice && value.empty()) {
    for (std::size_t i = 0; i < choices.size(); ++i)
      form += (i == 0 ? "" : "|") + choices[i];
  } else {
    form += value;
  }
  return required ? form : "[" + form + "]";
}

namespace {

std::string number_text(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e15)
    return std::to_string(static_cast<long long>(value));
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  return text;
}

}  // namespace

KeySpec& KeySpec::between(double low, double high) {
  minimum = low;
  maximum = high;
  if (value == "N") value = number_text(low) + ".." + number_text(high);
  return *this;
}

std::string range_text(const KeySpec& spec) {
  return number_text(spec.minimum.value_or(0)) + ".." + number_text(spec.maximum.value_or(0));
}

std::string clamped_value(const KeySpec& spec, double value) {
  return number_text(std::clamp(value, spec.minimum.value_or(value), spec.maximum.value_or(value)));
}

KeySpec key(std::string name, std::string value, std::string description) {
  KeySpec spec;
  spec.name = std::move(name);
  spec.value = std::move(value);
  spec.description = std::move(description);
  return spec;
}

KeySpec integer_key(std::string name, std::string value, std::string description) {
  KeySpec spec = key(std::move(name), std::move(value), std::move(description));
  spec.kind = ValueKind::integer;
  return spec;
}

KeySpec number_key(std::string name, std::string value, std::string description) {
  KeySpec spec = key(std::move(name), std::move(value), std::move(description));
  spec.kind = ValueKind::number;
  return spec;
}

KeySpec bool_key(std::string name, std::string description) {
  KeySpec spec = key(std::move(name), "true|false", std::move(description));
  spec.kind = ValueKind::boolean;
  return spec;
}

KeySpec choice_key(std::string name, std::vector<std::string> choices, std::string description) {
  KeySpec spec = key(std::move(name), {}, std::move(description));
  spec.kind = ValueKind::choice;
  spec.choices = std::move(choices);
  return spec;
}

VerbSpec& VerbSpec::with_all(std::vector<KeySpec> specs) {
  for (auto& spec : specs)
    keys.push_back(std::move(spec));
  return *this;
}

const KeySpec* VerbSpec::find_key(std::string_view key_name) const {
  for (const auto& spec : keys) {
    if (spec.name == key_name) return &spec;
  }
  for (const auto& spec : keys) {
    if (std::find(spec.aliases.begin(), spec.aliases.end(), key_name) != spec.aliases.end())
      return &spec;
  }
  return nullptr;
}

std::string VerbSpec::syntax() const {
  std::string out = name;
  if (!usage.empty()) out += " " + usage;
  for (const auto& spec : keys)
    out += " " + spec.card_text();
  if (open_keys) out += " [" + open_keys.card_text + "]";
  return out;
}

void VerbRegistry::add(VerbSpec spec) {
  if (by_name_.contains(spec.name)) {
    throw std::logic_error("verb registered twice: " + spec.name);
  }
  by_name_.emplace(spec.name, specs_.size());
  specs_.push_back(std::move(spec));
}

const VerbSpec* VerbRegistry::find(std::string_view verb) const {
  auto it = by_name_.find(std::string(verb));
  return it == by_name_.end() ? nullptr : &specs_[it->second];
}

std::vector<std::string> VerbRegistry::names() const {
  std::vector<std::string> out;
  out.reserve(specs_.size());
  for (const auto& spec : specs_)
    out.push_back(spec.name);
  return out;
}

std::vector<std::string> VerbRegistry::categories() const {
  std::vector<std::string> out;
  for (const auto& spec : specs_) {
    if (std::find(out.begin(), out.end(), spec.category) == out.end()) {
      out.push_back(spec.category);
    }
  }
  return out;
}

void VerbRegistry::add_verb_synonym(std::string word, std::string replacement) {
  verb_synonyms_.push_back({std::move(word), std::move(replacement), {}});
}

void VerbRegistry::add_key_synonym(std::string word, std::string replacement, std::string verb) {
  key_synonyms_.push_back({std::move(word), std::move(replacement), std::move(verb)});
}

const std::string* VerbRegistry::verb_synonym(std::string_view word) const {
  for (const auto& synonym : verb_synonyms_) {
    if (synonym.word == word) return &synonym.replacement;
  }
  return nullptr;
}

}  // namespace fcp::core
