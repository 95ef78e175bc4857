#include <fmt/format.h>

#include "domains/lofi/bridge/bridge.hpp"

namespace fcp::lofi::bridge {

BridgeHub::BridgeHub(boost::asio::io_context& io) : io_(io) {}

core::Result<std::shared_ptr<Bridge>> BridgeHub::get(const BridgeOptions& options) {
  std::lock_guard lock(mutex_);
  const Key key{options.host, options.port, options.reply_port};
  if (auto it = bridges_.find(key); it != bridges_.end()) {
    if (auto bridge = it->second.lock()) {
      bridge->set_timeout(options.timeout);
      return bridge;
    }
  }
  std::erase_if(bridges_, [](const auto& entry) { return entry.second.expired(); });
  if (options.reply_port != 0) {
    for (const auto& [other, weak] : bridges_) {
      if (std::get<2>(other) != options.reply_port || weak.expired()) continue;
      return core::make_error(
          fmt::format("reply port {} is already used by the connection to Max at {}:{}; use the "
                      "same Max address and port, or another reply port",
                      options.reply_port, std::get<0>(other), std::get<1>(other)),
          {fmt::format("connect reply:{}", options.reply_port + 1)});
    }
  }
  auto opened = Bridge::open(io_, options);
  if (!opened) return opened.error();
  bridges_[key] = *opened;
  return opened;
}

}  // namespace fcp::lofi::bridge
