// A child fcpd for the benchmarks: spawned with pipes, stderr drained on a thread, and stopped
// (SIGTERM, then SIGKILL) at the latest when the object goes away.
#pragma once

#include <sys/types.h>

#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/roundtrip/common.hpp"

namespace fcp::bench {

// How a stopped daemon ended.
struct DaemonExit {
  bool clean = false;       // exited with status 0 within the grace period after SIGTERM
  std::string description;  // "exit status 0", "killed by signal 11", …
};

class DaemonProcess {
 public:
  // Starts `path args…`. With `pipe_stdio`, its stdin and stdout are pipes (MCP over stdio);
  // otherwise they are /dev/null. Its stderr is always read by this object.
  DaemonProcess(const std::string& path, const std::vector<std::string>& args, bool pipe_stdio);
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  // The write end of the daemon's stdin and the read end of its stdout; the caller owns them.
  int take_stdin();
  int take_stdout();

  // Waits for a stderr line containing `marker` and returns what follows it on that line.
  std::string wait_for_log(const std::string& marker, std::chrono::milliseconds timeout);

  // Sends SIGTERM, waits up to `grace`, then SIGKILLs. Later calls return the first result.
  DaemonExit stop(std::chrono::milliseconds grace);

  // The daemon's process id (for its memory use in /proc).
  pid_t pid() const { return pid_; }

  // Log lines at level warning or above: how many, and the first few.
  std::size_t problem_count() const;
  std::vector<std::string> problems() const;
  // The last lines of stderr, for error messages.
  std::string recent_log() const;

 private:
  void drain(int fd);
  void add_line(std::string line);  // mutex_ held

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::thread drainer_;
  bool stopped_ = false;
  DaemonExit exit_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> early_;  // the first lines (startup messages)
  std::deque<std::string> recent_;  // the last lines
  std::vector<std::string> problems_;
  std::size_t problem_count_ = 0;
  bool stderr_closed_ = false;
};

// "127.0.0.1:PORT" or "http://127.0.0.1:PORT/mcp" from a daemon log line; `target` (if given)
// receives the path ("/mcp", "/" when there is none).
asio::ip::tcp::endpoint parse_endpoint(std::string text, std::string* target);

// On SIGINT, SIGTERM or SIGHUP: SIGKILL the running daemon and exit 130. Ignores SIGPIPE.
void install_signal_handlers();

}  // namespace fcp::bench
