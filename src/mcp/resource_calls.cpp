// Subscriptions to document resources: resources/subscribe and resources/unsubscribe in
// 2025-era sessions, subscriptions/listen streams in the stateless 2026-07-28 revision.

#include <set>

#include "mcp/client_connection.hpp"
#include "mcp/server.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kSubscriptionId = "io.modelcontextprotocol/subscriptionId";

}  // namespace

core::Result<std::shared_ptr<StoredDocument>> ClientConnection::subscribable(
    std::string_view uri) const {
  auto named = parse_document_uri(uri, server_.domains());
  if (!named) {
    return core::make_error("\"" + std::string(uri) +
                            "\" takes no subscriptions: only open documents do "
                            "(fcp://DOMAIN/doc/HANDLE, resources/list names yours)");
  }
  auto found = server_.documents().find(named->handle, session_->principal(), *named->domain);
  if (found && !named->known_form) return core::make_error(unknown_form_message(*named));
  return found;
}

void ClientConnection::on_resources_subscribe(const jsonrpc::Incoming& message,
                                              const Reply& reply) {
  const auto* uri = message.params.if_contains("uri");
  if (uri == nullptr || !uri->is_string())
    return reply->error(jsonrpc::code::invalid_params, message.method + " needs \"uri\"");
  const std::string text(uri->as_string());
  ResourceSubscriptions::Id listener = 0;
  {
    std::lock_guard lock(mutex_);
    listener = session_listener_;
  }
  if (message.method == "resources/unsubscribe") {
    server_.subscriptions().unsubscribe(listener, text);
    return reply->result(json::object{});
  }
  if (!parse_document_uri(text, server_.domains()))
    return reply->error(jsonrpc::code::invalid_params, subscribable(text).error().message);
  auto found = subscribable(text);
  if (!found) {
    return reply->error(jsonrpc::code::resource_not_found,
                        "resource not found: \"" + text + "\": " + found.error().message,
                        json::object{{"uri", text}});
  }
  if (listener == 0) {
    return reply->error(jsonrpc::code::internal_error,
                        "this transport carries no notifications outside replies");
  }
  server_.subscriptions().subscribe(listener, text);
  server_.subscriptions().hear_list_changes(listener);
  reply->result(json::object{});
}

void ClientConnection::on_subscriptions_listen(const jsonrpc::Incoming& message,
                                               const Reply& reply) {
  const auto* filter = message.params.if_contains("notifications");
  if (filter == nullptr || !filter->is_object()) {
    return reply->error(jsonrpc::code::invalid_params,
                        "subscriptions/listen needs \"notifications\": {\"resourceSubscriptions\": "
                        "[URI…], \"resourcesListChanged\": true}");
  }
  // What this stream honors: subscriptions to the caller's open documents (each URI once), and
  // list changes. Tools and prompts never change while fcpd runs, so those are not agreed to.
  // The URIs it does not honor are named in the acknowledgement's _meta with the reason.
  json::array accepted;
  json::array refused;
  std::set<std::string, std::less<>> seen;
  if (const auto* uris = filter->as_object().if_contains("resourceSubscriptions");
      uris != nullptr && uris->is_array()) {
    for (const auto& uri : uris->as_array()) {
      if (!uri.is_string()) {
        refused.push_back(json::object{{"uri", uri}, {"reason", "not a URI string"}});
        continue;
      }
      if (!seen.emplace(uri.as_string()).second) continue;
      if (auto found = subscribable(uri.as_string()); found) {
        accepted.push_back(uri);
      } else {
        refused.push_back(json::object{{"uri", uri}, {"reason", found.error().message}});
      }
    }
  }
  const auto* asked_list = filter->as_object().if_contains("resourcesListChanged");
  const bool list_changed = asked_list != nullptr && asked_list->is_bool() && asked_list->as_bool();
  json::object agreed{{"resourceSubscriptions", accepted}};
  if (list_changed) agreed["resourcesListChanged"] = true;
  // The stream is registered before its acknowledgement (a client may cancel it as soon as it
  // reads that), but hears nothing until the acknowledgement is out: it subscribes after it.
  auto& hub = server_.subscriptions();
  std::weak_ptr<ClientConnection> weak = shared_from_this();
  const auto id = hub.add(
      session_->principal(), [reply](std::string text) { reply->notify(std::move(text)); },
      message.id, false,
      [weak](ResourceSubscriptions::Id ended, std::string_view reason) {
        if (auto self = weak.lock()) self->end_listen(ended, ListenEnd::by_server, reason);
      });
  {
    std::lock_guard lock(mutex_);
    listens_.emplace(id, reply);
  }
  json::object ack_meta{{kSubscriptionId, message.id}};
  if (!refused.empty()) ack_meta[resource_meta::not_honored] = std::move(refused);
  reply->open_stream();
  reply->notify(jsonrpc::notification(
      "notifications/subscriptions/acknowledged",
      json::object{{"notifications", std::move(agreed)}, {"_meta", std::move(ack_meta)}}));
  for (const auto& uri : accepted)
    hub.subscribe(id, std::string(uri.as_string()));
  if (list_changed) hub.hear_list_changes(id);
  // The stream ends when the client cancels it (stdio, TCP: notifications/cancelled naming the
  // request), leaves (HTTP: its POST closed) or the connection closes; or when the server tears
  // it down (shutdown, the end of stdin).
  reply->when_gone([weak, id] {
    if (auto self = weak.lock()) self->end_listen(id, ListenEnd::by_client);
  });
}

ResourceSubscriptions::Id ClientConnection::listen_of(const std::string& request_id) const {
  std::lock_guard lock(mutex_);
  for (const auto& [id, reply] : listens_)
    if (json::serialize(reply->id()) == request_id) return id;
  return 0;
}

void ClientConnection::input_ended() {
  std::vector<ResourceSubscriptions::Id> listens;
  {
    std::lock_guard lock(mutex_);
    for (const auto& entry : listens_)
      listens.push_back(entry.first);
  }
  for (const auto id : listens)
    end_listen(id, ListenEnd::by_server, "the client's input ended");
}

void ClientConnection::end_listen(ResourceSubscriptions::Id id, ListenEnd how,
                                  std::string_view reason) {
  subscriptions_->remove(id);
  Reply reply;
  {
    std::lock_guard lock(mutex_);
    auto it = listens_.find(id);
    if (it == listens_.end()) return;
    reply = it->second;
    listens_.erase(it);
  }
  if (how == ListenEnd::by_server) return reply->end_stream(reason);
  reply->none();
}

}  // namespace fcp::mcp
