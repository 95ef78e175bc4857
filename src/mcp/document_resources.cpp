#include "mcp/document_resources.hpp"

#include "mcp/base64.hpp"
#include "mcp/utf8.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

constexpr std::string_view kScheme = "fcp://";
constexpr std::string_view kDocPath = "/doc/";

bool is_text_type(std::string_view mime) {
  return mime.starts_with("text/") || mime.ends_with("json") || mime.ends_with("xml") ||
         mime.ends_with("mxfile");
}

}  // namespace

std::string document_uri(const core::Domain& domain, std::string_view handle,
                         std::string_view suffix) {
  return std::string(kScheme) + std::string(domain.name()) + std::string(kDocPath) +
         std::string(handle) + std::string(suffix);
}

std::optional<DocumentUri> parse_document_uri(std::string_view uri,
                                              const std::vector<const core::Domain*>& domains) {
  if (!uri.starts_with(kScheme)) return std::nullopt;
  uri.remove_prefix(kScheme.size());
  for (const auto* domain : domains) {
    const std::string prefix = std::string(domain->name()) + std::string(kDocPath);
    if (!uri.starts_with(prefix)) continue;
    DocumentUri named{domain, std::string(uri.substr(prefix.size())), {}};
    for (const auto& form : domain->resource_forms()) {
      if (named.handle.size() > form.suffix.size() && named.handle.ends_with(form.suffix)) {
        named.handle.resize(named.handle.size() - form.suffix.size());
        named.suffix = form.suffix;
        break;
      }
    }
    // Handles have no dot: what follows one is a form this domain does not have.
    if (const auto dot = named.handle.find('.'); named.suffix.empty() && dot != std::string::npos) {
      named.suffix = named.handle.substr(dot);
      named.handle.resize(dot);
      named.known_form = false;
    }
    return named;
  }
  return std::nullopt;
}

std::string unknown_form_message(const DocumentUri& named) {
  const std::string name(named.domain->name());
  const auto base = document_uri(*named.domain, named.handle);
  std::string text = "a " + name + " document has no \"" + named.suffix + "\" form; it has " +
                     base + " (its file)";
  for (const auto& form : named.domain->resource_forms())
    text += " and " + base + form.suffix + " (" + form.title + ")";
  return text;
}

json::array document_resource_templates(const std::vector<const core::Domain*>& domains) {
  json::array templates;
  for (const auto* domain : domains) {
    const std::string name(domain->name());
    std::string description = "An open " + name +
                              " document by its handle (new and open answer it; " + name +
                              "_session list names them): its file as save would write it now, "
                              "without writing it. A subscription to it tells of every change "
                              "and of its close";
    if (!domain->resource_forms().empty())
      description += "; each form (HANDLE.FORM) is a subscription of its own";
    templates.push_back(
        json::object{{"uriTemplate", document_uri(*domain, "{handle}")},
                     {"name", name + "-document"},
                     {"title", std::string(domain->display_name()) + ": an open document"},
                     {"description", std::move(description)}});
    for (const auto& form : domain->resource_forms()) {
      templates.push_back(
          json::object{{"uriTemplate", document_uri(*domain, "{handle}", form.suffix)},
                       {"name", name + "-document" + form.suffix},
                       {"title", name + " " + form.title},
                       {"description", form.description},
                       {"mimeType", form.mime_type}});
    }
  }
  return templates;
}

json::object document_resource(const StoredDocument& document) {
  const auto summary = document.summary();
  const std::string name(document.domain().name());
  return json::object{
      {"uri", document_uri(document.domain(), document.handle())},
      {"name", document.handle()},
      {"title", to_valid_utf8(summary.title)},
      {"description",
       to_valid_utf8("The open " + name + " document \"" + summary.title + "\" (file: " +
                     (summary.file ? summary.file->string() : std::string("not saved yet")) +
                     ", unsaved changes: " + (summary.unsaved ? "yes" : "no") + ")")}};
}

json::object resource_contents(std::string_view uri, const core::Attachment& content) {
  if (is_text_type(content.mime_type) && is_valid_utf8(content.bytes))
    return json::object{{"uri", uri}, {"mimeType", content.mime_type}, {"text", content.bytes}};
  return json::object{
      {"uri", uri}, {"mimeType", content.mime_type}, {"blob", base64_encode(content.bytes)}};
}

}  // namespace fcp::mcp
