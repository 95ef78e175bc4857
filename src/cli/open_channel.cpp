// open_channel(): the one place that picks a transport from the command-line options.
#include <cstdlib>
#include <fstream>

#include "cli/args.hpp"
#include "cli/errors.hpp"
#include "cli/http_channel.hpp"
#include "cli/message_channel.hpp"
#include "cli/stdio_channel.hpp"
#include "cli/tcp_channel.hpp"

namespace fcp::cli {

std::optional<std::string> client_token(const Options& options) {
  if (!options.token_file) {
    const char* env = std::getenv("FCPD_TOKEN");
    if (env == nullptr || *env == '\0') return std::nullopt;
    return std::string(env);
  }
  std::ifstream in(*options.token_file, std::ios::binary);
  if (!in) throw UsageError("cannot read the token file '" + *options.token_file + "'");
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line.erase(0, start);
    // A line of the daemon's token file (PRINCIPAL:TOKEN) gives its token.
    if (const auto colon = line.find(':'); colon != std::string::npos) line.erase(0, colon + 1);
    if (!line.empty()) return line;
  }
  throw UsageError("the token file '" + *options.token_file + "' holds no token");
}

std::unique_ptr<MessageChannel> open_channel(const Options& options) {
  if (options.connect && options.connect->scheme == Endpoint::Scheme::tcp) {
    return std::make_unique<TcpChannel>(*options.connect, options.timeout);
  }
  if (options.connect) {
    return std::make_unique<HttpChannel>(*options.connect, options.session, options.timeout,
                                         client_token(options));
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
