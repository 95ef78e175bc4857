#include "domains/drawio/data/node_types.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "domains/drawio/data/ascii.hpp"

namespace fcp::drawio::data {
namespace {

constexpr std::array<NodeType, 12> builtin_node_types{{
    {"box", "whiteSpace=wrap;html=1;", 120, 60, "Plain rectangle (generic)"},
    {"svc", "rounded=1;whiteSpace=wrap;html=1;", 140, 60, "Rounded rectangle"},
    {"circle", "ellipse;whiteSpace=wrap;html=1;aspect=fixed;", 60, 60, "Ellipse"},
    {"decision", "rhombus;whiteSpace=wrap;html=1;", 100, 80, "Diamond"},
    {"db", "shape=cylinder3;whiteSpace=wrap;html=1;boundedLbl=1;backgroundOutline=1;size=15;", 120,
     80, "Cylinder"},
    {"api", "shape=hexagon;perimeter=hexagonPerimeter2;whiteSpace=wrap;html=1;fixedSize=1;size=20;",
     120, 80, "Hexagon"},
    {"cloud", "ellipse;shape=cloud;whiteSpace=wrap;html=1;", 140, 60, "Cloud"},
    // draw.io's sidebar actor: the label goes under the figure, not across it.
    {"actor",
     "shape=umlActor;verticalLabelPosition=bottom;verticalAlign=top;html=1;outlineConnect=0;", 30,
     60, "UML actor (label below)"},
    {"doc", "shape=document;whiteSpace=wrap;html=1;boundedLbl=1;backgroundOutline=1;size=0.27;",
     120, 80, "Document"},
    {"queue",
     "shape=parallelogram;perimeter=parallelogramPerimeter;whiteSpace=wrap;html=1;fixedSize=1;"
     "size=20;",
     140, 60, "Parallelogram"},
    {"triangle", "triangle;whiteSpace=wrap;html=1;", 80, 80, "Triangle"},
    {"process", "shape=process;whiteSpace=wrap;html=1;backgroundOutline=1;size=0.1;", 120, 60,
     "Double-bordered rect"},
}};

// The inference word lists of reference §1.2, checked in this order; the first hit wins.
constexpr std::array<std::string_view, 8> db_words{"database", "db",       "store", "cache",
                                                   "redis",    "postgres", "mysql", "mongo"};
constexpr std::array<std::string_view, 3> decision_words{"decision", "check", "condition"};
constexpr std::array<std::string_view, 5> actor_words{"user", "actor", "person", "customer",
                                                      "admin"};
constexpr std::array<std::string_view, 6> queue_words{"queue", "buffer", "stream",
                                                      "kafka", "sqs",    "event"};
constexpr std::array<std::string_view, 4> cloud_words{"cloud", "external", "internet", "cdn"};
constexpr std::array<std::string_view, 4> doc_words{"document", "file", "log", "report"};

constexpr bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
constexpr bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
constexpr bool is_separator(char c) {
  return c == ' ' || c == '_' || c == '-' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

// A word starts at `i` inside a run: "userFile" (lower→Upper) or "DBFile" (the last capital of a
// capital run that is followed by a lower-case letter), as the reference's two regexes split.
bool splits_before(std::string_view s, std::size_t i) {
  if (is_lower(s[i - 1]) && is_upper(s[i])) return true;
  return i + 1 < s.size() && is_upper(s[i - 1]) && is_upper(s[i]) && is_lower(s[i + 1]);
}

// Calls f(word) for each word of the label, as substrings (no allocation).
template <class F>
void for_each_word(std::string_view s, F&& f) {
  std::size_t start = std::string_view::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_separator(s[i])) {
      if (start != std::string_view::npos) f(s.substr(start, i - start));
      start = std::string_view::npos;
      continue;
    }
    if (start == std::string_view::npos) {
      start = i;
    } else if (splits_before(s, i)) {
      f(s.substr(start, i - start));
      start = i;
    }
  }
  if (start != std::string_view::npos) f(s.substr(start));
}

bool has_word(std::string_view label, std::span<const std::string_view> words) {
  bool found = false;
  for_each_word(label, [&](std::string_view word) {
    if (found) return;
    found = std::any_of(words.begin(), words.end(),
                        [&](std::string_view w) { return detail::iequals(word, w); });
  });
  return found;
}

}  // namespace

std::span<const NodeType> node_types() {
  return builtin_node_types;
}

const NodeType* find_node_type(std::string_view name) {
  const auto it = std::find_if(builtin_node_types.begin(), builtin_node_types.end(),
                               [&](const NodeType& t) { return t.name == name; });
  return it == builtin_node_types.end() ? nullptr : &*it;
}

std::span<const NodeTypeSynonym> node_type_synonyms() {
  static constexpr NodeTypeSynonym synonyms[] = {
      {"database", "db"},      {"cylinder", "db"},        {"datastore", "db"},
      {"storage", "db"},       {"table", "db"},           {"rectangle", "box"},
      {"rect", "box"},         {"square", "box"},         {"node", "box"},
      {"service", "svc"},      {"server", "svc"},         {"microservice", "svc"},
      {"component", "svc"},    {"rounded", "svc"},        {"ellipse", "circle"},
      {"oval", "circle"},      {"diamond", "decision"},   {"rhombus", "decision"},
      {"choice", "decision"},  {"condition", "decision"}, {"gateway", "api"},
      {"endpoint", "api"},     {"interface", "api"},      {"hexagon", "api"},
      {"internet", "cloud"},   {"user", "actor"},         {"person", "actor"},
      {"human", "actor"},      {"customer", "actor"},     {"document", "doc"},
      {"file", "doc"},         {"report", "doc"},         {"page", "doc"},
      {"topic", "queue"},      {"stream", "queue"},       {"broker", "queue"},
      {"bus", "queue"},        {"mq", "queue"},           {"step", "process"},
      {"task", "process"},     {"function", "process"},   {"action", "process"},
      {"warning", "triangle"}, {"alert", "triangle"},
  };
  return synonyms;
}

std::string_view infer_node_type(std::string_view label) {
  if (has_word(label, db_words)) return "db";
  if (has_word(label, decision_words) || (!label.empty() && label.back() == '?')) return "decision";
  if (has_word(label, actor_words)) return "actor";
  if (has_word(label, queue_words)) return "queue";
  if (has_word(label, cloud_words)) return "cloud";
  if (has_word(label, doc_words)) return "doc";
  return "svc";
}

std::size_t utf8_length(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
  }));
}

double auto_width(const NodeType& type, std::string_view label) {
  const double needed = static_cast<double>(utf8_length(label)) * 8.0 + 20.0;
  return std::max(type.width, std::ceil(needed / 10.0) * 10.0);
}

}  // namespace fcp::drawio::data
