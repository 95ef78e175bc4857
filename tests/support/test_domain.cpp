#include "tests/support/test_domain.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "core/call_scope.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/selector.hpp"

namespace fcp::testing {
namespace {

using core::make_error;
using core::Result;

struct Card {
  std::string name;
  std::string color;
  std::vector<std::string> links;
  bool operator==(const Card&) const = default;
};

// One op's changes: each card's state before and after (nullopt = absent).
struct DeckEvent final : core::Event {
  std::string text;
  std::vector<std::pair<std::optional<Card>, std::optional<Card>>> changes;
  std::string summary() const override { return text; }
  std::vector<std::string> touched_entities() const override {
    std::vector<std::string> names;
    for (const auto& [before, after] : changes) {
      if (after) names.push_back(after->name);
    }
    return names;
  }
};

// The deck's selectors: the engine's built-ins plus @color:C, over the cards in name order.
class CardScope;
Result<core::EntityTest> color_test(const CardScope& scope, std::string_view value);

const core::SelectorCatalog& card_catalog() {
  static const core::SelectorCatalog catalog{
      "card",
      "T",
      "always \"card\"",
      "",
      {{"color", core::SelectorValue::required, "C", "cards of that colour", "",
        core::scoped_compile(&color_test)}},
      false};
  return catalog;
}

class CardScope final : public core::SelectorScope {
 public:
  explicit CardScope(const std::map<std::string, Card>& cards) {
    for (const auto& [name, card] : cards)
      cards_.push_back(&card);
  }
  const core::SelectorCatalog& catalog() const override { return card_catalog(); }
  std::size_t size() const override { return cards_.size(); }
  std::string type_of(std::size_t) const override { return "card"; }
  std::string key_of(std::size_t i) const override { return cards_[i]->name; }
  const Card& card(std::size_t i) const { return *cards_[i]; }

 private:
  std::vector<const Card*> cards_;
};

Result<core::EntityTest> color_test(const CardScope& scope, std::string_view value) {
  return core::EntityTest(
      [&scope, color = std::string(value)](std::size_t i) { return scope.card(i).color == color; });
}

// Delivers effects on a thread of its own, as a real bridge would complete asynchronously. The
// threads are joined when the executor goes, like a real bridge's io thread is stopped before
// the worker pool it posts to is destroyed: a thread still inside post() then would touch a
// destroyed pool.
class FakeExecutor final : public core::EffectExecutor {
 public:
  FakeExecutor() = default;
  FakeExecutor(const FakeExecutor&) = delete;
  FakeExecutor& operator=(const FakeExecutor&) = delete;
  FakeExecutor(FakeExecutor&&) = delete;
  FakeExecutor& operator=(FakeExecutor&&) = delete;
  ~FakeExecutor() override {
    const std::lock_guard lock(mutex_);
    for (auto& thread : threads_)
      thread.join();
  }

  void deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
               std::function<void(core::Result<void>)> done) override {
    const std::lock_guard lock(mutex_);
    threads_.emplace_back(
        [effects = std::move(effects), progress = std::move(progress), done = std::move(done)] {
          for (std::size_t i = 0; i < effects.size(); ++i) {
            if (effects[i].payload == "slow")
              std::this_thread::sleep_for(std::chrono::milliseconds(300));
            if (effects[i].payload == "fail") {
              done(make_error("external system refused \"" + effects[i].payload + "\""));
              return;
            }
            if (progress) progress(i + 1, effects.size());
          }
          done({});
        });
  }

 private:
  std::mutex mutex_;
  std::vector<std::thread> threads_;
};

class DeckDocument final : public core::Document {
 public:
  explicit DeckDocument(std::string title) : title_(std::move(title)) {}

  void put(const Card& card) {
    if (!cards_.contains(card.name)) index_.add(card.name, card.name);
    cards_[card.name] = card;
  }
  void erase(const std::string& name) {
    if (cards_.erase(name) != 0) index_.remove(name, name);
  }

  Result<core::OpOutcome> execute(const core::ParsedOp& op, core::CallContext& ctx) override;
  void revert(const core::Event& event, core::EffectSink&) override {
    const auto& deck = static_cast<const DeckEvent&>(event);
    for (auto it = deck.changes.rbegin(); it != deck.changes.rend(); ++it)
      apply(it->second, it->first);
  }
  void replay(const core::Event& event, core::EffectSink&) override {
    for (const auto& [before, after] : static_cast<const DeckEvent&>(event).changes)
      apply(before, after);
  }
  std::optional<Result<core::QueryAnswer>> query(std::string_view verb, std::string_view args,
                                                 const core::CallContext& ctx) const override;
  std::size_t entity_count() const override { return cards_.size(); }
  std::size_t estimated_bytes() const override { return cards_.size() * 100; }  // 100 a card
  std::string digest() const override {
    std::size_t links = 0;
    for (const auto& [name, card] : cards_)
      links += card.links.size();
    return "[" + std::to_string(cards_.size()) + "c " + std::to_string(links) + "l]";
  }
  std::vector<std::string> warnings(std::span<const core::EventPtr> batch,
                                    core::Applied applied) const override {
    std::set<std::string> touched;
    for (const auto& event : batch) {
      for (const auto& [before, after] : static_cast<const DeckEvent&>(*event).changes) {
        const auto& now = applied == core::Applied::forward ? after : before;
        if (now && now->color.empty()) touched.insert(now->name);
      }
    }
    std::vector<std::string> out;
    for (const auto& name : touched) {
      // As the document is now: an undo may revert a card's color change, then remove it.
      if (auto it = cards_.find(name); it != cards_.end() && it->second.color.empty())
        out.push_back(name + ": no color");
    }
    return out;
  }
  Result<std::string> serialize(const std::filesystem::path&) const override {
    std::string out;
    for (const auto& [name, card] : cards_) {
      std::string links;
      for (const auto& link : card.links)
        links += (links.empty() ? "" : ",") + link;
      out += name + "\t" + card.color + "\t" + links + "\n";
    }
    return out;
  }
  std::string title() const override { return title_; }
  std::string summary() const override { return std::to_string(cards_.size()) + " cards"; }
  // A deck with a card named slow_open takes 200 ms to tell the outside world of itself, as a
  // large device takes to build its messages for Max, and does not look at the call's stop.
  void opened(core::EffectSink&) override {
    if (cards_.contains("slow_open")) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::string help_additions() const override {
    return "  cards: " + std::to_string(cards_.size());
  }

  FakeExecutor executor;

 private:
  void apply(const std::optional<Card>& before, const std::optional<Card>& after) {
    if (before) erase(before->name);
    if (after) put(*after);
  }
  // The cards an op names: one by reference, or what its selectors choose (core's engine).
  struct Selected {
    std::vector<std::string> names;
    std::string nothing_matched;
  };
  Result<Selected> select(const core::ParsedOp& op, const core::CallContext& ctx,
                          std::size_t positional) const;
  Result<core::OpOutcome> add(const core::ParsedOp& op);
  Result<core::OpOutcome> change_each(const core::ParsedOp& op, const core::CallContext& ctx);
  Result<core::OpOutcome> link(const core::ParsedOp& op);

  std::string title_;
  std::map<std::string, Card> cards_;
  core::NameIndex<std::string> index_;
};

core::EventPtr make_event(
    std::string text, std::vector<std::pair<std::optional<Card>, std::optional<Card>>> changes) {
  auto event = std::make_shared<DeckEvent>();
  event->text = std::move(text);
  event->changes = std::move(changes);
  return event;
}

Result<DeckDocument::Selected> DeckDocument::select(const core::ParsedOp& op,
                                                    const core::CallContext& ctx,
                                                    std::size_t positional) const {
  if (op.selectors.empty()) {
    if (op.positionals.size() <= positional) return make_error(op.verb + " needs a card name");
    auto id = index_.resolve(op.positionals[positional], {"card", op.raw});
    if (!id) return id.error();
    return Selected{{*id}, ""};
  }
  const CardScope scope(cards_);
  auto selection = core::select(op.selectors, scope, ctx.log, op.raw);
  if (!selection) return selection.error();
  Selected out{{}, std::move(selection->nothing_matched)};
  for (std::size_t i : selection->members)
    out.names.push_back(scope.card(i).name);
  return out;
}

Result<core::OpOutcome> DeckDocument::add(const core::ParsedOp& op) {
  if (op.positionals.empty()) return make_error("add needs a name", {"add NAME [color:C]"});
  int count = 1;
  if (const auto* n = op.param("count")) {
    count = std::atoi(n->c_str());
    if (count < 1 || count > 100000) return make_error("count must be 1..100000");
  }
  core::OpOutcome outcome;
  std::vector<std::pair<std::optional<Card>, std::optional<Card>>> changes;
  for (int i = 1; i <= count; ++i) {
    Card card{
        op.positionals[0] + (count > 1 ? std::to_string(i) : ""), op.param_or("color", ""), {}};
    if (cards_.contains(card.name)) {
      for (auto& [before, after] : changes)
        erase(after->name);  // strong guarantee
      return make_error("card \"" + card.name + "\" exists", {"rename " + card.name + " NEW"});
    }
    put(card);
    outcome.lines.push_back(
        core::created("card " + card.name + (card.color.empty() ? "" : " " + card.color)));
    changes.emplace_back(std::nullopt, card);
  }
  outcome.event = make_event(op.raw, std::move(changes));
  return outcome;
}

Result<core::OpOutcome> DeckDocument::change_each(const core::ParsedOp& op,
                                                  const core::CallContext& ctx) {
  auto targets = select(op, ctx, 0);
  if (!targets) return targets.error();
  if (targets->names.empty())
    return core::OpOutcome{
        {core::nothing_matched_warning(targets->nothing_matched, op.verb)}, nullptr, {}, {}};
  if (op.verb == "rename" && (targets->names.size() != 1 || op.positionals.size() < 2))
    return make_error("rename needs one card and a new name", {"rename OLD NEW"});
  if (op.verb == "set" && !op.has_param("color")) return make_error("set needs color:C");
  core::OpOutcome outcome;
  std::vector<std::pair<std::optional<Card>, std::optional<Card>>> changes;
  for (const auto& name : targets->names) {
    Card before = cards_.at(name);
    std::optional<Card> after = before;
    if (op.verb == "remove") {
      after.reset();
      outcome.lines.push_back(core::deleted("card " + name));
    } else if (op.verb == "set") {
      after->color = *op.param("color");
      outcome.lines.push_back(core::property_changed("card " + name + " color:" + after->color));
    } else {
      after->name = op.positionals[1];
      if (cards_.contains(after->name)) return make_error("card \"" + after->name + "\" exists");
      outcome.lines.push_back(core::property_changed("card " + name + " -> " + after->name));
    }
    changes.emplace_back(before, after);
  }
  for (const auto& [before, after] : changes)
    apply(before, after);
  outcome.event = make_event(op.raw, std::move(changes));
  return outcome;
}

Result<core::OpOutcome> DeckDocument::link(const core::ParsedOp& op) {
  std::vector<std::string> chain;
  for (std::size_t i = 0; i < op.positionals.size(); ++i) {
    if (core::is_arrow(op.positionals[i])) continue;
    auto id = index_.resolve(op.positionals[i], {"card", op.raw});
    if (!id) return id.error();
    chain.push_back(*id);
  }
  if (chain.size() < 2 || op.arrows.empty())
    return make_error("link needs A -> B", {"link A -> B"});
  core::OpOutcome outcome;
  std::map<std::string, Card> touched;
  for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
    auto& card = touched.try_emplace(chain[i], cards_.at(chain[i])).first->second;
    card.links.push_back(chain[i + 1]);
    outcome.lines.push_back(core::connection_changed(chain[i] + "->" + chain[i + 1]));
  }
  std::vector<std::pair<std::optional<Card>, std::optional<Card>>> changes;
  for (const auto& [name, card] : touched)
    changes.emplace_back(cards_.at(name), card);
  for (const auto& [before, after] : changes)
    apply(before, after);
  outcome.event = make_event(op.raw, std::move(changes));
  return outcome;
}

Result<core::OpOutcome> DeckDocument::execute(const core::ParsedOp& op, core::CallContext& ctx) {
  if (op.verb == "add" || op.verb == "deal") return add(op);
  if (op.verb == "remove" || op.verb == "set" || op.verb == "rename") return change_each(op, ctx);
  if (op.verb == "link") return link(op);
  if (op.verb == "fail")
    return make_error(op.positionals.empty() ? "failed on purpose" : op.positionals[0]);
  if (op.verb == "sleep") {
    int ms = op.positionals.empty() ? 100 : std::atoi(op.positionals[0].c_str());
    // Long work that stops when its call must (cancelled, past its time limit), as a layout does.
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(std::clamp(ms, 0, 10000));
    while (std::chrono::steady_clock::now() < until) {
      if (auto stop = core::call_stop()) return make_error("sleep stopped: " + *stop);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return core::OpOutcome{{core::meta("slept " + std::to_string(ms) + " ms")}, nullptr, {}, {}};
  }
  // emit TEXT: an op whose effect must be confirmed by the (fake) external system.
  std::string text = op.positionals.empty() ? "" : op.positionals[0];
  ctx.effects.emit({"/deck/emit", text, {{"/deck/unemit", text, {}}}});
  Card card{"emitted-" + text, "grey", {}};
  if (cards_.contains(card.name)) return make_error("already emitted " + text);
  put(card);
  return core::OpOutcome{
      {core::created("emit " + text)}, make_event(op.raw, {{std::nullopt, card}}), {}, {}};
}

std::optional<Result<core::QueryAnswer>> DeckDocument::query(std::string_view verb,
                                                             std::string_view args,
                                                             const core::CallContext& ctx) const {
  if (verb == "map" || verb == "list") {
    std::string out = "deck \"" + title_ + "\": " + std::to_string(cards_.size()) + " cards";
    std::vector<std::string> names;
    if (verb == "list" && !args.empty()) {
      auto op = core::parse_op("list " + std::string(args));
      if (!op) return Result<core::QueryAnswer>(op.error());
      auto selected = select(*op, ctx, 0);
      if (!selected) return Result<core::QueryAnswer>(selected.error());
      if (selected->names.empty()) {
        return Result<core::QueryAnswer>(core::QueryAnswer{
            selected->nothing_matched,
            core::QueryData{{{"cards", static_cast<std::int64_t>(cards_.size())}}}});
      }
      names = std::move(selected->names);
    } else {
      for (const auto& [name, card] : cards_)
        names.push_back(name);
    }
    core::QueryData data{{{"cards", static_cast<std::int64_t>(cards_.size())}}};
    for (const auto& name : names) {
      out += "\n  " + name + " " + cards_.at(name).color;
      data.add({name, name, "card", {{"color", cards_.at(name).color}}});
    }
    return Result<core::QueryAnswer>(core::QueryAnswer{out, std::move(data)});
  }
  if (verb == "stats") {
    return Result<core::QueryAnswer>(
        core::QueryAnswer{"cards:" + std::to_string(cards_.size()),
                          core::QueryData{{{"cards", static_cast<std::int64_t>(cards_.size())}}}});
  }
  if (verb == "describe") {
    const std::string written = "describe " + std::string(args);
    auto id = index_.resolve(args, {"card", written});
    if (!id) return Result<core::QueryAnswer>(id.error());
    const auto& card = cards_.at(*id);
    std::string links;
    for (const auto& l : card.links)
      links += " " + l;
    core::QueryData data{{{"cards", static_cast<std::int64_t>(cards_.size())}}};
    data.add({card.name,
              card.name,
              "card",
              {{"color", card.color}, {"links", static_cast<std::int64_t>(card.links.size())}}});
    return Result<core::QueryAnswer>(core::QueryAnswer{
        "card " + card.name + " color:" + card.color + " links:" + links, std::move(data)});
  }
  return std::nullopt;
}

// What `pin NOTE` remembers for a client: its next documents inherit it (SessionState::successor)
// and say so when made.
struct DeckSessionState final : core::SessionState {
  std::unique_ptr<core::SessionState> successor() const override {
    auto next = std::make_unique<DeckSessionState>();
    std::lock_guard lock(mutex);
    next->pin = pin;
    return next;
  }
  mutable std::mutex mutex;  // successor() runs on any thread
  std::string pin;
};

class DeckDomain final : public core::Domain {
 public:
  DeckDomain() {
    verbs_.add(core::VerbSpec{"add", "NAME", "cards", "create cards"}
                   .with(core::key("color", "C"))
                   .with(core::integer_key("count")));
    verbs_.add(core::VerbSpec{"remove", "REF|@SELECTOR", "cards", "delete cards"}.deletes());
    verbs_.add(core::VerbSpec{"set", "REF|@SELECTOR", "cards", "change colour"}.with(
        core::key("color", "C").require().also({"colour"})));
    verbs_.add(core::VerbSpec{"rename", "REF NEW", "cards", "rename a card"});
    verbs_.add(core::VerbSpec{"link", "A -> B [-> C…]", "links", "link cards"}.arrows());
    verbs_.add(core::VerbSpec{"fail", "[MESSAGE]", "testing", "always fails"});
    verbs_.add(core::VerbSpec{"sleep", "MS", "testing", "blocks for MS milliseconds"});
    verbs_.add(core::VerbSpec{"emit", "TEXT", "testing", "an external effect (fail/slow)"});
    // Positions are not modelled: the keys exist for the engine's placement announcements.
    verbs_.add(core::VerbSpec{"deal", "NAME", "testing", "add a card to a pile"}
                   .with(core::key("at", "SLOT").places("the bottom").apart_from({"top"}))
                   .with(core::bool_key("top", "on top of the pile")));
    verbs_.add_verb_synonym("delete", "remove");
    verbs_.add_key_synonym("shade", "color:{}");
  }
  std::string_view name() const override { return "deck"; }
  std::string_view display_name() const override { return "test cards"; }
  const core::VerbRegistry& verbs() const override { return verbs_; }
  std::string card_sections() const override { return core::selector_card(card_catalog()); }
  std::vector<core::VerbSpec> queries() const override {
    return {
        core::VerbSpec{"map", "map", "", "all cards"}.with_structured_answer(),
        core::VerbSpec{"list", "list [@SELECTOR]", "", "cards matching"}.with_structured_answer(),
        core::VerbSpec{"stats", "stats", "", "counts"}.with_structured_answer(),
        core::VerbSpec{"describe", "describe REF", "", "one card"}.with_structured_answer()};
  }
  std::vector<core::Synonym> query_synonyms() const override { return {{"cards", "list", {}}}; }
  std::vector<std::string> file_extensions() const override { return {"deck"}; }
  std::vector<core::VerbSpec> session_extensions() const override {
    return {core::VerbSpec{"pin", "NOTE", "", "remembered for this client's next documents"}};
  }
  std::unique_ptr<core::SessionState> new_session_state() const override {
    return std::make_unique<DeckSessionState>();
  }
  std::vector<std::string> adopt(core::Document&, core::SessionState* state) const override {
    auto* deck = static_cast<DeckSessionState*>(state);
    std::lock_guard lock(deck->mutex);
    if (deck->pin.empty()) return {};
    return {core::detail_line("pinned: " + deck->pin)};
  }
  Result<std::vector<std::string>> run_session_extension(const core::SessionCommand& command,
                                                         core::Document*,
                                                         core::CallContext& ctx) const override {
    const auto* note = command.positionals.empty() ? nullptr : &command.positionals.front();
    if (note == nullptr) return make_error("pin needs a NOTE", {"pin blue"});
    auto* deck = static_cast<DeckSessionState*>(ctx.state);
    std::lock_guard lock(deck->mutex);
    deck->pin = *note;
    return std::vector<std::string>{core::connection_changed("pinned " + *note)};
  }
  Result<std::unique_ptr<core::Document>> create(
      const core::SessionCommand& command) const override {
    const auto* title = command.arg("title");
    return std::unique_ptr<core::Document>(
        std::make_unique<DeckDocument>(title ? *title : "Untitled"));
  }
  Result<std::unique_ptr<core::Document>> load(const std::filesystem::path& path,
                                               const core::FileBytes& bytes,
                                               const core::ProgressFn&) const override {
    auto document = std::make_unique<DeckDocument>(path.stem().string());
    std::istringstream in{bytes.str()};
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      auto tab = line.find('\t');
      if (tab == std::string::npos)
        return make_error("line " + std::to_string(number) + ": expected NAME<TAB>COLOR");
      Card card{line.substr(0, tab), line.substr(tab + 1), {}};
      if (auto tab2 = card.color.find('\t'); tab2 != std::string::npos) {
        std::istringstream links(card.color.substr(tab2 + 1));
        card.color.resize(tab2);
        for (std::string link; std::getline(links, link, ',');)
          card.links.push_back(link);
      }
      document->put(card);
    }
    return std::unique_ptr<core::Document>(std::move(document));
  }
  core::EffectExecutor* effect_executor(core::Document& document) const override {
    return &static_cast<DeckDocument&>(document).executor;
  }

 private:
  core::VerbRegistry verbs_;
};

}  // namespace

std::unique_ptr<core::Domain> make_deck_domain() {
  return std::make_unique<DeckDomain>();
}

}  // namespace fcp::testing
