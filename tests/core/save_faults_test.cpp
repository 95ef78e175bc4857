// Saves under faults: a process killed with SIGKILL at any moment of a save, a full file system
// and a read-only one. The target is always the old or the new complete file, the error says
// what happened, no temporary file is left behind, and the document stays unsaved and can be
// saved elsewhere. Full and read-only file systems are real: a small tmpfs mounted in a private
// mount namespace of a child process (skipped where the kernel does not allow that).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "core/file_access.hpp"
#include "core/session.hpp"
#include "tests/support/test_domain.hpp"

namespace fcp::core {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> temporaries_beside(const fs::path& path) {
  std::vector<fs::path> found;
  const std::string prefix = "." + path.filename().string() + ".tmp-";
  for (const auto& entry : fs::directory_iterator(path.parent_path())) {
    if (entry.path().filename().string().starts_with(prefix)) found.push_back(entry.path());
  }
  return found;
}

// A document of `size` bytes whose every line names its version: a torn file shows.
std::string document(char version, std::size_t size) {
  std::string text;
  text.reserve(size);
  std::size_t line = 0;
  while (text.size() < size) {
    text += "version ";
    text += version;
    text += " line " + std::to_string(line++) + "\n";
  }
  return text;
}

class ScratchDir {
 public:
  ScratchDir()
      : dir_(fs::temp_directory_path() /
             ("fcp-save-faults-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    fs::create_directories(dir_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }
  const fs::path& path() const { return dir_; }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
};

// Runs `body` in a child process with a private mount namespace and a tmpfs of `bytes` mounted
// on `dir`. The body returns "" on success or what went wrong; "SKIP: …" when the kernel does
// not let the child mount.
std::string in_small_file_system(const fs::path& dir, std::size_t bytes,
                                 const std::function<std::string()>& body) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::string outcome;
    const std::string options = "size=" + std::to_string(bytes);
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      outcome = std::string("SKIP: cannot mount a tmpfs in a private mount namespace: ") +
                std::strerror(errno);
    } else {
      try {
        outcome = body();
      } catch (const std::exception& e) {
        outcome = std::string("exception: ") + e.what();
      }
    }
    (void)!::write(pipe_fds[1], outcome.data(), outcome.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string outcome;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    outcome.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!WIFEXITED(status)) return "the child died";
  return outcome;
}

// Paths as given, absolute or relative to one directory.
class UnderDir final : public PathPolicy {
 public:
  explicit UnderDir(fs::path dir) : dir_(std::move(dir)) {}
  Result<fs::path> for_reading(std::string_view p) const override { return dir_ / p; }
  Result<fs::path> for_writing(std::string_view p) const override { return dir_ / p; }

 private:
  fs::path dir_;
};

#define CHECK_OR_RETURN(condition, what) \
  if (!(condition)) return std::string(what)

TEST(SaveFaults, AProcessKilledMidSaveLeavesTheOldOrTheNewFileWhole) {
  ScratchDir scratch;
  const fs::path target = scratch.path() / "big.txt";
  constexpr std::size_t kSize = 4u << 20;  // 4 MiB: a save (write + fsync) takes long enough
  const std::string a = document('A', kSize);
  const std::string b = document('B', kSize + 4096);
  ASSERT_TRUE(write_file_atomically(target, a));
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> delay_us(0, 300'000);
  int old_seen = 0, new_seen = 0, rounds_with_leftovers = 0, rounds = 0;
  // At least 30 kills, and on until kills have found both versions and hit a save mid-write
  // (bounded: 150 kills).
  for (; rounds < 30 ||
         ((new_seen == 0 || old_seen == 0 || rounds_with_leftovers == 0) && rounds < 150);
       ++rounds) {
    const int round = rounds;
    const pid_t child = ::fork();
    if (child == 0) {
      // Saves A and B in turn until killed.
      for (int i = 0;; ++i)
        (void)write_file_atomically(target, i % 2 == 0 ? b : a);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    const std::string on_disk = read_all(target);
    ASSERT_TRUE(on_disk == a || on_disk == b)
        << "round " << round << ": a torn file of " << on_disk.size() << " bytes";
    (on_disk == a ? old_seen : new_seen)++;
    if (!temporaries_beside(target).empty()) ++rounds_with_leftovers;
  }
  std::cout << "[ measured ] " << rounds << " kills: " << old_seen << " found A, " << new_seen
            << " found B, " << rounds_with_leftovers
            << " left a temporary file (killed mid-write); no torn target\n";
  EXPECT_GT(rounds_with_leftovers, 0) << "no kill landed mid-save: the test proved nothing";
  EXPECT_GT(new_seen, 0) << "no save completed between kills";
  // The next save removes what killed saves left once it is older than a minute (a younger one
  // may belong to a save still running in another process).
  for (const auto& temp : temporaries_beside(target)) {
    const timespec old_times[2] = {{::time(nullptr) - 120, 0}, {::time(nullptr) - 120, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, temp.c_str(), old_times, 0), 0);
  }
  ASSERT_TRUE(write_file_atomically(target, a));
  EXPECT_TRUE(temporaries_beside(target).empty());
  EXPECT_EQ(read_all(target), a);
}

TEST(SaveFaults, AFullDiskFailsTheSaveClearlyAndKeepsTheOldFileAndTheUnsavedDocument) {
  ScratchDir mount_point;
  ScratchDir elsewhere;
  const auto outcome = in_small_file_system(mount_point.path(), 256 * 1024, [&]() -> std::string {
    auto domain = testing::make_deck_domain();
    UnderDir paths(mount_point.path());
    Session session(*domain, paths);
    CHECK_OR_RETURN(!session.run_session("new Board", {}).reply.is_error, "new failed");
    CHECK_OR_RETURN(
        !session.run_ops(std::vector<std::string>{"add A color:red"}, {}).reply.is_error,
        "add failed");
    const auto first = session.run_session("save as:board.deck", {}).reply;
    CHECK_OR_RETURN(!first.is_error, "first save failed: " + first.text);
    const fs::path target = mount_point.path() / "board.deck";
    const std::string old_bytes = read_all(target);
    {  // Fill the file system to the last byte.
      std::ofstream filler(mount_point.path() / "filler", std::ios::binary);
      const std::string block(4096, 'x');
      while (filler.write(block.data(), static_cast<std::streamsize>(block.size()))) {
      }
    }
    std::ofstream(mount_point.path() / "filler", std::ios::app).put('x');  // the last bytes
    CHECK_OR_RETURN(
        !session.run_ops(std::vector<std::string>{"add B color:blue"}, {}).reply.is_error,
        "add B failed");
    const auto full = session.run_session("save", {}).reply;
    CHECK_OR_RETURN(full.is_error, "a save on a full disk succeeded: " + full.text);
    CHECK_OR_RETURN(full.text.find("No space left on device") != std::string::npos &&
                        full.text.find("unchanged") != std::string::npos,
                    "unclear error: " + full.text);
    CHECK_OR_RETURN(read_all(target) == old_bytes, "the old file changed");
    CHECK_OR_RETURN(temporaries_beside(target).empty(), "a temporary file was left behind");
    CHECK_OR_RETURN(session.has_unsaved_changes(), "the document is no longer unsaved");
    // Recoverable: saved elsewhere, or here once there is room again.
    const auto moved = session.run_session("save as:" + (elsewhere.path() / "b.deck").string(), {});
    CHECK_OR_RETURN(!moved.reply.is_error, "save elsewhere failed: " + moved.reply.text);
    CHECK_OR_RETURN(read_all(elsewhere.path() / "b.deck").find('B') != std::string::npos,
                    "the saved copy lacks the unsaved card");
    fs::remove(mount_point.path() / "filler");
    const auto again = session.run_session("save as:board.deck", {}).reply;
    CHECK_OR_RETURN(!again.is_error, "save after making room failed: " + again.text);
    return "";
  });
  if (outcome.starts_with("SKIP")) GTEST_SKIP() << outcome;
  EXPECT_EQ(outcome, "");
}

TEST(SaveFaults, AReadOnlyFileSystemFailsTheSaveClearlyAndKeepsEverything) {
  ScratchDir mount_point;
  ScratchDir elsewhere;
  const auto outcome = in_small_file_system(mount_point.path(), 256 * 1024, [&]() -> std::string {
    auto domain = testing::make_deck_domain();
    UnderDir paths(mount_point.path());
    Session session(*domain, paths);
    session.run_session("new Board", {});
    session.run_ops(std::vector<std::string>{"add A color:red"}, {});
    const auto first = session.run_session("save as:board.deck", {}).reply;
    CHECK_OR_RETURN(!first.is_error, "first save failed: " + first.text);
    const fs::path target = mount_point.path() / "board.deck";
    const std::string old_bytes = read_all(target);
    // Read-only even for root (directory permission bits are not).
    if (::mount(nullptr, mount_point.path().c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0)
      return std::string("SKIP: cannot remount read-only: ") + std::strerror(errno);
    session.run_ops(std::vector<std::string>{"add B color:blue"}, {});
    const auto refused = session.run_session("save", {}).reply;
    CHECK_OR_RETURN(refused.is_error, "a save on a read-only file system succeeded");
    CHECK_OR_RETURN(refused.text.find("Read-only file system") != std::string::npos,
                    "unclear error: " + refused.text);
    CHECK_OR_RETURN(read_all(target) == old_bytes, "the old file changed");
    CHECK_OR_RETURN(temporaries_beside(target).empty(), "a temporary file was left behind");
    CHECK_OR_RETURN(session.has_unsaved_changes(), "the document is no longer unsaved");
    const auto moved = session.run_session("save as:" + (elsewhere.path() / "b.deck").string(), {});
    CHECK_OR_RETURN(!moved.reply.is_error, "save elsewhere failed: " + moved.reply.text);
    CHECK_OR_RETURN(!session.has_unsaved_changes(), "saved elsewhere but still unsaved");
    return "";
  });
  if (outcome.starts_with("SKIP")) GTEST_SKIP() << outcome;
  EXPECT_EQ(outcome, "");
}

}  // namespace
}  // namespace fcp::core
