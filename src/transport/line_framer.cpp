#include "transport/line_framer.hpp"

namespace fcp::transport {

std::size_t LineFramer::feed(std::string_view data, const Sink& sink, const Full& full) {
  const std::size_t size = data.size();
  while (!data.empty()) {
    if (full && full()) return size - data.size();
    const auto newline = data.find('\n');
    const auto piece = data.substr(0, newline);
    if (newline != std::string_view::npos && buffer_.empty() && !discarding_) {
      end_line(piece, sink);  // the common case: a whole line inside one read, no copy
    } else {
      append(piece);
      if (newline == std::string_view::npos) return size;
      end_line(buffer_, sink);
    }
    data.remove_prefix(newline + 1);
  }
  return size;
}

void LineFramer::finish(const Sink& sink) {
  if (discarding_ || !buffer_.empty()) end_line(buffer_, sink);
}

void LineFramer::append(std::string_view piece) {
  if (discarding_) {
    discarded_ += piece.size();
    return;
  }
  // One byte of slack so that a line of exactly max bytes followed by "\r\n" still fits.
  if (buffer_.size() + piece.size() > max_ + 1) {
    discarding_ = true;
    discarded_ = buffer_.size() + piece.size();
    std::string().swap(buffer_);
    return;
  }
  buffer_.append(piece);
}

void LineFramer::end_line(std::string_view line, const Sink& sink) {
  if (discarding_) {
    const auto size = discarded_;
    discarding_ = false;
    discarded_ = 0;
    sink(Frame{{}, size});
    return;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > max_) {
    sink(Frame{{}, line.size()});
  } else if (!line.empty()) {
    sink(Frame{line, 0});
  }
  buffer_.clear();
}

}  // namespace fcp::transport
