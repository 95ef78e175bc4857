// Max's own JSON dialect: a strict reader with exact numbers and the two layouts Max writes.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::lofi::maxpat {

// How Max lays out a patcher file. Both are plain JSON; only whitespace differs.
enum class JsonStyle {
  tabs,    // Max ≤ 9.0: `"key" : value`, tab indents, `}` + newline + `,` between objects
  spaces,  // Max 9.1+ (and py2max): `"key": value`, four-space indents
};

// Limits of parse_json; the defaults take any real patcher.
struct JsonLimits {
  std::size_t max_depth = 512;  // nesting of arrays and objects (each subpatcher adds about 4)
};

// Parses one JSON document (leading/trailing whitespace allowed, a UTF-8 BOM skipped).
// Doubles are converted with std::from_chars, so the value is the one nearest to the text;
// a number outside the double range is an error, as is invalid JSON (with its line and column).
core::Result<boost::json::value> parse_json(std::string_view text, const JsonLimits& limits = {});

// The layout of `text`, judged by the first key: `"patcher" :` is tabs, `"patcher":` spaces.
JsonStyle detect_style(std::string_view text);

// `value` laid out like Max does it, doubles with `decimals` (see format_double). Tabs ends
// with a newline, spaces does not (as Max writes them); key order is kept. A file Max wrote
// comes back byte for byte.
// Inside a call that must stop (core::call_stop: cancelled, past its time limit, the daemon
// shutting down) the text ends early and is incomplete: a caller inside a call asks
// core::stop_error after it and drops the text (LofiDocument::serialize does).
std::string format_json(const boost::json::value& value, JsonStyle style, int decimals = 15);

// A double the way Max writes it: fixed with `decimals` decimals (Max 8 and later: 15, Max 7
// and earlier: 6), trailing zeros dropped ("22.0", "0.003921568627451"); when that would not
// read back as the same double (tiny values, more precision than the decimals hold) or
// |value| >= 1e17, the shortest exact text instead ("1e-20", "0.30000000000000004").
// NaN is written as 0.0 and infinities as the largest doubles (JSON has neither).
std::string format_double(double value, int decimals = 15);

// The decimals Max of the patcher's "appversion" writes: 6 before Max 8, else 15.
int max_decimals(const boost::json::object& patcher);

}  // namespace fcp::lofi::maxpat
