#include "cli/sse.hpp"

namespace fcp::cli {

std::vector<SseEvent> SseParser::feed(std::string_view bytes) {
  std::vector<SseEvent> events;
  if (at_start_ && !bytes.empty()) {
    // The BOM may only be checked once enough bytes arrived; streams from fcpd never split it.
    if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
    at_start_ = false;
  }
  while (!bytes.empty()) {
    if (after_cr_ && bytes.front() == '\n') bytes.remove_prefix(1);
    after_cr_ = false;
    auto end = bytes.find_first_of("\r\n");
    if (end == std::string_view::npos) {
      line_.append(bytes);
      break;
    }
    line_.append(bytes.substr(0, end));
    after_cr_ = bytes[end] == '\r';
    bytes.remove_prefix(end + 1);
    process_line(line_, events);
    line_.clear();
  }
  return events;
}

void SseParser::process_line(std::string_view line, std::vector<SseEvent>& out) {
  if (line.empty()) {
    if (has_data_) {
      if (data_.ends_with('\n')) data_.pop_back();
      out.push_back(SseEvent{std::move(type_), std::move(data_), last_id_});
    }
    data_.clear();
    type_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;
  auto colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (value.starts_with(' ')) value.remove_prefix(1);
  if (field == "data") {
    data_.append(value);
    data_.push_back('\n');
    has_data_ = true;
  } else if (field == "event") {
    type_ = std::string(value);
  } else if (field == "id" && value.find('\0') == std::string_view::npos) {
    last_id_ = std::string(value);
  }
  // `retry` and unknown fields are ignored: the client never reconnects a stream.
}

}  // namespace fcp::cli
