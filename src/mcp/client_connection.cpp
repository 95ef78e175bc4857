#include "mcp/client_connection.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <chrono>

#include "mcp/document_resources.hpp"
#include "mcp/server.hpp"
#include "mcp/utf8.hpp"

namespace fcp::mcp {

namespace json = boost::json;

namespace {

// How long initialize waits for a named session another connection still holds: 20 × 50 ms.
constexpr int kAttachRetries = 20;
constexpr std::chrono::milliseconds kAttachPause{50};

// MCP log levels (RFC 5424 names), lowest first.
constexpr std::string_view kLevels[] = {"debug", "info",     "notice", "warning",
                                        "error", "critical", "alert",  "emergency"};

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int level_index(std::string_view name) {
  for (int i = 0; i < 8; ++i) {
    if (kLevels[i] == name) return i;
  }
  return -1;
}

}  // namespace

ReplyOnce::~ReplyOnce() {
  if (claim()) {
    send_error(jsonrpc::error(id_, jsonrpc::code::internal_error,
                              "internal error: the request was dropped without an answer"),
               jsonrpc::code::internal_error);
  }
}

void ReplyOnce::result(const json::value& value) {
  if (!claim()) return;
  if (!stateless_) return responder_->reply(jsonrpc::result(id_, value));
  responder_->reply_with_status(jsonrpc::result(id_, lifecycle::shape_result(value, hint_)), 200);
}

void ReplyOnce::error(int code, std::string_view message, json::value data) {
  if (stateless_) code = lifecycle::stateless_error_code(code);
  if (claim()) send_error(jsonrpc::error(id_, code, message, std::move(data)), code);
}

void ReplyOnce::send_error(std::string message, int code) {
  if (!stateless_) return responder_->reply(std::move(message));
  responder_->reply_with_status(std::move(message), jsonrpc::http_status_of(code));
}

void ReplyOnce::none() {
  if (claim()) responder_->no_reply();
}

void ReplyOnce::end_stream(std::string_view reason) {
  if (!claim()) return;
  responder_->end_stream(jsonrpc::notification(
      "notifications/cancelled", json::object{{"requestId", id_}, {"reason", reason}}));
}

void ReplyOnce::notify(std::string message) {
  if (!answered_.load()) responder_->notify(std::move(message));
}

ClientConnection::ClientConnection(Server& server, ConnectionInfo info,
                                   std::shared_ptr<Outbound> outbound)
    : server_(server),
      info_(std::move(info)),
      outbound_(std::move(outbound)),
      registry_(server_.shared_registry()),
      subscriptions_(server_.shared_subscriptions()),
      fixtures_(server_.options().conformance_fixtures
                    ? std::make_shared<ConformanceFixtures>(server_.executor())
                    : nullptr) {
  if (info_.principal) {
    principal_ = *info_.principal;
    authenticated_ = true;
  } else if (!server_.requires_token()) {
    principal_ = std::string(kLocalPrincipal);
    authenticated_ = true;
  }
  spdlog::debug("{} client {} connected", info_.transport, info_.peer);
}

bool ClientConnection::authenticate(const jsonrpc::Incoming& message) {
  const json::value* token = nullptr;
  if (message.method == "initialize") {
    if (const auto* fcp = message.params.if_contains("fcp"); fcp != nullptr && fcp->is_object())
      token = fcp->as_object().if_contains("token");
  }
  if (token == nullptr) {
    if (const auto* meta = message.params.if_contains("_meta");
        meta != nullptr && meta->is_object())
      token = meta->as_object().if_contains("fcp/token");
  }
  if (token == nullptr || !token->is_string()) return false;
  auto principal = server_.principal_for_token(token->as_string());
  if (!principal) return false;
  {
    std::lock_guard lock(mutex_);
    principal_ = std::move(*principal);
  }
  authenticated_ = true;
  spdlog::info("{} client {} authenticated as \"{}\"", info_.transport, info_.peer, principal_);
  return true;
}

void ClientConnection::refuse_unauthenticated(const jsonrpc::Incoming* message,
                                              const json::value& id,
                                              const std::shared_ptr<Responder>& responder) {
  bool token_given = false;
  if (message != nullptr) {
    const auto* fcp = message->params.if_contains("fcp");
    const auto* meta = message->params.if_contains("_meta");
    token_given = (fcp != nullptr && fcp->is_object() && fcp->as_object().contains("token")) ||
                  (meta != nullptr && meta->is_object() && meta->as_object().contains("fcp/token"));
  }
  spdlog::warn("{} client {}: {}; closing the connection", info_.transport, info_.peer,
               token_given ? "wrong token" : "no token before its first message");
  const std::string text =
      token_given
          ? "unauthorized: the token is not valid; check FCPD_TOKEN or the token file "
            "(closing the connection)"
          : "unauthorized: this daemon needs a token before anything else: send it in the "
            "initialize params as \"fcp\": {\"token\": \"…\"} (the fcp CLI sends $FCPD_TOKEN "
            "or --token-file FILE) (closing the connection)";
  responder->reply_and_close(jsonrpc::error(id, jsonrpc::code::unauthorized, text));
}

ClientConnection::~ClientConnection() {
  close();
}

void ClientConnection::handle_oversized(std::size_t size, std::shared_ptr<Responder> responder) {
  spdlog::warn("{} client {}: refused a {}-byte message", info_.transport, info_.peer, size);
  responder->reply(jsonrpc::error(
      nullptr, jsonrpc::code::invalid_request,
      "message of " + std::to_string(size) + " bytes is larger than the limit; nothing was done"));
}

void ClientConnection::handle(std::string_view text, std::shared_ptr<Responder> responder) {
  last_activity_ms_ = now_ms();
  auto parsed = jsonrpc::parse(text);
  if (auto* rejection = std::get_if<jsonrpc::Rejection>(&parsed)) {
    if (!authenticated_) return refuse_unauthenticated(nullptr, rejection->id, responder);
    responder->reply(jsonrpc::error(rejection->id, rejection->code, rejection->message));
    return;
  }
  auto& message = std::get<jsonrpc::Incoming>(parsed);
  if (!authenticated_ && !authenticate(message))
    return refuse_unauthenticated(&message, message.id, responder);
  switch (message.kind) {
    case jsonrpc::Incoming::Kind::response:
      // Only the conformance fixtures send requests to the client (sampling, elicitation).
      if (fixtures_) fixtures_->on_response(message);
      responder->no_reply();
      return;
    case jsonrpc::Incoming::Kind::notification:
      on_notification(message);
      responder->no_reply();
      return;
    case jsonrpc::Incoming::Kind::request:
      break;
  }
  auto reply = std::make_shared<ReplyOnce>(std::move(responder), message.id);
  try {
    if (lifecycle::era_of(message, reply->headers(), initialized()) == lifecycle::Era::stateless)
      return on_stateless_request(message, reply);
    on_request(message, reply);
  } catch (const std::exception& e) {
    spdlog::error("bug: {} failed: {}", message.method, e.what());
    reply->error(jsonrpc::code::internal_error, "internal error: " + std::string(e.what()));
  }
}

void ClientConnection::on_request(const jsonrpc::Incoming& message, const Reply& reply) {
  const auto& method = message.method;
  if (method == "ping") return reply->result(json::object{});
  if (method == "initialize") return on_initialize(message.params, reply);
  if (!initialized()) {
    return reply->error(jsonrpc::code::invalid_request,
                        "not initialized: send \"initialize\" before \"" + method + "\"");
  }
  if (method == "logging/setLevel") return on_set_level(message.params, reply);
  if (fixtures_ && fixtures_->handle(method, message.params, reply)) return;
  if (serve_feature(message, reply)) return;
  reply->error(jsonrpc::code::method_not_found, "method not found: \"" + method + "\"");
}

void ClientConnection::on_notification(const jsonrpc::Incoming& message) {
  if (message.method != "notifications/cancelled") return;  // initialized, progress, …
  const auto* id = message.params.if_contains("requestId");
  if (id == nullptr) return;
  // On stdio and TCP a client ends its subscriptions/listen stream this way (HTTP: it closes it).
  if (const auto listen = listen_of(json::serialize(*id)); listen != 0) {
    spdlog::debug("{} client {}: listen {} cancelled", info_.transport, info_.peer,
                  json::serialize(*id));
    return end_listen(listen, ListenEnd::by_client);
  }
  std::lock_guard lock(mutex_);
  if (auto it = in_flight_.find(json::serialize(*id)); it != in_flight_.end()) {
    it->second->cancelled = true;
    spdlog::info("{} client {}: request {} cancelled", info_.transport, info_.peer,
                 json::serialize(*id));
  }
}

void ClientConnection::on_initialize(const json::object& params, const Reply& reply) {
  if (initialized()) {
    return reply->error(jsonrpc::code::invalid_request, "already initialized");
  }
  const auto* requested = params.if_contains("protocolVersion");
  if (requested == nullptr || !requested->is_string()) {
    return reply->error(jsonrpc::code::invalid_params, "initialize needs \"protocolVersion\"");
  }
  std::string version(requested->as_string());
  if (fixtures_) fixtures_->on_initialize(params);
  if (!is_supported_protocol_version(version)) version = std::string(kSupportedProtocolVersions[0]);

  std::optional<std::string> name = info_.session_name;
  if (const auto* fcp = params.if_contains("fcp"); fcp != nullptr && fcp->is_object()) {
    if (const auto* s = fcp->as_object().if_contains("session"); s != nullptr && s->is_string())
      name = std::string(s->as_string());
  }
  std::string principal;
  {
    std::lock_guard lock(mutex_);
    principal = principal_;
  }
  if (name && !name->empty()) return attach_named(version, *name, principal, reply, kAttachRetries);
  finish_initialize(version, server_.make_session("", principal), reply);
}

void ClientConnection::attach_named(const std::string& version, const std::string& name,
                                    const std::string& principal, const Reply& reply, int retries) {
  auto attached = server_.registry().attach(
      principal, name,
      [this, &principal](const std::string& n) { return server_.make_session(n, principal); },
      std::weak_ptr<SessionHolder>(shared_from_this()));
  if (!attached && retries > 0 && server_.registry().busy(principal, name)) {
    auto timer = std::make_shared<boost::asio::steady_timer>(server_.executor(), kAttachPause);
    timer->async_wait([self = shared_from_this(), timer, version, name, principal, reply,
                       retries](const boost::system::error_code& error) {
      if (error || self->closed_.load()) return;
      self->attach_named(version, name, principal, reply, retries - 1);
    });
    return;
  }
  if (!attached) return reply->error(jsonrpc::code::invalid_params, attached.error().message);
  finish_initialize(version, *attached, reply);
}

void ClientConnection::finish_initialize(const std::string& version,
                                         std::shared_ptr<ClientSession> session,
                                         const Reply& reply) {
  const std::string principal = session->principal();
  {
    std::lock_guard lock(mutex_);
    protocol_version_ = version;
    session_ = std::move(session);
  }
  // Resource notifications (resources/updated of subscribed documents; list_changed once the
  // client listed or subscribed to resources, so that tool-only clients hear nothing) go out
  // beside the replies: stdio and TCP on the connection, HTTP on the session's GET stream.
  if (outbound_) {
    std::weak_ptr<Outbound> outbound = outbound_;
    const auto listener = server_.subscriptions().add(
        principal,
        [outbound](std::string text) {
          if (auto out = outbound.lock()) out->send(std::move(text));
        },
        nullptr, false);
    std::lock_guard lock(mutex_);
    session_listener_ = listener;
  }
  initialized_ = true;
  reply->result(json::object{{"protocolVersion", version},
                             {"capabilities", capabilities()},
                             {"serverInfo", json::object{{"name", server_.options().name},
                                                         {"title", "FCP daemon"},
                                                         {"version", server_.options().version}}},
                             {"instructions", server_.instructions()}});
}

bool ClientConnection::structured_output() const {
  if (!initialized()) return true;  // stateless: 2026-07-28
  std::lock_guard lock(mutex_);
  // Versions are dates: they order as strings.
  return protocol_version_ >= kFirstStructuredProtocolVersion;
}

bool ClientConnection::set_log_level(std::string_view name) {
  const int index = level_index(name);
  if (index < 0) return false;
  log_level_ = index;
  return true;
}

void ClientConnection::on_set_level(const json::object& params, const Reply& reply) {
  const auto* level = params.if_contains("level");
  if (level == nullptr || !level->is_string() || !set_log_level(level->as_string())) {
    return reply->error(jsonrpc::code::invalid_params,
                        "\"level\" must be one of debug, info, notice, warning, error, critical, "
                        "alert, emergency");
  }
  reply->result(json::object{});
}

void ClientConnection::on_prompts_get(const json::object& params, const Reply& reply) {
  const auto* name = params.if_contains("name");
  if (name == nullptr || !name->is_string()) {
    return reply->error(jsonrpc::code::invalid_params, "prompts/get needs \"name\"");
  }
  std::map<std::string, std::string> arguments;
  if (const auto* given = params.if_contains("arguments"); given != nullptr && given->is_object()) {
    for (const auto& [key, value] : given->as_object()) {
      if (value.is_string()) arguments[std::string(key)] = std::string(value.as_string());
    }
  }
  for (const auto* domain : server_.domains()) {
    for (const auto& prompt : domain->prompts()) {
      if (prompt.name != name->as_string()) continue;
      for (const auto& argument : prompt.arguments) {
        if (argument.required && !arguments.contains(argument.name)) {
          return reply->error(
              jsonrpc::code::invalid_params,
              "prompt \"" + prompt.name + "\" needs the argument \"" + argument.name + "\"");
        }
      }
      return reply->result(json::object{
          {"description", prompt.description},
          {"messages",
           json::array{json::object{
               {"role", "user"},
               {"content", json::object{{"type", "text"},
                                        {"text", to_valid_utf8(prompt.render(arguments))}}}}}}});
    }
  }
  reply->error(jsonrpc::code::invalid_params, "unknown prompt \"" + std::string(name->as_string()) +
                                                  "\" (prompts/list names them)");
}

void ClientConnection::on_resources_read(const json::object& params, const Reply& reply) {
  const auto* uri = params.if_contains("uri");
  if (uri == nullptr || !uri->is_string()) {
    return reply->error(jsonrpc::code::invalid_params, "resources/read needs \"uri\"");
  }
  const std::string text(uri->as_string());
  if (auto named = parse_document_uri(text, server_.domains()))
    return read_document(*named, text, reply);
  for (const auto* domain : server_.domains()) {
    if (text != "fcp://" + std::string(domain->name()) + "/session") continue;
    auto session = session_;
    auto* store = &server_.documents();  // the server outlives its connections' calls
    session->submit([session, store, domain, reply, text](const ClientSession::Done& done) {
      const auto answer = [reply, text](const std::string& content) {
        reply->result(json::object{
            {"contents",
             json::array{json::object{
                 {"uri", text}, {"mimeType", "text/plain"}, {"text", to_valid_utf8(content)}}}}});
      };
      auto document = session->current(*domain);
      if (!document || document->closed()) {
        answer(resource_without_document(*store, *session, *domain));
        return done();
      }
      document->queue()->submit(
          [document, store, reply, answer, done](const ClientSession::Done& finished) {
            // An idle document evicted to its journal comes back first, as for a tool call.
            if (auto loaded = store->load(*document); !loaded) {
              reply->error(jsonrpc::code::internal_error,
                           "cannot reload " + document->handle() +
                               " from its journal: " + loaded.error().message);
            } else {
              answer(document->session().resource_text());
            }
            finished();
            done();
          });
    });
    return;
  }
  reply->error(jsonrpc::code::resource_not_found, "resource not found: \"" + text + "\"",
               json::object{{"uri", text}});
}

void ClientConnection::read_document(const DocumentUri& named, const std::string& uri,
                                     const Reply& reply) {
  auto& store = server_.documents();
  auto found = store.find(named.handle, session_->principal(), *named.domain);
  if (!found) {
    std::string message = "resource not found: \"" + uri + "\": " + found.error().message;
    if (!found.error().hints.empty()) message += " (try: " + found.error().hints.front() + ")";
    return reply->error(jsonrpc::code::resource_not_found, message, json::object{{"uri", uri}});
  }
  if (!named.known_form) {
    return reply->error(jsonrpc::code::resource_not_found,
                        "resource not found: \"" + uri + "\": " + unknown_form_message(named),
                        json::object{{"uri", uri}});
  }
  auto document = *found;
  auto* documents = &store;  // the server outlives its connections' calls
  document->queue()->submit([document, documents, named, uri,
                             reply](const ClientSession::Done& done) {
    if (document->closed()) {
      reply->error(
          jsonrpc::code::resource_not_found,
          "resource not found: \"" + uri + "\": the document " + document->handle() + " was closed",
          json::object{{"uri", uri}});
      return done();
    }
    // An idle document evicted to its journal comes back first, as for a tool call.
    if (auto loaded = documents->load(*document); !loaded) {
      reply->error(
          jsonrpc::code::internal_error,
          "cannot reload " + document->handle() + " from its journal: " + loaded.error().message);
      return done();
    }
    auto& session = document->session();
    auto content =
        named.suffix.empty() ? session.file_resource() : session.resource_form(named.suffix);
    if (!content) {
      std::string message = "cannot read \"" + uri + "\": " + content.error().message;
      for (const auto& hint : content.error().hints)
        message += " (try: " + hint + ")";
      reply->error(jsonrpc::code::internal_error, message, json::object{{"uri", uri}});
      return done();
    }
    // The revision its notifications/resources/updated carry: a watcher matches the two.
    reply->result(
        json::object{{"contents", json::array{resource_contents(uri, *content)}},
                     {"_meta", json::object{{resource_meta::revision, document->revision()}}}});
    done();
  });
}

std::shared_ptr<ClientConnection::InFlight> ClientConnection::track(const json::value& id) {
  auto flight = std::make_shared<InFlight>();
  std::lock_guard lock(mutex_);
  if (in_flight_.insert_or_assign(json::serialize(id), flight).second) server_.call_started();
  return flight;
}

void ClientConnection::untrack(const json::value& id) {
  std::lock_guard lock(mutex_);
  if (in_flight_.erase(json::serialize(id)) > 0) server_.call_finished();
}

void ClientConnection::log(const Reply& reply, int level, std::string text) {
  if (!logs(level)) return;
  reply->notify(jsonrpc::notification(
      "notifications/message",
      json::object{{"level", kLevels[level]}, {"logger", "fcpd"}, {"data", std::move(text)}}));
}

bool ClientConnection::releasable() const {
  if (closed_.load()) return true;
  if (info_.transport != "http") return false;
  std::lock_guard lock(mutex_);
  return in_flight_.empty() &&
         now_ms() - last_activity_ms_.load() >= server_.options().http_takeover_idle.count();
}

void ClientConnection::close() {
  if (closed_.exchange(true)) return;
  std::shared_ptr<ClientSession> session;
  std::vector<ResourceSubscriptions::Id> listens;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, flight] : in_flight_)
      flight->cancelled = true;
    session = session_;
    if (session_listener_ != 0) subscriptions_->remove(session_listener_);
    session_listener_ = 0;
    for (const auto& entry : listens_)
      listens.push_back(entry.first);
  }
  for (const auto id : listens)
    end_listen(id, ListenEnd::by_client);
  // Outside mutex_: the registry calls releasable() (which takes mutex_) under its own lock.
  if (session && !session->name().empty())
    registry_->detach(session->principal(), session->name(), this);
  spdlog::debug("{} client {} disconnected", info_.transport, info_.peer);
}

}  // namespace fcp::mcp
