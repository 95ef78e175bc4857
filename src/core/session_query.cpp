// Session queries: dispatch to the domain, then the generic ones (status, history, diff).
#include <algorithm>
#include <charconv>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/session.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

// The queries the engine answers for every domain.
const std::vector<VerbSpec>& generic_queries() {
  static const std::vector<VerbSpec> queries = {
      VerbSpec{"status", "", "session", "file, unsaved changes, log position, checkpoints"},
      VerbSpec{"history", "[N]", "session", "the last N ops (default 10), oldest first"},
      VerbSpec{"diff", "", "session", "the ops applied since a checkpoint (or: diff NAME)"}.with(
          key("checkpoint", "NAME")),
  };
  return queries;
}

std::optional<std::size_t> parse_count(std::string_view text) {
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

ToolReply Session::run_query(std::string_view query, bool structured) const {
  query = trim(query);
  auto space = query.find_first_of(" \t\r\n");
  std::string verb = to_lower(query.substr(0, space));
  std::string_view args = space == std::string_view::npos ? "" : trim(query.substr(space));
  if (verb.empty()) return error_reply(unknown_query_error(verb, query));
  if (!document_) {
    if (auto checked = check_declared_keys(query_specs(domain_), verb, query); !checked)
      return error_reply(checked.error());
    if (auto answer = domain_.query_without_document(verb, args, state_.get())) {
      if (!*answer) return error_reply(answer->error());
      if (!structured) return ToolReply{std::move(**answer), false, {}};
      return ToolReply{std::move(**answer), false, {}, QueryResult{"other", std::string(query)}};
    }
    if (verb == "status") {
      std::string text = "no " + std::string(domain_.name()) + " document open: use " +
                         std::string(domain_.name()) + "_session 'new \"Title\"' or 'open PATH'";
      for (const auto& line : domain_.status_without_document(state_.get()))
        text += "\n" + line;
      if (!structured) return ToolReply{std::move(text), false, {}};
      return ToolReply{std::move(text), false, {}, QueryResult{"other", std::string(query)}};
    }
    return error_reply(no_document_error());
  }
  if (auto checked = check_declared_keys(query_specs(domain_), verb, query); !checked)
    return error_reply(checked.error());
  EffectSink unused;
  const ProgressFn no_progress;
  const CallContext ctx{log_, paths_, unused, no_progress};
  std::optional<Result<QueryAnswer>> answer = document_->query(verb, args, ctx);
  if (!answer) {
    if (verb != "status" && verb != "history" && verb != "diff")
      return error_reply(unknown_query_error(verb, query));
    Result<std::string> generic = verb == "status"    ? Result<std::string>(query_status())
                                  : verb == "history" ? query_history(args)
                                                      : query_diff(args);
    if (!generic) return error_reply(generic.error());
    answer = QueryAnswer{std::move(*generic)};
  }
  if (!*answer) return error_reply(answer->error());
  QueryAnswer& found = answer->value();
  if (!structured) {
    if (auto over = over_reply_limit(found.text.size(),
                                     "ask a narrower query (a selector, a range, a page)"))
      return error_reply(*over);
    return ToolReply{std::move(found.text), false, {}};
  }
  // The query table decides which kinds carry data; the domain filled it from the selection
  // its text shows, so both name the same entities.
  const auto specs = query_specs(domain_);
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const VerbSpec& candidate) { return candidate.name == verb; });
  const bool with_data = spec != specs.end() && spec->structured && found.data;
  const std::size_t data_bytes = with_data ? estimated_json_bytes(*found.data) : 0;
  if (auto over = over_reply_limit(found.text.size() + data_bytes,
                                   "ask a narrower query (a selector, a range, a page)"))
    return error_reply(*over);
  QueryResult result{with_data ? verb : "other", std::string(query), document_->title(),
                     document_->digest()};
  if (with_data) result.data = std::move(*found.data);
  return ToolReply{std::move(found.text), false, {}, std::move(result)};
}

std::string Session::query_status() const {
  ReplyText text;
  text.add(std::string(domain_.name()) + " document \"" + document_->title() + "\"");
  text.add("  file: " + (file_path_ ? file_path_->string() : std::string("(not saved yet)")));
  // changes_since_save_ counts ops, undos and redos; undoing them all leaves nothing unsaved,
  // and the line says so rather than "no (2 changes …)".
  const std::string changes = plural(changes_since_save_, "change") + " since open/save";
  if (has_unsaved_changes())
    text.add("  unsaved changes: yes (" + changes + ")");
  else if (changes_since_save_ == 0)
    text.add("  unsaved changes: no");
  else
    text.add("  unsaved changes: no (the " + changes +
             " cancel out: the document is as it was opened or last saved)");
  text.add("  log: " + std::to_string(log_.undoable()) + " undoable, " +
           std::to_string(log_.redoable()) + " redoable");
  std::string checkpoints;
  for (const auto& [name, position] : log_.checkpoints()) {
    // Counted as the checkpoint's reply counted them: ops, not log entries.
    checkpoints += (checkpoints.empty() ? "" : ", ") + name + " after " +
                   plural(log_.ops_before(position), "op");
  }
  text.add("  checkpoints: " + (checkpoints.empty() ? std::string("none") : checkpoints));
  for (auto& line : document_->status_lines())
    text.add("  " + line);
  text.add(document_->digest());
  return text.str();
}

Result<std::string> Session::query_history(std::string_view args) const {
  std::size_t count = 10;
  if (!args.empty()) {
    auto parsed = parse_count(args);
    if (!parsed) return make_error("history takes a count: history N", {"history 10"});
    count = *parsed;
  }
  auto events = log_.recent(count);
  if (events.empty()) return std::string("history: no ops yet");
  ReplyText text;
  text.add("history: last " + std::to_string(events.size()) + " of " +
           std::to_string(log_.undoable()) + " ops (oldest first)");
  std::size_t number = log_.undoable() - events.size();
  for (const auto& event : events)
    text.add("  " + std::to_string(++number) + ". " + event->summary());
  return text.str();
}

Result<std::string> Session::query_diff(std::string_view args) const {
  // `diff checkpoint:NAME` or just `diff NAME`.
  constexpr std::string_view kPrefix = "checkpoint:";
  std::string_view name = args;
  if (name.substr(0, kPrefix.size()) == kPrefix) name.remove_prefix(kPrefix.size());
  if (name.empty() || name.find(' ') != std::string_view::npos) {
    std::vector<std::string> hints;
    for (const auto& [checkpoint, position] : log_.checkpoints())
      hints.push_back("diff checkpoint:" + checkpoint);
    return make_error("diff needs a checkpoint: diff checkpoint:NAME", std::move(hints));
  }
  auto events = log_.since(name);
  if (!events) return events.error();
  ReplyText text;
  text.add("diff since \"" + std::string(name) + "\": " + std::to_string(events->size()) + " op" +
           (events->size() == 1 ? "" : "s"));
  for (const auto& event : *events)
    text.add("  " + event->summary());
  return text.str();
}

Error Session::unknown_query_error(std::string_view word, std::string_view query) const {
  std::vector<std::string> names;
  for (const auto& spec : domain_.queries())
    names.push_back(spec.name);
  for (const auto& spec : generic_queries())
    names.push_back(spec.name);
  std::string list;
  for (const auto& name : names)
    list += (list.empty() ? "" : ", ") + name;
  // The word an agent meant: the domain's synonym for it, else a close spelling of a query.
  std::string meant;
  for (const auto& synonym : domain_.query_synonyms()) {
    if (synonym.word == word) meant = synonym.replacement;
  }
  if (meant.empty() && !word.empty()) {
    for (const auto& close : closest_matches(word, names, 1))
      meant = close;
  }
  std::vector<std::string> hints;
  if (!meant.empty()) hints.push_back(meant + std::string(query.substr(word.size())));
  std::string message =
      word.empty() ? "empty query" : "unknown query \"" + std::string(word) + "\"";
  return make_error(message + "; queries: " + list, std::move(hints));
}

std::span<const VerbSpec> engine_queries() {
  return generic_queries();
}

std::vector<VerbSpec> query_specs(const Domain& domain) {
  std::vector<VerbSpec> specs = domain.queries();
  for (const auto& spec : generic_queries())
    specs.push_back(spec);
  return specs;
}

Result<void> Session::check_declared_keys(const std::vector<VerbSpec>& specs, std::string_view word,
                                          std::string_view text) const {
  // Words agents use for the engine's own keys, after the domain's.
  static const std::vector<Synonym> engine_synonyms{
      {"until", "to:{}", "undo"},        {"checkpoint", "to:{}", "undo"},
      {"path", "as:{}", "save"},         {"file", "as:{}", "save"},
      {"to", "as:{}", "save"},           {"force", "discard:{}", {}},
      {"name", "checkpoint:{}", "diff"}, {"since", "checkpoint:{}", "diff"}};
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const VerbSpec& candidate) { return candidate.name == word; });
  if (spec == specs.end()) return {};
  auto parsed = parse_op(text, domain_.parse_hooks());
  if (!parsed) return parsed.error();
  std::vector<Synonym> synonyms = domain_.verbs().key_synonyms();
  synonyms.insert(synonyms.end(), engine_synonyms.begin(), engine_synonyms.end());
  return check_op_keys(*spec, *parsed, synonyms);
}

}  // namespace fcp::core
