#include "domains/lofi/verb_support.hpp"

#include <charconv>
#include <cmath>
#include <set>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/maxpat/attributes.hpp"
#include "domains/lofi/maxpat/patcher.hpp"
#include "domains/lofi/maxpat/text_width.hpp"
#include "domains/lofi/selection.hpp"

namespace fcp::lofi {

std::optional<double> plain_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty() ||
      !std::isfinite(value) || std::abs(value) > 1e6)
    return std::nullopt;
  return value;
}

bool flag(const LofiOp& ctx, std::string_view key) {
  const std::string* text = ctx.op.param(key);
  if (text == nullptr) return false;
  const std::string value = core::to_lower(*text);
  return value == "true" || value == "yes" || value == "on" || value == "1";
}

core::Result<std::pair<double, double>> pair_param(const LofiOp& ctx, std::string_view key,
                                                   char separator) {
  const std::string* text = ctx.op.param(key);
  if (text == nullptr) return core::make_error("missing " + std::string(key) + ":");
  const auto at = text->find(separator);
  if (at != std::string::npos) {
    auto a = plain_number(std::string_view(*text).substr(0, at));
    auto b = plain_number(std::string_view(*text).substr(at + 1));
    if (a && b) return std::pair{*a, *b};
  }
  return core::make_error("invalid " + std::string(key) + ":" + *text + " — use " +
                          std::string(key) + (separator == ',' ? ":X,Y" : ":WxH"));
}

core::Result<const MaxObject*> resolve(const LofiOp& ctx, std::string_view id) {
  if (const MaxObject* object = ctx.device.object(std::string(id))) return object;
  core::NameIndex<std::string> names;
  for (const auto& [key, object] : ctx.device.objects())
    names.add(key, key);
  auto found = names.resolve(id, {"object", ctx.op.raw, "the device is empty"});
  if (!found) return found.error();
  return ctx.device.object(*found);
}

core::Result<Targets> targets(const LofiOp& ctx) {
  Targets out;
  std::set<std::string> seen;
  for (const auto& word : ctx.op.positionals) {
    auto object = resolve(ctx, word);
    if (!object) return object.error();
    if (seen.insert((*object)->id).second) out.ids.push_back((*object)->id);
  }
  if (ctx.op.selectors.empty()) return out;
  auto selection = select_objects(ctx.device, ctx.op.selectors, ctx.call.log, ctx.op.raw);
  if (!selection) return selection.error();
  for (auto& id : selection->ids) {
    if (seen.insert(id).second) out.ids.push_back(std::move(id));
  }
  out.nothing_matched = std::move(selection->nothing_matched);
  return out;
}

bool nothing_to_change(LofiOp& ctx, const Targets& chosen) {
  if (chosen.nothing_matched.empty()) return chosen.ids.empty();
  ctx.lines.push_back(chosen.ids.empty()
                          ? core::nothing_matched_warning(chosen.nothing_matched, ctx.op.verb)
                          : core::warning_line(chosen.nothing_matched));
  return chosen.ids.empty();
}

namespace {

// "12", "9.5": a number as written in ops.
std::string number_text(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

std::string xy(double x, double y) {
  return number_text(x) + "," + number_text(y);
}

std::string wxh(double width, double height) {
  std::string text = xy(width, height);
  text[text.find(',')] = 'x';
  return text;
}

std::optional<std::string> narrow_comment(const Device& device, const MaxObject& object,
                                          const std::function<std::string(int)>& fix) {
  if ((object.cls != "comment" && object.cls != "live.comment") || object.args.empty() ||
      !object.size)
    return std::nullopt;
  double fontsize =
      object.cls == "live.comment" ? maxpat::kLiveCommentFontsize : maxpat::kCommentFontsize;
  if (object.cls == "comment" && device.source != nullptr) {
    if (const auto* preset = device.source->json.if_contains("default_fontsize");
        preset != nullptr && preset->is_number())
      fontsize = preset->to_number<double>();
  }
  if (auto it = object.attrs.find("fontsize"); it != object.attrs.end()) {
    if (auto size = plain_number(it->second); size && *size > 0) fontsize = *size;
  }
  const int needed = maxpat::comment_width(object.args, fontsize);
  if ((*object.size)[0] >= needed) return std::nullopt;
  return core::warning_line(object.id + ": " + core::quote_token(object.args) +
                            " needs a box about " + std::to_string(needed) + " wide at " +
                            number_text(fontsize) + " pt; in " + number_text((*object.size)[0]) +
                            " Max wraps it and shows its first line (" + fix(needed) + ")");
}

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 128 || id == kDeviceWord) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  }
  return true;
}

namespace {

// "parameter_unitstyle:3 (hertz)": the token, with the name of a named value.
std::string attribute_token(const std::string& key, const std::string& value) {
  std::string token = key + ":" + core::quote_token(value);
  const maxpat::AttributeSpec* spec = maxpat::find_attribute(key);
  // Named values other than off/on are shown with their name.
  if (spec == nullptr || spec->choices.size() < 2 || maxpat::choice_name(*spec, 0) == "off")
    return token;
  char* end = nullptr;
  const long long code = std::strtoll(value.c_str(), &end, 10);
  if (end == value.c_str() || *end != '\0') return token;
  const std::string_view name = maxpat::choice_name(*spec, code);
  return name.empty() || name == value ? token : token + " (" + std::string(name) + ")";
}

}  // namespace

std::string attribute_changes(const std::map<std::string, std::string>& before,
                              const std::map<std::string, std::string>& after) {
  std::string out;
  for (const auto& [key, value] : after) {
    auto old = before.find(key);
    if (old != before.end() && old->second == value) continue;
    out += (out.empty() ? "" : " ") + attribute_token(key, value);
  }
  std::string removed;
  for (const auto& [key, value] : before) {
    if (!after.contains(key)) removed += (removed.empty() ? "" : ", ") + key;
  }
  if (!removed.empty()) out += (out.empty() ? "" : "; ") + std::string("removed ") + removed;
  return out;
}

std::string already_given(const std::map<std::string, std::string>& before,
                          const std::map<std::string, std::string>& after,
                          const std::vector<std::pair<std::string, std::string>>& given) {
  std::string out;
  for (const auto& [key, written] : given) {
    const auto now = after.find(key);
    const auto was = before.find(key);
    std::string token;
    if (now != after.end() && was != before.end() && now->second == was->second) {
      token = attribute_token(key, now->second);
    } else if (now == after.end() && was == before.end()) {
      token = key + ":" + core::quote_token(written);
    }
    if (!token.empty() && out.find(token) == std::string::npos)
      out += (out.empty() ? "" : " ") + token;
  }
  return out;
}

}  // namespace fcp::lofi
