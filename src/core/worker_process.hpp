// A worker process: a child (usually the daemon's own executable with a subcommand) that gets one
// job on its stdin and writes its answer to its stdout. Work that cannot be interrupted in this
// process (Graphviz, librsvg) runs there, where it is killed as soon as the call must stop
// (call_stop(): cancelled, past its time limit, the daemon shutting down), and where a crash or
// an exhausted memory limit ends the worker, not the daemon.
#pragma once

#include <sys/types.h>

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

 private:
  Error failure(const char* what) const;
  void kill();

  WorkerNames names_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

}  // namespace fcp::core
