#include "domains/lofi/maxpat/objects.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "core/resolve.hpp"
#include "domains/lofi/maxpat/objects_table.hpp"

namespace fcp::lofi::maxpat {
namespace {

// The table sorted by name, built once (thread-safe static initialisation).
const std::vector<const ObjectInfo*>& sorted_index() {
  static const std::vector<const ObjectInfo*> index = [] {
    std::vector<const ObjectInfo*> entries;
    for (const ObjectInfo& info : detail::object_table())
      entries.push_back(&info);
    std::stable_sort(entries.begin(), entries.end(), [](const ObjectInfo* a, const ObjectInfo* b) {
      return a->maxclass < b->maxclass;
    });
    return entries;
  }();
  return index;
}

std::vector<std::string> split_types(std::string_view types, int outlets) {
  std::vector<std::string> out;
  if (outlets <= 0) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = types.find(',', start);
    out.emplace_back(types.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  out.resize(static_cast<std::size_t>(outlets));
  return out;
}

Ports table_ports(const ObjectInfo& info) {
  return {info.inlets, info.outlets, split_types(info.outlettype, info.outlets)};
}

Ports uniform(int inlets, int outlets, const std::string& type) {
  return {inlets, outlets, std::vector<std::string>(static_cast<std::size_t>(outlets), type)};
}

std::optional<double> number_of(std::string_view atom) {
  double value = 0;
  const auto [end, errc] = std::from_chars(atom.data(), atom.data() + atom.size(), value);
  if (errc != std::errc{} || end != atom.data() + atom.size() || atom.empty()) return std::nullopt;
  return value;
}

bool is_float_atom(std::string_view atom) {
  return number_of(atom) && atom.find_first_of(".eE") != std::string_view::npos;
}

// A count argument ("gate 3"): the first atom when it is a whole number in 1..max, else `fallback`.
int count_arg(const std::vector<std::string>& atoms, std::size_t at, int fallback, int max = 4096) {
  if (at >= atoms.size()) return fallback;
  const auto value = number_of(atoms[at]);
  if (!value || *value < 1 || *value > max) return fallback;
  return static_cast<int>(*value);
}

int clamp_count(std::size_t n) {
  return static_cast<int>(std::min<std::size_t>(n, 4096));
}

// The outlet type a trigger argument gives: b i f l s a, a number, or the symbol itself.
std::string trigger_type(std::string_view atom) {
  if (atom == "b" || atom == "bang") return "bang";
  if (atom == "i" || atom == "int") return "int";
  if (atom == "f" || atom == "float") return "float";
  if (atom == "l" || atom == "list" || atom == "s" || atom == "symbol" || atom == "a" ||
      atom == "anything")
    return "";
  if (number_of(atom)) return is_float_atom(atom) ? "float" : "int";
  return std::string(atom);
}

std::string unpack_type(std::string_view atom) {
  if (atom == "i" || atom == "int") return "int";
  if (atom == "f" || atom == "float") return "float";
  if (number_of(atom)) return is_float_atom(atom) ? "float" : "int";
  return "";
}

// Inlets of sprintf: one per % conversion ("%%" is a literal percent sign).
int sprintf_fields(const std::vector<std::string>& atoms) {
  int fields = 0;
  for (const std::string& atom : atoms) {
    for (std::size_t i = 0; i + 1 < atom.size(); ++i) {
      if (atom[i] != '%') continue;
      if (atom[i + 1] == '%') {
        ++i;
        continue;
      }
      ++fields;
    }
  }
  return std::max(1, fields);
}

// Inlets of expr: the highest N among $iN $fN $sN $xN $yN (at least 1).
int expr_inlets(std::string_view text) {
  int highest = 1;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '$') continue;
    const char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + 1])));
    if (kind != 'i' && kind != 'f' && kind != 's' && kind != 'x' && kind != 'y') continue;
    int value = 0;
    std::size_t j = i + 2;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])) && value < 10000)
      value = value * 10 + (text[j++] - '0');
    highest = std::max(highest, value);
  }
  return highest;
}

Ports sample_player(int inlets, int channels, const std::string& last) {
  Ports ports = uniform(inlets, channels + 1, "signal");
  ports.outlettype.back() = last;
  return ports;
}

// Ports of an object whose counts follow its arguments (PortRule::args).
Ports ports_from_args(const ObjectInfo& info, const std::vector<std::string>& atoms,
                      std::string_view args) {
  const std::string_view name = info.maxclass;
  const std::size_t n = atoms.size();
  if (name == "t" || name == "trigger") {
    if (n == 0) return table_ports(info);
    Ports ports{1, clamp_count(n), {}};
    for (std::size_t i = 0; i < static_cast<std::size_t>(ports.outlets); ++i)
      ports.outlettype.push_back(trigger_type(atoms[i]));
    return ports;
  }
  if (name == "b" || name == "bangbang") return uniform(1, count_arg(atoms, 0, 2), "bang");
  if (name == "pack" || name == "pak") return uniform(n == 0 ? 2 : clamp_count(n), 1, "");
  if (name == "unpack") {
    if (n == 0) return table_ports(info);
    Ports ports{1, clamp_count(n), {}};
    for (std::size_t i = 0; i < static_cast<std::size_t>(ports.outlets); ++i)
      ports.outlettype.push_back(unpack_type(atoms[i]));
    return ports;
  }
  const int cases = clamp_count(std::max<std::size_t>(n, 1));
  if (name == "route" || name == "routepass") return uniform(cases + 1, cases + 1, "");
  if (name == "select" || name == "sel") {
    Ports ports = uniform(cases + 1, cases + 1, "bang");
    ports.outlettype.back() = "";
    return ports;
  }
  if (name == "gate") return uniform(2, count_arg(atoms, 0, 1), "");
  if (name == "switch") return uniform(count_arg(atoms, 0, 2) + 1, 1, "");
  if (name == "join") return uniform(count_arg(atoms, 0, 2), 1, "");
  if (name == "sprintf") return uniform(sprintf_fields(atoms), 1, "");
  if (name == "expr") return uniform(expr_inlets(args), 1, "");
  if (name == "dict.unpack") return uniform(1, cases, "");
  if (name == "dac~") return uniform(n == 0 ? 2 : clamp_count(n), 0, "");
  if (name == "adc~") return uniform(1, n == 0 ? 2 : clamp_count(n), "signal");
  if (name == "tapout~") return uniform(cases, cases, "signal");
  if (name == "gate~") return uniform(2, count_arg(atoms, 0, 1, 256), "signal");
  if (name == "selector~") return uniform(count_arg(atoms, 0, 1, 256) + 1, 1, "signal");
  if (name == "matrix~") {
    Ports ports = uniform(count_arg(atoms, 0, 1, 256), count_arg(atoms, 1, 1, 256) + 1, "signal");
    ports.outlettype.back() = "list";
    return ports;
  }
  if (name == "groove~") return uniform(3, count_arg(atoms, 1, 1, 64) + 1, "signal");
  if (name == "play~") return sample_player(1, count_arg(atoms, 1, 1, 64), "bang");
  if (name == "sfplay~") {
    int channels = 1;
    for (const std::string& atom : atoms) {
      if (number_of(atom)) {
        channels = count_arg({atom}, 0, 1, 64);
        break;
      }
    }
    return sample_player(2, channels, "bang");
  }
  const bool floats = n > 0 && is_float_atom(atoms[0]);
  if (name == "maximum" || name == "minimum") return {2, 2, {floats ? "float" : "int", "int"}};
  return uniform(info.inlets, info.outlets, floats ? "float" : "int");  // + - * / % !- !/
}

}  // namespace

std::span<const ObjectInfo> objects() {
  return detail::object_table();
}

const ObjectInfo* find_object(std::string_view name) {
  const auto& index = sorted_index();
  const auto it = std::lower_bound(
      index.begin(), index.end(), name,
      [](const ObjectInfo* info, std::string_view key) { return info->maxclass < key; });
  if (it == index.end() || (*it)->maxclass != name) return nullptr;
  return *it;
}

Ports ports_for(std::string_view name, std::string_view args) {
  const ObjectInfo* info = find_object(name);
  if (info == nullptr) return {1, 1, {""}};
  if (info->rule == PortRule::args) return ports_from_args(*info, split_atoms(args, true), args);
  return table_ports(*info);
}

SignalInlet signal_inlet(std::string_view name, int inlet) {
  const ObjectInfo* info = find_object(name);
  if (info == nullptr || inlet < 0) return SignalInlet::unknown;
  std::string_view flags = info->signal_inlets;
  char flag = '?';
  if (flags.empty()) {
    if (!name.ends_with('~') && info->rule != PortRule::contents) flag = 'm';
  } else if (static_cast<std::size_t>(inlet) < flags.size() && flags[inlet] != '*') {
    flag = flags[static_cast<std::size_t>(inlet)];
  } else if (flags.size() >= 2 && flags.back() == '*') {
    flag = flags[flags.size() - 2];
  }
  if (flag == 's') return SignalInlet::takes_signal;
  if (flag == 'm') return SignalInlet::messages_only;
  return SignalInlet::unknown;
}

bool is_signal_type(std::string_view outlettype) {
  return outlettype == "signal" || outlettype == "multichannelsignal";
}

std::string_view signal_version(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> versions[] = {
      {"+", "+~"},         {"-", "-~"},          {"*", "*~"},         {"/", "/~"},
      {"%", "%~"},         {"!-", "!-~"},        {"!/", "!/~"},       {">", ">~"},
      {"<", "<~"},         {">=", ">=~"},        {"<=", "<=~"},       {"==", "==~"},
      {"!=", "!=~"},       {"clip", "clip~"},    {"scale", "scale~"}, {"dbtoa", "dbtoa~"},
      {"atodb", "atodb~"}, {"mtof", "mtof~"},    {"ftom", "ftom~"},   {"line", "line~"},
      {"gate", "gate~"},   {"number", "number~"}};
  for (const auto& [control, signal] : versions) {
    if (control == name) return signal;
  }
  return {};
}

std::vector<std::string> close_classes(std::string_view name, std::size_t limit) {
  std::vector<std::string> out;
  if (name.empty() || find_object(name) != nullptr) return out;
  const auto add = [&](std::string_view candidate) {
    if (out.size() < limit && find_object(candidate) != nullptr &&
        std::find(out.begin(), out.end(), candidate) == out.end())
      out.emplace_back(candidate);
  };
  const std::string lowered = core::to_lower(name);
  for (const ObjectInfo* info : sorted_index()) {
    if (core::to_lower(info->maxclass) == lowered) add(info->maxclass);
  }
  const std::string bare =
      name.ends_with('~') ? std::string(name.substr(0, name.size() - 1)) : std::string(name) + "~";
  add(bare);
  if (name.starts_with("live.")) add(name.substr(5));
  add("live." + std::string(name));
  std::vector<std::string> names;
  names.reserve(sorted_index().size());
  for (const ObjectInfo* info : sorted_index())
    names.emplace_back(info->maxclass);
  const std::size_t allowed = name.size() >= 8 ? 3 : 2;
  for (const std::string& close : core::closest_matches(name, names, limit + 3)) {
    if (core::edit_distance(lowered, core::to_lower(close)) <= allowed) add(close);
  }
  return out;
}

std::vector<std::string> split_atoms(std::string_view text, bool positional_only) {
  std::vector<std::string> atoms;
  std::size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::string atom;
    if (text[i] == '"') {
      ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        atom += text[i++];
      }
      ++i;  // the closing quote (or past the end)
    } else {
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
        atom += text[i++];
      if (positional_only && atom.size() > 1 && atom[0] == '@') break;
    }
    atoms.push_back(std::move(atom));
  }
  return atoms;
}

}  // namespace fcp::lofi::maxpat
