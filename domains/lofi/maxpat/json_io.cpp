#include "domains/lofi/maxpat/json_io.hpp"

#include <algorithm>
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value_stack.hpp>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "core/call_scope.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;
using core::make_error;

// Builds a json::value like Boost's own parser does, except that doubles are converted from
// their text with std::from_chars (Boost 1.81's conversion may be off by an ulp, which would
// turn a lossless open → save into a lossy one).
class ValueBuilder {
 public:
  static constexpr std::size_t max_object_size = json::object::max_size();
  static constexpr std::size_t max_array_size = json::array::max_size();
  static constexpr std::size_t max_key_size = json::string::max_size();
  static constexpr std::size_t max_string_size = json::string::max_size();

  ValueBuilder() { stack_.reset(); }

  json::value release() { return stack_.release(); }
  const std::string& number_error() const { return number_error_; }

  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  bool on_object_begin(json::error_code&) { return true; }
  bool on_object_end(std::size_t n, json::error_code&) {
    stack_.push_object(n);
    return true;
  }
  bool on_array_begin(json::error_code&) { return true; }
  bool on_array_end(std::size_t n, json::error_code&) {
    stack_.push_array(n);
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    stack_.push_chars(s);
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    stack_.push_key(s);
    return true;
  }
  bool on_string_part(json::string_view s, std::size_t, json::error_code&) {
    stack_.push_chars(s);
    return true;
  }
  bool on_string(json::string_view s, std::size_t, json::error_code&) {
    stack_.push_string(s);
    return true;
  }
  bool on_number_part(json::string_view s, json::error_code&) {
    number_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, json::string_view, json::error_code&) {
    number_.clear();
    stack_.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, json::string_view, json::error_code&) {
    number_.clear();
    stack_.push_uint64(u);
    return true;
  }
  bool on_double(double, json::string_view s, json::error_code& ec) {
    number_.append(s.data(), s.size());
    double d = 0;
    const auto [end, errc] = std::from_chars(number_.data(), number_.data() + number_.size(), d);
    if (errc != std::errc{} || end != number_.data() + number_.size() || !std::isfinite(d)) {
      number_error_ = "the number " + number_.substr(0, 40) + " is outside the range of a double";
      ec = json::error::exponent_overflow;
      return false;
    }
    number_.clear();
    stack_.push_double(d);
    return true;
  }
  bool on_bool(bool b, json::error_code&) {
    stack_.push_bool(b);
    return true;
  }
  bool on_null(json::error_code&) {
    stack_.push_null();
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }

 private:
  json::value_stack stack_;
  std::string number_;  // the text of the number being read, for from_chars
  std::string number_error_;
};

// "line 3, column 14" of byte `offset` in `text`.
std::string place_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Lays out a value the way Max does; see JsonStyle.
// Bytes of JSON parsed between two asks whether the call must stop (about 10 ms of work).
constexpr std::size_t kParseChunkBytes = std::size_t{4} << 20;
// JSON objects written between two such asks.
constexpr std::size_t kStopCheckObjects = 1024;

class MaxJsonWriter {
 public:
  MaxJsonWriter(JsonStyle style, int decimals) : style_(style), decimals_(decimals) {}

  std::string finish(const json::value& value) {
    write(value, 0);
    if (style_ == JsonStyle::tabs) out_ += '\n';
    return std::move(out_);
  }

 private:
  void indent(std::size_t depth) {
    if (style_ == JsonStyle::tabs) {
      out_.append(depth, '\t');
    } else {
      out_.append(depth * 4, ' ');
    }
  }

  void write(const json::value& value, std::size_t depth) {
    // A call that must stop ends the text here (see format_json's contract).
    if (stopped_) return;
    switch (value.kind()) {
      case json::kind::object:
        if (++objects_ % kStopCheckObjects == 0 && core::call_stop()) {
          stopped_ = true;
          return;
        }
        if (style_ == JsonStyle::tabs) {
          tabs_object(value.get_object(), depth);
        } else {
          spaces_object(value.get_object(), depth);
        }
        break;
      case json::kind::array:
        array(value.get_array(), depth);
        break;
      case json::kind::string:
        string(value.get_string());
        break;
      case json::kind::int64:
        integer(value.get_int64());
        break;
      case json::kind::uint64:
        integer(value.get_uint64());
        break;
      case json::kind::double_:
        out_ += format_double(value.get_double(), decimals_);
        break;
      case json::kind::bool_:
        out_ += value.get_bool() ? "true" : "false";
        break;
      case json::kind::null:
        out_ += "null";
        break;
    }
  }

  // Max ≤ 9.0: every object opens on its own indentation and is followed by a newline, so the
  // separating comma of the next member lands on a line of its own.
  void tabs_object(const json::object& object, std::size_t depth) {
    indent(depth);
    out_ += "{\n";
    bool first = true;
    for (const auto& member : object) {
      if (!first) out_ += ",\n";
      first = false;
      indent(depth + 1);
      string(member.key());
      out_ += " : ";
      write(member.value(), depth + 1);
      if (member.value().is_object()) out_ += '\n';
    }
    out_ += '\n';
    indent(depth);
    out_ += '}';
  }

  void spaces_object(const json::object& object, std::size_t depth) {
    out_ += '{';
    bool first = true;
    for (const auto& member : object) {
      if (!first) out_ += ',';
      first = false;
      out_ += '\n';
      indent(depth + 1);
      string(member.key());
      out_ += ": ";
      write(member.value(), depth + 1);
    }
    if (!object.empty()) out_ += '\n';
    indent(depth);
    out_ += '}';
  }

  void array(const json::array& array, std::size_t depth) {
    const bool holds_objects =
        std::any_of(array.begin(), array.end(), [](const json::value& v) { return v.is_object(); });
    if (style_ == JsonStyle::spaces && holds_objects) {
      out_ += '[';
      bool first = true;
      for (const json::value& element : array) {
        if (!first) out_ += ',';
        first = false;
        out_ += '\n';
        indent(depth + 1);
        write(element, depth + 1);
      }
      if (!array.empty()) out_ += '\n';
      indent(depth);
      out_ += ']';
      return;
    }
    out_ += "[ ";
    bool first = true;
    for (const json::value& element : array) {
      if (!first) out_ += ", ";
      first = false;
      write(element, depth + 1);
      if (style_ == JsonStyle::tabs && element.is_object()) out_ += '\n';
    }
    out_ += " ]";
  }

  void string(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out_ += '"';
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        case '\b':
          out_ += "\\b";
          break;
        case '\f':
          out_ += "\\f";
          break;
        default:
          if (byte < 0x20) {
            out_ += "\\u00";
            out_ += hex[byte >> 4];
            out_ += hex[byte & 0x0F];
          } else {
            out_ += c;
          }
      }
    }
    out_ += '"';
  }

  template <class Integer>
  void integer(Integer value) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out_.append(buffer, result.ptr);
  }

  JsonStyle style_;
  int decimals_;
  std::string out_;
  std::size_t objects_ = 0;
  bool stopped_ = false;
};

std::string shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

core::Result<json::value> parse_json(std::string_view text, const JsonLimits& limits) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  json::parse_options options;
  options.max_depth = limits.max_depth;
  json::basic_parser<ValueBuilder> parser(options);
  json::error_code ec;
  // Fed in chunks, between which a call that must stop (cancelled, past its time limit) stops.
  std::size_t used = 0;
  while (true) {
    const std::size_t chunk = std::min(kParseChunkBytes, text.size() - used);
    const bool more = used + chunk < text.size();
    used += parser.write_some(more, text.data() + used, chunk, ec);
    if (ec || !more || parser.done()) break;
    if (auto stop = core::stop_error("reading the patcher", "no document was opened")) return *stop;
  }
  if (ec) {
    const std::string& number_error = parser.handler().number_error();
    std::string why = !number_error.empty() ? number_error : ec.message();
    if (ec == json::error::too_deep) {
      why = "nesting deeper than " + std::to_string(limits.max_depth) + " levels";
    } else if (ec == json::error::syntax && used < text.size() &&
               static_cast<unsigned char>(text[used]) >= 0x80) {
      why = "invalid UTF-8 (Max patchers are UTF-8)";
    }
    return make_error("invalid JSON at " + place_of(text, used) + ": " + why);
  }
  const std::size_t extra = text.find_first_not_of(" \t\r\n", used);
  if (extra != std::string_view::npos)
    return make_error("invalid JSON at " + place_of(text, extra) +
                      ": extra data after the JSON document");
  return parser.handler().release();
}

JsonStyle detect_style(std::string_view text) {
  const std::size_t open = text.find('"');
  if (open == std::string_view::npos) return JsonStyle::tabs;
  std::size_t i = open + 1;
  while (i < text.size() && text[i] != '"')
    i += text[i] == '\\' ? 2 : 1;
  if (i + 1 < text.size() && text[i + 1] == ':') return JsonStyle::spaces;
  return JsonStyle::tabs;
}

std::string format_json(const json::value& value, JsonStyle style, int decimals) {
  return MaxJsonWriter(style, decimals).finish(value);
}

int max_decimals(const json::object& patcher) {
  const json::value* version = patcher.if_contains("appversion");
  if (version == nullptr || !version->is_object()) return 15;
  const json::value* major = version->get_object().if_contains("major");
  if (major == nullptr || !major->is_int64()) return 15;
  return major->get_int64() < 8 ? 6 : 15;
}

std::string format_double(double value, int decimals) {
  if (std::isnan(value)) return "0.0";  // JSON has no NaN or infinity
  if (std::isinf(value)) {
    value = value > 0 ? std::numeric_limits<double>::max() : std::numeric_limits<double>::lowest();
  }
  if (std::fabs(value) >= 1e17) return shortest(value);
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed,
                                    std::clamp(decimals, 1, 17));
  std::string text(buffer, result.ptr);
  while (text.size() > 2 && text.back() == '0' && text[text.size() - 2] != '.')
    text.pop_back();
  double back = 0;
  std::from_chars(text.data(), text.data() + text.size(), back);
  if (back == value && std::signbit(back) == std::signbit(value)) return text;
  return shortest(value);
}

}  // namespace fcp::lofi::maxpat
