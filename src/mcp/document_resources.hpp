// Open documents as MCP resources: fcp://DOMAIN/doc/HANDLE is the document's file as save would
// write it, and HANDLE followed by a form's suffix (Domain::resource_forms: drawio ".svg", midi
// ".wav") that rendering of it. Only the document's owner reaches it (DocumentStore::find).
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain.hpp"
#include "mcp/document_store.hpp"

namespace fcp::mcp {

// fcpd's `_meta` keys on document resources.
namespace resource_meta {
// resources/read results and notifications/resources/updated: the document's revision
// (StoredDocument::revision), an integer.
inline constexpr std::string_view revision = "fcp/revision";
// notifications/resources/updated: true when the document was closed.
inline constexpr std::string_view closed = "fcp/closed";
// notifications/subscriptions/acknowledged: the requested resourceSubscriptions not honored,
// each {"uri", "reason"}.
inline constexpr std::string_view not_honored = "fcp/notHonored";
}  // namespace resource_meta

// fcp://DOMAIN/doc/HANDLE plus `suffix`.
std::string document_uri(const core::Domain& domain, std::string_view handle,
                         std::string_view suffix = {});

// What a document URI names: the domain, the handle (not checked yet) and the form's suffix
// (empty: the file).
struct DocumentUri {
  const core::Domain* domain = nullptr;
  std::string handle;
  std::string suffix;
  bool known_form = true;
};
// Why `named` (known_form false) names nothing: the forms its domain has.
std::string unknown_form_message(const DocumentUri& named);
// nullopt when `uri` is no fcp://DOMAIN/doc/… of a hosted domain. A suffix that is none of the
// domain's forms (HANDLE.png) is kept in `suffix` with `known_form` false.
std::optional<DocumentUri> parse_document_uri(std::string_view uri,
                                              const std::vector<const core::Domain*>& domains);

// The resources/templates/list entries: each domain's document and its forms.
boost::json::array document_resource_templates(const std::vector<const core::Domain*>& domains);
// The resources/list entry of one open document.
boost::json::object document_resource(const StoredDocument& document);
// One entry of a resources/read result: text for UTF-8 text types (XML, JSON, SVG), else a
// Base64 blob.
boost::json::object resource_contents(std::string_view uri, const core::Attachment& content);

}  // namespace fcp::mcp
