#include "cli/args.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli/errors.hpp"
#include "cli/message_channel.hpp"

namespace fcp::cli {
namespace {

Invocation parse(std::vector<std::string> argv) {
  return parse_args(argv);
}

TEST(ArgsTest, DefaultsWithoutOptions) {
  auto invocation = parse({"tools"});
  EXPECT_EQ(invocation.action, Invocation::Action::command);
  EXPECT_EQ(invocation.command, "tools");
  EXPECT_TRUE(invocation.args.empty());
  EXPECT_FALSE(invocation.options.connect);
  EXPECT_FALSE(invocation.options.json);
  EXPECT_EQ(invocation.options.timeout, std::chrono::milliseconds(120'000));
}

TEST(ArgsTest, GlobalOptionsBeforeTheCommand) {
  auto invocation = parse({"--connect",
                           "tcp://127.0.0.1:7000",
                           "--session",
                           "work",
                           "--doc",
                           "doc:dw-0123456789abcdef0123456789abcdef",
                           "--json",
                           "--fcpd",
                           "/opt/fcpd",
                           "--fcpd-arg",
                           "--root",
                           "--fcpd-arg=/tmp",
                           "--timeout",
                           "2.5",
                           "--save-images",
                           "out",
                           "-v",
                           "drawio",
                           "add svc A",
                           "--json"});
  const auto& options = invocation.options;
  ASSERT_TRUE(options.connect);
  EXPECT_EQ(options.connect->port, 7000);
  EXPECT_EQ(options.session, "work");
  EXPECT_EQ(options.doc, "doc:dw-0123456789abcdef0123456789abcdef");
  EXPECT_TRUE(options.json);
  EXPECT_TRUE(options.verbose);
  EXPECT_EQ(options.fcpd_path, "/opt/fcpd");
  EXPECT_EQ(options.fcpd_args, (std::vector<std::string>{"--root", "/tmp"}));
  EXPECT_EQ(options.timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(options.save_media_dir, "out");
  EXPECT_EQ(invocation.command, "drawio");
  // Everything after the command belongs to it, even what looks like an option.
  EXPECT_EQ(invocation.args, (std::vector<std::string>{"add svc A", "--json"}));
}

TEST(ArgsTest, HelpAndVersionNeedNoCommand) {
  EXPECT_EQ(parse({"--help"}).action, Invocation::Action::help);
  EXPECT_EQ(parse({"-h"}).action, Invocation::Action::help);
  EXPECT_EQ(parse({"--version"}).action, Invocation::Action::version);
}

TEST(ArgsTest, CallParsesItsJsonArguments) {
  auto invocation = parse({"call", "drawio", R"({"ops":["add svc A"]})"});
  EXPECT_EQ(invocation.args.front(), "drawio");
  ASSERT_TRUE(invocation.call_args.contains("ops"));
  EXPECT_EQ(invocation.call_args.at("ops").as_array().at(0).as_string(), "add svc A");
  EXPECT_TRUE(parse({"call", "drawio_help"}).call_args.empty());
}

TEST(ArgsTest, DoubleDashEndsOptions) {
  auto invocation = parse({"--json", "--", "--weird-tool", "x"});
  EXPECT_EQ(invocation.command, "--weird-tool");
  EXPECT_EQ(invocation.args, std::vector<std::string>{"x"});
}

struct BadArgs {
  std::vector<std::string> argv;
  std::string message_part;
};

class ArgsUsageErrorTest : public testing::TestWithParam<BadArgs> {};

TEST_P(ArgsUsageErrorTest, ThrowsUsageErrorNamingTheProblem) {
  try {
    parse(GetParam().argv);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(GetParam().message_part), std::string::npos)
        << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ArgsUsageErrorTest,
    testing::Values(BadArgs{{}, "missing COMMAND"}, BadArgs{{"--json"}, "missing COMMAND"},
                    BadArgs{{"--bogus", "tools"}, "unknown option '--bogus'"},
                    BadArgs{{"--json=1", "tools"}, "unknown option"},
                    BadArgs{{"--connect"}, "--connect needs a value"},
                    BadArgs{{"--connect", "ftp://x:1", "tools"}, "unknown scheme"},
                    BadArgs{{"--timeout", "0", "tools"}, "--timeout"},
                    BadArgs{{"--timeout", "abc", "tools"}, "--timeout"},
                    BadArgs{{"--timeout", "5s", "tools"}, "--timeout"},
                    BadArgs{{"--session", "", "tools"}, "--session"},
                    BadArgs{{"--doc", "", "tools"}, "--doc needs a document HANDLE"},
                    BadArgs{{"call"}, "fcp call TOOL"},
                    BadArgs{{"call", "drawio", "{not json"}, "not valid JSON"},
                    BadArgs{{"call", "drawio", "[1,2]"}, "must be a JSON object"},
                    BadArgs{{"call", "a", "{}", "extra"}, "fcp call TOOL"},
                    BadArgs{{"run"}, "fcp run FILE"}, BadArgs{{"run", "a", "b"}, "fcp run FILE"},
                    BadArgs{{"tools", "extra"}, "takes no arguments"}));

TEST(ArgsTest, UsageTextNamesEveryOption) {
  std::string usage(usage_text());
  for (const char* option :
       {"--connect", "--session", "--doc", "--json", "--fcpd ", "--fcpd-arg", "--timeout",
        "--save-media", "--save-images", "--verbose", "--help", "--version"}) {
    EXPECT_NE(usage.find(option), std::string::npos) << option;
  }
  EXPECT_NE(std::string(usage_synopsis()).find("usage: fcp"), std::string::npos);
}

TEST(ArgsTest, TheTokenComesFromTheTokenFileElseTheEnvironment) {
  ::setenv("FCPD_TOKEN", "from-the-environment-0123", 1);
  EXPECT_EQ(client_token(parse({"tools"}).options),
            std::optional<std::string>("from-the-environment-0123"));
  ::setenv("FCPD_TOKEN", "", 1);
  EXPECT_EQ(client_token(parse({"tools"}).options), std::nullopt);
  const auto file =
      std::filesystem::temp_directory_path() / ("fcp-token-" + std::to_string(::getpid()));
  std::ofstream(file) << "# mine\n\nalice:from-the-file-0123456789\r\n";
  const auto options = parse({"--token-file", file.string(), "tools"}).options;
  EXPECT_EQ(options.token_file, std::optional<std::string>(file.string()));
  ::setenv("FCPD_TOKEN", "from-the-environment-0123", 1);
  EXPECT_EQ(client_token(options), std::optional<std::string>("from-the-file-0123456789"));
  std::ofstream(file) << "# nothing\n";
  EXPECT_THROW(client_token(options), UsageError);
  std::filesystem::remove(file);
  EXPECT_THROW(client_token(options), UsageError);
  ::unsetenv("FCPD_TOKEN");
}

}  // namespace
}  // namespace fcp::cli
