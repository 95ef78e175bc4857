#include "bench/roundtrip/watchdog.hpp"

#include <algorithm>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace fcp::bench {

Watchdog::Watchdog(const asio::any_io_executor& executor, std::chrono::milliseconds timeout,
                   std::function<void()> on_expiry)
    : state_(std::make_shared<State>(
          State{asio::steady_timer(executor), timeout, std::move(on_expiry)})) {
  asio::co_spawn(executor, watch(state_), asio::detached);
}

Watchdog::~Watchdog() {
  state_->stopped = true;
  state_->timer.cancel();
}

asio::awaitable<void> Watchdog::watch(std::shared_ptr<State> state) {
  while (!state->stopped) {
    const auto now = Clock::now();
    if (state->deadline <= now) {
      state->fired = true;
      state->on_expiry();
      co_return;
    }
    state->timer.expires_at(std::min(state->deadline, now + state->timeout));
    co_await state->timer.async_wait(asio::as_tuple(asio::use_awaitable));
  }
}

}  // namespace fcp::bench
