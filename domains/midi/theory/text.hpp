// ASCII text helpers shared by the theory parsers (internal to fcp_midi_theory).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::midi::theory::detail {

// Lowercase ASCII letters; other bytes unchanged.
std::string lower(std::string_view text);
// Lowercase and keep only ASCII letters and digits: "Lead 8 (bass + lead)" → "lead8basslead".
std::string alnum_key(std::string_view text);
bool iequals(std::string_view a, std::string_view b);
bool all_digits(std::string_view text);  // non-empty and only 0-9
// Unsigned decimal, digits only (no sign, no spaces), up to 18 digits.
std::optional<std::uint64_t> parse_digits(std::string_view text);
// Signed decimal: optional '+' or '-', then digits; fits in int.
std::optional<int> parse_int(std::string_view text);
// The text in double quotes, for messages: unknown pitch "H4".
std::string quoted(std::string_view text);
// Consumes `prefix` from the front of `text` if present.
bool consume_prefix(std::string_view& text, std::string_view prefix);
bool consume_suffix(std::string_view& text, std::string_view suffix);
std::vector<std::string> to_strings(const std::vector<std::string_view>& views);

}  // namespace fcp::midi::theory::detail
