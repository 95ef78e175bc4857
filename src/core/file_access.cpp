#include "core/file_access.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <system_error>

namespace fcp::core {
namespace {

std::string errno_text(int error) {
  return std::generic_category().message(error);
}

// Writes all of `bytes` to `fd`, retrying on EINTR and short writes.
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
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
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
    const ssize_t n = ::read(fd, bytes.data() + done, size - done);
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

// Removes `.NAME.tmp-*` files beside `path` that a save killed mid-way left behind.
void remove_stale_temporaries(const std::filesystem::path& directory,
                              const std::filesystem::path& path) {
  const std::string prefix = "." + path.filename().string() + ".tmp-";
  std::error_code ec;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !entry.is_regular_file(ec)) continue;
    const auto written = entry.last_write_time(ec);
    if (!ec && now - written > kStaleTemporary) std::filesystem::remove(entry.path(), ec);
  }
}

}  // namespace

Result<void> write_file_atomically(const std::filesystem::path& path, std::string_view bytes,
                                   WriteOptions options) {
  const auto directory =
      path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  struct stat target {};
  const bool replacing = ::stat(path.c_str(), &target) == 0;
  if (replacing) {
    if (auto allowed = check_replaceable(path, target, options); !allowed) return allowed;
  }
  remove_stale_temporaries(directory, path);
  const auto temp = directory / temp_name_for(path);
  // Created with the target's mode (never wider), exact after keep_owner_promises.
  const mode_t mode = replacing ? (target.st_mode & 0777) : 0666;
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    return make_error("cannot write \"" + path.string() + "\": " + errno_text(errno));
  }
  if (replacing) {
    if (auto kept = keep_owner_promises(fd, path, target); !kept) {
      ::close(fd);
      ::unlink(temp.c_str());
      return kept;
    }
  }
  bool ok = write_all(fd, bytes) && ::fsync(fd) == 0;
  int saved_errno = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    if (ok) saved_errno = errno;
    ::unlink(temp.c_str());
    return make_error("cannot write \"" + path.string() + "\": " + errno_text(saved_errno) +
                      " (the previous file, if any, is unchanged)");
  }
  // Persist the rename itself.
  int dir_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return {};
}

}  // namespace fcp::core
