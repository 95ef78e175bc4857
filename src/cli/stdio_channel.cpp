#include "cli/stdio_channel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(int error) {
  return std::strerror(error);
}

// Moves fd above 2 so that a parent started with closed standard fds cannot have a pipe end
// collide with the child's stdin/stdout. Keeps O_CLOEXEC.
int above_standard_fds(int fd) {
  if (fd > 2) return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

int milliseconds_until(Clock::time_point deadline) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

std::string describe_status(const std::string& program, int status) {
  if (WIFEXITED(status)) {
    return program + " exited with status " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    return program + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return program + " stopped";
}

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// RAII for the spawn attribute objects, so every exit path destroys them.
struct SpawnActions {
  posix_spawn_file_actions_t actions{};
  SpawnActions() { posix_spawn_file_actions_init(&actions); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
};

// Starts `program --stdio extra_args…` with child_in/child_out as its stdin/stdout; returns
// the pid, or throws. dup2 clears O_CLOEXEC on the child's 0 and 1; every other pipe end
// (all opened O_CLOEXEC) closes at exec.
pid_t spawn_child(const std::string& program, const std::vector<std::string>& extra_args,
                  int child_in, int child_out) {
  std::vector<std::string> arg_strings{program, "--stdio"};
  arg_strings.insert(arg_strings.end(), extra_args.begin(), extra_args.end());
  std::vector<char*> argv;
  argv.reserve(arg_strings.size() + 1);
  for (auto& arg : arg_strings)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  SpawnActions spawn;
  posix_spawn_file_actions_adddup2(&spawn.actions, child_in, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&spawn.actions, child_out, STDOUT_FILENO);
  pid_t pid = -1;
  bool search_path = program.find('/') == std::string::npos;
  int error =
      search_path
          ? ::posix_spawnp(&pid, program.c_str(), &spawn.actions, nullptr, argv.data(), environ)
          : ::posix_spawn(&pid, program.c_str(), &spawn.actions, nullptr, argv.data(), environ);
  if (error != 0) {
    throw ChannelError("cannot start '" + program + "': " + errno_text(error) +
                       " (put fcpd beside fcp or on PATH, or pass --fcpd PATH)");
  }
  return pid;
}

}  // namespace

std::string locate_fcpd(const std::optional<std::string>& flag, const char* env_value,
                        const std::string& self_exe) {
  if (flag) return *flag;
  if (env_value != nullptr && *env_value != '\0') return env_value;
  if (auto slash = self_exe.rfind('/'); slash != std::string::npos) {
    std::string beside = self_exe.substr(0, slash + 1) + "fcpd";
    if (::access(beside.c_str(), X_OK) == 0) return beside;
  }
  return "fcpd";
}

std::string self_executable() {
  std::string path(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0) return {};
  path.resize(static_cast<std::size_t>(n));
  return path;
}

StdioChildChannel::StdioChildChannel(const std::string& program,
                                     const std::vector<std::string>& extra_args,
                                     std::chrono::milliseconds send_timeout)
    : program_(program), send_timeout_(send_timeout) {
  int in_pipe[2];
  int out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) throw ChannelError("pipe: " + errno_text(errno));
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw ChannelError("pipe: " + errno_text(errno));
  }
  int child_in = above_standard_fds(in_pipe[0]);
  to_child_ = above_standard_fds(in_pipe[1]);
  from_child_ = above_standard_fds(out_pipe[0]);
  int child_out = above_standard_fds(out_pipe[1]);
  try {
    pid_ = spawn_child(program, extra_args, child_in, child_out);
  } catch (const ChannelError&) {
    for (int fd : {child_in, child_out, to_child_, from_child_})
      ::close(fd);
    throw;
  }
  ::close(child_in);
  ::close(child_out);
  // Writes must never block forever: the daemon may be waiting for us to read its output.
  ::fcntl(to_child_, F_SETFL, ::fcntl(to_child_, F_GETFL) | O_NONBLOCK);
}

StdioChildChannel::~StdioChildChannel() {
  close();
}

void StdioChildChannel::send(const std::string& message) {
  if (to_child_ < 0) throw ChannelError("the connection to " + program_ + " is closed");
  std::string framed = message + "\n";
  std::size_t written = 0;
  auto deadline = Clock::now() + send_timeout_;
  while (written < framed.size()) {
    pollfd fds[2] = {{to_child_, POLLOUT, 0}, {from_child_, POLLIN, 0}};
    int ready = ::poll(fds, 2, milliseconds_until(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      unresponsive_ = true;
      throw timeout_error(send_timeout_);
    }
    if (fds[1].revents != 0 && !read_available()) fail_child_gone("closed its output");
    if (fds[0].revents & (POLLERR | POLLHUP)) fail_child_gone("closed its input");
    if (!(fds[0].revents & POLLOUT)) continue;
    ssize_t n = ::write(to_child_, framed.data() + written, framed.size() - written);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n < 0) fail_child_gone("stopped reading (" + errno_text(errno) + ")");
    written += static_cast<std::size_t>(n);
  }
}

std::string StdioChildChannel::receive(std::chrono::milliseconds timeout) {
  if (from_child_ < 0) throw ChannelError("the connection to " + program_ + " is closed");
  auto deadline = Clock::now() + timeout;
  for (;;) {
    if (auto line = take_line(buffer_)) return *line;
    pollfd fd{from_child_, POLLIN, 0};
    int ready = ::poll(&fd, 1, milliseconds_until(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      unresponsive_ = true;
      throw timeout_error(timeout);
    }
    if (!read_available()) fail_child_gone("closed its output");
  }
}

bool StdioChildChannel::read_available() {
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
}

void StdioChildChannel::fail_child_gone(const std::string& what) {
  close_fd(to_child_);
  close_fd(from_child_);
  auto status = wait_child(std::chrono::milliseconds(2000));
  std::string message = status ? describe_status(program_, *status) : program_ + " " + what;
  throw ChannelError("the daemon failed: " + message);
}

std::optional<int> StdioChildChannel::wait_child(std::chrono::milliseconds grace) noexcept {
  auto deadline = Clock::now() + grace;
  while (pid_ > 0) {
    int status = 0;
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done < 0 && errno == EINTR) continue;
    if (done > 0) {
      pid_ = -1;
      return status;
    }
    if (done < 0) pid_ = -1;  // not our child any more (already reaped): nothing to signal
    if (done < 0 || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return std::nullopt;
}

void StdioChildChannel::close() noexcept {
  // EOF on its stdin asks the daemon to exit cleanly; escalate only if it does not.
  close_fd(to_child_);
  close_fd(from_child_);
  // pid_ stays positive only while the child is unreaped, so kill() never gets 0 or -1.
  // A daemon that already missed a deadline gets no grace period: the user is waiting.
  wait_child(std::chrono::milliseconds(unresponsive_ ? 0 : 5000));
  if (pid_ > 0) ::kill(pid_, SIGTERM);
  wait_child(std::chrono::milliseconds(2000));
  if (pid_ > 0) ::kill(pid_, SIGKILL);
  wait_child(std::chrono::milliseconds(2000));
}

}  // namespace fcp::cli
