#include "core/file_access.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <system_error>
#include <utility>

#include "core/call_scope.hpp"

namespace fcp::core {
namespace {

std::string errno_text(int error) {
  return std::generic_category().message(error);
}

// Writes all of `bytes` to `fd`, retrying on EINTR and short writes.
// Chunks between which a long read or write asks whether its call must stop (~10 ms each).
constexpr std::size_t kStopCheckBytes = std::size_t{8} << 20;

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Owns a file descriptor.
class Descriptor {
 public:
  explicit Descriptor(int fd = -1) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~Descriptor() { reset(); }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd_;
};

// Opens `directory` so that no symbolic link is followed on the way. The callers' paths come
// from the roots policy, which resolved every link before it checked the path; a link found
// now means a directory was swapped for one after that check (it could lead out of the
// roots), so the open fails instead. openat2(RESOLVE_NO_SYMLINKS) where the kernel has it
// (Linux 5.6), else a walk from the first component with O_NOFOLLOW at each step.
Descriptor open_directory_without_links(const std::filesystem::path& directory) {
  const int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags);
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, AT_FDCWD, directory.c_str(), &how, sizeof how);
  if (fd >= 0 || errno != ENOSYS) return Descriptor(static_cast<int>(fd));
  Descriptor current(::open(directory.is_absolute() ? "/" : ".", flags));
  for (const auto& part : directory.relative_path()) {
    if (!current.valid()) break;
    if (part.empty() || part == ".") continue;
    current = Descriptor(::openat(current.get(), part.c_str(), flags | O_NOFOLLOW));
  }
  return current;
}

// The error for a directory that open_directory_without_links could not open.
Error directory_error(const std::string& doing, const std::filesystem::path& path, int error) {
  if (error == ELOOP || error == ENOTDIR)
    return make_error("cannot " + doing + " \"" + path.string() +
                      "\": a directory on its path is a symbolic link now (it changed after the "
                      "path was checked); nothing was " +
                      (doing == "read" ? "read" : "written"));
  return make_error("cannot " + doing + " \"" + path.string() + "\": " + errno_text(error));
}

std::filesystem::path directory_of(const std::filesystem::path& path) {
  return path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
}

std::string temp_name_for(const std::filesystem::path& path) {
  std::random_device device;
  std::string name = ".";
  name += path.filename().string();
  name += ".tmp-";
  name += std::to_string(device());
  return name;
}

}  // namespace

Result<std::string> read_file(const std::filesystem::path& path, std::size_t max_bytes) {
  const std::string name = "\"" + path.string() + "\"";
  // What is checked is the file opened, not the path: a path swapped for a FIFO or a link
  // after the caller's checks cannot block the read or lead elsewhere.
  const Descriptor directory = open_directory_without_links(directory_of(path));
  if (!directory.valid()) return directory_error("read", path, errno);
  const int fd = ::openat(directory.get(), path.filename().c_str(),
                          O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return make_error("cannot open " + name + ": " + errno_text(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0)
    return make_error("cannot open " + name + ": " + errno_text(errno));
  if (!S_ISREG(status.st_mode)) return make_error("cannot open " + name + ": not a regular file");
  const auto size = static_cast<std::size_t>(status.st_size);
  if (size > max_bytes) {
    return make_error("cannot open " + name + ": " + std::to_string(size) +
                      " bytes is larger than the limit of " + std::to_string(max_bytes));
  }
  std::string bytes(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    if (auto stop = stop_error("reading " + name, "nothing was opened")) return *stop;
    const ssize_t n = ::read(fd, bytes.data() + done, std::min(size - done, kStopCheckBytes));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("cannot read " + name + ": " + errno_text(errno));
    if (n == 0) break;  // the file shrank while it was read
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

namespace {

constexpr auto kStaleTemporary = std::chrono::minutes(1);

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// What the existing target promises the new file must keep, or why it cannot be replaced.
Result<void> check_replaceable(const std::filesystem::path& path, const struct stat& target,
                               const WriteOptions& options) {
  const std::string name = "\"" + path.string() + "\"";
  if (!S_ISREG(target.st_mode)) return make_error("cannot write " + name + ": not a regular file");
  if ((target.st_mode & S_IWUSR) == 0 && !options.replace_read_only)
    return make_error("cannot write " + name + ": its owner made it read-only (mode " +
                      octal_mode(target.st_mode) +
                      "); save force:true replaces it and keeps it read-only, or save as: another "
                      "file");
  if (target.st_nlink > 1)
    return make_error("cannot write " + name + ": it has " + std::to_string(target.st_nlink) +
                      " hard links, and replacing it would separate them; save as: another file");
  return {};
}

// Gives the temporary file the target's mode, owner and group.
Result<void> keep_owner_promises(int fd, const std::filesystem::path& path,
                                 const struct stat& target) {
  struct stat made {};
  const bool same_owner =
      ::fstat(fd, &made) == 0 && made.st_uid == target.st_uid && made.st_gid == target.st_gid;
  if (!same_owner && ::fchown(fd, target.st_uid, target.st_gid) != 0)
    return make_error("cannot write \"" + path.string() + "\": it belongs to user " +
                      std::to_string(target.st_uid) + ", group " + std::to_string(target.st_gid) +
                      ", which the new file could not keep (" + errno_text(errno) +
                      "); save as: another file");
  if (::fchmod(fd, target.st_mode & 07777) != 0)
    return make_error("cannot write \"" + path.string() + "\": " + errno_text(errno));
  return {};
}

// Removes `.NAME.tmp-*` files beside `path` (in `directory`) that a save killed mid-way left.
void remove_stale_temporaries(int directory, const std::filesystem::path& path) {
  const std::string prefix = "." + path.filename().string() + ".tmp-";
  DIR* listing = ::fdopendir(::dup(directory));
  if (listing == nullptr) return;
  const auto now = std::chrono::system_clock::now();
  while (const dirent* entry = ::readdir(listing)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(prefix)) continue;
    struct stat status {};
    if (::fstatat(directory, entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(status.st_mode))
      continue;
    const auto written = std::chrono::system_clock::from_time_t(status.st_mtim.tv_sec);
    if (now - written > kStaleTemporary) ::unlinkat(directory, entry->d_name, 0);
  }
  ::closedir(listing);
}

}  // namespace

Result<void> write_file_atomically(const std::filesystem::path& path, std::string_view bytes,
                                   WriteOptions options) {
  return write_file_atomically(
      path,
      [bytes](const ByteWriter& write) {
        write(bytes);
        return Result<void>{};
      },
      options);
}

Result<void> write_file_atomically(const std::filesystem::path& path,
                                   const std::function<Result<void>(const ByteWriter&)>& produce,
                                   WriteOptions options) {
  // Everything happens relative to the directory opened without links: the file checked, the
  // temporary file and the rename are all in that directory, whatever its path leads to later.
  const Descriptor directory = open_directory_without_links(directory_of(path));
  if (!directory.valid()) return directory_error("write", path, errno);
  const std::string file = path.filename().string();
  struct stat target {};
  const bool replacing =
      ::fstatat(directory.get(), file.c_str(), &target, AT_SYMLINK_NOFOLLOW) == 0;
  if (replacing && S_ISLNK(target.st_mode))
    return make_error("cannot write \"" + path.string() +
                      "\": it is a symbolic link now (it changed after the path was checked); "
                      "nothing was written");
  if (replacing) {
    if (auto allowed = check_replaceable(path, target, options); !allowed) return allowed;
  }
  remove_stale_temporaries(directory.get(), path);
  const std::string temp = temp_name_for(path);
  // Created with the target's mode (never wider), exact after keep_owner_promises.
  const mode_t mode = replacing ? (target.st_mode & 0777) : 0666;
  int fd = ::openat(directory.get(), temp.c_str(),
                    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) {
    return make_error("cannot write \"" + path.string() + "\": " + errno_text(errno));
  }
  if (replacing) {
    if (auto kept = keep_owner_promises(fd, path, target); !kept) {
      ::close(fd);
      ::unlinkat(directory.get(), temp.c_str(), 0);
      return kept;
    }
  }
  // The file is written in chunks; a call that must stop (cancelled, past its time limit) stops
  // between two, before the rename: the target stays as it was and the temporary file goes.
  bool ok = true;
  std::optional<Error> stopped;
  auto stop = [&] {
    return stop_error("writing \"" + path.string() + "\"",
                      "nothing was written (the previous file, if any, is unchanged)");
  };
  const ByteWriter write = [&](std::string_view bytes) {
    for (std::string_view rest = bytes; ok && !stopped && !rest.empty();) {
      stopped = stop();
      if (stopped) break;
      const auto chunk = rest.substr(0, kStopCheckBytes);
      ok = write_all(fd, chunk);
      rest.remove_prefix(chunk.size());
    }
    return ok && !stopped;
  };
  auto produced = produce(write);
  if (!stopped) stopped = stop();  // the bytes may have ended early
  if (stopped || !produced) {
    ::close(fd);
    ::unlinkat(directory.get(), temp.c_str(), 0);
    return stopped ? *stopped : produced.error();
  }
  ok = ok && ::fsync(fd) == 0;
  int saved_errno = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::renameat(directory.get(), temp.c_str(), directory.get(), file.c_str()) != 0) {
    if (ok) saved_errno = errno;
    ::unlinkat(directory.get(), temp.c_str(), 0);
    return make_error("cannot write \"" + path.string() + "\": " + errno_text(saved_errno) +
                      " (the previous file, if any, is unchanged)");
  }
  ::fsync(directory.get());  // persist the rename itself
  return {};
}

}  // namespace fcp::core
