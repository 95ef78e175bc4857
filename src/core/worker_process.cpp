#include "core/worker_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "core/call_scope.hpp"
#include "core/spawn_setup.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace fcp::core {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string status_text(int status) {
  return WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                           : "signal " + std::to_string(WTERMSIG(status));
}

}  // namespace

WorkerProcess::WorkerProcess(WorkerNames names) : names_(std::move(names)) {}

WorkerProcess::~WorkerProcess() {
  kill();
  close_fd(to_child_);
  close_fd(from_child_);
}

Error WorkerProcess::failure(const char* what) const {
  return make_error(names_.prefix + "cannot run " + names_.worker + " (" + what + ": " +
                    std::strerror(errno) + ")");
}

void WorkerProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

Result<void> WorkerProcess::start(const std::vector<std::string>& command) {
  int input[2], output[2];
  if (::pipe2(input, O_CLOEXEC) != 0) return failure("a pipe");
  to_child_ = input[1];
  int child_in = input[0];
  if (::pipe2(output, O_CLOEXEC) != 0) {
    close_fd(child_in);
    return failure("a pipe");
  }
  from_child_ = output[0];
  int child_out = output[1];
  SpawnSetup setup;
  posix_spawn_file_actions_adddup2(&setup.actions, child_in, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, child_out, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&setup.actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // The daemon's sockets must not stay open in the worker (a closed client would not see EOF).
  posix_spawn_file_actions_addclosefrom_np(&setup.actions, STDERR_FILENO + 1);
  setup.default_signals();
  std::vector<char*> argv = spawn_argv(command);
  const int rc =
      ::posix_spawn(&pid_, argv[0], &setup.actions, &setup.attributes, argv.data(), environ);
  close_fd(child_in);
  close_fd(child_out);
  if (rc != 0) {
    pid_ = -1;
    return make_error(names_.prefix + "cannot start " + names_.worker + " " + command.front() +
                      ": " + std::strerror(rc));
  }
  ::fcntl(to_child_, F_SETFL, O_NONBLOCK);
  ::fcntl(from_child_, F_SETFL, O_NONBLOCK);
  return {};
}

bool WorkerProcess::ended() const {
  if (pid_ <= 0 || from_child_ < 0) return true;
  pollfd fd{from_child_, POLLIN, 0};
  return ::poll(&fd, 1, 0) != 0;
}

Result<std::string> WorkerProcess::exchange(std::string_view job) {
  std::string answer;
  std::size_t sent = 0;
  if (job.empty()) close_fd(to_child_);
  char buffer[1 << 16];
  while (from_child_ >= 0) {
    if (auto stop = call_stop()) {
      kill();
      return make_error(*stop);
    }
    pollfd fds[2] = {{from_child_, POLLIN, 0}, {to_child_, POLLOUT, 0}};
    const int ready = ::poll(fds, to_child_ >= 0 ? 2 : 1, 50);
    if (ready < 0 && errno != EINTR) return failure("poll");
    if (ready <= 0) continue;
    if (to_child_ >= 0 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      const ssize_t n = ::write(to_child_, job.data() + sent, job.size() - sent);
      if (n > 0) sent += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || sent == job.size()) close_fd(to_child_);
    }
    if ((fds[0].revents & (POLLIN | POLLERR | POLLHUP)) != 0) {
      const ssize_t n = ::read(from_child_, buffer, sizeof buffer);
      if (n > 0) answer.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) close_fd(from_child_);
    }
  }
  close_fd(to_child_);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error(names_.prefix + names_.worker + " ended with " + status_text(status) + " " +
                      names_.crashed);
  }
  return answer;
}

bool limit_worker_memory(std::size_t max_memory) {
  if (max_memory == 0 || !kWorkerMemoryLimitApplies) return true;
  const rlimit limit{max_memory, max_memory};
  return ::setrlimit(RLIMIT_AS, &limit) == 0;
}

std::optional<std::size_t> worker_memory_argument(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace fcp::core
