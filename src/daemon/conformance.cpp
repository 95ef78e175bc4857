#include "daemon/conformance.hpp"

#include <boost/json.hpp>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "core/parsed_op.hpp"
#include "core/session_command.hpp"
#include "core/tokenizer.hpp"
#include "daemon/conformance_event_log.hpp"

namespace fcp::daemon {
namespace json = boost::json;
namespace {

enum class SuiteKind { tokenizer, parse_op, session, event_log, unknown };

std::string mismatch(const json::value& expected, const json::value& got) {
  return "expected " + json::serialize(expected) + " got " + json::serialize(got);
}

const json::string* string_field(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr ? value->if_string() : nullptr;
}

json::array string_array(const std::vector<std::string>& items) {
  json::array out;
  for (const std::string& item : items)
    out.emplace_back(item);
  return out;
}

SuiteKind kind_of_test(const json::object& test) {
  if (test.contains("operations")) return SuiteKind::event_log;
  const json::value* expected = test.if_contains("expected");
  if (expected == nullptr) return SuiteKind::unknown;
  if (expected->is_array()) return SuiteKind::tokenizer;
  if (!expected->is_object()) return SuiteKind::unknown;
  if (expected->as_object().contains("verb")) return SuiteKind::parse_op;
  if (expected->as_object().contains("command")) return SuiteKind::session;
  return SuiteKind::unknown;
}

// The test objects decide; a file holding only error tests falls back to its name.
SuiteKind detect_kind(const json::object& suite, std::string_view file) {
  if (const json::array* tests = suite.at("tests").if_array()) {
    for (const json::value& test : *tests) {
      if (test.is_object()) return kind_of_test(test.as_object());
    }
  }
  const std::string_view name = file.substr(file.find_last_of('/') + 1);
  if (name.find("session") != std::string_view::npos) return SuiteKind::session;
  if (name.find("token") != std::string_view::npos) return SuiteKind::tokenizer;
  if (name.find("parse") != std::string_view::npos) return SuiteKind::parse_op;
  if (name.find("event") != std::string_view::npos) return SuiteKind::event_log;
  return SuiteKind::unknown;
}

json::value token_texts(const std::vector<core::Token>& tokens) {
  json::array out;
  for (const core::Token& token : tokens)
    out.emplace_back(token.text);
  return out;
}

json::object parsed_op_json(const core::ParsedOp& op) {
  json::object params;
  for (const core::Param& param : op.params)
    params[param.key] = param.value;
  json::array selectors;
  for (const core::Selector& selector : op.selectors)
    selectors.emplace_back(selector.raw);
  return json::object{{"verb", op.verb},
                      {"positionals", string_array(op.positionals)},
                      {"params", std::move(params)},
                      {"selectors", std::move(selectors)},
                      {"arrows", string_array(op.arrows)},
                      {"raw", op.raw}};
}

json::object session_json(const core::SessionCommand& command) {
  json::object args;
  for (const auto& [key, value] : command.args)
    args[key] = value;
  if (command.count) args["count"] = *command.count;
  json::object params;
  for (const auto& [key, value] : command.params)
    params[key] = value;
  return json::object{{"command", command.command},
                      {"args", std::move(args)},
                      {"params", std::move(params)},
                      {"positionals", string_array(command.positionals)}};
}

// Compares the fields the fixture lists; a field the runner does not produce is a failure.
std::optional<std::string> compare_fields(const json::object& expected, const json::object& got) {
  for (const auto& field : expected) {
    const json::value* actual = got.if_contains(field.key());
    if (actual == nullptr) return "unknown expected field \"" + std::string(field.key()) + "\"";
    if (*actual != field.value()) {
      return std::string(field.key()) + ": " + mismatch(field.value(), *actual);
    }
  }
  return std::nullopt;
}

// Session tests may name the domain's extra commands: `"extensions": ["export"]`.
std::vector<std::string> extensions_of(const json::object& test) {
  std::vector<std::string> out;
  const json::value* list = test.if_contains("extensions");
  if (list == nullptr || !list->is_array()) return out;
  for (const json::value& item : list->get_array()) {
    if (item.is_string()) out.emplace_back(item.get_string());
  }
  return out;
}

template <class T>
std::string error_text(const core::Result<T>& result) {
  return "error \"" + result.error().message + "\"";
}

// Returns the failure detail, or nullopt when the test passed.
std::optional<std::string> run_test(SuiteKind kind, const json::object& test) {
  const json::string* input = string_field(test, "input");
  const json::value* expected = test.if_contains("expected");
  if (input == nullptr || expected == nullptr) return "malformed test: needs input and expected";
  const std::string_view text(input->data(), input->size());
  if (kind == SuiteKind::tokenizer) {
    auto tokens = core::tokenize(text);
    if (!tokens) return "expected " + json::serialize(*expected) + " got " + error_text(tokens);
    const json::value got = token_texts(*tokens);
    if (got != *expected) return mismatch(*expected, got);
    return std::nullopt;
  }
  if (!expected->is_object()) return "malformed test: expected must be an object";
  if (kind == SuiteKind::parse_op) {
    auto op = core::parse_op(text);
    if (!op) return "expected " + json::serialize(*expected) + " got " + error_text(op);
    return compare_fields(expected->as_object(), parsed_op_json(*op));
  }
  auto command = core::parse_session_command(text, extensions_of(test));
  if (!command) return "expected " + json::serialize(*expected) + " got " + error_text(command);
  return compare_fields(expected->as_object(), session_json(*command));
}

std::optional<std::string> run_error_test(SuiteKind kind, const json::object& test) {
  const json::string* input = string_field(test, "input");
  const json::value* flag = test.if_contains("expected_error");
  if (input == nullptr || flag == nullptr || *flag != json::value(true)) {
    return "malformed error test: needs input and \"expected_error\": true";
  }
  const std::string_view text(input->data(), input->size());
  bool failed = false;
  std::string got;
  if (kind == SuiteKind::tokenizer) {
    auto tokens = core::tokenize(text);
    failed = !tokens;
    if (tokens) got = json::serialize(token_texts(*tokens));
  } else if (kind == SuiteKind::parse_op) {
    auto op = core::parse_op(text);
    failed = !op;
    if (op) got = json::serialize(parsed_op_json(*op));
  } else {
    auto command = core::parse_session_command(text, extensions_of(test));
    failed = !command;
    if (command) got = json::serialize(session_json(*command));
  }
  if (failed) return std::nullopt;
  return "expected a parse error got " + got;
}

class Runner {
 public:
  explicit Runner(std::ostream& out) : out_(out) {}

  void run_file(const std::string& file) {
    std::optional<json::object> suite = load(file);
    if (!suite) return;
    const SuiteKind kind = detect_kind(*suite, file);
    if (kind == SuiteKind::unknown) return fail(file, "<file>", "cannot recognise the suite kind");
    run_list(file, *suite, "tests", kind, false);
    if (suite->contains("error_tests")) run_list(file, *suite, "error_tests", kind, true);
  }

  int finish() {
    out_ << passed_ << " passed, " << failed_ << " failed\n";
    return failed_ == 0 && passed_ > 0 ? 0 : 1;
  }

 private:
  std::optional<json::object> load(const std::string& file) {
    std::ifstream stream(file, std::ios::binary);
    if (!stream) {
      fail(file, "<file>", "cannot read the file");
      return std::nullopt;
    }
    std::ostringstream text;
    text << stream.rdbuf();
    boost::system::error_code ec;
    json::value root = json::parse(text.str(), ec);
    if (ec) {
      fail(file, "<file>", "invalid JSON: " + ec.message());
      return std::nullopt;
    }
    json::object* suite = root.if_object();
    if (suite == nullptr || !suite->contains("tests") || !suite->at("tests").is_array()) {
      fail(file, "<file>", "not a fixture file: needs an object with a tests array");
      return std::nullopt;
    }
    return std::move(*suite);
  }

  void run_list(const std::string& file, const json::object& suite, std::string_view key,
                SuiteKind kind, bool errors) {
    const json::array* tests = suite.at(key).if_array();
    if (tests == nullptr) return fail(file, "<file>", std::string(key) + " is not an array");
    for (std::size_t i = 0; i < tests->size(); ++i) {
      const json::object* test = (*tests)[i].if_object();
      const json::string* name = test != nullptr ? string_field(*test, "name") : nullptr;
      const std::string label = name != nullptr ? std::string(name->data(), name->size())
                                                : std::string(key) + "[" + std::to_string(i) + "]";
      if (test == nullptr) {
        fail(file, label, "a test must be an object");
        continue;
      }
      std::optional<std::string> failure = run_one(kind, *test, errors);
      if (failure) {
        fail(file, label, *failure);
      } else {
        ++passed_;
      }
    }
  }

  static std::optional<std::string> run_one(SuiteKind kind, const json::object& test, bool errors) {
    try {
      if (kind == SuiteKind::event_log) {
        if (errors) return "event-log suites have no error_tests";
        return run_event_log_test(test);
      }
      return errors ? run_error_test(kind, test) : run_test(kind, test);
    } catch (const std::exception& e) {
      return std::string("exception: ") + e.what();
    }
  }

  void fail(const std::string& file, std::string_view test, std::string_view detail) {
    ++failed_;
    out_ << "FAIL " << file << " :: " << test << ": " << detail << '\n';
  }

  std::ostream& out_;
  std::size_t passed_ = 0;
  std::size_t failed_ = 0;
};

}  // namespace

int run_conformance(const std::vector<std::string>& files, std::ostream& out) {
  Runner runner(out);
  for (const std::string& file : files)
    runner.run_file(file);
  return runner.finish();
}

}  // namespace fcp::daemon
