// tools/call: argument checks, running the call on the client session's strand, progress,
// cancellation, awaiting external effects, and the result shape.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <mutex>

#include "core/call_scope.hpp"
#include "mcp/base64.hpp"
#include "mcp/client_connection.hpp"
#include "mcp/server.hpp"
#include "mcp/utf8.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

// Whether the document's content differs (another model, another head of its history after a
// batch, undo or redo, or another digest); a save or a query changes none of them.
bool changed_content(const core::Session::Fingerprint& before,
                     const core::Session::Fingerprint& after) {
  return before.document != after.document || before.head != after.head ||
         before.digest != after.digest;
}

constexpr int kDebug = 0;
constexpr int kWarning = 3;
constexpr int kError = 4;

// `structured`: the client's protocol knows structuredContent (2025-06-18 on); older sessions get
// the content alone, as before.
json::object tool_result(const core::ToolReply& reply, bool structured = false) {
  json::array content;
  content.push_back(json::object{{"type", "text"}, {"text", to_valid_utf8(reply.text)}});
  std::size_t number = 0;
  for (const auto& attachment : reply.attachments) {
    ++number;
    // Images and audio have content types of their own (audio since MCP 2025-03-26, the
    // oldest version this server speaks).
    const std::string kind = attachment.mime_type.substr(0, attachment.mime_type.find('/'));
    if (kind == "image" || kind == "audio") {
      content.push_back(json::object{{"type", kind},
                                     {"data", base64_encode(attachment.bytes)},
                                     {"mimeType", attachment.mime_type}});
      continue;
    }
    // Anything else (a PDF) is an embedded resource, not an image.
    content.push_back(json::object{
        {"type", "resource"},
        {"resource", json::object{{"uri", "fcp://attachment/" + std::to_string(number)},
                                  {"mimeType", attachment.mime_type},
                                  {"blob", base64_encode(attachment.bytes)}}}});
  }
  json::object result{{"content", std::move(content)}, {"isError", reply.is_error}};
  // A query's structured answer beside its text; an error result carries none (MCP allows it).
  if (structured && reply.structured && !reply.is_error)
    result["structuredContent"] = structured_content(*reply.structured);
  return result;
}

// The notifications/progress of one call, whose values must strictly increase over the whole
// call: the ops' own progress, then the confirmations of their external effects.
// Thread: any (the effects are confirmed on the external system's thread), one call at a time
// (the phases follow each other). The notification is sent outside the lock: the transport may
// do its work right inside notify().
class ProgressReporter {
 public:
  ProgressReporter(json::value token, std::shared_ptr<ReplyOnce> reply)
      : token_(std::move(token)), reply_(std::move(reply)) {}

  void report(double progress, double total, std::string_view message) {
    {
      std::lock_guard lock(mutex_);
      if (progress <= last_) return;
      last_ = progress;
    }
    json::object params{{"progressToken", token_}, {"progress", progress}};
    if (total > 0) params["total"] = total;
    if (!message.empty()) params["message"] = message;
    reply_->notify(jsonrpc::notification("notifications/progress", params));
  }
  double last() const {
    std::lock_guard lock(mutex_);
    return last_;
  }

 private:
  const json::value token_;
  const std::shared_ptr<ReplyOnce> reply_;
  mutable std::mutex mutex_;
  double last_ = -1.0;
};

// Null when the call asked for no progress (no _meta.progressToken).
std::shared_ptr<ProgressReporter> make_progress(const json::value& token,
                                                const std::shared_ptr<ReplyOnce>& reply) {
  if (!token.is_string() && !token.is_int64() && !token.is_uint64()) return nullptr;
  return std::make_shared<ProgressReporter>(token, reply);
}

core::ProgressFn ops_progress(const std::shared_ptr<ProgressReporter>& reporter) {
  if (!reporter) return {};
  return [reporter](double progress, double total, std::string_view message) {
    reporter->report(progress, total, message);
  };
}

// Counts on from where the ops' progress stopped, so the total grows when the confirmations
// begin (only batches of 1 000+ ops report progress of their own); at most 50 notifications
// however many effects (every step-th confirmation, the last included).
core::DeliveryProgress delivery_progress(const std::shared_ptr<ProgressReporter>& reporter) {
  if (!reporter) return {};
  const double base = std::max(reporter->last(), 0.0);
  // Weak: the pending call owns the reporter, so an executor that keeps this callback past the
  // call's end (its thread may outlive the connection) holds nothing of the connection.
  return [weak = std::weak_ptr(reporter), base](std::size_t confirmed, std::size_t total) {
    const auto live = weak.lock();
    if (!live) return;
    const std::size_t step = std::max<std::size_t>(1, (total + 49) / 50);
    if (confirmed % step != 0 && confirmed != total) return;
    live->report(base + static_cast<double>(confirmed), base + static_cast<double>(total),
                 "confirmed " + std::to_string(confirmed) + " of " + std::to_string(total) +
                     " external changes");
  };
}

core::CallResult dispatch(const Tool& tool, const ToolArguments& arguments, core::Session& session,
                          const core::CallOptions& options) {
  switch (tool.kind) {
    case ToolKind::ops:
      return session.run_ops(arguments.ops, options);
    case ToolKind::query:
      return core::CallResult{session.run_query(arguments.text, options.structured)};
    case ToolKind::session:
      return session.run_session(arguments.text, options);
    case ToolKind::help:
      return core::CallResult{core::ToolReply{session.help(), false, {}}};
    case ToolKind::fixture:
      break;
  }
  return {};
}

}  // namespace

void ClientConnection::on_tools_call(const jsonrpc::Incoming& message, const Reply& reply) {
  const auto& params = message.params;
  const auto* name = params.if_contains("name");
  if (name == nullptr || !name->is_string()) {
    return reply->error(jsonrpc::code::invalid_params, "tools/call needs \"name\"");
  }
  const Tool* tool = server_.find_tool(name->as_string());
  if (tool == nullptr) {
    return reply->error(jsonrpc::code::invalid_params,
                        "unknown tool \"" + std::string(name->as_string()) + "\"; see tools/list");
  }
  if (tool->kind == ToolKind::fixture && fixtures_)
    return fixtures_->call_tool(*tool, params, reply, log_level_.load());
  json::object no_arguments;
  const json::object* arguments = &no_arguments;
  if (const auto* given = params.if_contains("arguments")) {
    if (!given->is_object()) {
      return reply->error(jsonrpc::code::invalid_params, "\"arguments\" must be an object");
    }
    arguments = &given->as_object();
  }
  auto checked = read_arguments(*tool, *arguments);
  if (!checked) {
    core::ReplyText text;
    text.add_error(checked.error());
    return reply->result(tool_result(core::ToolReply{text.str(), true, {}}));
  }
  json::value token;
  if (const auto* meta = params.if_contains("_meta"); meta != nullptr && meta->is_object()) {
    if (const auto* t = meta->as_object().if_contains("progressToken")) token = *t;
  }
  if (revoked_) {
    return reply->result(tool_result(core::ToolReply{
        "! session was taken over by another client after this connection was idle; "
        "reconnect to continue",
        true,
        {}}));
  }
  auto slot = server_.principal_limits().begin_call(session_->principal());
  if (!slot) {
    core::ReplyText text;
    text.add_error(slot.error());
    return reply->result(tool_result(core::ToolReply{text.str(), true, {}}));
  }
  auto flight = track(message.id);
  flight->slot = std::move(*slot);
  // A client that leaves mid-call (an HTTP POST whose socket closed) cancels it like
  // notifications/cancelled: the batch stops at its next op and is rolled back.
  reply->when_gone([flight] { flight->cancelled = true; });
  auto call = std::make_shared<ToolCall>(ToolCall{tool, std::move(*checked), token, reply, flight});
  if (tool->kind == ToolKind::help) {
    session_->submit([self = shared_from_this(), call](const ClientSession::Done& done) {
      self->route_tool(call, done);
    });
    return;
  }
  // In turn on this connection, then within the client's share of the call threads: a call
  // over the share waits (its connection's queue with it) without holding a thread.
  session_->submit([self = shared_from_this(), call](const ClientSession::Done& done) {
    auto session = self->session_;
    self->server_.shares().run(
        client_key(session->principal(), self->info_.peer, self->info_.client_address),
        [self, call, done](const ClientShares::Release& release) {
          self->route_tool(call, [done, release] {
            release();
            done();
          });
        },
        [session](std::function<void()> work) { session->post(std::move(work)); });
  });
}

void ClientConnection::run_tool(const ToolCall& call, const CallTarget& given,
                                const ClientSession::Done& done) {
  const Tool& tool = *call.tool;
  CallTarget target = given;
  if (call.flight->cancelled) {
    untrack(call.reply->id());
    call.flight->slot.reset();
    call.reply->none();
    return done();
  }
  if (target.document && (tool.kind == ToolKind::ops || tool.kind == ToolKind::session)) {
    // The owner's journal budget is checked before the call runs: a refused call changes nothing.
    const auto* ops = tool.kind == ToolKind::ops ? &call.arguments.ops : nullptr;
    if (auto reserved =
            server_.documents().reserve_journal(*target.document, ops, call.arguments.text);
        !reserved) {
      refuse(call, reserved.error());
      return done();
    }
  }
  if (target.document && (tool.kind == ToolKind::ops || tool.kind == ToolKind::session))
    target.before = target.session->fingerprint();
  const auto started = std::chrono::steady_clock::now();
  core::Session& session = *target.session;
  const auto progress = make_progress(call.progress_token, call.reply);
  core::CallOptions options{ops_progress(progress), &call.flight->cancelled, structured_output()};
  try {
    // What stops the call deep inside an op (a layout's Graphviz worker is killed): its
    // cancellation and its kind's time limit. The batch loop checks both between ops itself.
    const auto limit = server_.options().time_limit(tool.kind);
    const core::CallScope scope(&call.flight->cancelled, limit.duration, limit.setting);
    auto result = dispatch(tool, call.arguments, session, options);
    if (!result.pending) {
      if (logs(kDebug)) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - started);
        log(call.reply, kDebug, tool.name + " took " + std::to_string(elapsed.count()) + " µs");
      }
      complete(call, target, std::move(result.reply));
      return done();
    }
    auto change = std::make_shared<core::PendingChange>(std::move(*result.pending));
    core::EffectExecutor* executor = session.effect_executor();
    if (executor == nullptr) {
      complete(call, target,
               session.fail(std::move(*change), core::make_error("no external system")));
      return done();
    }
    auto effects = change->effects;
    auto self = shared_from_this();
    executor->deliver(
        std::move(effects), delivery_progress(progress),
        // Moves everything it holds into the posted work: the executor's thread may destroy this
        // callback after the daemon (or a test) has torn the connection down, so it must not
        // hold the last reference to the connection.
        [self, call = call, target = target, change, done = done,
         progress = progress](const core::Result<void>& delivered) mutable {
          progress.reset();
          auto queue = target.queue;
          queue->post([self = std::move(self), call = std::move(call), target = std::move(target),
                       change = std::move(change), done = std::move(done), delivered] {
            auto outcome = delivered ? target.session->confirm(std::move(*change))
                                     : target.session->fail(std::move(*change), delivered.error());
            self->complete(call, target, std::move(outcome));
            done();
          });
        });
  } catch (const std::exception& e) {
    spdlog::error("bug: {} raised an exception: {}", tool.name, e.what());
    log(call.reply, kError, tool.name + ": internal error: " + e.what());
    complete(call, target,
             core::ToolReply{"! internal error in " + tool.name + ": " + e.what() +
                                 " (this is a bug in fcpd; the document was left as it was "
                                 "before the call)",
                             true,
                             {}});
    done();
  }
}

void ClientConnection::complete(const ToolCall& call, const CallTarget& target,
                                core::ToolReply result) {
  if (target.settle) target.settle(result);
  // After settle: a closed document keeps what list last showed, for "was closed" errors.
  if (target.document && !target.document->closed()) {
    const auto kind = call.tool->kind;
    // What the call changed goes to the document's journal before the reply is sent.
    if (!result.is_error && (kind == ToolKind::ops || kind == ToolKind::session)) {
      const auto* ops = kind == ToolKind::ops ? &call.arguments.ops : nullptr;
      if (auto warning = server_.documents().journal(*target.document, ops, call.arguments.text)) {
        result.text += "\n" + *warning;
      }
    }
    server_.documents().settle_journal(*target.document);
    target.document->refresh(kind == ToolKind::ops || kind == ToolKind::session);
    // Subscribers hear of a call that changed the document (not of a query, a failed batch or
    // one that changed nothing), before the caller's reply goes out.
    if (target.before && changed_content(*target.before, target.session->fingerprint())) {
      target.document->advance_revision();
      server_.subscriptions().updated(*target.document);
    }
  }
  finish_tool(*call.tool, result, call.reply, call.flight);
}

void ClientConnection::finish_tool(const Tool& tool, const core::ToolReply& result,
                                   const Reply& reply, const std::shared_ptr<InFlight>& flight) {
  untrack(reply->id());
  // The principal's count drops before the reply goes out: a client that sends its next call on
  // reading this reply finds the slot free.
  flight->slot.reset();
  if (flight->cancelled) {
    spdlog::debug("{}: cancelled call finished; no reply sent", tool.name);
    return reply->none();
  }
  if (result.is_error) {
    log(reply, kWarning, tool.name + ": " + result.text.substr(0, result.text.find('\n')));
  }
  reply->result(tool_result(result, structured_output()));
}

}  // namespace fcp::mcp
