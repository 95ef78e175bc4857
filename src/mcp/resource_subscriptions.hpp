// Who is told when a document resource changes: 2025-era sessions (resources/subscribe, and
// every session hears notifications/resources/list_changed) and 2026-07-28 subscriptions/listen
// streams. A listener hears only about its own principal's documents.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "mcp/document_store.hpp"

namespace fcp::mcp {

// Thread: every method is thread-safe; a listener's send is called without the lock held, from
// the thread of the call that changed the document.
class ResourceSubscriptions {
 public:
  using Id = std::uint64_t;
  using Send = std::function<void(std::string message)>;
  // Ends the subscriptions/listen stream `id` from the server's side, giving the reason.
  using End = std::function<void(Id id, std::string_view reason)>;

  // A listener of `principal`; its notifications go to `send`. `subscription_id`: the
  // subscriptions/listen request's id, which each notification names in
  // _meta["io.modelcontextprotocol/subscriptionId"] (null: a 2025-era session, none).
  // `list_changed`: it hears notifications/resources/list_changed. `end`: how the server ends it
  // (a listen stream; empty for a 2025-era session, which ends with its connection).
  Id add(std::string principal, Send send, boost::json::value subscription_id, bool list_changed,
         End end = {});
  void remove(Id id);
  // From now on `id` hears notifications/resources/list_changed.
  void hear_list_changes(Id id);
  void subscribe(Id id, std::string uri);
  void unsubscribe(Id id, std::string_view uri);

  // After a call changed `document` (its model, not a query or a batch that changed nothing):
  // notifications/resources/updated for each URI of it (its file, its forms) a listener of its
  // owner subscribed to, each form its own subscription. _meta["fcp/revision"] is the
  // document's revision (StoredDocument::revision), as its resources/read results carry it.
  void updated(const StoredDocument& document);
  // After `document` was closed: the same notifications, with _meta["fcp/closed"] true (a read
  // now answers that it was closed) and the revision after its last change plus one (the close
  // is a change no read covers), and its URIs leave every subscription.
  void closed(const StoredDocument& document);
  // After `owner` opened or closed a document: notifications/resources/list_changed to the
  // owner's listeners that asked for it.
  void list_changed(const std::string& owner);
  // The server tears down every listen stream (shutdown): each one's `end` is called with
  // `reason`, outside the lock, and it is removed. Returns how many there were.
  std::size_t end_streams(std::string_view reason);

 private:
  struct Listener {
    std::string principal;
    Send send;
    boost::json::value subscription_id;
    bool list_changed = false;
    std::set<std::string, std::less<>> uris;
    End end;
  };
  static std::string message(std::string_view method, boost::json::object params,
                             const boost::json::value& subscription_id);
  // notifications/resources/updated of `document` to its subscribers (`closed`: it was closed,
  // and the subscriptions end).
  void notify_updated(const StoredDocument& document, bool closed);

  std::mutex mutex_;  // guards the members below
  Id next_ = 1;
  std::map<Id, Listener> listeners_;
};

}  // namespace fcp::mcp
