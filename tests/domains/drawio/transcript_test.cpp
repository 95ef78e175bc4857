// Golden transcripts: fixtures/drawio/transcripts/*.txt replay tool calls against the drawio
// domain through the engine's Session and compare every reply with the recorded one.
//
// Format: `> TOOL ARGUMENT` starts a call (TOOL is drawio, drawio_query, drawio_session or
// drawio_help); `>> OP` adds another op to the same drawio batch; the lines up to the next call
// are the expected reply. Lines starting with `#: ` are comments. Each file runs in a fresh
// temporary directory holding a copy of fixtures/drawio/ (so transcripts can open samples).
// FCP_UPDATE_GOLDEN=1 rewrites the files with the actual replies (review the diff!).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/session.hpp"
#include "domains/drawio/domain.hpp"

namespace fcp::drawio {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() {
  const char* dir = std::getenv("FCP_SOURCE_DIR");
  return dir != nullptr ? fs::path(dir) : fs::path(FCP_SOURCE_DIR_FALLBACK);
}

class TempRoot final : public core::PathPolicy {
 public:
  explicit TempRoot(const std::string& name)
      : dir_(fs::temp_directory_path() /
             ("fcp-transcript-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto& entry : fs::directory_iterator(source_dir() / "fixtures" / "drawio")) {
      if (entry.is_regular_file()) fs::copy_file(entry.path(), dir_ / entry.path().filename());
    }
  }
  ~TempRoot() override { fs::remove_all(dir_); }
  const fs::path& dir() const { return dir_; }
  core::Result<fs::path> for_reading(std::string_view p) const override { return resolve(p); }
  core::Result<fs::path> for_writing(std::string_view p) const override { return resolve(p); }

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
  std::vector<std::string> arguments;  // one for every tool but drawio batches
  std::string expected;
  std::vector<std::string> header;  // comment lines before the call, kept on rewrite
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

std::string run(core::Session& session, const Call& call, const std::string& root) {
  core::ToolReply reply;
  if (call.tool == "drawio") {
    auto result = session.run_ops(call.arguments, {});
    reply = result.pending ? session.confirm(std::move(*result.pending)) : result.reply;
  } else if (call.tool == "drawio_session") {
    auto result = session.run_session(call.arguments.empty() ? "" : call.arguments[0], {});
    reply = result.pending ? session.confirm(std::move(*result.pending)) : result.reply;
  } else if (call.tool == "drawio_query") {
    reply = session.run_query(call.arguments.empty() ? "" : call.arguments[0]);
  } else if (call.tool == "drawio_help") {
    reply.text = session.help();
  } else {
    return "unknown tool in transcript: " + call.tool + "\n";
  }
  std::string out = reply.text;
  for (const auto& attachment : reply.attachments)
    out += "\n[attachment " + attachment.mime_type + "]";
  if (!out.ends_with('\n')) out += '\n';
  // Paths are reported resolved; the temporary directory differs from run to run.
  for (auto at = out.find(root); at != std::string::npos; at = out.find(root, at))
    out.erase(at, root.size());
  return out;
}

class Transcript : public ::testing::TestWithParam<fs::path> {};

TEST_P(Transcript, RepliesMatch) {
  const fs::path file = GetParam();
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  std::vector<std::string> preamble;
  const auto calls = parse(in, preamble);
  ASSERT_FALSE(calls.empty()) << file << " has no calls";
  TempRoot root(file.stem().string());
  auto domain = make_drawio_domain();
  core::Session session(*domain, root);
  const bool update = std::getenv("FCP_UPDATE_GOLDEN") != nullptr;
  std::ostringstream rewritten;
  for (const auto& line : preamble)
    rewritten << line << "\n";
  for (const auto& call : calls) {
    const std::string actual = run(session, call, root.dir().string() + "/");
    if (!update) {
      EXPECT_EQ(actual, call.expected) << file.filename().string() << ": > " << call.tool << " "
                                       << (call.arguments.empty() ? "" : call.arguments.front());
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
}

std::vector<fs::path> transcripts() {
  std::vector<fs::path> files;
  const fs::path dir = source_dir() / "fixtures" / "drawio" / "transcripts";
  if (fs::exists(dir)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".txt") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string test_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, Transcript, ::testing::ValuesIn(transcripts()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Transcript);

}  // namespace
}  // namespace fcp::drawio
