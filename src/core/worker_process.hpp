// A worker process: a child (usually the daemon's own executable with a subcommand) that gets one
// job on its stdin and writes its answer to its stdout. Work that cannot be interrupted in this
// process (Graphviz, librsvg) runs there, where it is killed as soon as the call must stop
// (call_stop(): cancelled, past its time limit, the daemon shutting down), and where a crash or
// an exhausted memory limit ends the worker, not the daemon.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// How errors name the worker: "<prefix>cannot start <worker> …", "<prefix><worker> ended with
// signal 9 <crashed>".
struct WorkerNames {
  std::string prefix;   // "Layout: "
  std::string worker;   // "the Graphviz worker"
  std::string crashed;  // "(a crash in Graphviz); the document was not changed"
};

// Thread: one call's worker; not shared. The worker is killed (SIGKILL) and reaped when this
// object goes away, so no worker outlives its call and none is left a zombie.
class WorkerProcess {
 public:
  explicit WorkerProcess(WorkerNames names);
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Starts `command` (program path first) with stdin and stdout on pipes, stderr on /dev/null,
  // no other descriptor of the daemon open and default signal handling.
  Result<void> start(const std::vector<std::string>& command);
  // Sends `job` and closes the worker's stdin, collects everything it writes until it exits.
  // An exit status other than 0 is an error; when the call must stop (call_stop()) the worker is
  // killed and the error is the stop's reason ("the call was cancelled").
  Result<std::string> exchange(std::string_view job);
  pid_t pid() const { return pid_; }
  // Whether a started worker that has not had its job yet has ended (or written something, which
  // an idle worker never does): it cannot take a job. Does not wait.
  bool ended() const;
  // The descriptor its output arrives on (readable or hung up once it ended); -1 when none.
  int output_fd() const { return from_child_; }

 private:
  Error failure(const char* what) const;
  void kill();

  WorkerNames names_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

// The default address-space limit of a worker process (config drawio.worker_memory_bytes): an
// 8 192 × 8 192 px PNG peaks at about 270 MB.
inline constexpr std::size_t kWorkerMemory = std::size_t{2} << 30;
// The smallest limit the config accepts (other than 0, no limit). Measured with fcpd
// raster-worker rendering a line of text: it fails at random below about 384 MiB (pango starts
// threads, each reserving its stack and a malloc arena), never in 12 runs at 384 and 512 MiB.
inline constexpr std::size_t kMinWorkerMemory = std::size_t{512} << 20;

// Whether a worker can limit its address space. Not in an AddressSanitizer or ThreadSanitizer
// build: their shadow memory reserves terabytes of address space at start-up, so any RLIMIT_AS a
// job could live with aborts the worker before it reads the job.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kWorkerMemoryLimitApplies = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kWorkerMemoryLimitApplies = false;
#else
inline constexpr bool kWorkerMemoryLimitApplies = true;
#endif
#else
inline constexpr bool kWorkerMemoryLimitApplies = true;
#endif

// The worker's side: limits this process's address space to `max_memory` bytes (setrlimit
// RLIMIT_AS; 0, or a sanitizer build: no limit). False when the limit could not be set.
bool limit_worker_memory(std::size_t max_memory);
// A worker's MAX_MEMORY argument ("2147483648"); none when it is not a whole number.
std::optional<std::size_t> worker_memory_argument(std::string_view text);

}  // namespace fcp::core
