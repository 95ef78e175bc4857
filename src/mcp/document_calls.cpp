// Which document a tools/call works on: the `doc` argument, `close HANDLE`, or the client's
// current document; the session actions the document store answers (list, new, open, close).
#include <spdlog/spdlog.h>

#include <boost/asio/steady_timer.hpp>
#include <chrono>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/session_command.hpp"
#include "mcp/client_connection.hpp"
#include "mcp/server.hpp"

namespace fcp::mcp {
namespace {

// A boolean key the command sets to true (discard:true), as the engine reads it.
bool says_true(const core::SessionCommand& command, std::string_view key) {
  const auto* value = command.param(key);
  if (value == nullptr) return false;
  const std::string word = core::to_lower(*value);
  return word == "true" || word == "yes" || word == "on" || word == "1";
}

std::optional<core::SessionCommand> session_command(const Tool& tool,
                                                    const ToolArguments& arguments) {
  if (tool.kind != ToolKind::session) return std::nullopt;
  std::vector<std::string> extensions;
  for (const auto& spec : tool.domain->session_extensions())
    extensions.push_back(spec.name);
  auto command = core::parse_session_command(arguments.text, extensions);
  // A malformed action is answered by the engine, as before handles.
  if (!command) return std::nullopt;
  return std::move(*command);
}

// "3 s ago", "2 min ago", "1 h ago"
std::string age(StoredDocument::Clock::time_point when) {
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(StoredDocument::Clock::now() - when).count();
  if (seconds < 120) return std::to_string(seconds) + " s ago";
  if (seconds < 7200) return std::to_string(seconds / 60) + " min ago";
  return std::to_string(seconds / 3600) + " h ago";
}

// The reply's first line, then `line`, then the rest.
void insert_second(core::ToolReply& reply, const std::string& line) {
  const auto end = reply.text.find('\n');
  if (end == std::string::npos) {
    reply.text += "\n" + line;
  } else {
    reply.text.insert(end + 1, line + "\n");
  }
}

// The "no document" error for a session without a current document when the principal has
// documents open elsewhere: how to reach them (their handles), instead of "use new first".
// `stateless`: a 2026-07-28 request, which has no MCP session and never a current document.
std::optional<core::Error> documents_elsewhere(const DocumentStore& store,
                                               const std::string& principal,
                                               const core::Domain& domain, bool stateless) {
  const auto documents = store.list(principal, domain);
  if (documents.empty()) return std::nullopt;
  const std::string name(domain.name());
  const auto& latest = *documents.front();
  const std::string open = core::plural(documents.size(), "open " + name + " document");
  std::string message =
      (stateless ? "a 2026-07-28 request has no current document; " + open + " of yours"
                 : "no document in this MCP session; " + open + " of yours live outside it") +
      ": pass a handle as the tool's doc argument (the latest: " + latest.handle() + " \"" +
      latest.summary().title + "\", used " + age(latest.last_use()) + ")";
  return core::make_error(std::move(message),
                          {name + "_session list", name + "_session new \"Untitled\""});
}

}  // namespace

std::string resource_without_document(const DocumentStore& store, ClientSession& session,
                                      const core::Domain& domain) {
  const auto documents = store.list(session.principal(), domain);
  if (documents.empty()) return session.empty_session(domain).resource_text();
  const std::string name(domain.name());
  std::string text = session.keeps_current()
                         ? "No " + name + " document in this MCP session.\n"
                         : "No current " + name +
                               " document: 2026-07-28 requests have none; pass a handle as the "
                               "tools' doc argument.\n";
  text += "Open " + name + " documents of yours, latest first:";
  for (const auto& document : documents) {
    const auto summary = document->summary();
    text += "\n  " + document->handle() + " \"" + summary.title +
            "\" file: " + (summary.file ? summary.file->string() : std::string("(not saved yet)")) +
            ", unsaved changes: " + (summary.unsaved ? "yes" : "no") +
            ", state: " + summary.digest + ", last use " + age(document->last_use());
  }
  return text;
}

void ClientConnection::refuse(const ToolCall& call, const core::Error& error) {
  core::ReplyText text;
  text.add_error(error);
  finish_tool(*call.tool, core::ToolReply{text.str(), true, {}}, call.reply, call.flight);
}

void ClientConnection::route_tool(const std::shared_ptr<ToolCall>& call,
                                  const ClientSession::Done& done) {
  const core::Domain& domain = *call->tool->domain;
  auto& store = server_.documents();
  const auto command = session_command(*call->tool, call->arguments);
  const std::string word = command ? command->command : std::string();
  std::shared_ptr<StoredDocument> named;
  if (call->arguments.doc) {
    auto found = store.find(*call->arguments.doc, session_->principal(), domain);
    if (!found && store.leases().enabled()) {
      return take_over(call, *call->arguments.doc, found.error(),
                       std::chrono::steady_clock::now() + store.leases().options().handoff_wait,
                       false, done);
    }
    if (!found) {
      refuse(*call, found.error());
      return done();
    }
    named = *found;
  }
  if (word == "list") {
    answer_list(*call);
    return done();
  }
  if (word == "recover") {
    answer_recover(*call, *command);
    return done();
  }
  if (word == "new" || word == "open") {
    auto previous = named ? named : session_->current(domain);
    if (previous && previous->closed()) previous = nullptr;
    return start_document(call, previous, says_true(*command, "discard"), done);
  }
  if (word == "close" && command->arg("doc") != nullptr) {
    auto found = store.find(*command->arg("doc"), session_->principal(), domain);
    if (!found && store.leases().enabled()) {
      return take_over(call, *command->arg("doc"), found.error(),
                       std::chrono::steady_clock::now() + store.leases().options().handoff_wait,
                       false, done);
    }
    if (!found) {
      refuse(*call, found.error());
      return done();
    }
    if (named && named != *found) {
      refuse(*call, core::make_error("close names " + (*found)->handle() + " but doc is " +
                                         named->handle() + ": give one of them",
                                     {"close " + (*found)->handle()}));
      return done();
    }
    named = *found;
  }
  auto target = named ? named : session_->current(domain);
  if (target && target->moved()) {
    // The session's current document went to another replica: it comes back from the journal.
    session_->forget(*target);
    return take_over(call, target->handle(),
                     core::make_error("the document " + target->handle() + " was handed over"),
                     std::chrono::steady_clock::now() + store.leases().options().handoff_wait,
                     false, done);
  }
  if (!target) {
    // No document yet: the engine's empty session answers ("no document: …", help), naming the
    // caller's documents that live outside this session, for a client that opens a new MCP
    // session per call.
    auto& empty = session_->empty_session(domain);
    empty.set_no_document_hint([&store, &domain, principal = session_->principal(),
                                stateless = !session_->keeps_current()] {
      return documents_elsewhere(store, principal, domain, stateless);
    });
    run_tool(*call, CallTarget{&empty, session_->queue(), nullptr, {}, std::nullopt}, done);
    return;
  }
  run_on_document(call, target, word == "close", done);
}

void ClientConnection::take_over(const std::shared_ptr<ToolCall>& call, const std::string& handle,
                                 const core::Error& refusal,
                                 std::chrono::steady_clock::time_point deadline, bool asked,
                                 const ClientSession::Done& done) {
  const core::Domain& domain = *call->tool->domain;
  auto& store = server_.documents();
  auto taken = store.take_over(handle, session_->principal(), domain);
  if (!taken) {
    refuse(*call, taken.error());
    return done();
  }
  if (!taken->journaled) {
    refuse(*call, refusal);
    return done();
  }
  if (taken->document) {
    const bool current = !call->arguments.doc;
    if (current) session_->set_current(taken->document);
    return route_tool(call, done);
  }
  const auto& holder = *taken->holder;
  if (!asked && holder.pid > 0) {
    if (auto sent = store.leases().ask_handoff(holder, handle); !sent) {
      spdlog::warn("{}: {}", handle, sent.error().message);
    }
  }
  if (std::chrono::steady_clock::now() >= deadline) {
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        store.leases().options().handoff_wait);
    refuse(*call, core::make_error(
                      handle + " is written by " + holder.describe() +
                      ", which did not hand it over within " + std::to_string(waited.count()) +
                      " ms: send calls for it to that replica (behind the load balancer, "
                      "route by the Mcp-Param-Doc header as deploy/nginx.conf.template does)"));
    return done();
  }
  // The holder lets it go between two of its calls, within its inbox poll (50 ms).
  auto timer = std::make_shared<boost::asio::steady_timer>(server_.executor(),
                                                           std::chrono::milliseconds(20));
  auto self = shared_from_this();
  timer->async_wait(
      [self, timer, call, handle, refusal, deadline, done](const boost::system::error_code&) {
        self->take_over(call, handle, refusal, deadline, true, done);
      });
}

void ClientConnection::run_on_document(const std::shared_ptr<ToolCall>& call,
                                       const std::shared_ptr<StoredDocument>& document,
                                       bool closing, const ClientSession::Done& done) {
  auto self = shared_from_this();
  document->queue()->submit([self, call, document, closing,
                             done](const ClientSession::Done& document_done) {
    const auto both = [done, document_done] {
      document_done();
      done();
    };
    if (document->closed()) {
      // Closed by another call since this one was routed: the store says so and how to go on.
      self->session_->forget(*document);
      auto found =
          self->server_.documents().find(document->handle(), document->owner(), document->domain());
      self->refuse(*call, found ? core::make_error("the document was closed") : found.error());
      return both();
    }
    // An idle document evicted to its journal comes back first.
    if (auto loaded = self->server_.documents().load(*document); !loaded) {
      self->refuse(*call, core::make_error("cannot reload " + document->handle() +
                                           " from its journal: " + loaded.error().message));
      return both();
    }
    CallTarget target{&document->session(), document->queue(), document, {}, std::nullopt};
    if (closing) {
      target.settle = [self, document](core::ToolReply& reply) {
        if (reply.is_error) return;
        self->server_.documents().remove(*document);
        self->session_->forget(*document);
        insert_second(reply, core::detail_line("the handle " + document->handle() + " ended"));
      };
    }
    self->run_tool(*call, target, both);
  });
}

void ClientConnection::start_document(const std::shared_ptr<ToolCall>& call,
                                      const std::shared_ptr<StoredDocument>& previous, bool discard,
                                      const ClientSession::Done& done) {
  const core::Domain& domain = *call->tool->domain;
  auto& store = server_.documents();
  if (auto room = store.room_for_one_more(session_->principal(), domain); !room) {
    refuse(*call, room.error());
    return done();
  }
  auto document = store.make(domain, session_->principal());
  // What the client chose for its documents (lofi: the Max that `connect` named) carries over
  // from the document it works on, or from its empty session before its first document. The new
  // document is reachable by no one yet, so its session is set here, before its first task;
  // successor_state() may run while `previous` runs a call (it is thread-safe).
  // `previous` may be evicted to its journal: its successor_state() comes from what it kept.
  document->session().inherit_state(previous ? previous->successor_state()
                                             : session_->empty_session(domain).successor_state());
  auto self = shared_from_this();
  document->queue()->submit(
      [self, call, document, previous, discard, done](const ClientSession::Done& document_done) {
        const auto both = [done, document_done] {
          document_done();
          done();
        };
        CallTarget target{&document->session(), document->queue(), document, {}, std::nullopt};
        target.settle = [self, document, previous, discard](core::ToolReply& reply) {
          if (!reply.is_error) return self->register_document(document, previous, discard, reply);
          // A failed new or open changed nothing: the reply ends with the digest of the document
          // that stays current, as every reply about it does.
          if (previous && !previous->summary().digest.empty()) {
            reply.text += "\n" + previous->summary().digest;
          }
        };
        self->run_tool(*call, target, both);
      });
}

void ClientConnection::register_document(const std::shared_ptr<StoredDocument>& document,
                                         const std::shared_ptr<StoredDocument>& previous,
                                         bool discard, core::ToolReply& reply) {
  auto& store = server_.documents();
  const std::string name(document->domain().name());
  std::string lines = core::detail_line("handle: " + document->handle() +
                                        " (pass it as doc to work on this document from any "
                                        "session)");
  const auto describe = [](const StoredDocument& other) {
    return other.handle() + " \"" + other.summary().title + "\"";
  };
  if (previous && discard) {
    lines += "\n" + core::deleted("closed " + describe(*previous) +
                                  (previous->summary().unsaved ? " and its unsaved changes" : ""));
    store.remove(*previous);
  }
  auto room = store.room_for_one_more(document->owner(), document->domain());
  if (room && *room) {
    lines += "\n" + core::deleted("closed " + describe(**room) +
                                  ", the least recently used document without unsaved changes, "
                                  "to stay within " +
                                  std::to_string(store.max_documents()) + " open documents");
    store.remove(**room);
  }
  if (auto added = store.add(document); !added) {
    core::ReplyText text;
    text.add_error(added.error());
    reply = core::ToolReply{text.str(), true, {}};
    return;
  }
  session_->set_current(document);
  if (previous && !previous->closed()) {
    lines += "\n" + (previous->summary().unsaved
                         ? core::warning_line(describe(*previous) +
                                              " has unsaved changes and stays open (" + name +
                                              "_session list names it)")
                         : core::detail_line(describe(*previous) + " stays open"));
  }
  insert_second(reply, lines);
}

void ClientConnection::answer_list(const ToolCall& call) {
  const core::Domain& domain = *call.tool->domain;
  const auto command = session_command(*call.tool, call.arguments);
  if (!command->params.empty() || !command->positionals.empty()) {
    return refuse(call, core::make_error("list takes no arguments", {"list"}));
  }
  const auto documents = server_.documents().list(session_->principal(), domain);
  const auto current = session_->current(domain);
  core::ReplyText text;
  const std::string name(domain.name());
  if (documents.empty()) {
    text.add(core::meta("no open " + name + " documents"));
  } else {
    text.add(core::meta(core::plural(documents.size(), "open " + name + " document")));
  }
  for (const auto& document : documents) {
    const auto summary = document->summary();
    std::string line = document->handle() + " \"" + summary.title + "\" file: " +
                       (summary.file ? summary.file->string() : std::string("(not saved yet)")) +
                       ", unsaved changes: " + (summary.unsaved ? "yes" : "no") + ", last use " +
                       age(document->last_use());
    if (document == current) line += " (current)";
    text.add(core::detail_line(line));
  }
  finish_tool(*call.tool, core::ToolReply{text.str(), false, {}}, call.reply, call.flight);
}

void ClientConnection::answer_recover(const ToolCall& call, const core::SessionCommand& command) {
  const core::Domain& domain = *call.tool->domain;
  const std::string name(domain.name());
  auto& store = server_.documents();
  core::ReplyText text;
  const auto describe = [](const DocumentStore::Recoverable& item) {
    return item.handle + " \"" + item.title +
           "\" file: " + (item.file ? item.file->string() : std::string("(not saved yet)")) +
           ", unsaved changes: " + (item.unsaved ? "yes" : "no") + ", " +
           core::plural(item.calls, "journaled call");
  };
  const auto* handle = command.arg("doc");
  if (handle == nullptr) {
    if (!command.params.empty() || command.positionals.size() > 0) {
      return refuse(call, core::make_error("recover takes a handle or nothing", {"recover"}));
    }
    if (!store.journals()) {
      return refuse(call, core::make_error("fcpd keeps no journals: start it with --state-dir DIR "
                                           "(config state_dir) to recover documents after a crash",
                                           {name + "_session list"}));
    }
    // Only journals with unsaved work (or that cannot be read back, which may hold some) are
    // work to recover; a journal whose document was saved with nothing after it (left by a crash)
    // is named apart: its file holds everything, recover HANDLE would only bring back its history.
    std::vector<DocumentStore::Recoverable> items;
    std::vector<DocumentStore::Recoverable> saved;
    for (auto& item : store.recoverable(session_->principal(), domain))
      (item.unsaved || item.error ? items : saved).push_back(std::move(item));
    if (items.empty()) {
      text.add(core::meta("no " + name + " documents to recover"));
    } else {
      text.add(core::meta(core::plural(items.size(), name + " document") + " to recover"));
    }
    for (const auto& item : items) {
      std::string line = describe(item);
      if (item.damage)
        line += "; the journal ends in " + *item.damage + ", the calls before it stay";
      if (item.error) line += "; cannot be restored: " + *item.error;
      text.add(core::detail_line(line));
    }
    if (!items.empty()) text.add(core::detail_line("try: recover " + items.front().handle));
    if (!saved.empty()) {
      constexpr std::size_t kNamed = 5;
      std::string line = "saved, nothing to recover: " + core::plural(saved.size(), "journal") +
                         " of documents saved with no change after (recover HANDLE reopens one "
                         "with its undo history; close drops its journal):";
      for (std::size_t i = 0; i < saved.size() && i < kNamed; ++i) {
        line += (i == 0 ? " " : ", ") + saved[i].handle + " \"" + saved[i].title + "\"" +
                (saved[i].file ? " " + saved[i].file->string() : std::string());
      }
      if (saved.size() > kNamed) line += " and " + std::to_string(saved.size() - kNamed) + " more";
      text.add(core::detail_line(line));
    }
    return finish_tool(*call.tool, core::ToolReply{text.str(), false, {}}, call.reply, call.flight);
  }
  DocumentStore::Recoverable report;
  // What the client chose carries over as to a new document (lofi: the Max it connected to).
  auto current = session_->current(domain);
  if (current && current->closed()) current = nullptr;
  auto state =
      current ? current->successor_state() : session_->empty_session(domain).successor_state();
  auto recovered = store.recover(*handle, session_->principal(), domain, report, std::move(state));
  if (!recovered) return refuse(call, recovered.error());
  session_->set_current(*recovered);
  text.add(core::created("recovered " + describe(report)));
  text.add_all(report.lines);
  if (report.damage) {
    text.add(core::warning_line("the journal ended in " + *report.damage +
                                ": it was cut there; the calls before it are restored"));
  }
  text.add(core::detail_line("handle: " + report.handle + " (the same as before)"));
  const auto summary = (*recovered)->summary();
  if (!summary.digest.empty()) text.add(summary.digest);
  finish_tool(*call.tool, core::ToolReply{text.str(), false, {}}, call.reply, call.flight);
}

}  // namespace fcp::mcp
