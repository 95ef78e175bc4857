#include "core/file_access.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
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
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return make_error("cannot open \"" + path.string() + "\": not a regular file");
  }
  auto size = std::filesystem::file_size(path, ec);
  if (ec) return make_error("cannot open \"" + path.string() + "\": " + ec.message());
  if (size > max_bytes) {
    return make_error("cannot open \"" + path.string() + "\": " + std::to_string(size) +
                      " bytes is larger than the limit of " + std::to_string(max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot open \"" + path.string() + "\": " + errno_text(errno));
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
}

Result<void> write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  const auto directory =
      path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const auto temp = directory / temp_name_for(path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return make_error("cannot write \"" + path.string() + "\": " + errno_text(errno));
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
