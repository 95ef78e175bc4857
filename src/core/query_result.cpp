#include "core/query_result.hpp"

namespace fcp::core {

std::size_t estimated_json_bytes(const QueryData& data) {
  constexpr std::size_t kPerValue = 8;  // quotes, colon, comma
  constexpr std::size_t kNumber = 24;   // the longest number or boolean
  constexpr std::size_t kPerItem = 48;  // the item's own keys and braces
  std::size_t bytes = 64 + data.counts.size() * (kPerValue + kNumber);
  for (const auto& [name, count] : data.counts)
    bytes += name.size();
  for (const auto& item : data.items) {
    bytes += kPerItem + item.id.size() + item.name.size() + item.kind.size();
    for (const auto& [name, value] : item.fields) {
      bytes += kPerValue + name.size();
      const auto* text = std::get_if<std::string>(&value);
      bytes += text != nullptr ? text->size() + kPerValue : kNumber;
    }
  }
  return bytes;
}

}  // namespace fcp::core
