// What journals need from a session: a fingerprint of its state, and replaying journaled calls
// (open from kept bytes, save without writing, ops and actions without delivering effects).
#include "core/session.hpp"

namespace fcp::core {

Session::Fingerprint Session::fingerprint() const {
  Fingerprint print;
  print.document = document_.get();
  print.log_length = log_.length();
  print.cursor = log_.cursor();
  print.checkpoints = log_.checkpoints();
  print.head = head_event().get();
  print.saved_head = saved_head_.get();
  print.file = file_path_;
  if (document_) print.digest = document_->digest();
  return print;
}

Result<void> Session::restore_open(const std::filesystem::path& path, const FileBytes& bytes) {
  auto document = domain_.load(path, bytes, ProgressFn());
  if (!document) return document.error();
  install(std::move(*document), path);
  if (!replaying_) (void)domain_.adopt(*document_, state_.get());
  return {};
}

std::vector<std::string> Session::relink(std::unique_ptr<SessionState> state) {
  if (state) state_ = std::move(state);
  if (!document_) return {};
  return domain_.restored(*document_, state_.get());
}

void Session::restore_saved(const std::filesystem::path& path) {
  file_path_ = path;
  saved_head_ = head_event();
  changes_since_save_ = 0;
}

void Session::restore_base(std::optional<std::filesystem::path> file, bool saved,
                           std::size_t changes_since_save) {
  // An event no history holds: the snapshot differs from the file until saved again.
  struct NotSaved final : Event {
    std::string summary() const override { return "(not saved)"; }
  };
  file_path_ = std::move(file);
  saved_head_ = saved ? head_event() : std::make_shared<const NotSaved>();
  changes_since_save_ = changes_since_save;
}

ToolReply Session::replay_ops(std::span<const std::string> ops) {
  auto result = run_ops(ops, CallOptions{});
  if (result.pending) return confirm(std::move(*result.pending));
  return std::move(result.reply);
}

ToolReply Session::replay_session(std::string_view action) {
  auto result = run_session(action, CallOptions{});
  if (result.pending) return confirm(std::move(*result.pending));
  return std::move(result.reply);
}

Result<std::string> Session::serialize(const std::filesystem::path& path) const {
  if (!document_) return no_document_error();
  return document_->serialize(path);
}

}  // namespace fcp::core
