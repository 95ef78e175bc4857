// RootPolicy: every path a tool reads or writes stays inside the allowed roots.
#include "daemon/roots.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace fcp::daemon {
namespace {

namespace fs = std::filesystem;

class RootsTest : public ::testing::Test {
 protected:
  RootsTest() {
    base_ = fs::temp_directory_path() / ("fcp-roots-" + std::to_string(::getpid()));
    fs::create_directories(base_ / "root" / "sub");
    fs::create_directories(base_ / "outside");
    std::ofstream(base_ / "root" / "in.txt") << "x";
    std::ofstream(base_ / "outside" / "secret.txt") << "x";
    fs::create_symlink(base_ / "outside" / "secret.txt", base_ / "root" / "link.txt");
    fs::create_directory_symlink(base_ / "outside", base_ / "root" / "escape");
  }
  ~RootsTest() override { fs::remove_all(base_); }
  RootPolicy policy() { return RootPolicy::make({(base_ / "root").string()}).value(); }

  fs::path base_;
};

TEST_F(RootsTest, RelativeAndAbsolutePathsInsideAreAllowed) {
  auto roots = policy();
  EXPECT_EQ(roots.for_reading("in.txt").value(), fs::canonical(base_ / "root" / "in.txt"));
  EXPECT_TRUE(roots.for_reading((base_ / "root" / "sub" / ".." / "in.txt").string()));
  EXPECT_EQ(roots.for_writing("sub/new.drawio").value(),
            fs::canonical(base_ / "root" / "sub") / "new.drawio");
}

TEST_F(RootsTest, EscapesAreRefusedWithTheRootsNamed) {
  auto roots = policy();
  auto dotdot = roots.for_reading("../outside/secret.txt");
  ASSERT_FALSE(dotdot);
  EXPECT_NE(dotdot.error().message.find("outside the allowed roots"), std::string::npos);
  EXPECT_NE(dotdot.error().message.find("--root"), std::string::npos);
  EXPECT_FALSE(roots.for_reading((base_ / "outside" / "secret.txt").string()));
  EXPECT_FALSE(roots.for_reading("link.txt"));           // symlink to a file outside
  EXPECT_FALSE(roots.for_reading("escape/secret.txt"));  // symlinked directory
  EXPECT_FALSE(roots.for_writing("escape/new.txt"));
  EXPECT_FALSE(roots.for_writing("link.txt"));  // writing would replace the target outside
  EXPECT_FALSE(roots.for_writing("../outside/new.txt"));
  EXPECT_FALSE(roots.for_writing("/etc/passwd"));
}

TEST_F(RootsTest, BadPathsGetClearErrors) {
  auto roots = policy();
  EXPECT_NE(roots.for_reading("missing.txt").error().message.find("cannot open"),
            std::string::npos);
  EXPECT_NE(roots.for_writing("nodir/x.txt").error().message.find("does not exist"),
            std::string::npos);
  EXPECT_NE(roots.for_writing("sub").error().message.find("directory"), std::string::npos);
  EXPECT_FALSE(roots.for_reading(""));
  EXPECT_FALSE(RootPolicy::make({(base_ / "nope").string()}));
}

TEST_F(RootsTest, SeveralRoots) {
  auto roots = RootPolicy::make({(base_ / "root").string(), (base_ / "outside").string()}).value();
  EXPECT_TRUE(roots.for_reading((base_ / "outside" / "secret.txt").string()));
  EXPECT_TRUE(roots.for_reading("link.txt"));
}

}  // namespace
}  // namespace fcp::daemon
