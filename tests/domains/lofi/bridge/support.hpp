// Test helpers for the lofi bridge: an io_context on threads, log capture, UDP capture and
// child processes (liblo's oscsend/oscdump).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fcp::lofi::bridge::testing {

using namespace std::chrono_literals;

// An io_context run by `threads` threads until destruction.
class IoThreads {
 public:
  explicit IoThreads(int threads = 3) : guard_(boost::asio::make_work_guard(io_)) {
    for (int i = 0; i < threads; ++i)
      threads_.emplace_back([this] { io_.run(); });
  }
  ~IoThreads() {
    guard_.reset();
    io_.stop();
    for (auto& thread : threads_)
      thread.join();
  }
  boost::asio::io_context& io() { return io_; }

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::vector<std::thread> threads_;
};

// Routes spdlog's default logger into a ring buffer for the lifetime of this object.
class LogCapture {
 public:
  LogCapture()
      : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(512)),
        previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>("capture", sink_);
    logger->set_level(spdlog::level::debug);
    logger->set_pattern("%l %v");
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  bool contains(const std::string& text) const {
    for (const auto& line : sink_->last_formatted()) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }

 private:
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
  std::shared_ptr<spdlog::logger> previous_;
};

inline bool wait_until(const std::function<bool()>& condition,
                       std::chrono::milliseconds limit = 3000ms) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

template <class T>
T get_within(std::future<T>& future, std::chrono::milliseconds limit = 10000ms) {
  if (future.wait_for(limit) != std::future_status::ready) {
    throw std::runtime_error("a completion callback was never called");
  }
  return future.get();
}

inline bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::string_view rest(path);
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    std::filesystem::path dir(std::string(rest.substr(0, colon)));
    std::error_code ec;
    if (std::filesystem::is_regular_file(dir / program, ec)) return true;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return false;
}

// A blocking UDP socket on 127.0.0.1 with an ephemeral port, for capturing datagrams.
class UdpCapture {
 public:
  UdpCapture() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      const std::string reason = std::strerror(errno);
      if (fd_ >= 0) ::close(fd_);
      throw std::runtime_error("UdpCapture: cannot bind 127.0.0.1: " + reason);
    }
    socklen_t length = sizeof address;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
  }
  ~UdpCapture() { ::close(fd_); }
  UdpCapture(const UdpCapture&) = delete;
  UdpCapture& operator=(const UdpCapture&) = delete;
  std::uint16_t port() const { return port_; }
  void send_to(std::uint16_t port, const std::string& bytes) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
  }
  std::optional<std::string> receive(std::chrono::milliseconds limit = 3000ms) {
    pollfd ready{fd_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(limit.count())) != 1) return std::nullopt;
    std::string bytes(65536, '\0');
    const auto size = ::recv(fd_, bytes.data(), bytes.size(), 0);
    if (size < 0) return std::nullopt;
    bytes.resize(static_cast<std::size_t>(size));
    return bytes;
  }

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

// A port that was free a moment ago (for programs that need a number up front).
inline std::uint16_t free_udp_port() {
  UdpCapture probe;
  return probe.port();
}

// Runs a program to completion (no shell); returns its exit status.
inline int run_program(const std::vector<std::string>& argv) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> args;
    for (const auto& arg : argv)
      args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A child process whose stdout is read through a pipe; killed (by its pid) on destruction.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
      std::vector<char*> args;
      for (const auto& arg : argv)
        args.push_back(const_cast<char*>(arg.c_str()));
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    ::close(fds[1]);
    out_ = fds[0];
    ::fcntl(out_, F_SETFL, O_NONBLOCK);
  }
  ~ChildProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) ::close(out_);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Everything written to stdout so far (waits up to `limit` for more).
  const std::string& read(std::chrono::milliseconds limit) {
    pollfd ready{out_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(limit.count())) == 1) {
      char chunk[4096];
      ssize_t size = 0;
      while ((size = ::read(out_, chunk, sizeof chunk)) > 0) {
        output_.append(chunk, static_cast<std::size_t>(size));
      }
    }
    return output_;
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  std::string output_;
};

}  // namespace fcp::lofi::bridge::testing
