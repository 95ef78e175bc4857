// RootPolicy: every path a tool reads or writes stays inside the allowed roots.
#include "daemon/roots.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "core/file_access.hpp"

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

// The race a hostile local user ran (it wrote outside the root on its 13th attempt): a
// directory inside the root is swapped for a link to outside and back while saves go on. Every
// save either lands inside the root or fails; none reaches outside.
TEST_F(RootsTest, SavesNeverFollowADirectorySwappedForALinkMidway) {
  const auto root = policy();
  std::atomic<bool> done{false};
  std::thread swapper([&] {
    const fs::path sub = base_ / "root" / "sub", parked = base_ / "root" / "sub.real";
    while (!done.load()) {
      std::error_code ec;
      fs::rename(sub, parked, ec);
      fs::create_directory_symlink(base_ / "outside", sub, ec);
      std::this_thread::yield();
      fs::remove(sub, ec);
      fs::rename(parked, sub, ec);
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // saves can succeed too
    }
  });
  int saved = 0;
  for (int i = 0; i < 3000; ++i) {
    auto path = root.for_writing("sub/raced.txt");
    if (!path) continue;
    if (core::write_file_atomically(*path, "x")) ++saved;
    auto reading = root.for_reading("sub/raced.txt");
    if (reading) (void)core::read_file(*reading, 100);
  }
  done = true;
  swapper.join();
  EXPECT_FALSE(fs::exists(base_ / "outside" / "raced.txt"));
  EXPECT_GT(saved, 0);  // the race was run, not refused from the start
}

}  // namespace
}  // namespace fcp::daemon
