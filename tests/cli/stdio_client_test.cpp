// The spawned-daemon path: fcp starts a stand-in "fcpd" (a shell script) and talks over pipes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "cli/stdio_channel.hpp"
#include "run_fcp.hpp"

namespace fcp::cli {
namespace {

using testing::HasSubstr;
using namespace testing_support;

// fcp's main() ignores SIGPIPE; the test binary must too, for a child that dies mid-write.
const bool sigpipe_ignored = std::signal(SIGPIPE, SIG_IGN) != SIG_ERR;

// Answers initialize (id 1) and the first tools/call (id 2) with canned lines; the client's
// request ids are deterministic. $1… are recorded for the --fcpd-arg assertions.
constexpr const char* fake_daemon = R"(#!/bin/sh
printf '%s\n' "$@" > "$0.args"
while IFS= read -r line; do
  case "$line" in
    *'"initialize"'*)
      echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sh","version":"1"}}}' ;;
    *'"tools/call"'*)
      echo '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}'
      echo '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"called"}],"isError":false}}' ;;
  esac
done
)";

// Answers initialize, then dies with status 3 on the first tools/call.
constexpr const char* dying_daemon = R"(#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *'"initialize"'*)
      echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}' ;;
    *'"tools/call"'*) exit 3 ;;
  esac
done
)";

// Answers initialize, then reads on without ever answering.
constexpr const char* silent_daemon = R"(#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *'"initialize"'*)
      echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}' ;;
  esac
done
)";

class StdioClientTest : public testing::Test {
 protected:
  std::string write_daemon(const std::string& name, const char* text) {
    std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path.string();
  }
  void SetUp() override {
    ASSERT_TRUE(sigpipe_ignored);
    dir_ = std::filesystem::path(testing::TempDir()) /
           ("fcp_stdio_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

TEST_F(StdioClientTest, SpawnsTheDaemonWithStdioAndExtraArguments) {
  auto daemon = write_daemon("fcpd", fake_daemon);
  auto outcome = run_fcp(
      {"--fcpd", daemon, "--fcpd-arg", "--root", "--fcpd-arg", "/tmp", "call", "drawio_help"});
  EXPECT_EQ(outcome.status, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "called\n");
  std::ifstream args(daemon + ".args");
  std::string recorded((std::istreambuf_iterator<char>(args)), std::istreambuf_iterator<char>());
  EXPECT_EQ(recorded, "--stdio\n--root\n/tmp\n");
}

TEST_F(StdioClientTest, ChildDyingIsAClearErrorWithExitTwo) {
  auto daemon = write_daemon("dying", dying_daemon);
  auto outcome = run_fcp({"--fcpd", daemon, "call", "drawio_help"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("the daemon failed: " + daemon + " exited with status 3"));
}

TEST_F(StdioClientTest, SilentDaemonTimesOut) {
  auto daemon = write_daemon("silent", silent_daemon);
  auto start = std::chrono::steady_clock::now();
  auto outcome = run_fcp({"--fcpd", daemon, "--timeout", "0.2", "call", "drawio_help"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("timed out after 0.2 s waiting for the reply to tools/call"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

TEST_F(StdioClientTest, MissingDaemonIsAClearErrorWithExitTwo) {
  auto outcome = run_fcp({"--fcpd", (dir_ / "absent").string(), "tools"});
  EXPECT_EQ(outcome.status, 2);
  EXPECT_THAT(outcome.err, HasSubstr("cannot start '" + (dir_ / "absent").string() + "'"));
}

TEST_F(StdioClientTest, LocateFcpdPrefersFlagThenEnvThenBesideThenPath) {
  auto beside = write_daemon("fcpd", fake_daemon);
  std::string self = (dir_ / "fcp").string();
  EXPECT_EQ(locate_fcpd(std::string("/x/fcpd"), "/env/fcpd", self), "/x/fcpd");
  EXPECT_EQ(locate_fcpd(std::nullopt, "/env/fcpd", self), "/env/fcpd");
  EXPECT_EQ(locate_fcpd(std::nullopt, "", self), beside);
  EXPECT_EQ(locate_fcpd(std::nullopt, nullptr, self), beside);
  EXPECT_EQ(locate_fcpd(std::nullopt, nullptr, "/nonexistent/dir/fcp"), "fcpd");
  EXPECT_EQ(locate_fcpd(std::nullopt, nullptr, ""), "fcpd");
}

TEST(SelfExecutableTest, NamesThisTestBinary) {
  EXPECT_THAT(self_executable(), HasSubstr("cli_tests"));
}

}  // namespace
}  // namespace fcp::cli
