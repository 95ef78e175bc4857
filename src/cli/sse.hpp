// Incremental parser for text/event-stream bodies (Server-Sent Events), as MCP's Streamable
// HTTP transport uses them to carry JSON-RPC messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fcp::cli {

struct SseEvent {
  std::string type;  // the `event:` field; empty means the default "message"
  std::string data;  // `data:` lines joined with '\n'
  std::string id;    // the last `id:` seen on the stream
};

// Follows the WHATWG event-stream rules: lines end in CRLF, LF or CR (also split across
// feeds); `:` starts a comment; one optional space after the field's colon is dropped; an
// event is dispatched at a blank line and only if it had data; a leading UTF-8 BOM is ignored.
// An event still incomplete when the stream ends is discarded, as the rules require.
class SseParser {
 public:
  // Consumes `bytes` and returns the events they completed, in order.
  std::vector<SseEvent> feed(std::string_view bytes);

 private:
  void process_line(std::string_view line, std::vector<SseEvent>& out);

  std::string line_;       // the current line, not yet terminated
  bool after_cr_ = false;  // the previous byte was CR: a following LF belongs to it
  bool at_start_ = true;   // nothing consumed yet (for the BOM)
  std::string data_;
  std::string type_;
  std::string last_id_;
  bool has_data_ = false;
};

// True for events that carry a JSON-RPC message (type empty or "message").
inline bool is_message_event(const SseEvent& event) {
  return event.type.empty() || event.type == "message";
}

}  // namespace fcp::cli
