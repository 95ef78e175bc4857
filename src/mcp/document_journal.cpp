#include "mcp/document_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fcp::mcp {
namespace {

constexpr std::size_t kFrame = 8;             // length + CRC
constexpr std::size_t kMaxRecord = 1u << 30;  // a larger length is damage, not a record

void put_u32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xffu));
}

std::uint32_t get_u32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i)
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return value;
}

std::uint32_t crc_of(std::string_view bytes) {
  auto crc = ::crc32(0L, Z_NULL, 0);
  crc = ::crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size());
  return static_cast<std::uint32_t>(crc);
}

std::optional<JournalRecord> decode_payload(std::string_view payload) {
  if (payload.empty()) return std::nullopt;
  JournalRecord record;
  record.kind = static_cast<JournalRecord::Kind>(payload[0]);
  std::size_t at = 1;
  while (at < payload.size()) {
    if (payload.size() - at < 4) return std::nullopt;
    const auto length = get_u32(payload, at);
    at += 4;
    if (payload.size() - at < length) return std::nullopt;
    record.fields.emplace_back(payload.substr(at, length));
    at += length;
  }
  return record;
}

core::Error errno_error(const std::string& what, const std::filesystem::path& path) {
  return core::make_error(what + " \"" + path.string() + "\": " + std::strerror(errno));
}

core::Result<void> write_all(int fd, std::string_view bytes, const std::filesystem::path& path) {
  while (!bytes.empty()) {
    const auto n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_error("cannot write the journal", path);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

core::Result<void> sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_error("cannot open the state directory", dir);
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0) return errno_error("cannot sync the state directory", dir);
  return {};
}

}  // namespace

std::string encode_record(const JournalRecord& record) {
  // Framed in place (one copy of the fields: an `open` record carries a whole file).
  std::size_t payload_size = 1;
  for (const auto& field : record.fields)
    payload_size += 4 + field.size();
  std::string out;
  out.reserve(kFrame + payload_size);
  put_u32(out, static_cast<std::uint32_t>(payload_size));
  put_u32(out, 0);  // the payload's CRC, below
  out.push_back(static_cast<char>(record.kind));
  for (const auto& field : record.fields) {
    put_u32(out, static_cast<std::uint32_t>(field.size()));
    out += field;
  }
  const auto crc = crc_of(std::string_view(out).substr(kFrame));
  for (std::size_t i = 0; i < 4; ++i)
    out[4 + i] = static_cast<char>((crc >> (8 * i)) & 0xffu);
  return out;
}

JournalContents read_journal(std::string_view bytes) {
  JournalContents contents;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const auto offset = std::to_string(at);
    if (bytes.size() - at < kFrame) {
      contents.damage = "a record cut short at byte " + offset + " (incomplete frame)";
      break;
    }
    const auto length = get_u32(bytes, at);
    if (length > kMaxRecord || bytes.size() - at - kFrame < length) {
      contents.damage = "a record cut short at byte " + offset + " (length " +
                        std::to_string(length) + " runs past the end)";
      break;
    }
    const auto payload = bytes.substr(at + kFrame, length);
    if (crc_of(payload) != get_u32(bytes, at + 4)) {
      contents.damage = "a damaged record at byte " + offset + " (checksum mismatch)";
      break;
    }
    auto record = decode_payload(payload);
    if (!record) {
      contents.damage = "a malformed record at byte " + offset;
      break;
    }
    contents.records.push_back(std::move(*record));
    at += kFrame + length;
    contents.valid_bytes = at;
  }
  return contents;
}

core::Result<JournalContents> read_journal_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errno_error("cannot read the journal", path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return read_journal(buffer.str());
}

JournalFile::JournalFile(std::filesystem::path path, int fd, std::size_t records, std::size_t bytes,
                         FsyncPolicy fsync, std::chrono::milliseconds interval)
    : path_(std::move(path)),
      fd_(fd),
      records_(records),
      bytes_(bytes),
      fsync_(fsync),
      interval_(interval),
      last_sync_(std::chrono::steady_clock::now()) {}

JournalFile::~JournalFile() {
  if (fd_ >= 0) {
    if (dirty_ && fsync_ != FsyncPolicy::never) ::fdatasync(fd_);
    ::close(fd_);
  }
}

core::Result<std::unique_ptr<JournalFile>> JournalFile::create(
    const std::filesystem::path& path, const std::vector<JournalRecord>& records,
    const JournalOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return core::make_error("cannot make the state directory \"" + path.parent_path().string() +
                            "\": " + ec.message());
  }
  auto temporary = path;
  temporary += ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return errno_error("cannot create the journal", temporary);
  std::string bytes;
  for (const auto& record : records)
    bytes += encode_record(record);
  auto written = write_all(fd, bytes, temporary);
  if (written && options.fsync != FsyncPolicy::never && ::fdatasync(fd) != 0) {
    written = errno_error("cannot sync the journal", temporary);
  }
  if (written && ::rename(temporary.c_str(), path.c_str()) != 0) {
    written = errno_error("cannot rename the journal to", path);
  }
  if (written && options.fsync != FsyncPolicy::never) written = sync_directory(path.parent_path());
  if (!written) {
    ::close(fd);
    std::filesystem::remove(temporary, ec);
    return written.error();
  }
  ::close(fd);
  // Reopened in append mode: appends go to the end however the file was written.
  const int append_fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (append_fd < 0) return errno_error("cannot open the journal", path);
  ::flock(append_fd, LOCK_EX | LOCK_NB);
  return std::unique_ptr<JournalFile>(new JournalFile(path, append_fd, records.size(), bytes.size(),
                                                      options.fsync, options.fsync_interval));
}

core::Result<std::unique_ptr<JournalFile>> JournalFile::reopen(const std::filesystem::path& path,
                                                               std::size_t valid_bytes,
                                                               std::size_t records,
                                                               const JournalOptions& options) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return errno_error("cannot open the journal", path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return core::make_error("the journal \"" + path.string() +
                            "\" is in use by another fcpd (its document is open there)");
  }
  if (::ftruncate(fd, static_cast<off_t>(valid_bytes)) != 0) {
    auto error = errno_error("cannot cut the damaged tail of the journal", path);
    ::close(fd);
    return error;
  }
  return std::unique_ptr<JournalFile>(
      new JournalFile(path, fd, records, valid_bytes, options.fsync, options.fsync_interval));
}

core::Result<void> JournalFile::append(const JournalRecord& record) {
  const auto bytes = encode_record(record);
  if (auto written = write_all(fd_, bytes, path_); !written) return written;
  ++records_;
  bytes_ += bytes.size();
  dirty_ = true;
  switch (fsync_) {
    case FsyncPolicy::batch:
      return sync();
    case FsyncPolicy::interval:
      if (std::chrono::steady_clock::now() - last_sync_ >= interval_) return sync();
      return {};
    case FsyncPolicy::never:
      return {};
  }
  return {};
}

core::Result<void> JournalFile::sync() {
  if (!dirty_) return {};
  if (::fdatasync(fd_) != 0) return errno_error("cannot sync the journal", path_);
  dirty_ = false;
  last_sync_ = std::chrono::steady_clock::now();
  return {};
}

bool journal_in_use(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
  ::close(fd);
  return locked;
}

std::string journal_file_name(std::string_view handle) {
  if (handle.starts_with("doc:")) handle.remove_prefix(4);
  return std::string(handle) + ".fcpj";
}

std::filesystem::path default_state_dir() {
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg != nullptr && *xdg == '/') {
    return std::filesystem::path(xdg) / "fcpd";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".local" / "state" / "fcpd";
  }
  return std::filesystem::temp_directory_path() / "fcpd-state";
}

}  // namespace fcp::mcp
