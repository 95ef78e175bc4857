// A session's document as resources: its file as save would write it, and the forms its domain
// renders (Domain::resource_forms), read without writing a file or changing the document.
#include <algorithm>

#include "core/session.hpp"

namespace fcp::core {

Result<Attachment> Session::file_resource() const {
  if (!document_) return no_document_error();
  // Never saved: the format save would be told to use first (save as:./TITLE.EXT); the path only
  // chooses the format, nothing is written.
  const std::filesystem::path path =
      file_path_ ? *file_path_
                 : std::filesystem::path("document." + domain_.file_extensions().front());
  auto bytes = document_->serialize(path);
  if (!bytes) return bytes.error();
  if (auto too_large =
          over_reply_limit(bytes->size(), "save the document and read its file from disk"))
    return *too_large;
  auto mime = domain_.file_mime_type(path, *bytes);
  return Attachment{std::move(mime), std::move(*bytes)};
}

Result<Attachment> Session::resource_form(std::string_view suffix) {
  if (!document_) return no_document_error();
  const auto forms = domain_.resource_forms();
  if (std::none_of(forms.begin(), forms.end(),
                   [suffix](const ResourceForm& form) { return form.suffix == suffix; }))
    return make_error("no " + std::string(suffix) + " form of a " + std::string(domain_.name()) +
                      " document");
  EffectSink effects;
  const ProgressFn no_progress;
  std::vector<Attachment> attachments;
  CallContext ctx{log_, paths_, effects, no_progress, &attachments, state_.get()};
  ctx.max_reply_bytes = limits_.max_reply_bytes;
  auto rendered = domain_.render_resource(suffix, *document_, ctx);
  if (!rendered) return rendered.error();
  if (auto too_large = over_reply_limit(rendered->bytes.size(), "read the document's file instead"))
    return *too_large;
  return rendered;
}

}  // namespace fcp::core
