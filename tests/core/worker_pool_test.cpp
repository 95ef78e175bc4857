// Spare worker processes: a job taken after the warm-up does not start a process, a spare taken
// or dead is replaced in the background, a call that must stop kills its worker, and nothing is
// left running or a zombie once the pool is reconfigured or gone.
#include "core/worker_pool.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

#include "core/call_scope.hpp"

namespace fcp::core {
namespace {

using namespace std::chrono_literals;

const WorkerNames kNames{"Test: ", "the test worker", "(it crashed)"};

// No child process of this test is left, running or a zombie.
bool no_child_left() {
  int status = 0;
  return ::waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD;
}

bool alive(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

TEST(WorkerPool, AJobAfterTheWarmUpTakesTheSpareAndItIsReplaced) {
  {
    WorkerPool pool;
    pool.configure(kNames, {"/bin/cat"}, 1);
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));
    const auto before = pool.stats();
    ASSERT_EQ(before.spares.size(), 1u);
    EXPECT_EQ(before.started, 1u);
    auto worker = pool.take();
    ASSERT_TRUE(worker) << worker.error().message;
    EXPECT_EQ((*worker)->pid(), before.spares.front());  // the spare, no process started now
    auto answer = (*worker)->exchange("hello");
    ASSERT_TRUE(answer) << answer.error().message;
    EXPECT_EQ(*answer, "hello");
    EXPECT_FALSE(alive(before.spares.front()));  // served its one job, reaped
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));
    const auto after = pool.stats();
    EXPECT_EQ(after.started, 2u);
    EXPECT_EQ(after.started_on_demand, 0u);
    ASSERT_EQ(after.spares.size(), 1u);
    EXPECT_NE(after.spares.front(), before.spares.front());
  }
  EXPECT_TRUE(no_child_left());
}

// SpareStart::on_first_use: no process until a job takes a worker; that job starts its own, and a
// spare is started behind it, which the next job takes.
TEST(WorkerPool, OnFirstUseNothingStartsBeforeTheFirstJobThenASpareWaits) {
  {
    WorkerPool pool;
    pool.configure(kNames, {"/bin/cat"}, 1, SpareStart::on_first_use);
    EXPECT_FALSE(pool.wait_for_spares(1, 300ms));  // nothing started while no job came
    EXPECT_EQ(pool.stats().started, 0u);
    EXPECT_TRUE(no_child_left());
    auto first = pool.take();
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(*(*first)->exchange("one"), "one");
    EXPECT_EQ(pool.stats().started_on_demand, 1u);
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));  // the spare for the next job
    const auto warm = pool.stats();
    ASSERT_EQ(warm.spares.size(), 1u);
    auto second = pool.take();
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ((*second)->pid(), warm.spares.front());  // the spare: no process started now
    EXPECT_EQ(*(*second)->exchange("two"), "two");
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));  // replaced as before
    EXPECT_EQ(pool.stats().started_on_demand, 1u);
    // Configured again on first use: its spares are gone and none starts before a job.
    pool.configure(kNames, {"/bin/cat"}, 1, SpareStart::on_first_use);
    EXPECT_TRUE(pool.stats().spares.empty());
    EXPECT_FALSE(pool.wait_for_spares(1, 300ms));
    EXPECT_TRUE(no_child_left());
  }
  EXPECT_TRUE(no_child_left());
}

// A worker that cannot start: the job's error, and no keeper keeps trying in the background.
TEST(WorkerPool, OnFirstUseAWorkerThatCannotStartStartsNoSpare) {
  WorkerPool pool;
  pool.configure(kNames, {"/nonexistent/worker"}, 1, SpareStart::on_first_use);
  auto worker = pool.take();
  EXPECT_FALSE(worker);
  EXPECT_EQ(pool.stats().started, 0u);
  EXPECT_TRUE(no_child_left());
}

TEST(WorkerPool, WithoutASpareAJobStartsItsOwnWorker) {
  {
    WorkerPool pool;
    pool.configure(kNames, {"/bin/cat"}, 0);
    auto worker = pool.take();
    ASSERT_TRUE(worker) << worker.error().message;
    EXPECT_EQ(*(*worker)->exchange("x"), "x");
    EXPECT_EQ(pool.stats().started_on_demand, 1u);
    EXPECT_TRUE(pool.stats().spares.empty());
  }
  WorkerPool unconfigured;
  unconfigured.configure(kNames, {}, 1);  // no command: no workers, no spares
  EXPECT_TRUE(unconfigured.stats().spares.empty());
  auto none = unconfigured.take();
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "Test: the test worker is not configured");
  EXPECT_TRUE(no_child_left());
}

TEST(WorkerPool, ACancelledJobKillsItsWorkerAndTheSpareIsReplaced) {
  {
    WorkerPool pool;
    // Reads its job, then runs on (exec: the process killed is the one running).
    pool.configure(kNames, {"/bin/sh", "-c", "cat >/dev/null; exec sleep 60"}, 1);
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));
    const pid_t spare = pool.stats().spares.front();
    std::atomic<bool> cancelled{false};
    std::thread canceller([&cancelled] {
      std::this_thread::sleep_for(200ms);
      cancelled = true;
    });
    const auto started = std::chrono::steady_clock::now();
    {
      const CallScope scope(&cancelled, 0ms, "limits.max_call_seconds");
      auto worker = pool.take();
      ASSERT_TRUE(worker) << worker.error().message;
      EXPECT_EQ((*worker)->pid(), spare);
      auto answer = (*worker)->exchange("job");
      ASSERT_FALSE(answer);
      EXPECT_EQ(answer.error().message, "the call was cancelled");
    }
    canceller.join();
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);
    EXPECT_FALSE(alive(spare));  // killed and reaped
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));
    EXPECT_NE(pool.stats().spares.front(), spare);
  }
  EXPECT_TRUE(no_child_left());
}

TEST(WorkerPool, ASpareThatDiesIsReplaced) {
  {
    WorkerPool pool;
    pool.configure(kNames, {"/bin/cat"}, 1);
    ASSERT_TRUE(pool.wait_for_spares(1, 5s));
    const pid_t first = pool.stats().spares.front();
    ASSERT_EQ(::kill(first, SIGKILL), 0);
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
      const auto stats = pool.stats();
      if (stats.spares_died == 1 && stats.spares.size() == 1) break;
      std::this_thread::sleep_for(10ms);
    }
    const auto stats = pool.stats();
    EXPECT_EQ(stats.spares_died, 1u);
    ASSERT_EQ(stats.spares.size(), 1u);
    EXPECT_NE(stats.spares.front(), first);
    EXPECT_EQ(stats.started, 2u);
    auto worker = pool.take();
    ASSERT_TRUE(worker);
    EXPECT_EQ(*(*worker)->exchange("still works"), "still works");
  }
  EXPECT_TRUE(no_child_left());
}

// A worker that cannot start is an error at the call that needs it; the keeper does not spin
// (it pauses, doubling, between attempts).
TEST(WorkerPool, AWorkerThatCannotStartIsTheCallsError) {
  WorkerPool pool;
  pool.configure(kNames, {"/nonexistent/worker"}, 1);
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(pool.stats().spares.empty());
  EXPECT_EQ(pool.stats().started, 0u);
  auto worker = pool.take();
  ASSERT_FALSE(worker);
  EXPECT_EQ(worker.error().message,
            "Test: cannot start the test worker /nonexistent/worker: No such file or directory");
}

TEST(WorkerPool, ReconfiguringOrStoppingLeavesNoChild) {
  WorkerPool pool;
  pool.configure(kNames, {"/bin/cat"}, 2);
  ASSERT_TRUE(pool.wait_for_spares(2, 5s));
  const auto old = pool.stats().spares;
  pool.configure(kNames, {"/bin/sh", "-c", "exec cat"}, 1);
  for (const pid_t pid : old)
    EXPECT_FALSE(alive(pid));
  ASSERT_TRUE(pool.wait_for_spares(1, 5s));
  EXPECT_EQ(pool.stats().spares.size(), 1u);
  pool.configure({}, {}, 0);
  EXPECT_TRUE(pool.stats().spares.empty());
  EXPECT_TRUE(no_child_left());
}

}  // namespace
}  // namespace fcp::core
