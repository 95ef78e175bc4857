// Session: the mutation tool (atomic batches), queries, help and the commit/rollback machinery.
// Session commands (new, open, save, undo, …) are in session_lifecycle.cpp.
#include "core/session.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <unordered_set>

#include "core/call_scope.hpp"
#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

// Splits every op string at newlines and drops blank lines (fcp-core.md §5).
std::vector<std::string_view> split_ops(std::span<const std::string> ops) {
  std::vector<std::string_view> out;
  out.reserve(ops.size());
  for (const auto& op : ops) {
    std::string_view rest = op;
    while (!rest.empty()) {
      auto newline = rest.find('\n');
      auto line = trim(rest.substr(0, newline));
      if (!line.empty()) out.push_back(line);
      if (newline == std::string_view::npos) break;
      rest.remove_prefix(newline + 1);
    }
  }
  return out;
}

bool is_cancelled(const CallOptions& options) {
  return (options.cancelled != nullptr && options.cancelled->load(std::memory_order_relaxed)) ||
         all_calls_stopping();
}

std::string creation_limit_text(std::size_t limit) {
  return "limits.max_created_per_call = " + std::to_string(limit) +
         " entities per call, a setting of the daemon's config";
}

}  // namespace

std::string memory_limit_text(std::size_t limit) {
  return "limits.max_document_bytes = " + std::to_string(limit) + " bytes (" +
         byte_size_text(limit) + "), a setting of the daemon's config";
}

Result<void> check_creation(const CallContext& ctx, std::size_t count, std::string_view what) {
  if (count <= ctx.creation.remaining()) return {};
  std::string message = "this op would add " + std::to_string(count) + " " + std::string(what) +
                        ", more than one call may add (" + creation_limit_text(ctx.creation.limit);
  if (ctx.creation.created > 0)
    message += "; earlier ops of this call added " + std::to_string(ctx.creation.created);
  return make_error(message + "): make fewer at a time, in separate calls");
}

std::string byte_size_text(std::size_t bytes) {
  const auto tenths = [](std::size_t value, std::size_t unit) {
    const std::size_t scaled = (value * 10 + unit / 2) / unit;
    return std::to_string(scaled / 10) + "." + std::to_string(scaled % 10);
  };
  if (bytes >= 1'000'000) return tenths(bytes, 1'000'000) + " MB";
  if (bytes >= 1'000) return tenths(bytes, 1'000) + " KB";
  return std::to_string(bytes) + " bytes";
}

Result<void> check_reply_size(const CallContext& ctx, std::size_t bytes, std::string_view what,
                              std::vector<std::string> hints) {
  if (bytes <= ctx.max_reply_bytes) return {};
  return make_error(std::string(what) + " is " + byte_size_text(bytes) +
                        ", more than a reply may carry (limits.max_reply_bytes = " +
                        std::to_string(ctx.max_reply_bytes) +
                        " bytes, a setting of the daemon's config): write it to a file",
                    std::move(hints));
}

std::optional<Error> Session::over_reply_limit(std::size_t bytes, std::string_view advice) const {
  if (bytes <= limits_.max_reply_bytes) return std::nullopt;
  return make_error("the reply would be " + byte_size_text(bytes) +
                    ", more than a reply may carry (limits.max_reply_bytes = " +
                    std::to_string(limits_.max_reply_bytes) +
                    " bytes, a setting of the daemon's config): " + std::string(advice));
}

std::optional<Error> Session::over_call_limits(std::size_t entities_at_start,
                                               std::size_t reply_bytes) const {
  if (auto over = over_creation_limit(entities_at_start)) return over;
  return over_reply_limit(reply_bytes, "it was rolled back; ask for less in one call");
}

std::optional<Error> Session::over_creation_limit(std::size_t entities_at_start) const {
  const std::size_t now = document_->entity_count();
  if (now <= entities_at_start || now - entities_at_start <= limits_.max_created_per_call)
    return std::nullopt;
  return make_error("this call added " + std::to_string(now - entities_at_start) +
                    " entities, more than one call may add (" +
                    creation_limit_text(limits_.max_created_per_call) +
                    "): make fewer at a time, in separate calls");
}

std::optional<Error> Session::over_memory_limit(std::size_t bytes_at_start) const {
  const std::size_t now = document_->estimated_bytes();
  if (now <= limits_.max_document_bytes || now <= bytes_at_start) return std::nullopt;
  return make_error("this call would take the document to an estimated " + byte_size_text(now) +
                    " of memory, more than one document may hold (" +
                    memory_limit_text(limits_.max_document_bytes) +
                    "): it was rolled back; remove something first, or split the document");
}

const VerbSpec& checkpoint_verb() {
  static const VerbSpec spec{"checkpoint", "NAME", "meta", "a named point to undo to"};
  return spec;
}

Session::Session(const Domain& domain, const PathPolicy& paths, SessionLimits limits)
    : domain_(domain), paths_(paths), limits_(limits), state_(domain.new_session_state()) {}

std::unique_ptr<SessionState> Session::successor_state() const {
  return state_ ? state_->successor() : nullptr;
}

void Session::inherit_state(std::unique_ptr<SessionState> state) {
  assert(!document_);
  if (state) state_ = std::move(state);
}

Error Session::no_document_error() const {
  if (no_document_hint_) {
    if (auto hint = no_document_hint_()) return *hint;
  }
  std::string name(domain_.name());
  return make_error("no document: use " + name + "_session 'new \"Title\"' or 'open PATH' first",
                    {name + "_session new \"Untitled\""});
}

CallResult Session::run_ops(std::span<const std::string> ops, const CallOptions& options) {
  if (!document_) return CallResult{error_reply(no_document_error())};
  const auto list = split_ops(ops);
  if (list.empty()) {
    return CallResult{error_reply(make_error("no ops given: pass ops as an array of op strings",
                                             {"[\"" + std::string(domain_.name()) + "_help\"]"}))};
  }
  if (list.size() > limits_.max_ops_per_call) {
    return CallResult{error_reply(
        make_error(plural(list.size(), "op") + " in one call is more than the limit of " +
                   std::to_string(limits_.max_ops_per_call) + ": split the batch"))};
  }
  // Every op that does not fit its verb is reported at once, before any op runs.
  if (list.size() > 1) {
    if (auto refused = contract_failures(list)) return CallResult{std::move(*refused)};
  }
  auto mark = log_.mark();
  std::vector<PendingChange::Step> steps;
  steps.reserve(list.size());
  ReplyText reply;
  std::vector<Attachment> attachments;
  EffectSink effects;
  CallContext ctx{log_, paths_, effects, options.progress, nullptr, state_.get()};
  const std::size_t entities_at_start = document_->entity_count();
  const std::size_t bytes_at_start = document_->estimated_bytes();
  ctx.creation.limit = limits_.max_created_per_call;
  ctx.max_reply_bytes = limits_.max_reply_bytes;
  std::size_t reply_bytes = 0;  // text and attachments so far
  const auto started = std::chrono::steady_clock::now();
  const auto limit = limits_.max_call_duration;
  try {
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (is_cancelled(options)) {
        (void)document_->close_open_block();
        roll_back(mark, steps);
        return CallResult{error_reply(make_error("cancelled; the batch was rolled back"))};
      }
      if (limit.count() > 0 && i > 0 && std::chrono::steady_clock::now() - started > limit) {
        (void)document_->close_open_block();
        roll_back(mark, steps);
        return CallResult{error_reply(make_error(
            "the batch ran past the call time limit (" +
            (limit < std::chrono::seconds(1)
                 ? std::to_string(limit.count()) + " ms"
                 : std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) +
                       " s") +
            ") after " + std::to_string(i) + " of " + plural(list.size(), "op") +
            "; it was rolled back and nothing changed: send it again as smaller batches"))};
      }
      const std::size_t entities = document_->entity_count();
      ctx.creation.created = entities > entities_at_start ? entities - entities_at_start : 0;
      auto outcome = run_one_op(list[i], ctx);
      if (!outcome) {
        (void)document_->close_open_block();
        roll_back(mark, steps);
        return CallResult{batch_failure_reply(i, list.size(), list[i], outcome.error())};
      }
      assert_reply_lines(outcome->lines);
      for (const auto& line : outcome->lines)
        reply_bytes += line.size() + 1;
      reply.add_all(std::move(outcome->lines));
      for (auto& attachment : outcome->attachments) {
        reply_bytes += attachment.bytes.size();
        attachments.push_back(std::move(attachment));
      }
      if (outcome->event) {
        log_.append(outcome->event);
        steps.push_back({std::move(outcome->event), true});
      }
      if (auto over = over_call_limits(entities_at_start, reply_bytes)) {
        (void)document_->close_open_block();
        roll_back(mark, steps);
        return CallResult{batch_failure_reply(i, list.size(), list[i], *over)};
      }
      if (!outcome->checkpoint.empty()) log_.checkpoint(std::move(outcome->checkpoint));
      if (options.progress && (i + 1) % limits_.progress_every == 0) {
        options.progress(static_cast<double>(i + 1), static_cast<double>(list.size()), "ops");
      }
    }
  } catch (...) {
    (void)document_->close_open_block();
    roll_back(mark, steps);  // keep the session consistent, then let the safety net report
    throw;
  }
  // A cancel that arrived while the last op ran (one that does not look at it, like a layout's
  // routing) still rolls the batch back: nothing was answered yet, and the client that cancelled
  // must not find the change applied.
  if (is_cancelled(options)) {
    (void)document_->close_open_block();
    roll_back(mark, steps);
    return CallResult{error_reply(make_error("cancelled; the batch was rolled back"))};
  }
  auto open = document_->close_open_block();
  if (!open) open = over_memory_limit(bytes_at_start);
  if (open) {
    roll_back(mark, steps);
    ReplyText failed;
    failed.add_error(*open);
    failed.add(meta("batch rolled back: " + plural(list.size(), "op") +
                    " undone, the document is unchanged"));
    return CallResult{with_digest(ToolReply{failed.str(), true, {}})};
  }
  add_warnings(reply, steps);
  ToolReply result{reply.str(), false, std::move(attachments)};
  return finish(std::move(result), effects.take(), std::move(mark), std::move(steps), true);
}

Result<ParsedOp> Session::checked_op(std::string_view text) const {
  auto parsed = parse_op(text, domain_.parse_hooks());
  if (!parsed) return parsed.error();
  if (parsed->verb == checkpoint_verb().name) {
    if (auto checked = check_checkpoint_op(*parsed); !checked) return checked.error();
    return parsed;
  }
  const VerbSpec* spec = domain_.verbs().find(parsed->verb);
  if (spec == nullptr) {
    const std::string_view engine_verbs[] = {checkpoint_verb().name};
    return unknown_verb_error(domain_.verbs(), *parsed, domain_.name(), engine_verbs);
  }
  if (auto spaced = space_glued_arrows(parsed->raw, *spec)) {
    parsed = parse_op(*spaced, domain_.parse_hooks());
    if (!parsed) return parsed.error();
  }
  if (auto checked = check_op_keys(*spec, *parsed, domain_.verbs().key_synonyms()); !checked)
    return checked.error();
  return parsed;
}

Result<OpOutcome> Session::run_one_op(std::string_view text, CallContext& ctx) {
  auto parsed = checked_op(text);
  if (!parsed) return parsed.error();
  if (parsed->verb == checkpoint_verb().name) return run_checkpoint_op(*parsed);
  auto outcome = document_->execute(*parsed, ctx);
  if (outcome) say_placement_defaults(*domain_.verbs().find(parsed->verb), *parsed, *outcome);
  return outcome;
}

void Session::say_placement_defaults(const VerbSpec& spec, const ParsedOp& op,
                                     OpOutcome& outcome) const {
  if (!outcome.event) return;  // nothing was placed
  const std::string form = op.positionals.empty() ? std::string() : to_lower(op.positionals[0]);
  for (const auto& declared : spec.keys) {
    if (!declared.places_work || op.has_param(declared.name)) continue;
    if (std::any_of(declared.apart.begin(), declared.apart.end(),
                    [&](const std::string& other) { return op.has_param(other); }))
      continue;  // the op says where by other means (a range)
    if (!declared.forms.empty() &&
        std::find(declared.forms.begin(), declared.forms.end(), form) == declared.forms.end())
      continue;
    outcome.lines.push_back(warning_line("no " + declared.name + ": given: placed at " +
                                         declared.default_value + ", the default"));
  }
}

std::optional<ToolReply> Session::contract_failures(std::span<const std::string_view> list) const {
  constexpr std::size_t kShown = 10;
  ReplyText reply;
  std::size_t failed = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto parsed = checked_op(list[i]);
    if (parsed) continue;
    if (++failed > kShown) continue;
    reply.add("! op " + std::to_string(i + 1) + " of " + std::to_string(list.size()) +
              " failed: " + std::string(list[i]));
    reply.add_error(parsed.error());
  }
  if (failed == 0) return std::nullopt;
  if (failed > kShown) reply.add("! … and " + plural(failed - kShown, "more op") + " like these");
  reply.add("! nothing was applied: " + plural(failed, "op") + " of " +
            std::to_string(list.size()) +
            " do not fit their verbs; fix them and send the batch "
            "again");
  return with_digest(ToolReply{reply.str(), true, {}});
}

Result<void> Session::check_checkpoint_op(const ParsedOp& op) const {
  if (op.positionals.size() != 1 || !op.params.empty() || !op.selectors.empty()) {
    return make_error("checkpoint takes one name: " + checkpoint_verb().syntax(),
                      {"checkpoint v1"});
  }
  return {};
}

Result<OpOutcome> Session::run_checkpoint_op(const ParsedOp& op) const {
  OpOutcome outcome;
  outcome.checkpoint = op.positionals.front();
  outcome.lines.push_back(checkpoint_line(outcome.checkpoint));
  return outcome;
}

void Session::assert_reply_lines(std::span<const std::string> lines) {
  assert(!first_unprefixed_line(lines) && "a reply line without a core/response.hpp prefix");
  (void)lines;
}

std::string Session::checkpoint_line(std::string_view name) const {
  return created("checkpoint \"" + std::string(name) + "\" after " + plural(log_.undoable(), "op"));
}

void Session::add_warnings(ReplyText& reply, const std::vector<PendingChange::Step>& steps) const {
  // A batch's steps all run forward, an undo's all backward, a redo's all forward.
  std::vector<EventPtr> events;
  events.reserve(steps.size());
  for (const auto& step : steps)
    events.push_back(step.event);
  const Applied applied =
      steps.empty() || steps.front().forward ? Applied::forward : Applied::reverted;
  // A batch-wide finding an op already reported (a layout's own route check) is said once.
  const auto warnings = document_->warnings(events, applied);
  if (warnings.empty()) return;
  const std::unordered_set<std::string> said = reply.warnings_said();
  for (const auto& warning : warnings) {
    if (!said.contains(warning_line(warning))) reply.add_warning(warning);
  }
}

ToolReply Session::batch_failure_reply(std::size_t index, std::size_t count, std::string_view op,
                                       const Error& error) const {
  ReplyText reply;
  if (count > 1) {
    reply.add(meta("op " + std::to_string(index + 1) + " of " + std::to_string(count) +
                   " failed: " + std::string(op)));
  }
  reply.add_error(error);
  if (count > 1) {
    reply.add(meta("batch rolled back: " + plural(index, "earlier op") +
                   " undone, the document is unchanged"));
  }
  return with_digest(ToolReply{reply.str(), true, {}});
}

CallResult Session::finish(ToolReply reply, std::vector<Effect> effects, EventLog::Mark mark,
                           std::vector<PendingChange::Step> steps, bool rollback_on_failure) {
  if (effects.empty()) {
    changes_since_save_ += steps.size();
    return CallResult{with_digest(std::move(reply))};
  }
  PendingChange change;
  change.effects = std::move(effects);
  change.rollback_on_failure = rollback_on_failure;
  change.mark_ = std::move(mark);
  change.steps_ = std::move(steps);
  change.reply_ = std::move(reply);
  return CallResult{std::move(change)};
}

ToolReply Session::confirm(PendingChange change) {
  changes_since_save_ += change.steps_.size();
  return with_digest(std::move(change.reply_));
}

ToolReply Session::fail(PendingChange change, const Error& error) {
  if (!change.rollback_on_failure) {
    changes_since_save_ += change.steps_.size();
    ReplyText reply;
    reply.add(change.reply_.text);
    reply.add_warning(error.message);
    change.reply_.text = reply.str();
    return with_digest(std::move(change.reply_));
  }
  roll_back(change.mark_, change.steps_);
  ReplyText reply;
  reply.add_error(error);
  reply.add(meta("rolled back: the document is unchanged"));
  return with_digest(ToolReply{reply.str(), true, {}});
}

void Session::roll_back(const EventLog::Mark& mark, const std::vector<PendingChange::Step>& steps) {
  EffectSink discarded;  // nothing of this change reached the outside world unconfirmed
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (it->forward) {
      document_->revert(*it->event, discarded);
    } else {
      document_->replay(*it->event, discarded);
    }
  }
  log_.rollback(mark);
  if (!steps.empty()) document_->history_changed();
}

ToolReply Session::with_digest(ToolReply reply) const {
  if (!document_) return reply;
  if (!reply.text.empty()) reply.text += '\n';
  reply.text += document_->digest();
  return reply;
}

ToolReply Session::error_reply(const Error& error) const {
  ReplyText text;
  text.add_error(error);
  return with_digest(ToolReply{text.str(), true, {}});
}

std::optional<std::string> Session::digest() const {
  if (!document_) return std::nullopt;
  return document_->digest();
}

EffectExecutor* Session::effect_executor() {
  return document_ ? domain_.effect_executor(*document_) : nullptr;
}

std::string Session::help() const {
  return render_reference_card(domain_, document_.get());
}

std::string Session::resource_text() const {
  if (!document_) return "No " + std::string(domain_.name()) + " document open.";
  std::string text = "Title: " + document_->title() + "\n";
  text += "File: " + (file_path_ ? file_path_->string() : std::string("(not saved yet)")) + "\n";
  text += "Unsaved changes: " + std::string(has_unsaved_changes() ? "yes" : "no") + "\n";
  text += "State: " + document_->digest();
  return text;
}

}  // namespace fcp::core
