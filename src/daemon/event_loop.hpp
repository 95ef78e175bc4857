// The daemon's event loop: io_context::run() with adaptive busy polling.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>

namespace fcp::daemon {

// Runs `io` until it is stopped or runs out of work, like io.run(). After every batch of
// handlers it keeps polling without blocking for `busy_poll` before it sleeps in epoll again.
//
// Why: on virtual machines (this project's 2-vCPU CI machine among them) putting a thread to
// sleep and waking it again costs tens of microseconds, most of a small call's round trip. A
// client that sends its next request, or a worker that finishes a call, within the window finds
// the loop awake. Cost: at most `busy_poll` of one core after the last event, none while idle.
// A zero window is plain io.run().
// Thread: one thread per call; the io_context may have other threads running it.
void run_event_loop(boost::asio::io_context& io, std::chrono::microseconds busy_poll);

}  // namespace fcp::daemon
