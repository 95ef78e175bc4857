#include "daemon/logging.hpp"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace fcp::daemon {

core::Result<void> setup_logging(const std::string& level, const std::optional<std::string>& file) {
  auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    return core::make_error("unknown log level \"" + level +
                            "\" (trace, debug, info, warn, error, critical, off)");
  }
  std::vector<spdlog::sink_ptr> sinks{std::make_shared<spdlog::sinks::stderr_color_sink_mt>()};
  if (file) {
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(*file));
    } catch (const spdlog::spdlog_ex& e) {
      return core::make_error("cannot open log file \"" + *file + "\": " + e.what());
    }
  }
  auto logger = std::make_shared<spdlog::logger>("fcpd", sinks.begin(), sinks.end());
  logger->set_level(parsed);
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
  return {};
}

}  // namespace fcp::daemon
