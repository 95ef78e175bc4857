#include "domains/drawio/export/drawio_cli.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "core/call_scope.hpp"
#include "core/spawn_setup.hpp"

namespace fcp::drawio::render {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxOutputBytes = std::size_t{512} << 20;
constexpr std::size_t kErrorTail = 600;

bool is_executable_file(const fs::path& path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<fs::path> search_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::string_view rest = path;
  while (true) {
    const std::size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      fs::path candidate = fs::path(dir) / name;
      if (is_executable_file(candidate)) return candidate;
    }
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

// A temporary directory removed with everything in it when this goes out of scope.
class TempDir {
 public:
  TempDir() {
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "fcp-drawio-export-XXXXXX").string();
    if (ec) pattern = "/tmp/fcp-drawio-export-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::optional<std::string> read_file(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > kMaxOutputBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string output_tail(const fs::path& log) {
  std::string text = read_file(log).value_or("");
  if (text.size() > kErrorTail) text = text.substr(text.size() - kErrorTail);
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  }
  const auto last = text.find_last_not_of(' ');
  return last == std::string::npos ? std::string() : text.substr(0, last + 1);
}

std::string_view format_name(ImageFormat format) {
  switch (format) {
    case ImageFormat::png:
      return "png";
    case ImageFormat::pdf:
      return "pdf";
    case ImageFormat::svg:
      break;
  }
  return "svg";
}

std::vector<std::string> export_arguments(const fs::path& cli, ImageFormat format, int page_index,
                                          int width, int height, const fs::path& output,
                                          const fs::path& input) {
  std::vector<std::string> args{cli.string()};
  if (::geteuid() == 0) args.emplace_back("--no-sandbox");
  args.insert(args.end(), {"--export", "--format", std::string(format_name(format))});
  if (width > 0) args.insert(args.end(), {"--width", std::to_string(width)});
  if (height > 0) args.insert(args.end(), {"--height", std::to_string(height)});
  args.insert(args.end(),
              {"--crop", "--border", "10", "--page-index", std::to_string(page_index + 1),
               "--output", output.string(), input.string()});
  return args;
}

core::Result<pid_t> spawn(const std::vector<std::string>& args, const fs::path& log) {
  core::SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&setup.actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&setup.actions, STDOUT_FILENO, STDERR_FILENO);
  setup.default_signals(POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&setup.attributes, 0);

  std::vector<char*> argv = core::spawn_argv(args);
  pid_t pid = 0;
  const int rc =
      ::posix_spawn(&pid, argv[0], &setup.actions, &setup.attributes, argv.data(), environ);
  if (rc != 0) {
    return core::make_error("export failed: cannot start " + args.front() + ": " +
                            std::strerror(rc));
  }
  return pid;
}

// Waits for `pid`; kills its process group at the deadline or when the call must stop (then
// `stopped` says why). Returns the wait status or nullopt when it was killed.
std::optional<int> wait_with_timeout(pid_t pid, int timeout_seconds,
                                     std::optional<core::Error>& stopped) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  auto pause = std::chrono::milliseconds(5);
  while (true) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return 0;  // already reaped elsewhere: treat as finished
    stopped = core::stop_error("export with draw.io", "no image was made");
    if (stopped || std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return std::nullopt;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
}

}  // namespace

std::optional<fs::path> find_drawio_cli() {
  if (const char* env = std::getenv("DRAWIO_PATH"); env != nullptr && *env != '\0') {
    if (is_executable_file(env)) return fs::path(env);
  }
  for (std::string_view name : {"drawio", "draw.io"}) {
    if (auto found = search_path(name)) return found;
  }
  for (const char* path :
       {"/usr/bin/drawio", "/snap/bin/drawio", "/opt/drawio/drawio", "/usr/local/bin/drawio"}) {
    if (is_executable_file(path)) return fs::path(path);
  }
  return std::nullopt;
}

core::Result<std::string> export_with_drawio_cli(const fs::path& cli, std::string_view mxfile_xml,
                                                 ImageFormat format, int page_index, int width,
                                                 int height, int timeout_seconds) {
  if (!is_executable_file(cli)) {
    return core::make_error("export failed: " + cli.string() + " is not an executable file");
  }
  if (page_index < 0 || width < 0 || height < 0) {
    return core::make_error("export failed: page index and sizes cannot be negative");
  }
  const TempDir dir;
  if (dir.path().empty())
    return core::make_error("export failed: cannot create a temporary directory");
  const fs::path input = dir.path() / "diagram.drawio";
  const fs::path output = dir.path() / (std::string("export.") + std::string(format_name(format)));
  const fs::path log = dir.path() / "output.log";
  {
    std::ofstream file(input, std::ios::binary);
    file.write(mxfile_xml.data(), static_cast<std::streamsize>(mxfile_xml.size()));
    if (!file) return core::make_error("export failed: cannot write the temporary diagram");
  }
  auto pid = spawn(export_arguments(cli, format, page_index, width, height, output, input), log);
  if (!pid) return pid.error();
  std::optional<core::Error> stopped;
  const auto status = wait_with_timeout(*pid, std::clamp(timeout_seconds, 1, 600), stopped);
  if (stopped) return *stopped;
  if (!status) {
    return core::make_error("export failed: draw.io did not finish within " +
                            std::to_string(std::clamp(timeout_seconds, 1, 600)) +
                            " s and was killed");
  }
  const std::string tail = output_tail(log);
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    const std::string how = WIFEXITED(*status)
                                ? "exit status " + std::to_string(WEXITSTATUS(*status))
                                : "signal " + std::to_string(WTERMSIG(*status));
    return core::make_error("export failed: draw.io ended with " + how +
                            (tail.empty() ? std::string() : ": " + tail));
  }
  auto bytes = read_file(output);
  if (!bytes || bytes->empty()) {
    return core::make_error("export failed: draw.io wrote no output" +
                            (tail.empty() ? std::string() : ": " + tail));
  }
  return std::move(*bytes);
}

}  // namespace fcp::drawio::render
