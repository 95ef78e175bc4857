#include "daemon/conformance.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fcp::daemon {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// CTest sets FCP_SOURCE_DIR; without it the real fixtures cannot be found and the test fails.
fs::path fixture_dir() {
  const char* source = std::getenv("FCP_SOURCE_DIR");
  EXPECT_NE(source, nullptr) << "set FCP_SOURCE_DIR to the source tree";
  return fs::path(source != nullptr ? source : "") / "fixtures" / "conformance";
}

struct RunOutput {
  int status = -1;
  std::string output;
};

RunOutput run(const std::vector<std::string>& files) {
  std::ostringstream out;
  RunOutput result;
  result.status = run_conformance(files, out);
  result.output = out.str();
  return result;
}

// "N passed, M failed" must be the last line.
std::pair<int, int> totals(const std::string& output) {
  static const std::regex last_line(R"((\d+) passed, (\d+) failed\n$)");
  std::smatch match;
  if (!std::regex_search(output, match, last_line)) return {-1, -1};
  return {std::stoi(match[1]), std::stoi(match[2])};
}

class TempDir {
 public:
  TempDir() : path_(fs::temp_directory_path() / ("fcp-conformance-" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }

 private:
  fs::path path_;
};

TEST(Conformance, RealFixturesAllPass) {
  const std::vector<std::pair<std::string, int>> suites{
      {"tokenizer.json", 40}, {"parse-op.json", 50}, {"session.json", 25}, {"event-log.json", 40}};
  int total = 0;
  for (const auto& [name, minimum] : suites) {
    const fs::path file = fixture_dir() / name;
    ASSERT_TRUE(fs::exists(file)) << file;
    RunOutput result = run({file.string()});
    EXPECT_EQ(result.status, 0) << result.output;
    EXPECT_THAT(result.output, Not(HasSubstr("FAIL")));
    const auto [passed, failed] = totals(result.output);
    EXPECT_GE(passed, minimum) << name;
    EXPECT_EQ(failed, 0) << name;
    total += passed;
  }
  std::vector<std::string> all;
  for (const auto& [name, minimum] : suites)
    all.push_back((fixture_dir() / name).string());
  RunOutput combined = run(all);
  EXPECT_EQ(combined.status, 0);
  EXPECT_EQ(totals(combined.output), std::make_pair(total, 0));
}

TEST(Conformance, DetectsWrongTokenizerExpectations) {
  TempDir dir;
  const std::string file = dir.write("tok.json", R"({"description":"d","version":"1","tests":[
    {"name":"right","input":"a b","expected":["a","b"]},
    {"name":"wrong","input":"a \"b c\"","expected":["a","b","c"]}]})");
  RunOutput result = run({file});
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output,
              HasSubstr("FAIL " + file + R"( :: wrong: expected ["a","b","c"] got ["a","b c"])"));
  EXPECT_EQ(totals(result.output), std::make_pair(1, 1));
}

TEST(Conformance, DetectsWrongParseOpExpectationsAndMissingErrors) {
  TempDir dir;
  const std::string file = dir.write("ops.json", R"({"description":"d","version":"1","tests":[
    {"name":"param","input":"add x:1","expected":{"verb":"add","positionals":[],"params":{"x":"2"},
     "selectors":[],"raw":"add x:1"}},
    {"name":"ok","input":"add @all","expected":{"verb":"add","positionals":[],"params":{},
     "selectors":["@all"],"raw":"add @all"}}],
    "error_tests":[{"name":"not an error","input":"add x","expected_error":true},
                   {"name":"is an error","input":"  ","expected_error":true}]})");
  RunOutput result = run({file});
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output,
              HasSubstr(":: param: params: expected {\"x\":\"2\"} got {\"x\":\"1\"}"));
  EXPECT_THAT(result.output, HasSubstr(":: not an error: expected a parse error got"));
  EXPECT_EQ(totals(result.output), std::make_pair(2, 2));
}

TEST(Conformance, DetectsWrongSessionExpectations) {
  TempDir dir;
  const std::string file = dir.write("session.json", R"({"description":"d","version":"1","tests":[
    {"name":"count","input":"undo 3","expected":{"command":"undo","args":{"count":2},"params":{}}},
    {"name":"string count","input":"undo 3","expected":{"command":"undo","args":{"count":"3"},
     "params":{}}},
    {"name":"fine","input":"undo 3","expected":{"command":"undo","args":{"count":3},"params":{}}}]})");
  RunOutput result = run({file});
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output, HasSubstr(":: count: args: expected {\"count\":2} got {\"count\":3}"));
  EXPECT_THAT(result.output, HasSubstr(":: string count: args:"));
  EXPECT_EQ(totals(result.output), std::make_pair(1, 2));
}

TEST(Conformance, DetectsWrongEventLogAssertions) {
  TempDir dir;
  const std::string file = dir.write("log.json", R"({"description":"d","version":"1","tests":[
    {"name":"cursor","operations":[{"action":"append","event":{"id":1}},{"action":"undo","count":1}],
     "assertions":{"cursor":1,"description":"prose is ignored"}},
    {"name":"deep","operations":[{"action":"append","event":{"id":{"x":[1,2]}}},
     {"action":"undo","count":1}],"assertions":{"undo_returned":[{"id":{"x":[1,3]}}]}},
    {"name":"null","operations":[{"action":"checkpoint","name":"v"},{"action":"undo_to","name":"v"}],
     "assertions":{"undo_to_returned":null}},
    {"name":"typo","operations":[],"assertions":{"cursr":0}},
    {"name":"bad action","operations":[{"action":"jump"}],"assertions":{}}]})");
  RunOutput result = run({file});
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output, HasSubstr(":: cursor: cursor: expected 1 got 0"));
  EXPECT_THAT(result.output, HasSubstr(":: deep: undo_returned: expected"));
  EXPECT_THAT(result.output, HasSubstr(":: null: undo_to_returned: expected null got []"));
  EXPECT_THAT(result.output, HasSubstr(":: typo: unknown assertion \"cursr\""));
  EXPECT_THAT(result.output, HasSubstr(":: bad action: operation 0: unknown action \"jump\""));
  EXPECT_EQ(totals(result.output), std::make_pair(0, 5));
}

TEST(Conformance, UnreadableAndInvalidFilesAreFailures) {
  TempDir dir;
  const std::string broken = dir.write("broken.json", "{\"tests\": [");
  const std::string shapeless = dir.write("shapeless.json", R"({"description":"no tests"})");
  const std::string unknown = dir.write("mystery.json", R"({"tests":[{"name":"x","input":"a"}]})");
  const std::string missing = (fs::temp_directory_path() / "fcp-no-such-fixture.json").string();
  RunOutput result = run({broken, shapeless, unknown, missing});
  EXPECT_EQ(result.status, 1);
  EXPECT_THAT(result.output, HasSubstr("FAIL " + broken + " :: <file>: invalid JSON"));
  EXPECT_THAT(result.output, HasSubstr("FAIL " + shapeless + " :: <file>: not a fixture file"));
  EXPECT_THAT(result.output, HasSubstr("FAIL " + unknown + " :: <file>: cannot recognise"));
  EXPECT_THAT(result.output, HasSubstr("FAIL " + missing + " :: <file>: cannot read the file"));
  EXPECT_EQ(totals(result.output), std::make_pair(0, 4));
}

TEST(Conformance, NothingRunIsNotASuccess) {
  RunOutput none = run({});
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.output, "0 passed, 0 failed\n");
  TempDir dir;
  RunOutput empty = run({dir.write("session-empty.json", R"({"tests":[]})")});
  EXPECT_EQ(empty.status, 1);
  EXPECT_EQ(empty.output, "0 passed, 0 failed\n");
}

TEST(Conformance, ErrorOnlyFileUsesItsNameForTheKind) {
  TempDir dir;
  RunOutput result = run({dir.write("session-errors.json",
                                    R"({"tests":[],"error_tests":[{"name":"e","input":"undo x",
                                  "expected_error":true}]})")});
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(totals(result.output), std::make_pair(1, 0));
}

}  // namespace
}  // namespace fcp::daemon
