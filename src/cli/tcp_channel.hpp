// A MessageChannel over TCP: newline-delimited JSON-RPC, as fcpd's --tcp transport speaks it.
#pragma once

#include <string>

#include "cli/endpoint.hpp"
#include "cli/message_channel.hpp"
#include "cli/net_stream.hpp"

namespace fcp::cli {

class TcpChannel final : public MessageChannel {
 public:
  // Connects at once; throws ChannelError.
  TcpChannel(const Endpoint& endpoint, std::chrono::milliseconds timeout);
  ~TcpChannel() override { close(); }

  void send(const std::string& message) override;
  std::string receive(std::chrono::milliseconds timeout) override;
  void close() noexcept override { net_.close(); }

 private:
  NetStream net_;
  std::string buffer_;  // bytes read past the last returned line
  std::chrono::milliseconds timeout_;
};

}  // namespace fcp::cli
