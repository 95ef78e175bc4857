// posix_spawn's attribute and file-action objects, owned: the helper processes the daemon starts
// (worker processes of its own executable, the draw.io CLI for export) set them up the same way.
#pragma once

#include <signal.h>
#include <spawn.h>

#include <string>
#include <vector>

namespace fcp::core {

struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attributes{};
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  // The child starts with no signal blocked and SIGPIPE, SIGINT and SIGTERM at their default
  // actions, whatever the daemon set for itself; `flags` adds posix_spawn flags (a new process
  // group).
  void default_signals(short flags = 0) {
    posix_spawnattr_setflags(
        &attributes, static_cast<short>(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
    sigset_t none;
    sigset_t defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
  }
};

// posix_spawn's argv for `args` (pointers into them, null-terminated).
inline std::vector<char*> spawn_argv(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  return argv;
}

}  // namespace fcp::core
