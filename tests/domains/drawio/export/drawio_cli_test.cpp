// The draw.io desktop CLI: discovery through DRAWIO_PATH and a supervised export run.
#include "domains/drawio/export/drawio_cli.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace fcp::drawio::render {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class DrawioCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "fcp-cli-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  fs::path script(const std::string& name, const std::string& body, bool executable = true) {
    fs::path path = dir_ / name;
    std::ofstream(path) << "#!/bin/sh\n" << body;
    fs::permissions(
        path, executable ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write);
    return path;
  }

  // Writes "ARGS <arguments>\n" and then the input file to the --output path.
  fs::path fake_drawio() {
    return script("drawio",
                  "out=''; prev=''; last=''\n"
                  "for a in \"$@\"; do\n"
                  "  if [ \"$prev\" = \"--output\" ]; then out=\"$a\"; fi\n"
                  "  prev=\"$a\"; last=\"$a\"\n"
                  "done\n"
                  "printf 'ARGS %s\\n' \"$*\" > \"$out\"\n"
                  "cat \"$last\" >> \"$out\"\n"
                  "echo 'exported' >&2\n");
  }

  fs::path dir_;
};

TEST_F(DrawioCli, FindHonoursDrawioPath) {
  const fs::path fake = fake_drawio();
  const ScopedEnv env("DRAWIO_PATH", fake.string());
  EXPECT_EQ(find_drawio_cli(), fake);
}

TEST_F(DrawioCli, FindIgnoresADrawioPathThatIsNotExecutable) {
  const fs::path plain = script("not-executable", "exit 0\n", false);
  const ScopedEnv env("DRAWIO_PATH", plain.string());
  const ScopedEnv path("PATH", dir_.string());  // nothing called drawio there
  const auto found = find_drawio_cli();
  EXPECT_NE(found, plain);
  if (found) {
    EXPECT_TRUE(found->string().starts_with("/"));
  }  // an install path of this machine
}

TEST_F(DrawioCli, FindSearchesPath) {
  const fs::path fake = fake_drawio();
  const ScopedEnv no_override("DRAWIO_PATH", "");
  const ScopedEnv path("PATH", "/nonexistent:" + dir_.string());
  EXPECT_EQ(find_drawio_cli(), fake);
}

TEST_F(DrawioCli, ExportRunsTheToolAndReturnsItsOutput) {
  const fs::path fake = fake_drawio();
  auto bytes =
      export_with_drawio_cli(fake, "<mxfile>diagram</mxfile>", ImageFormat::png, 1, 300, 0);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().message;
  EXPECT_NE(
      bytes->find("--export --format png --width 300 --crop --border 10 --page-index 2 --output "),
      std::string::npos)
      << *bytes;
  EXPECT_EQ(bytes->find("--height"), std::string::npos);
  EXPECT_TRUE(bytes->ends_with("<mxfile>diagram</mxfile>"));
  // The temporary input and output are gone.
  const std::size_t input_at = bytes->find(".drawio\n");
  ASSERT_NE(input_at, std::string::npos);
  const std::size_t start = bytes->rfind(' ', input_at) + 1;
  const fs::path input = bytes->substr(start, input_at + 7 - start);
  EXPECT_FALSE(fs::exists(input)) << input;
  EXPECT_FALSE(fs::exists(input.parent_path())) << input.parent_path();
}

TEST_F(DrawioCli, ExportReportsFailuresWithTheToolsOutput) {
  const fs::path failing = script("failing", "echo 'boom: no display' >&2\nexit 3\n");
  auto result = export_with_drawio_cli(failing, "<mxfile/>", ImageFormat::svg, 0, 0, 0);
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message.find("exit status 3"), std::string::npos)
      << result.error().message;
  EXPECT_NE(result.error().message.find("boom: no display"), std::string::npos);

  const fs::path silent = script("silent", "exit 0\n");
  auto nothing = export_with_drawio_cli(silent, "<mxfile/>", ImageFormat::pdf, 0, 0, 0);
  ASSERT_FALSE(nothing.has_value());
  EXPECT_NE(nothing.error().message.find("no output"), std::string::npos);

  EXPECT_FALSE(export_with_drawio_cli(dir_ / "missing", "<mxfile/>", ImageFormat::png, 0, 0, 0));
}

TEST_F(DrawioCli, ExportKillsAToolThatOutlivesTheTimeout) {
  const fs::path slow = script("slow", "sleep 30\n");
  const auto started = std::chrono::steady_clock::now();
  auto result = export_with_drawio_cli(slow, "<mxfile/>", ImageFormat::png, 0, 0, 0, 1);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message.find("was killed"), std::string::npos) << result.error().message;
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

}  // namespace
}  // namespace fcp::drawio::render
