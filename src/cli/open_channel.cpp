// open_channel(): the one place that picks a transport from the command-line options.
#include <cstdlib>

#include "cli/args.hpp"
#include "cli/http_channel.hpp"
#include "cli/message_channel.hpp"
#include "cli/stdio_channel.hpp"
#include "cli/tcp_channel.hpp"

namespace fcp::cli {

std::unique_ptr<MessageChannel> open_channel(const Options& options) {
  if (options.connect && options.connect->scheme == Endpoint::Scheme::tcp) {
    return std::make_unique<TcpChannel>(*options.connect, options.timeout);
  }
  if (options.connect) {
    return std::make_unique<HttpChannel>(*options.connect, options.session, options.timeout);
  }
  std::string program = locate_fcpd(options.fcpd_path, std::getenv("FCPD"), self_executable());
  return std::make_unique<StdioChildChannel>(program, options.fcpd_args, options.timeout);
}

std::optional<std::string> take_line(std::string& buffer) {
  for (auto newline = buffer.find('\n'); newline != std::string::npos;
       newline = buffer.find('\n')) {
    std::string line = buffer.substr(0, newline);
    buffer.erase(0, newline + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) return line;
  }
  return std::nullopt;
}

}  // namespace fcp::cli
