#include "mcp/document_lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sstream>

#include "mcp/document_journal.hpp"

namespace fcp::mcp {
namespace {

constexpr std::string_view kFormat = "fcp-lease/1";

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

core::Error errno_error(const std::string& what, const std::filesystem::path& path) {
  return core::make_error(what + " \"" + path.string() + "\": " + std::strerror(errno));
}

// A lease file open and locked (flock) for one read-and-write; unlocked when it goes.
class LockedLease {
 public:
  // Opens (creating) and locks `path`; retries when the file was removed meanwhile (a release by
  // its holder), so the lock is always on the file the path names.
  static core::Result<LockedLease> open(const std::filesystem::path& path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      if (fd < 0) return errno_error("cannot open the lease", path);
      if (::flock(fd, LOCK_EX) != 0) {
        auto error = errno_error("cannot lock the lease", path);
        ::close(fd);
        return error;
      }
      struct stat opened {};
      struct stat named {};
      if (::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 &&
          opened.st_ino == named.st_ino && opened.st_dev == named.st_dev) {
        return LockedLease(fd, path);
      }
      ::close(fd);
    }
    return core::make_error("the lease \"" + path.string() + "\" keeps being replaced");
  }
  LockedLease(LockedLease&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
    other.fd_ = -1;
  }
  LockedLease& operator=(LockedLease&&) = delete;
  LockedLease(const LockedLease&) = delete;
  LockedLease& operator=(const LockedLease&) = delete;
  ~LockedLease() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
  }

  std::optional<LeaseHolder> read() const {
    std::string text;
    char buffer[512];
    off_t offset = 0;
    for (;;) {
      const ssize_t got = ::pread(fd_, buffer, sizeof buffer, offset);
      if (got <= 0) break;
      text.append(buffer, static_cast<std::size_t>(got));
      offset += got;
    }
    return parse_lease(text);
  }
  core::Result<void> write(const LeaseHolder& holder) const {
    const std::string text = format_lease(holder);
    if (::ftruncate(fd_, 0) != 0) return errno_error("cannot write the lease", path_);
    if (::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
      return errno_error("cannot write the lease", path_);
    }
    return {};
  }
  // Removes the file while it is locked: a replica waiting for the lock retries on the new file.
  void remove() const { ::unlink(path_.c_str()); }

 private:
  LockedLease(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::filesystem::path path_;
};

}  // namespace

std::string LeaseHolder::describe() const {
  if (pid <= 0) {
    return "another fcpd on this host (it holds the document's journal open, but its lease is "
           "stale or gone)";
  }
  const auto age = std::max<std::int64_t>(0, now_ms() - renewed_ms);
  std::ostringstream text;
  text.precision(1);
  text << std::fixed << "replica " << replica << " (pid " << pid << " on host " << host
       << ", lease renewed " << static_cast<double>(age) / 1000.0 << " s ago)";
  return text.str();
}

std::optional<LeaseHolder> parse_lease(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string line;
  if (!std::getline(in, line) || line != kFormat) return std::nullopt;
  LeaseHolder holder;
  bool renewed = false;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    if (space == std::string::npos) continue;
    const std::string key = line.substr(0, space);
    const std::string value = line.substr(space + 1);
    try {
      if (key == "replica") holder.replica = value;
      if (key == "pid") holder.pid = std::stol(value);
      if (key == "host") holder.host = value;
      if (key == "renewed") {
        holder.renewed_ms = std::stoll(value);
        renewed = true;
      }
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  if (holder.replica.empty() || holder.pid <= 0 || !renewed) return std::nullopt;
  return holder;
}

std::string format_lease(const LeaseHolder& holder) {
  return std::string(kFormat) + "\nreplica " + holder.replica + "\npid " +
         std::to_string(holder.pid) + "\nhost " + holder.host + "\nrenewed " +
         std::to_string(holder.renewed_ms) + "\n";
}

bool valid_replica_id(std::string_view id) {
  return !id.empty() && id.size() <= 32 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

LeaseTable::LeaseTable(std::optional<std::filesystem::path> state_dir, ReplicaOptions options)
    : dir_(std::move(state_dir)),
      options_(std::move(options)),
      host_(host_name()),
      pid_(static_cast<long>(::getpid())) {
  if (!enabled()) return;
  // Requests to a previous process of this replica are moot: it held nothing this one holds.
  std::error_code ec;
  std::filesystem::create_directories(*dir_, ec);
  std::filesystem::remove(*dir_ / (options_.id + ".handoff"), ec);
}

LeaseHolder LeaseTable::self() const {
  return LeaseHolder{options_.id, pid_, host_, now_ms()};
}

std::filesystem::path LeaseTable::lease_path(std::string_view handle) const {
  auto name = journal_file_name(handle);  // "dw-….fcpj"
  name.replace(name.size() - 5, 5, ".lease");
  return *dir_ / name;
}

bool LeaseTable::alive(const LeaseHolder& holder, std::int64_t now) const {
  // On this host a holder whose process is gone holds nothing, whatever the time says.
  if (holder.host == host_ && ::kill(static_cast<pid_t>(holder.pid), 0) != 0 && errno == ESRCH) {
    return false;
  }
  return now - holder.renewed_ms < options_.lease_ttl.count();
}

core::Result<LeaseTable::Outcome> LeaseTable::acquire(std::string_view handle) {
  Outcome outcome;
  if (!enabled()) {
    outcome.taken = true;
    return outcome;
  }
  auto lease = LockedLease::open(lease_path(handle));
  if (!lease) return lease.error();
  const auto now = now_ms();
  const auto current = lease->read();
  const bool ours =
      current && current->replica == options_.id && current->pid == pid_ && current->host == host_;
  if (current && !ours && alive(*current, now)) {
    outcome.holder = current;
    return outcome;
  }
  if (current && !ours) outcome.taken_from = current;
  if (auto written = lease->write(self()); !written) return written.error();
  std::lock_guard lock(mutex_);
  held_.emplace(handle);
  outcome.taken = true;
  return outcome;
}

std::optional<LeaseHolder> LeaseTable::live_holder(std::string_view handle) const {
  if (!enabled()) return std::nullopt;
  auto lease = LockedLease::open(lease_path(handle));
  if (!lease) return std::nullopt;
  auto current = lease->read();
  if (!current || !alive(*current, now_ms())) return std::nullopt;
  return current;
}

std::vector<std::string> LeaseTable::renew_all() {
  std::vector<std::string> lost;
  for (const auto& handle : held()) {
    auto lease = LockedLease::open(lease_path(handle));
    if (!lease) continue;  // the file system failed: try again next time
    const auto current = lease->read();
    const bool ours = current && current->replica == options_.id && current->pid == pid_ &&
                      current->host == host_;
    if (!ours) {
      lost.push_back(handle);
      std::lock_guard lock(mutex_);
      held_.erase(handle);
      continue;
    }
    (void)lease->write(self());
  }
  return lost;
}

void LeaseTable::release(std::string_view handle) {
  if (!enabled()) return;
  {
    std::lock_guard lock(mutex_);
    auto it = held_.find(handle);
    if (it == held_.end()) return;
    held_.erase(it);
  }
  auto lease = LockedLease::open(lease_path(handle));
  if (!lease) return;
  const auto current = lease->read();
  if (current && current->replica == options_.id && current->pid == pid_) lease->remove();
}

bool LeaseTable::holds(std::string_view handle) const {
  std::lock_guard lock(mutex_);
  return held_.contains(handle);
}

std::vector<std::string> LeaseTable::held() const {
  std::lock_guard lock(mutex_);
  return {held_.begin(), held_.end()};
}

core::Result<void> LeaseTable::ask_handoff(const LeaseHolder& holder,
                                           std::string_view handle) const {
  const auto inbox = *dir_ / (holder.replica + ".handoff");
  const int fd = ::open(inbox.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return errno_error("cannot ask for a hand-over through", inbox);
  const std::string line = std::string(handle) + "\n";
  // One short O_APPEND write: requests of several replicas never interleave.
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  if (!written) return errno_error("cannot ask for a hand-over through", inbox);
  return {};
}

std::vector<std::string> LeaseTable::handoff_requests() {
  std::vector<std::string> out;
  if (!enabled()) return out;
  const auto inbox = *dir_ / (options_.id + ".handoff");
  std::lock_guard lock(mutex_);
  std::error_code ec;
  const auto size = std::filesystem::file_size(inbox, ec);
  if (ec || size <= inbox_offset_) return out;
  const int fd = ::open(inbox.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  std::string text(size - inbox_offset_, '\0');
  const ssize_t got = ::pread(fd, text.data(), text.size(), static_cast<off_t>(inbox_offset_));
  ::close(fd);
  if (got <= 0) return out;
  text.resize(static_cast<std::size_t>(got));
  // Only whole lines: a request being written is read next time.
  const auto end = text.rfind('\n');
  if (end == std::string::npos) return out;
  inbox_offset_ += end + 1;
  std::istringstream in(text.substr(0, end + 1));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

}  // namespace fcp::mcp
