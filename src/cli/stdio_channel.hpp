// A MessageChannel to a spawned `fcpd --stdio` child: newline-delimited JSON-RPC over pipes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cli/message_channel.hpp"

namespace fcp::cli {

// The daemon to spawn: --fcpd PATH, else $FCPD, else `fcpd` in the directory of `self_exe`
// when it exists there, else plain "fcpd" (searched on PATH at spawn time).
std::string locate_fcpd(const std::optional<std::string>& flag, const char* env_value,
                        const std::string& self_exe);

// The path of the running executable (/proc/self/exe), or "" when unknown.
std::string self_executable();

// Owns the child: its stdin/stdout pipes, and reaping it. The child's stderr is inherited.
// Writes interleave with reads, so a daemon that answers while we are still writing a large
// batch cannot deadlock us. The process must ignore SIGPIPE (fcp's main does), so that a child
// dying mid-write surfaces as a ChannelError naming its exit status.
class StdioChildChannel final : public MessageChannel {
 public:
  // Spawns `program --stdio extra_args…`. Throws ChannelError when it cannot be started.
  StdioChildChannel(const std::string& program, const std::vector<std::string>& extra_args,
                    std::chrono::milliseconds send_timeout);
  ~StdioChildChannel() override;
  StdioChildChannel(const StdioChildChannel&) = delete;
  StdioChildChannel& operator=(const StdioChildChannel&) = delete;

  void send(const std::string& message) override;
  std::string receive(std::chrono::milliseconds timeout) override;
  void close() noexcept override;

 private:
  // Reads what is available into buffer_; false on EOF.
  bool read_available();
  // Reaps the child (waiting up to `grace`) and throws a ChannelError saying how it ended.
  [[noreturn]] void fail_child_gone(const std::string& what);
  std::optional<int> wait_child(std::chrono::milliseconds grace) noexcept;

  std::string program_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
  std::chrono::milliseconds send_timeout_;
  bool unresponsive_ = false;  // a send or receive timed out
};

}  // namespace fcp::cli
