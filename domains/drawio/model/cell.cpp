#include "domains/drawio/model/cell.hpp"

namespace fcp::drawio {

std::optional<std::string_view> Cell::style_value(std::string_view key) const {
  if (!style) return std::nullopt;
  return style->get(key);
}

bool Cell::has_style_token(std::string_view bare) const {
  return style && style->has(bare);
}

bool Cell::is_text() const {
  return has_style_token("text");
}

bool Cell::is_swimlane() const {
  return has_style_token("swimlane") || style_value("shape") == "swimlane";
}

bool Cell::is_container() const {
  return style_value("container") == "1" || is_swimlane();
}

bool Cell::is_visible() const {
  return attributes.get("visible") != "0";
}

bool Cell::is_locked() const {
  return style_value("locked") == "1";
}

std::optional<std::string_view> Cell::property(std::string_view name) const {
  if (!wrapper) return std::nullopt;
  return wrapper->attributes.get(name);
}

void Cell::set_note_type(std::string type) {
  if (!notes && type.empty()) return;
  SessionNotes& set = notes ? *notes : notes.emplace();
  set.type = std::move(type);
  if (set.empty()) notes.reset();
}

void Cell::set_note_alias(std::string alias) {
  if (!notes && alias.empty()) return;
  SessionNotes& set = notes ? *notes : notes.emplace();
  set.alias = std::move(alias);
  if (set.empty()) notes.reset();
}

void Cell::set_note_own_colours(bool own) {
  if (!notes && !own) return;
  SessionNotes& set = notes ? *notes : notes.emplace();
  set.own_colours = own;
  if (set.empty()) notes.reset();
}

}  // namespace fcp::drawio
