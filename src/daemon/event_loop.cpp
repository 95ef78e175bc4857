#include "daemon/event_loop.hpp"

namespace fcp::daemon {

void run_event_loop(boost::asio::io_context& io, std::chrono::microseconds busy_poll) {
  if (busy_poll <= std::chrono::microseconds::zero()) {
    io.run();
    return;
  }
  using Clock = std::chrono::steady_clock;
  auto last_event = Clock::now();
  // poll() and run_one() stop the io_context once it has no work left, so stopped() also
  // covers running out of work.
  while (!io.stopped()) {
    if (io.poll() > 0) {
      last_event = Clock::now();
    } else if (Clock::now() - last_event >= busy_poll) {
      if (io.run_one() == 0) break;  // sleeps until the next event
      last_event = Clock::now();
    }
  }
}

}  // namespace fcp::daemon
