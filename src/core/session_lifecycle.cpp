// Session commands: new, open, save, checkpoint, undo, redo, close and domain extensions.
#include <algorithm>

#include "core/call_scope.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/session.hpp"
#include "core/session_command.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

// A boolean key the command sets to true (discard:true, force:yes).
bool says_true(const SessionCommand& command, std::string_view key) {
  const auto* value = command.param(key);
  if (value == nullptr) return false;
  const std::string word = to_lower(*value);
  return word == "true" || word == "yes" || word == "on" || word == "1";
}

// A query word (or the domain's synonym for one) or `help` given to DOMAIN_session: the error
// offers the call that answers it ("status" → DOMAIN_query status); nullopt for other words.
std::optional<Error> misplaced_word(const Domain& domain, std::string_view action,
                                    std::span<const std::string> extensions) {
  action = trim(action);
  const auto space = action.find_first_of(" \t\r\n");
  const std::string word = to_lower(action.substr(0, space));
  const std::string rest(space == std::string_view::npos ? "" : action.substr(space));
  const auto builtin = builtin_session_commands();
  if (std::find(builtin.begin(), builtin.end(), word) != builtin.end() ||
      std::find(extensions.begin(), extensions.end(), word) != extensions.end())
    return std::nullopt;
  const std::string name(domain.name());
  if (word == "help" && rest.empty()) {
    return make_error("help is a tool of its own, not a session command", {name + "_help"});
  }
  std::string meant;
  for (const auto& spec : query_specs(domain)) {
    if (spec.name == word) meant = word;
  }
  for (const auto& synonym : domain.query_synonyms()) {
    if (meant.empty() && synonym.word == word) meant = synonym.replacement;
  }
  if (meant.empty()) return std::nullopt;
  return make_error(
      "\"" + word + "\" is a query, not a session command: " + name + "_query answers it",
      {name + "_query " + meant + rest});
}

}  // namespace

CallResult Session::run_session(std::string_view action, const CallOptions& options) {
  std::vector<std::string> extensions;
  for (const auto& spec : domain_.session_extensions())
    extensions.push_back(spec.name);
  auto command = parse_session_command(action, extensions);
  if (!command) {
    auto misplaced = misplaced_word(domain_, action, extensions);
    return CallResult{error_reply(misplaced ? *misplaced : command.error())};
  }
  if (auto checked = check_declared_keys(session_specs(domain_), command->command, action);
      !checked)
    return CallResult{error_reply(checked.error())};
  const auto& name = command->command;
  if (name == "new") return session_new(*command, options);
  if (name == "open") return session_open(*command, options);
  if (name == "save") return session_save(*command);
  if (name == "checkpoint") return session_checkpoint(*command);
  if (name == "undo") return session_undo(*command);
  if (name == "redo") return session_redo(*command);
  if (name == "close") return session_close(*command);
  if (name == "list" || name == "recover") {
    // The documents are the daemon's (its document store answers list); one Session holds one.
    return CallResult{error_reply(
        make_error(name + " is answered by fcpd's document store; this session holds one "
                          "document"))};
  }
  return session_extension(*command, options);
}

Result<void> Session::check_can_replace(const SessionCommand& command) const {
  if (!document_ || !has_unsaved_changes() || says_true(command, "discard")) return {};
  std::string again = command.command;
  for (const auto& p : command.positionals)
    again += " \"" + p + "\"";
  for (const auto& [key, value] : command.params)
    again += " " + key + ":" + value;
  return make_error(
      "\"" + document_->title() +
          "\" has unsaved changes: save it first, or repeat with discard:true",
      {file_path_ ? "save"
                  : "save as:./" + document_->title() + "." + domain_.file_extensions().front(),
       again + " discard:true"});
}

void Session::install(std::unique_ptr<Document> document,
                      std::optional<std::filesystem::path> file) {
  document_ = std::move(document);
  opened_bytes_.reset();
  log_.clear();
  file_path_ = std::move(file);
  saved_head_ = nullptr;
  changes_since_save_ = 0;
}

CallResult Session::session_new(const SessionCommand& command, const CallOptions& options) {
  (void)options;
  if (auto ok = check_can_replace(command); !ok) return CallResult{error_reply(ok.error())};
  auto document = domain_.create(command);
  if (!document) return CallResult{error_reply(document.error())};
  install(std::move(*document), std::nullopt);
  ReplyText text;
  text.add(
      created("new " + std::string(domain_.name()) + " document \"" + document_->title() + "\""));
  if (!replaying_) text.add_all(domain_.adopt(*document_, state_.get()));
  EffectSink effects;
  document_->opened(effects);
  ToolReply reply{text.str(), false, {}};
  return finish(std::move(reply), effects.take(), log_.mark(), {}, false);
}

CallResult Session::session_open(const SessionCommand& command, const CallOptions& options) {
  const auto* requested = command.arg("path");
  if (requested == nullptr) {
    return CallResult{error_reply(make_error(
        "open needs a file path", {"open ./diagram." + domain_.file_extensions().front()}))};
  }
  if (auto ok = check_can_replace(command); !ok) return CallResult{error_reply(ok.error())};
  auto path = paths_.for_reading(*requested);
  if (!path) return CallResult{error_reply(path.error())};
  auto read = read_file(*path, limits_.max_file_bytes);
  if (!read) return CallResult{error_reply(read.error())};
  // One copy, shared by the document (if it keeps what it read) and the journal.
  const FileBytes bytes(std::move(*read));
  const auto too_big = [&](std::size_t estimate, std::string_view basis) {
    return CallResult{error_reply(
        make_error("cannot open \"" + *requested + "\": " + std::string(basis) + " an estimated " +
                   byte_size_text(estimate) + " of memory, more than one document may hold (" +
                   memory_limit_text(limits_.max_document_bytes) +
                   "): nothing was opened; raise the limit in the config or open a smaller file"))};
  };
  if (const auto estimate = domain_.estimated_bytes_for_file(bytes.size());
      estimate > limits_.max_document_bytes)
    return too_big(estimate, "a file of " + byte_size_text(bytes.size()) + " opens into");
  auto document = domain_.load(*path, bytes, options.progress);
  if (!document) {
    auto error = document.error();
    error.message = "cannot open \"" + *requested + "\": " + error.message;
    return CallResult{error_reply(error)};
  }
  // What tells the outside world of the document (a device's boxes and lines for Max) is built
  // before the document is installed, and a document read whole after its call had to stop is
  // dropped then, not installed half-answered: a cancel that arrives while those messages are
  // built (a second for a large patcher) leaves the session as it was.
  EffectSink effects;
  (*document)->opened(effects);
  if (auto stop = stop_error("opening \"" + *requested + "\"", "no document was opened"))
    return CallResult{error_reply(*stop)};
  if (const auto estimate = (*document)->estimated_bytes(); estimate > limits_.max_document_bytes)
    return too_big(estimate, "its model would hold");
  install(std::move(*document), *path);
  opened_bytes_ = bytes;
  ReplyText text;
  text.add(created("opened \"" + path->string() + "\" (" + document_->summary() + ")"));
  if (!replaying_) text.add_all(domain_.adopt(*document_, state_.get()));
  ToolReply reply{text.str(), false, {}};
  return finish(std::move(reply), effects.take(), log_.mark(), {}, false);
}

CallResult Session::session_save(const SessionCommand& command) {
  if (!document_) return CallResult{error_reply(no_document_error())};
  std::string target;
  if (const auto* as = command.param("as")) {
    target = *as;
  } else if (const auto* positional = command.arg("path")) {
    target = *positional;
  } else if (file_path_) {
    target = file_path_->string();
  } else {
    return CallResult{error_reply(
        make_error("no file path yet: save as:PATH",
                   {"save as:./" + document_->title() + "." + domain_.file_extensions().front()}))};
  }
  auto path = paths_.for_writing(target);
  if (!path) return CallResult{error_reply(path.error())};
  // The document's text goes to the temporary file as it is made, not whole beside its model.
  const WriteOptions options{says_true(command, "force")};
  auto produce = [&](const ByteWriter& write) { return document_->write_file(*path, write); };
  if (auto written = write_file_atomically(*path, produce, options); !written) {
    return CallResult{error_reply(written.error())};
  }
  file_path_ = *path;
  saved_head_ = head_event();
  changes_since_save_ = 0;
  ToolReply reply{
      property_changed("saved \"" + path->string() + "\" (" + document_->summary() + ")"),
      false,
      {}};
  return CallResult{with_digest(std::move(reply))};
}

CallResult Session::session_checkpoint(const SessionCommand& command) {
  if (!document_) return CallResult{error_reply(no_document_error())};
  const auto* name = command.arg("name");
  if (name == nullptr) {
    return CallResult{error_reply(make_error("checkpoint needs a name", {"checkpoint v1"}))};
  }
  ToolReply reply{checkpoint_line(*name), false, {}};
  log_.checkpoint(*name);
  return CallResult{with_digest(std::move(reply))};
}

CallResult Session::session_undo(const SessionCommand& command) {
  if (!document_) return CallResult{error_reply(no_document_error())};
  auto mark = log_.mark();
  std::vector<EventPtr> events;
  if (const auto* target = command.arg("target")) {
    auto undone = log_.undo_to(*target);
    if (!undone) {
      auto error = undone.error();
      for (const auto& [checkpoint, position] : log_.checkpoints()) {
        error.hints.push_back("undo to:" + checkpoint);
      }
      return CallResult{error_reply(error)};
    }
    if (!*undone) {
      return CallResult{with_digest(ToolReply{
          warning_line("nothing to undo: already at checkpoint \"" + *target + "\""), false, {}})};
    }
    events = std::move(**undone);
  } else {
    events = log_.undo(static_cast<std::size_t>(command.count.value_or(1)));
  }
  if (events.empty())
    return CallResult{with_digest(ToolReply{warning_line("nothing to undo"), false, {}})};
  return apply_history(events, false, std::move(mark));
}

CallResult Session::session_redo(const SessionCommand& command) {
  if (!document_) return CallResult{error_reply(no_document_error())};
  auto mark = log_.mark();
  auto events = log_.redo(static_cast<std::size_t>(command.count.value_or(1)));
  if (events.empty())
    return CallResult{with_digest(ToolReply{warning_line("nothing to redo"), false, {}})};
  return apply_history(events, true, std::move(mark));
}

CallResult Session::apply_history(const std::vector<EventPtr>& events, bool forward,
                                  EventLog::Mark mark) {
  EffectSink effects;
  std::vector<PendingChange::Step> steps;
  ReplyText reply;
  const std::size_t bytes_at_start = document_->estimated_bytes();
  try {
    for (const auto& event : events) {
      if (forward) {
        document_->replay(*event, effects);
      } else {
        document_->revert(*event, effects);
      }
      steps.push_back({event, forward});
      reply.add(forward ? created("redone: " + event->summary())
                        : deleted("undone: " + event->summary()));
    }
  } catch (...) {
    roll_back(mark, steps);
    throw;
  }
  // An undo or redo may go where no batch ended (`redo 1` into the middle of an `add; remove`
  // batch): past limits.max_document_bytes it is refused like a batch; one that lowers the
  // estimate always runs.
  if (auto over = over_memory_limit(bytes_at_start)) {
    roll_back(mark, steps);
    ReplyText failed;
    failed.add_error(*over);
    failed.add(meta(forward ? "nothing redone: the document is unchanged"
                            : "nothing undone: the document is unchanged"));
    return CallResult{with_digest(ToolReply{failed.str(), true, {}})};
  }
  document_->history_changed();
  // An undo or redo can leave the document as a batch would (a control past the devicewidth):
  // the document says so the same way.
  add_warnings(reply, steps);
  return finish(ToolReply{reply.str(), false, {}}, effects.take(), std::move(mark),
                std::move(steps), true);
}

CallResult Session::session_close(const SessionCommand& command) {
  if (!document_) return CallResult{error_reply(no_document_error())};
  if (auto ok = check_can_replace(command); !ok) return CallResult{error_reply(ok.error())};
  std::string title = document_->title();
  install(nullptr, std::nullopt);
  return CallResult{ToolReply{deleted("closed \"" + title + "\""), false, {}}};
}

CallResult Session::session_extension(const SessionCommand& command, const CallOptions& options) {
  // A domain's session commands (lofi: connect, disconnect, sync) act on what the client's
  // session chose (its Max link), not on the document: a journal replay never runs them (older
  // journals may hold them), so it contacts no external system; relink() links afterwards.
  if (replaying_) {
    return CallResult{ToolReply{detail_line(command.command + " not replayed (it acts on the "
                                                              "session, not the document)"),
                                false,
                                {}}};
  }
  EffectSink effects;
  std::vector<Attachment> attachments;
  CallContext ctx{log_, paths_, effects, options.progress, &attachments, state_.get()};
  ctx.max_reply_bytes = limits_.max_reply_bytes;
  auto lines = domain_.run_session_extension(command, document_.get(), ctx);
  if (!lines) return CallResult{error_reply(lines.error())};
  assert_reply_lines(*lines);
  ReplyText reply;
  reply.add_all(std::move(*lines));
  ToolReply result{reply.str(), false, std::move(attachments)};
  return finish(std::move(result), effects.take(), log_.mark(), {}, true);
}

EventPtr Session::head_event() const {
  const auto& entries = log_.entries();
  for (std::size_t i = log_.cursor(); i > 0; --i) {
    if (!entries[i - 1].is_checkpoint()) return entries[i - 1].event;
  }
  return nullptr;
}

bool Session::has_unsaved_changes() const {
  return document_ != nullptr && head_event() != saved_head_;
}

}  // namespace fcp::core
