// Saves keep what the file's owner set: mode, owner and group, read-only files and hard links;
// and a save killed mid-way leaves nothing behind for long.
#include "core/file_access.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <thread>

#include "core/call_scope.hpp"

namespace fcp::core {
namespace {

// A stop message with its elapsed time as N: a loaded machine may take a millisecond or more
// between the stop and the message (the time is not what these tests check).
std::string elapsed_as_n(const std::string& message) {
  return std::regex_replace(message, std::regex("after [0-9]+ ms"), "after N ms");
}

namespace fs = std::filesystem;

class FileAccessTest : public ::testing::Test {
 protected:
  FileAccessTest()
      : dir_(fs::temp_directory_path() /
             ("fcp-file-access-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~FileAccessTest() override {
    std::error_code ec;
    fs::permissions(dir_ / "file", fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }

  fs::path file(const std::string& text, mode_t mode) {
    auto path = dir_ / "file";
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
    return path;
  }
  static std::string read(const fs::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static struct stat status(const fs::path& path) {
    struct stat out {};
    ::stat(path.c_str(), &out);
    return out;
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }

  fs::path dir_;
};

TEST_F(FileAccessTest, ASaveKeepsTheModeItFound) {
  for (mode_t mode : {0600, 0640, 0664, 0755}) {
    const auto path = file("old", mode);
    ASSERT_TRUE(write_file_atomically(path, "new"));
    EXPECT_EQ(read(path), "new");
    EXPECT_EQ(status(path).st_mode & 07777, mode);
  }
}

TEST_F(FileAccessTest, ANewFileGetsTheUsualModeLessTheUmask) {
  const mode_t old_mask = ::umask(077);
  ASSERT_TRUE(write_file_atomically(dir_ / "fresh", "x"));
  EXPECT_EQ(status(dir_ / "fresh").st_mode & 07777, 0600u);
  ::umask(022);
  ASSERT_TRUE(write_file_atomically(dir_ / "fresh2", "x"));
  EXPECT_EQ(status(dir_ / "fresh2").st_mode & 07777, 0644u);
  ::umask(old_mask);
}

TEST_F(FileAccessTest, AReadOnlyFileIsRefusedAndUnchanged) {
  const auto path = file("keep me", 0444);
  auto written = write_file_atomically(path, "new");
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message.find("read-only (mode 0444)"), std::string::npos)
      << written.error().message;
  EXPECT_EQ(read(path), "keep me");
  EXPECT_EQ(entries(), 1u);  // no temporary left
  ASSERT_TRUE(write_file_atomically(path, "new", {.replace_read_only = true}));
  EXPECT_EQ(read(path), "new");
  EXPECT_EQ(status(path).st_mode & 07777, 0444u);
}

TEST_F(FileAccessTest, AFileWithHardLinksIsRefusedAndTheLinksStay) {
  const auto path = file("shared", 0644);
  fs::create_hard_link(path, dir_ / "other-name");
  auto written = write_file_atomically(path, "new");
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().message.find("2 hard links"), std::string::npos);
  EXPECT_EQ(read(dir_ / "other-name"), "shared");
  EXPECT_EQ(status(path).st_ino, status(dir_ / "other-name").st_ino);
}

TEST_F(FileAccessTest, OwnerAndGroupCarryOver) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file away needs root";
  const auto path = file("theirs", 0640);
  ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
  ASSERT_TRUE(write_file_atomically(path, "new"));
  EXPECT_EQ(status(path).st_uid, 65534u);
  EXPECT_EQ(status(path).st_gid, 65534u);
  EXPECT_EQ(status(path).st_mode & 07777, 0640u);
}

TEST_F(FileAccessTest, TemporariesOfAKilledSaveAreRemovedOnceStale) {
  const auto path = file("old", 0644);
  const auto stale = dir_ / ".file.tmp-1234";
  const auto fresh = dir_ / ".file.tmp-5678";  // another save may be writing it right now
  std::ofstream(stale) << "half";
  std::ofstream(fresh) << "half";
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));
  ASSERT_TRUE(write_file_atomically(path, "new"));
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));
}

TEST_F(FileAccessTest, ASaveWhoseCallMustStopWritesNothingAndLeavesNoTemporary) {
  const auto path = file("old", 0644);
  const std::string bytes(20 << 20, 'x');  // three chunks
  std::atomic<bool> cancelled{true};
  const CallScope scope(&cancelled, std::chrono::milliseconds(0), "limits.max_session_seconds");
  auto written = write_file_atomically(path, bytes);
  ASSERT_FALSE(written);
  EXPECT_EQ(elapsed_as_n(written.error().message),
            "writing \"" + path.string() +
                "\" stopped after N ms: the call was cancelled; nothing was written (the previous "
                "file, if any, is unchanged)");
  EXPECT_EQ(read(path), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1)
      << "the temporary file was removed";
}

// A save streams its bytes as they are made: the pieces in order; an error while making them,
// or a file that takes no more, leaves the target as it was and no temporary file.
TEST_F(FileAccessTest, BytesMadeWhileWrittenGoInOrderAndAFailureWritesNothing) {
  const auto path = file("old", 0644);
  ASSERT_TRUE(write_file_atomically(path, [](const ByteWriter& write) {
    for (const char* piece : {"a", "bc", "", "def"})
      EXPECT_TRUE(write(piece));
    return Result<void>{};
  }));
  EXPECT_EQ(read(path), "abcdef");
  auto failed = write_file_atomically(path, [](const ByteWriter& write) -> Result<void> {
    write("half");
    return make_error("the document could not be written");
  });
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().message, "the document could not be written");
  EXPECT_EQ(read(path), "abcdef");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1)
      << "the temporary file was removed";
}

TEST_F(FileAccessTest, AReadWhoseCallRanPastItsLimitStops) {
  const auto path = file("content", 0644);
  const CallScope scope(nullptr, std::chrono::milliseconds(1), "limits.max_session_seconds");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto bytes = read_file(path, 1 << 20);
  ASSERT_FALSE(bytes);
  EXPECT_NE(bytes.error().message.find("the call ran past its time limit of 1 ms "
                                       "(limits.max_session_seconds); nothing was opened"),
            std::string::npos)
      << bytes.error().message;
}

TEST_F(FileAccessTest, ReadingChecksTheFileItOpenedNotThePath) {
  const auto fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto piped = read_file(fifo, 1024);  // must not wait for a writer
  ASSERT_FALSE(piped);
  EXPECT_NE(piped.error().message.find("not a regular file"), std::string::npos);
  const auto path = file("0123456789", 0644);
  auto big = read_file(path, 9);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("10 bytes is larger than the limit of 9"), std::string::npos);
  EXPECT_EQ(read_file(path, 10).value(), "0123456789");
  fs::create_symlink(path, dir_ / "link");  // paths come resolved: a link here was swapped in
  EXPECT_FALSE(read_file(dir_ / "link", 1024));
}

// A path the roots policy checked while it had no links in it; between that check and the
// save a directory on it was swapped for a link to elsewhere. The save must not follow it.
TEST_F(FileAccessTest, ADirectorySwappedForALinkAfterTheCheckIsNotFollowed) {
  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "sub");  // was a directory when checked
  auto written = write_file_atomically(dir_ / "sub" / "f.txt", "x");
  ASSERT_FALSE(written.has_value());
  EXPECT_NE(written.error().message.find("symbolic link now"), std::string::npos)
      << written.error().message;
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere" / "f.txt"));
  std::ofstream(dir_ / "elsewhere" / "g.txt") << "secret";
  auto read = read_file(dir_ / "sub" / "g.txt", 1000);
  ASSERT_FALSE(read.has_value());
  EXPECT_NE(read.error().message.find("symbolic link now"), std::string::npos);
}

TEST_F(FileAccessTest, ATargetSwappedForALinkAfterTheCheckIsNotReplacedOrRead) {
  std::ofstream(dir_ / "real.txt") << "real";
  fs::create_symlink(dir_ / "real.txt", dir_ / "link.txt");
  auto written = write_file_atomically(dir_ / "link.txt", "new");
  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(read(dir_ / "real.txt"), "real");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.txt"));
  EXPECT_FALSE(read_file(dir_ / "link.txt", 1000).has_value());
}

}  // namespace
}  // namespace fcp::core
