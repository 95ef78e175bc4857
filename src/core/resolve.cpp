#include "core/resolve.hpp"

#include <tuple>

#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

char lower_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_separator(char c) {
  return c == '-' || c == '_' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = lower_ascii(c);
  return out;
}

std::string normalize_ref(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (!is_separator(c)) out += lower_ascii(c);
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  if (a.size() < b.size()) std::swap(a, b);  // the rows follow the shorter string
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates,
                                         std::size_t limit) {
  const std::string needle = to_lower(word);
  const std::size_t threshold = std::max<std::size_t>(2, needle.size() / 2);
  std::vector<std::tuple<std::size_t, std::string_view>> scored;
  for (const std::string& candidate : candidates) {
    const std::string lowered = to_lower(candidate);
    const std::size_t distance = edit_distance(needle, lowered);
    const bool contains = !needle.empty() && lowered.find(needle) != std::string::npos;
    if (distance <= threshold || contains) scored.emplace_back(distance, candidate);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& [distance, candidate] : scored) {
    if (out.size() >= limit) break;
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.emplace_back(candidate);
  }
  return out;
}

namespace {

constexpr std::size_t kNamesListed = 12;
constexpr std::size_t kHintsOffered = 3;

std::string plural_noun(std::string_view noun) {
  return std::string(noun) + (noun.ends_with('s') ? "es" : "s");
}

// `written` with each replacement in place of `ref`, skipping ones that do not apply.
std::vector<std::string> corrected(std::string_view written, std::string_view ref,
                                   const std::vector<std::string>& replacements) {
  std::vector<std::string> out;
  for (const auto& replacement : replacements) {
    if (out.size() == kHintsOffered) break;
    if (auto fixed = replace_reference(written, ref, replacement); !fixed.empty())
      out.push_back(std::move(fixed));
  }
  return out;
}

}  // namespace

std::string replace_reference(std::string_view written, std::string_view ref,
                              std::string_view replacement) {
  if (ref.empty()) return {};
  std::string out(written);
  const std::string quoted = "\"" + std::string(ref) + "\"";
  if (auto at = out.find(quoted); at != std::string::npos)
    return out.replace(at, quoted.size(), replacement);
  for (std::size_t at = 0; (at = out.find(ref, at)) != std::string::npos; at += ref.size()) {
    const std::size_t end = at + ref.size();
    const bool starts = at == 0 || out[at - 1] == ' ' || out[at - 1] == ':';
    const bool ends = end == out.size() || out[end] == ' ';
    if (starts && ends) return out.replace(at, ref.size(), replacement);
  }
  return {};
}

Error unknown_reference(const ReferenceErrors& how, std::string_view ref,
                        const std::vector<std::string>& names) {
  std::string message = "unknown " + std::string(how.noun) + " \"" + std::string(ref) + "\"";
  if (names.empty()) {
    message += ": " + (how.when_none.empty() ? "there are no " + plural_noun(how.noun) + " yet"
                                             : std::string(how.when_none));
  } else {
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < kNamesListed; ++i)
      list += (i == 0 ? "" : ", ") + quote_token(names[i]);
    if (names.size() > kNamesListed)
      list += ", … " + std::to_string(names.size() - kNamesListed) + " more";
    message += " (" + plural_noun(how.noun) + ": " + list + ")";
  }
  std::vector<std::string> tokens;
  for (const auto& close : closest_matches(ref, names, kHintsOffered))
    tokens.push_back(quote_token(close));
  auto hints = corrected(how.written, ref, tokens);
  if (hints.empty()) hints = how.otherwise;
  return make_error(std::move(message), std::move(hints));
}

Error ambiguous_reference(const ReferenceErrors& how, std::string_view ref, std::size_t count,
                          const std::vector<std::string>& described,
                          const std::vector<std::string>& tokens) {
  std::string list;
  for (std::size_t i = 0; i < described.size() && i < kNamesListed; ++i)
    list += (i == 0 ? "" : ", ") + described[i];
  if (count > kNamesListed) list += ", …";
  return make_error("\"" + std::string(ref) + "\" matches " + std::to_string(count) + " " +
                        plural_noun(how.noun) + ": " + list,
                    corrected(how.written, ref, tokens));
}

}  // namespace fcp::core
