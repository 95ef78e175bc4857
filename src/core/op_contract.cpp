#include "core/op_contract.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/resolve.hpp"

namespace fcp::core {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

struct Span {
  std::size_t begin = 0, end = 0;
  bool starts_quoted = false;
};

// Token spans of an op text, with the tokenizer's quoting rules (quotes may open anywhere in a
// token and hold whitespace; a backslash escapes inside quotes). An unterminated quote runs to
// the end (parse_op has already refused such text).
std::vector<Span> token_spans(std::string_view text) {
  std::vector<Span> spans;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i]))
      ++i;
    if (i >= text.size()) break;
    Span span{i, i, text[i] == '"' || text[i] == '\''};
    while (i < text.size() && !is_space(text[i])) {
      if (text[i] == '"' || text[i] == '\'') {
        const char quote = text[i++];
        while (i < text.size() && text[i] != quote) {
          if (text[i] == '\\' && i + 1 < text.size()) ++i;
          ++i;
        }
        if (i < text.size()) ++i;
        if (span.starts_quoted) break;  // a quoted token ends at its closing quote
        continue;
      }
      ++i;
    }
    span.end = i;
    spans.push_back(span);
  }
  return spans;
}

// The span of the key:value token for `key` (after the verb), if any.
std::optional<Span> find_param_span(std::string_view raw, std::string_view key) {
  const auto spans = token_spans(raw);
  for (std::size_t t = 1; t < spans.size(); ++t) {
    const auto& span = spans[t];
    if (span.starts_quoted) continue;
    const std::string_view token = raw.substr(span.begin, span.end - span.begin);
    if (token.size() > key.size() && token.starts_with(key) && token[key.size()] == ':')
      return span;
  }
  return std::nullopt;
}

std::string list_keys(const VerbSpec& spec) {
  std::string out;
  for (const auto& declared : spec.keys)
    out += (out.empty() ? "" : " ") + declared.name + ":";
  if (spec.open_keys) out += (out.empty() ? "" : ", and ") + spec.open_keys.card_text;
  return out.empty() ? std::string("none") : out;
}

// The keys a synonym's replacement sets ("near:{} dir:below" → near, dir).
std::vector<std::string> replacement_keys(std::string_view replacement) {
  std::vector<std::string> keys;
  for (const auto& span : token_spans(replacement)) {
    const std::string_view token = replacement.substr(span.begin, span.end - span.begin);
    const auto colon = token.find(':');
    if (colon != std::string_view::npos && colon > 0) keys.emplace_back(token.substr(0, colon));
  }
  return keys;
}

// The op's form: its first positional, lowercased (`track rename …` → "rename").
std::string form_of(const ParsedOp& op) {
  return op.positionals.empty() ? std::string() : to_lower(op.positionals[0]);
}

// Whether a declared key belongs to this form of its verb.
bool belongs_to(const KeySpec& declared, std::string_view form) {
  return declared.forms.empty() ||
         std::find(declared.forms.begin(), declared.forms.end(), form) != declared.forms.end();
}

// Whether the verb takes `key_name` in this form of the op.
bool declares(const VerbSpec& spec, std::string_view key_name, std::string_view form) {
  if (const KeySpec* declared = spec.find_key(key_name)) return belongs_to(*declared, form);
  return spec.open_keys && spec.open_keys.accepts(key_name);
}

// The two ends of a range value: "0-100", "0..100", "-1-1"; nullopt when it is none.
std::optional<std::pair<std::string_view, std::string_view>> range_ends(std::string_view value) {
  std::size_t at = value.find("..");
  std::size_t length = 2;
  if (at == std::string_view::npos) {
    at = value.find('-', 1);
    length = 1;
  }
  if (at == std::string_view::npos || at == 0 || at + length >= value.size()) return std::nullopt;
  return std::pair{value.substr(0, at), value.substr(at + length)};
}

// A synonym's replacement for the value written: {} is the value, {1} and {2} the ends of a
// range value (`range:0-100` → `min:{1} max:{2}`); nullopt when the value is no range.
std::optional<std::string> fill_value(std::string_view replacement, std::string_view value) {
  std::string out(replacement);
  if (auto at = out.find("{}"); at != std::string::npos) out.replace(at, 2, value);
  if (out.find("{1}") == std::string::npos) return out;
  const auto ends = range_ends(value);
  if (!ends) return std::nullopt;
  out.replace(out.find("{1}"), 3, ends->first);
  if (auto at = out.find("{2}"); at != std::string::npos) out.replace(at, 3, ends->second);
  return out;
}

// The token that replaces one undeclared `key:written`: a synonym's (it knows what the word
// means, not only how it is spelt), else the closest key's, else "" (drop it). `taken`: the
// keys the op already has, with those earlier fixes gave it.
std::string fix_for(const VerbSpec& spec, std::string_view form, std::string_view key,
                    std::string_view written, std::span<const Synonym> synonyms,
                    std::vector<std::string>& taken) {
  const auto is_taken = [&](std::string_view name) {
    return std::find(taken.begin(), taken.end(), name) != taken.end();
  };
  for (const auto& synonym : synonyms) {
    if (synonym.word != to_lower(key)) continue;
    if (!synonym.verb.empty() && synonym.verb != spec.name) continue;
    const auto keys = replacement_keys(synonym.replacement);
    const bool fits = !keys.empty() && std::all_of(keys.begin(), keys.end(), [&](const auto& k) {
      return declares(spec, k, form) && !is_taken(k);
    });
    if (const auto filled = fits ? fill_value(synonym.replacement, written) : std::nullopt) {
      taken.insert(taken.end(), keys.begin(), keys.end());
      return *filled;
    }
  }
  // A slip of case only names that key (`exitx:` is the open key `exitX:`, not `exit:`).
  const std::string lowered = to_lower(key);
  for (const auto name : spec.open_keys.names) {
    if (is_taken(name) || to_lower(name) != lowered) continue;
    taken.emplace_back(name);
    return std::string(name) + ":" + std::string(written);
  }
  std::vector<std::string> candidates;
  for (const auto& declared : spec.keys) {
    if (!is_taken(declared.name) && belongs_to(declared, form)) candidates.push_back(declared.name);
  }
  // A close spelling is a typo of that key only when it is very close: `path:` is not `page:`.
  const std::string& lowered_key = lowered;
  for (const auto& close : closest_matches(key, candidates, 1)) {
    const std::size_t distance = edit_distance(lowered_key, to_lower(close));
    if (distance > (lowered_key.size() >= 6 ? 2u : 1u)) break;
    taken.push_back(close);
    return close + ":" + std::string(written);
  }
  // Open keys are many (every draw.io style key): only a slip of one letter or of case is taken
  // for one, so that `below:` is never read as `elbow:`.
  for (const auto name : spec.open_keys.names) {
    if (is_taken(name) || edit_distance(lowered_key, to_lower(name)) > 1) continue;
    taken.emplace_back(name);
    return std::string(name) + ":" + std::string(written);
  }
  return {};
}

// One error for all the undeclared keys of an op, naming them, with one `try:` that fixes them
// all.
Error undeclared_keys_error(const VerbSpec& spec, const ParsedOp& op,
                            const std::vector<const Param*>& undeclared,
                            std::span<const Synonym> synonyms) {
  std::vector<std::string> taken;
  for (const auto& param : op.params)
    taken.push_back(param.key);
  std::string hint = op.raw;
  std::string names;
  std::size_t dropped = 0;
  for (const Param* param : undeclared) {
    const std::string written = param_token_value(hint, param->key);
    const std::string fix = fix_for(spec, form_of(op), param->key, written, synonyms, taken);
    if (fix.empty()) ++dropped;
    hint = replace_param_token(hint, param->key, fix);
    names += (names.empty() ? "\"" : " \"") + param->key + ":\"";
  }
  // `style A zzz:1` → `style A` would change nothing: then the error only lists the keys.
  const bool changes_nothing =
      spec.works_through_keys && dropped == op.params.size() && !op.params.empty();
  std::vector<std::string> hints;
  if (!changes_nothing) hints.push_back(hint);
  return make_error(spec.name + " has no key" + (undeclared.size() > 1 ? "s " : " ") + names +
                        "; its keys: " + list_keys(spec),
                    std::move(hints));
}

bool is_integer(std::string_view text) {
  return to_integer(text).has_value();
}

bool is_number(std::string_view text) {
  return to_number(text).has_value();
}

bool is_boolean(std::string_view text) {
  const std::string lower = to_lower(text);
  for (std::string_view word : {"true", "false", "yes", "no", "on", "off", "1", "0"}) {
    if (lower == word) return true;
  }
  return false;
}

// A number within the key's range; the fix offered is the nearest value it takes.
Result<void> check_range(const VerbSpec& spec, const KeySpec& declared, const ParsedOp& op,
                         const Param& param) {
  if (!declared.minimum && !declared.maximum) return {};
  const double value = std::strtod(param.value.c_str(), nullptr);
  if (value >= declared.minimum.value_or(value) && value <= declared.maximum.value_or(value))
    return {};
  return make_error(declared.name + ":" + param.value + ": " + spec.name + " " + declared.name +
                        ": takes " + range_text(declared),
                    {replace_param_token(op.raw, param.key,
                                         declared.name + ":" + clamped_value(declared, value))});
}

Result<void> check_value(const VerbSpec& spec, const KeySpec& declared, const ParsedOp& op,
                         const Param& param) {
  const std::string& value = param.value;
  const std::string form = declared.name + ":" + value;
  switch (declared.kind) {
    case ValueKind::text:
      return {};
    case ValueKind::integer:
      if (!is_integer(value))
        return make_error(form + ": " + declared.name + " takes a whole number (" +
                          declared.card_text() + ")");
      return check_range(spec, declared, op, param);
    case ValueKind::number:
      if (!is_number(value))
        return make_error(form + ": " + declared.name + " takes a number (" + declared.card_text() +
                          ")");
      return check_range(spec, declared, op, param);
    case ValueKind::boolean:
      if (is_boolean(value)) return {};
      return make_error(form + ": " + declared.name + " takes true or false",
                        {replace_param_token(op.raw, param.key, declared.name + ":true")});
    case ValueKind::choice: {
      const std::string lower = to_lower(value);
      for (const auto& choice : declared.choices) {
        if (to_lower(choice) == lower) return {};
      }
      std::vector<std::string> hints;
      for (const auto& close : closest_matches(value, declared.choices, 2))
        hints.push_back(replace_param_token(op.raw, param.key, declared.name + ":" + close));
      std::string choices;
      for (const auto& choice : declared.choices)
        choices += (choices.empty() ? "" : "|") + choice;
      return make_error(form + ": " + spec.name + " " + declared.name + ": takes " + choices,
                        std::move(hints));
    }
  }
  return {};
}

// `add track Bass` → `track add Bass`: a synonym of the verb with its first word.
std::optional<std::string> two_word_synonym(const VerbRegistry& registry, const ParsedOp& op) {
  const auto spans = token_spans(op.raw);
  if (spans.size() < 2 || spans[1].starts_quoted || op.positionals.empty()) return std::nullopt;
  const std::string_view second =
      std::string_view(op.raw).substr(spans[1].begin, spans[1].end - spans[1].begin);
  if (second != op.positionals.front()) return std::nullopt;
  const std::string* replacement = registry.verb_synonym(op.verb + " " + to_lower(second));
  if (replacement == nullptr) return std::nullopt;
  return *replacement + std::string(std::string_view(op.raw).substr(spans[1].end));
}

bool is_destructive(const VerbRegistry& registry, std::string_view verb) {
  const VerbSpec* spec = registry.find(verb);
  return spec != nullptr && spec->destructive;
}

}  // namespace

std::string replace_param_token(std::string_view raw, std::string_view key,
                                std::string_view replacement) {
  const auto span = find_param_span(raw, key);
  if (!span) return std::string(raw);
  std::string out(raw.substr(0, span->begin));
  std::string_view rest = raw.substr(span->end);
  if (replacement.empty()) {
    while (!out.empty() && is_space(out.back()))
      out.pop_back();
    if (!out.empty() && !rest.empty() && !is_space(rest.front())) out += ' ';
  } else {
    out += replacement;
  }
  out += rest;
  return out;
}

std::string param_token_value(std::string_view raw, std::string_view key) {
  const auto span = find_param_span(raw, key);
  if (!span) return {};
  return std::string(
      raw.substr(span->begin + key.size() + 1, span->end - span->begin - key.size() - 1));
}

std::optional<std::string> space_glued_arrows(std::string_view op_text, const VerbSpec& spec) {
  if (!spec.takes_arrows) return std::nullopt;
  std::string out;
  bool changed = false;
  std::size_t copied = 0;
  for (const auto& span : token_spans(op_text)) {
    if (span.starts_quoted) continue;
    const std::string_view token = op_text.substr(span.begin, span.end - span.begin);
    // key:value tokens keep their text (label:a->b), except type-qualified references
    // (db:Users->svc:Auth), which are not keys of the verb.
    if (const auto colon = token.find(':'); colon != std::string_view::npos && colon > 0) {
      if (spec.find_key(token.substr(0, colon)) != nullptr) continue;
    }
    if (token.find('"') != std::string_view::npos || token.find('\'') != std::string_view::npos)
      continue;
    std::string spaced;
    std::size_t i = 0;
    bool split = false;
    while (i < token.size()) {
      std::size_t length = 0;
      if (token.substr(i).starts_with("<->")) {
        length = 3;
      } else if (token.substr(i).starts_with("->") || token.substr(i).starts_with("--")) {
        length = 2;
      }
      if (length == 0) {
        spaced += token[i++];
        continue;
      }
      if (!spaced.empty() && spaced.back() != ' ') spaced += ' ';
      spaced += token.substr(i, length);
      i += length;
      if (i < token.size()) spaced += ' ';
      split = true;
    }
    if (!split || spaced == token) continue;
    out += op_text.substr(copied, span.begin - copied);
    out += spaced;
    copied = span.end;
    changed = true;
  }
  if (!changed) return std::nullopt;
  out += op_text.substr(copied);
  return out;
}

Result<void> check_op_keys(const VerbSpec& spec, ParsedOp& op, std::span<const Synonym> synonyms) {
  if (spec.free_text) return {};
  const std::string form = op.positionals.empty() ? std::string() : to_lower(op.positionals[0]);
  std::vector<const Param*> undeclared;
  for (const auto& param : op.params) {
    if (spec.find_key(param.key) == nullptr &&
        !(spec.open_keys && spec.open_keys.accepts(param.key)))
      undeclared.push_back(&param);
  }
  if (!undeclared.empty()) return undeclared_keys_error(spec, op, undeclared, synonyms);
  for (auto& param : op.params) {
    const KeySpec* declared = spec.find_key(param.key);
    if (declared == nullptr) continue;  // an open key
    if (!declared->forms.empty() &&
        std::find(declared->forms.begin(), declared->forms.end(), form) == declared->forms.end()) {
      std::string forms;
      for (const auto& word : declared->forms)
        forms += (forms.empty() ? "" : ", ") + spec.name + " " + word;
      return make_error(param.key + ": belongs to " + forms + ", not to this form of " + spec.name,
                        {replace_param_token(op.raw, param.key, "")});
    }
    if (auto valid = check_value(spec, *declared, op, param); !valid) return valid;
    if (param.key != declared->name) {
      if (op.has_param(declared->name)) {
        return make_error(param.key + ": and " + declared->name + ": are the same key; give one",
                          {replace_param_token(op.raw, param.key, "")});
      }
      param.key = declared->name;  // an alias: handlers see the key's own name
    }
  }
  for (const auto& declared : spec.keys) {
    if (!op.has_param(declared.name)) continue;
    for (const auto& other : declared.apart) {
      if (!op.has_param(other)) continue;
      return make_error(declared.name + ": and " + other + ": do not go together in " + spec.name +
                            " (" + spec.syntax() + ")",
                        {replace_param_token(op.raw, declared.name, "")});
    }
  }
  for (const auto& declared : spec.keys) {
    if (!declared.required || op.has_param(declared.name)) continue;
    if (!declared.forms.empty() &&
        std::find(declared.forms.begin(), declared.forms.end(), form) == declared.forms.end())
      continue;
    // The op as written with the key added, its value taken from an example of the verb; the
    // examples themselves when none gives that key.
    std::vector<std::string> hints;
    for (const auto& example : spec.examples) {
      const std::string value = param_token_value(example, declared.name);
      if (value.empty()) continue;
      hints.push_back(op.raw + " " + declared.name + ":" + value);
      break;
    }
    if (hints.empty()) hints = spec.examples;
    return make_error(
        spec.name + " needs " + declared.name + ":" + declared.value + " (" + spec.syntax() + ")",
        std::move(hints));
  }
  return {};
}

Error unknown_verb_error(const VerbRegistry& registry, const ParsedOp& op,
                         std::string_view domain_name,
                         std::span<const std::string_view> extra_verbs) {
  const auto rest =
      std::string_view(op.raw).substr(std::min(op.raw.size(), op.raw.find_first_of(" \t")));
  std::vector<std::string> hints;
  if (auto two_words = two_word_synonym(registry, op)) {
    hints.push_back(std::move(*two_words));
  } else if (const std::string* replacement = registry.verb_synonym(op.verb)) {
    hints.push_back(*replacement + std::string(rest));
  } else {
    std::vector<std::string> names = registry.names();
    for (auto extra : extra_verbs)
      names.emplace_back(extra);
    for (const auto& name : closest_matches(op.verb, names, 3)) {
      // A word that only looks like a destructive verb is not taken for one: `rename` is not
      // `remove`. A plain typo of it (two edits at most) still is.
      if (is_destructive(registry, name) && edit_distance(to_lower(op.verb), name) > 2) continue;
      if (hints.size() < 2) hints.push_back(name + std::string(rest));
    }
  }
  std::string message = "unknown verb \"" + op.verb + "\"";
  if (hints.empty()) {
    message += "; verbs: ";
    for (const auto& name : registry.names())
      message += name + " ";
    for (auto extra : extra_verbs)
      message += std::string(extra) + " ";
    message.pop_back();
    hints.push_back(std::string(domain_name) + "_help");
  }
  return make_error(std::move(message), std::move(hints));
}

}  // namespace fcp::core
