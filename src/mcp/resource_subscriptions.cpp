#include "mcp/resource_subscriptions.hpp"

#include <utility>
#include <vector>

#include "mcp/document_resources.hpp"
#include "mcp/jsonrpc.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kSubscriptionId = "io.modelcontextprotocol/subscriptionId";

}  // namespace

ResourceSubscriptions::Id ResourceSubscriptions::add(std::string principal, Send send,
                                                     json::value subscription_id, bool list_changed,
                                                     End end) {
  std::lock_guard lock(mutex_);
  const Id id = next_++;
  listeners_.emplace(id, Listener{std::move(principal),
                                  std::move(send),
                                  std::move(subscription_id),
                                  list_changed,
                                  {},
                                  std::move(end)});
  return id;
}

std::size_t ResourceSubscriptions::end_streams(std::string_view reason) {
  std::vector<std::pair<Id, End>> ends;
  {
    std::lock_guard lock(mutex_);
    for (auto it = listeners_.begin(); it != listeners_.end();) {
      if (it->second.end) {
        ends.emplace_back(it->first, std::move(it->second.end));
        it = listeners_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& [id, end] : ends)
    end(id, reason);
  return ends.size();
}

void ResourceSubscriptions::remove(Id id) {
  std::lock_guard lock(mutex_);
  listeners_.erase(id);
}

void ResourceSubscriptions::hear_list_changes(Id id) {
  std::lock_guard lock(mutex_);
  if (auto it = listeners_.find(id); it != listeners_.end()) it->second.list_changed = true;
}

void ResourceSubscriptions::subscribe(Id id, std::string uri) {
  std::lock_guard lock(mutex_);
  if (auto it = listeners_.find(id); it != listeners_.end()) it->second.uris.insert(std::move(uri));
}

void ResourceSubscriptions::unsubscribe(Id id, std::string_view uri) {
  std::lock_guard lock(mutex_);
  if (auto it = listeners_.find(id); it != listeners_.end()) {
    if (auto found = it->second.uris.find(uri); found != it->second.uris.end())
      it->second.uris.erase(found);
  }
}

std::string ResourceSubscriptions::message(std::string_view method, json::object params,
                                           const json::value& subscription_id) {
  if (!subscription_id.is_null()) {
    auto* meta = params.if_contains("_meta");
    if (meta == nullptr) meta = &(params["_meta"] = json::object{});
    meta->as_object()[kSubscriptionId] = subscription_id;
  }
  return jsonrpc::notification(method, params);
}

void ResourceSubscriptions::updated(const StoredDocument& document) {
  notify_updated(document, false);
}

void ResourceSubscriptions::closed(const StoredDocument& document) {
  notify_updated(document, true);
}

void ResourceSubscriptions::notify_updated(const StoredDocument& document, bool closed) {
  std::vector<std::string> uris{document_uri(document.domain(), document.handle())};
  for (const auto& form : document.domain().resource_forms())
    uris.push_back(document_uri(document.domain(), document.handle(), form.suffix));
  // The close is the document's last change: it gets the next revision, so a client that skips
  // the notifications a read already covers (their revision <= the read's) never skips it.
  json::object meta{{resource_meta::revision, document.revision() + (closed ? 1 : 0)}};
  if (closed) meta[resource_meta::closed] = true;
  std::vector<std::pair<Send, std::string>> out;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, listener] : listeners_) {
      if (listener.principal != document.owner()) continue;
      for (const auto& uri : uris) {
        auto found = listener.uris.find(uri);
        if (found == listener.uris.end()) continue;
        out.emplace_back(listener.send, message("notifications/resources/updated",
                                                json::object{{"uri", uri}, {"_meta", meta}},
                                                listener.subscription_id));
        if (closed) listener.uris.erase(found);
      }
    }
  }
  for (auto& [send, text] : out)
    send(std::move(text));
}

void ResourceSubscriptions::list_changed(const std::string& owner) {
  std::vector<std::pair<Send, std::string>> out;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, listener] : listeners_) {
      if (listener.principal != owner || !listener.list_changed) continue;
      out.emplace_back(listener.send, message("notifications/resources/list_changed", {},
                                              listener.subscription_id));
    }
  }
  for (auto& [send, text] : out)
    send(std::move(text));
}

}  // namespace fcp::mcp
