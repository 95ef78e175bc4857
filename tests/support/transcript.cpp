#include "tests/support/transcript.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/response.hpp"
#include "core/session.hpp"

namespace fcp::testing {
namespace {

namespace fs = std::filesystem;

class TempRoot final : public core::PathPolicy {
 public:
  TempRoot(const std::string& name, const fs::path& fixtures)
      : dir_(fs::temp_directory_path() /
             ("fcp-transcript-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (fs::exists(fixtures)) {
      for (const auto& entry : fs::directory_iterator(fixtures)) {
        if (entry.is_regular_file()) fs::copy_file(entry.path(), dir_ / entry.path().filename());
      }
    }
  }
  ~TempRoot() override { fs::remove_all(dir_); }
  core::Result<fs::path> for_reading(std::string_view p) const override { return resolve(p); }
  core::Result<fs::path> for_writing(std::string_view p) const override { return resolve(p); }
  const fs::path& dir() const { return dir_; }

 private:
  core::Result<fs::path> resolve(std::string_view p) const {
    const fs::path path(p);
    if (path.is_absolute() || std::string(p).find("..") != std::string::npos)
      return core::make_error("path outside the transcript directory: " + std::string(p));
    return dir_ / path;
  }
  fs::path dir_;
};

struct Call {
  std::string tool;
  std::vector<std::string> arguments;
  std::string expected;
  std::vector<std::string> header;
};

std::vector<Call> parse(std::istream& in, std::vector<std::string>& preamble) {
  std::vector<Call> calls;
  std::vector<std::string> comments;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(">> ") && !calls.empty() && calls.back().expected.empty()) {
      calls.back().arguments.push_back(line.substr(3));
    } else if (line.starts_with("> ")) {
      Call call;
      const std::string rest = line.substr(2);
      const auto space = rest.find(' ');
      call.tool = rest.substr(0, space);
      if (space != std::string::npos) call.arguments.push_back(rest.substr(space + 1));
      call.header = std::move(comments);
      comments.clear();
      calls.push_back(std::move(call));
    } else if (line.starts_with("#: ") || line == "#:") {
      (calls.empty() ? preamble : comments).push_back(line);
    } else if (!calls.empty()) {
      calls.back().expected += line + "\n";
    }
  }
  for (auto& call : calls) {
    while (call.expected.ends_with("\n\n"))
      call.expected.pop_back();
  }
  return calls;
}

// The reply format every mutating reply (an op call, a session action) keeps: each line is built
// by core/response.hpp (a prefix and a space, or a detail line under one), except the state
// digest that ends it. "" when the reply keeps it, else the offending line.
std::string unprefixed_line(const core::Session& session, const core::ToolReply& reply) {
  std::vector<std::string> lines;
  std::istringstream text(reply.text);
  for (std::string line; std::getline(text, line);)
    lines.push_back(line);
  if (auto digest = session.digest(); digest && !lines.empty() && lines.back() == *digest)
    lines.pop_back();
  auto bad = core::first_unprefixed_line(lines);
  return bad ? "\"" + std::string(*bad) + "\"" : std::string();
}

// Runs one call; `unprefixed` receives what unprefixed_line finds in a mutating reply.
std::string run(core::Session& session, const Call& call, std::string_view domain,
                const std::string& root, std::string& unprefixed) {
  const std::string name(domain);
  core::ToolReply reply;
  const std::string first = call.arguments.empty() ? "" : call.arguments[0];
  if (call.tool == name) {
    auto result = session.run_ops(call.arguments, {});
    reply = result.pending ? session.confirm(std::move(*result.pending)) : result.reply;
    unprefixed = unprefixed_line(session, reply);
  } else if (call.tool == name + "_session") {
    auto result = session.run_session(first, {});
    reply = result.pending ? session.confirm(std::move(*result.pending)) : result.reply;
    unprefixed = unprefixed_line(session, reply);
  } else if (call.tool == name + "_query") {
    reply = session.run_query(first);
  } else if (call.tool == name + "_help") {
    reply.text = session.help();
  } else {
    return "unknown tool in transcript: " + call.tool + "\n";
  }
  std::string out = reply.text;
  for (const auto& attachment : reply.attachments)
    out += "\n[attachment " + attachment.mime_type + "]";
  if (!out.ends_with('\n')) out += '\n';
  for (auto at = out.find(root); at != std::string::npos; at = out.find(root, at))
    out.erase(at, root.size());
  return out;
}

}  // namespace

std::string transcript_test_name(const fs::path& file) {
  std::string name = file.stem().string();
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

std::vector<fs::path> transcript_files(const fs::path& root, std::string_view domain) {
  std::vector<fs::path> files;
  const fs::path dir = root / "fixtures" / std::string(domain) / "transcripts";
  if (fs::exists(dir)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".txt") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string run_transcript(const fs::path& file, const core::Domain& domain,
                           const fs::path& fixtures_dir) {
  std::ifstream in(file);
  if (!in) return "cannot read " + file.string();
  std::vector<std::string> preamble;
  const auto calls = parse(in, preamble);
  if (calls.empty()) return file.string() + " has no calls";
  TempRoot root(std::string(domain.name()) + "-" + file.stem().string(), fixtures_dir);
  core::Session session(domain, root);
  const bool update = std::getenv("FCP_UPDATE_GOLDEN") != nullptr;
  std::ostringstream rewritten, report;
  for (const auto& line : preamble)
    rewritten << line << "\n";
  for (const auto& call : calls) {
    std::string unprefixed;
    const std::string actual =
        run(session, call, domain.name(), root.dir().string() + "/", unprefixed);
    if (!unprefixed.empty()) {  // reported in update mode too: a golden must not bless it
      report << file.filename().string() << ": > " << call.tool << " "
             << (call.arguments.empty() ? "" : call.arguments.front())
             << "\n--- a reply line without a core/response.hpp prefix: " << unprefixed << "\n";
    }
    if (!update && actual != call.expected) {
      report << file.filename().string() << ": > " << call.tool << " "
             << (call.arguments.empty() ? "" : call.arguments.front()) << "\n--- expected\n"
             << call.expected << "--- actual\n"
             << actual << "\n";
    }
    for (const auto& line : call.header)
      rewritten << line << "\n";
    rewritten << "> " << call.tool;
    if (!call.arguments.empty()) rewritten << " " << call.arguments.front();
    rewritten << "\n";
    for (std::size_t i = 1; i < call.arguments.size(); ++i)
      rewritten << ">> " << call.arguments[i] << "\n";
    rewritten << actual << "\n";
  }
  if (update) {
    std::ofstream out(file, std::ios::trunc);
    std::string text = rewritten.str();
    while (text.ends_with("\n\n"))
      text.pop_back();
    out << text;
  }
  return report.str();
}

}  // namespace fcp::testing
