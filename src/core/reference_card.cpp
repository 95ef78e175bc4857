// The reference card generated from a domain's registries (the single source of verb syntax).
#include <algorithm>

#include "core/session.hpp"
#include "core/session_command.hpp"

namespace fcp::core {
namespace {

// Two-column listing: syntax padded to a common width, then the description.
void append_specs(std::string& out, const std::vector<const VerbSpec*>& specs) {
  std::size_t width = 0;
  for (const auto* spec : specs)
    width = std::max(width, spec->syntax().size());
  width = std::min<std::size_t>(width, 56);
  for (const auto* spec : specs) {
    const std::string syntax = spec->syntax();
    out += "  " + syntax;
    if (!spec->description.empty()) {
      out += std::string(syntax.size() < width ? width - syntax.size() : 0, ' ');
      out += "  " + spec->description;
    }
    out += '\n';
    for (const auto& example : spec->examples)
      out += "      e.g. " + example + "\n";
  }
}

std::vector<const VerbSpec*> pointers(const std::vector<VerbSpec>& specs) {
  std::vector<const VerbSpec*> out;
  for (const auto& spec : specs)
    out.push_back(&spec);
  return out;
}

}  // namespace

std::vector<VerbSpec> session_specs(const Domain& domain) {
  VerbSpec new_document{"new", "\"Title\"", "session",
                        "start a new document; the reply names its handle (doc:…)"};
  new_document.with_all(domain.new_document_keys());
  new_document.with(
      bool_key("discard", "close the current document first, unsaved changes and all"));
  std::vector<VerbSpec> specs{
      new_document,
      VerbSpec{"open", "PATH", "session",
               "open a file (inside the allowed roots) as a new document with its own handle"}
          .with(bool_key("discard", "close the current document first, unsaved changes and all")),
      VerbSpec{"save", "", "session", "write the file atomically (its mode, owner and group stay)"}
          .with(key("as", "PATH"))
          .with(bool_key("force", "replace a file its owner made read-only (it stays read-only)")),
      VerbSpec{"checkpoint", "NAME", "session", "name the current state"},
      VerbSpec{"undo", "[N]", "session",
               "undo N ops, one op each, not a whole batch (undo 3 after a batch of 3 ops), or "
               "back to a checkpoint (undo to:NAME)"}
          .with(key("to", "NAME")),
      VerbSpec{"redo", "[N]", "session", "redo N undone ops"},
      VerbSpec{"close", "", "session",
               "close the current document, or the one a handle names (refuses unsaved changes)"}
          .with(key("doc", "xx-HEX", "the handle of the document to close (close doc:dw-3f…)"))
          .with(bool_key("discard")),
      VerbSpec{"list", "", "session",
               "the open documents: handle, title, file, unsaved changes, last use"},
      VerbSpec{"recover", "", "session",
               "after a crash or restart (fcpd --state-dir): the documents their journals can "
               "restore; recover doc:dw-3f… restores one, history and checkpoints included, "
               "under the same handle"}
          .with(key("doc", "xx-HEX", "the handle of the document to restore (recover doc:dw-3f…)")),
  };
  for (auto& extension : domain.session_extensions())
    specs.push_back(std::move(extension));
  return specs;
}

std::string render_reference_card(const Domain& domain, const Document* document) {
  const std::string name(domain.name());
  std::string out =
      "# " + name + " — FCP reference card (" + std::string(domain.display_name()) + ")\n\n";
  out += "Tools: " + name + "(ops) mutates · " + name + "_query(q) inspects · " + name +
         "_session(action) lifecycle · " + name + "_help() this card\n";
  out +=
      "Op grammar: VERB [POSITIONAL…] [key:value…] [@selector…]; quote text with spaces: "
      "\"Two words\" or key:\"two words\". A call's ops run as one atomic batch: if one fails, "
      "none is applied.\n\n";
  out += "## Verbs (" + name + " tool)\n";
  const auto& verbs = domain.verbs();
  auto categories = verbs.categories();
  if (std::find(categories.begin(), categories.end(), checkpoint_verb().category) ==
      categories.end())
    categories.push_back(checkpoint_verb().category);
  for (const auto& category : categories) {
    out += "### " + category + "\n";
    std::vector<const VerbSpec*> specs;
    for (const auto& spec : verbs.all()) {
      if (spec.category == category) specs.push_back(&spec);
    }
    if (category == checkpoint_verb().category) specs.push_back(&checkpoint_verb());
    append_specs(out, specs);
  }
  out +=
      "Keys: a verb takes exactly the keys listed; any other key is refused with a try: that "
      "names the right one.\n";
  if (auto sections = domain.card_sections(); !sections.empty()) out += "\n" + sections + "\n";
  out += "\n## Queries (" + name + "_query)\n";
  const auto queries = query_specs(domain);
  append_specs(out, pointers(queries));
  out += "\n## Session (" + name + "_session)\n";
  const auto session = session_specs(domain);
  append_specs(out, pointers(session));
  out +=
      "Handles: new and open answer with the document's handle (doc:…). Each of the four tools "
      "takes it as the optional argument `doc` and then works on that document, from any "
      "connection or MCP session; without `doc` a call works on the document this session made "
      "or opened last.\n";
  out += "\n## Response prefixes\n";
  out += "  + created   ~ connection changed   * property changed   - deleted\n";
  out += "  ! error or meta   @ bulk/layout   ? warning (advisory)   try: a suggested fix\n";
  out += "  A line is its prefix, a space and what it names (+ page Notes); an indented line\n";
  out +=
      "  details the line above it. The last line of every mutating reply is the state digest.\n";
  if (document != nullptr) {
    if (auto additions = document->help_additions(); !additions.empty()) {
      out += "\n## In this document\n" + additions + "\n";
    }
  }
  return out;
}

}  // namespace fcp::core
