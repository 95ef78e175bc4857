#include "core/thread_hooks.hpp"

namespace fcp::core {
namespace {

thread_local ThreadHooks* installed_hooks = nullptr;

}  // namespace

void install_thread_hooks(ThreadHooks* hooks) {
  installed_hooks = hooks;
}

TaskScope::TaskScope() : hooks_(installed_hooks) {
  if (hooks_ != nullptr) hooks_->task_started();
}

TaskScope::~TaskScope() {
  if (hooks_ != nullptr) hooks_->task_finished();
}

BlockingScope::BlockingScope() : hooks_(installed_hooks) {
  if (hooks_ != nullptr) hooks_->blocking_started();
}

BlockingScope::~BlockingScope() {
  if (hooks_ != nullptr) hooks_->blocking_finished();
}

}  // namespace fcp::core
