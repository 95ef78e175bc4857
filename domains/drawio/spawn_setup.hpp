// posix_spawn's attribute and file-action objects, owned: the helper processes drawio starts
// (Graphviz layout workers, the draw.io CLI for export) set them up the same way.
#pragma once

#include <spawn.h>

namespace fcp::drawio {

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
};

}  // namespace fcp::drawio
