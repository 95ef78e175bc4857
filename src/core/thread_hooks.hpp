// What a thread running tool calls tells its scheduler: "a possibly long task starts", "I am
// about to block on something others must deliver". The daemon's event loop installs hooks on its
// threads, so that a long or blocking call hands the loop's I/O to another thread instead of
// holding up every other client. Without hooks (unit tests, other programs) the scopes do nothing.
#pragma once

namespace fcp::core {

// Thread: each hook object serves the threads it is installed on; calls come from those threads.
class ThreadHooks {
 public:
  virtual ~ThreadHooks() = default;
  virtual void task_started() = 0;
  virtual void task_finished() = 0;
  virtual void blocking_started() = 0;
  virtual void blocking_finished() = 0;
};

// Installs `hooks` for the calling thread (nullptr removes them). The hooks must outlive the
// thread's use of them.
void install_thread_hooks(ThreadHooks* hooks);

// One possibly long piece of work on this thread: a tool call.
class TaskScope {
 public:
  TaskScope();
  ~TaskScope();
  TaskScope(const TaskScope&) = delete;
  TaskScope& operator=(const TaskScope&) = delete;

 private:
  ThreadHooks* hooks_;
};

// This thread waits for something another thread must deliver (a reply that arrives through the
// event loop): the loop is handed over before the wait, not after a stall.
class BlockingScope {
 public:
  BlockingScope();
  ~BlockingScope();
  BlockingScope(const BlockingScope&) = delete;
  BlockingScope& operator=(const BlockingScope&) = delete;

 private:
  ThreadHooks* hooks_;
};

}  // namespace fcp::core
