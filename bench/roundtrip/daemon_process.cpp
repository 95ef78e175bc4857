#include "bench/roundtrip/daemon_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>

namespace fcp::bench {
namespace {

constexpr std::size_t kEarlyLines = 200;
constexpr std::size_t kRecentLines = 40;
constexpr std::size_t kProblemsKept = 10;

// The daemon running now, for the signal handler.
std::atomic<pid_t> g_running_daemon{-1};

std::string errno_text(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

struct Pipe {
  int read = -1;
  int write = -1;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw BenchError(errno_text("pipe2"));
  return Pipe{fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(pid_t parent, char* const* argv, int in, int out, int err,
                             const std::string& failure) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(127);
  ::execv(argv[0], argv);
  ssize_t ignored = ::write(2, failure.data(), failure.size());
  static_cast<void>(ignored);
  ::_exit(127);
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

// The level word of an spdlog line "2025-01-01T00:00:00.000 warning text".
bool is_problem_line(const std::string& line) {
  std::istringstream words(line);
  std::string stamp, level;
  words >> stamp >> level;
  return level == "warning" || level == "error" || level == "critical";
}

extern "C" void on_fatal_signal(int) {
  pid_t pid = g_running_daemon.load();
  if (pid > 0) ::kill(pid, SIGKILL);
  ::_exit(130);
}

}  // namespace

DaemonProcess::DaemonProcess(const std::string& path, const std::vector<std::string>& args,
                             bool pipe_stdio) {
  if (::access(path.c_str(), X_OK) != 0) throw BenchError(errno_text("cannot execute " + path));
  std::vector<std::string> words{path};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words)
    argv.push_back(word.data());
  argv.push_back(nullptr);

  Pipe err = make_pipe();
  Pipe in = pipe_stdio ? make_pipe() : Pipe{::open("/dev/null", O_RDONLY | O_CLOEXEC), -1};
  Pipe out = pipe_stdio ? make_pipe() : Pipe{-1, ::open("/dev/null", O_WRONLY | O_CLOEXEC)};
  const std::string failure = "bench_roundtrip: execv " + path + " failed\n";
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) exec_child(parent, argv.data(), in.read, out.write, err.write, failure);
  const int fork_errno = errno;
  close_fd(in.read);
  close_fd(out.write);
  close_fd(err.write);
  stdin_fd_ = in.write;
  stdout_fd_ = out.read;
  if (pid_ < 0) {
    close_fd(err.read);
    errno = fork_errno;
    throw BenchError(errno_text("fork"));
  }
  g_running_daemon.store(pid_);
  drainer_ = std::thread([this, fd = err.read] { drain(fd); });
}

DaemonProcess::~DaemonProcess() {
  stop(std::chrono::milliseconds(2000));
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
}

int DaemonProcess::take_stdin() {
  return std::exchange(stdin_fd_, -1);
}
int DaemonProcess::take_stdout() {
  return std::exchange(stdout_fd_, -1);
}

void DaemonProcess::drain(int fd) {
  std::string pending;
  char chunk[4096];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(chunk, static_cast<std::size_t>(n));
    std::lock_guard lock(mutex_);
    for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
      add_line(pending.substr(0, end));
      pending.erase(0, end + 1);
    }
    changed_.notify_all();
  }
  ::close(fd);
  std::lock_guard lock(mutex_);
  if (!pending.empty()) add_line(pending);
  stderr_closed_ = true;
  changed_.notify_all();
}

void DaemonProcess::add_line(std::string line) {
  if (is_problem_line(line)) {
    ++problem_count_;
    if (problems_.size() < kProblemsKept) problems_.push_back(line);
  }
  if (early_.size() < kEarlyLines) early_.push_back(line);
  recent_.push_back(std::move(line));
  if (recent_.size() > kRecentLines) recent_.pop_front();
}

std::string DaemonProcess::wait_for_log(const std::string& marker,
                                        std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  std::string found;
  auto has_marker = [&] {
    for (const auto& line : early_) {
      if (auto at = line.find(marker); at != std::string::npos) {
        found = line.substr(at + marker.size());
        return true;
      }
    }
    return stderr_closed_;
  };
  if (changed_.wait_for(lock, timeout, has_marker) && !found.empty()) return found;
  const char* why = stderr_closed_ ? "the daemon exited" : "timed out";
  throw BenchError(std::string(why) + " before logging \"" + marker + "\"");
}

DaemonExit DaemonProcess::stop(std::chrono::milliseconds grace) {
  if (stopped_ || pid_ <= 0) return exit_;
  stopped_ = true;
  close_fd(stdin_fd_);
  ::kill(pid_, SIGTERM);
  int status = 0;
  pid_t done = 0;
  const auto deadline = Clock::now() + grace;
  while ((done = ::waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
    ::poll(nullptr, 0, 5);
  }
  if (done == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    exit_ = {false, "still running " + std::to_string(grace.count()) +
                        " ms after SIGTERM; killed with SIGKILL"};
  } else {
    exit_ = {WIFEXITED(status) && WEXITSTATUS(status) == 0, describe_status(status)};
  }
  g_running_daemon.store(-1);
  if (drainer_.joinable()) drainer_.join();
  return exit_;
}

std::size_t DaemonProcess::problem_count() const {
  std::lock_guard lock(mutex_);
  return problem_count_;
}

std::vector<std::string> DaemonProcess::problems() const {
  std::lock_guard lock(mutex_);
  return problems_;
}

std::string DaemonProcess::recent_log() const {
  std::lock_guard lock(mutex_);
  std::string text;
  for (const auto& line : recent_)
    text += "  | " + line + "\n";
  return text.empty() ? "  | (the daemon wrote nothing on stderr)\n" : text;
}

void install_signal_handlers() {
  std::signal(SIGPIPE, SIG_IGN);
  for (int signal : {SIGINT, SIGTERM, SIGHUP})
    std::signal(signal, on_fatal_signal);
}

asio::ip::tcp::endpoint parse_endpoint(std::string text, std::string* target) {
  if (text.starts_with("http://")) text.erase(0, 7);
  const auto slash = text.find('/');
  if (target != nullptr) *target = slash == std::string::npos ? "/" : text.substr(slash);
  text = text.substr(0, slash);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  const auto colon = text.rfind(':');
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(text.substr(0, colon), ec);
  const auto port = colon == std::string::npos ? 0 : std::atoi(text.c_str() + colon + 1);
  if (ec || port <= 0 || port > 65535) throw BenchError("cannot parse an endpoint from: " + text);
  return {address, static_cast<unsigned short>(port)};
}

}  // namespace fcp::bench
