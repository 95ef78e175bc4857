#include "domains/lofi/domain.hpp"

#include <charconv>

#include "core/response.hpp"
#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/document.hpp"
#include "domains/lofi/lofi_prompts.hpp"
#include "domains/lofi/lofi_verbs.hpp"
#include "domains/lofi/selection.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

long setting(const json::object& settings, std::string_view key, long fallback) {
  const json::value* value = settings.if_contains(key);
  if (value == nullptr || !value->is_number()) return fallback;
  boost::system::error_code ec;
  const auto number = value->to_number<long>(ec);
  return ec ? fallback : number;
}

// Waits (bounded) for a ping: is a Max daemon answering these options? The round trip in ms.
core::Result<double> probe(const std::shared_ptr<bridge::Bridge>& bridge) {
  auto pong = bridge->ping_and_wait();
  if (!pong) return pong.error();
  return pong->milliseconds;
}

std::string card_sections() {
  return "WIRE PROTOCOL: every op sends one OSC message /lofi/<verb> with one JSON argument to "
         "Max (127.0.0.1:7400 by default); replies come back on 7401 and carry the requestId. "
         "No Max answering = offline editing; `lofi_session sync` pushes the device later.\n"
         "PORTS: outlets and inlets count from 0 and are written out:N in:N (SRC:0 would be a "
         "key:value). An object opened from a file has the ports its box saved (p, bpatcher, "
         "gen~, poly~, abstractions); a new one the object table's for its class and args.\n"
         "MAX'S RULES: wire refuses a signal into an inlet that takes none (cycle~ -> / : try "
         "modify ID class:/~, the signal version; into live.dial or line~: a snapshot~ "
         "between) and a tapin~ into anything but a tapout~'s left inlet; wires a file has are "
         "kept. A class that is a typo of a known one (cylce~, live.panel) is refused with the "
         "class meant; other unknown classes are taken as abstractions or externals (ports not "
         "checked; external:true takes a typo-like name).\n"
         "TEXT: a message, comment, live.comment or textedit's text is its args (add message m "
         "args:\"active $1\"); describe shows it, find searches it. open and sync make opened "
         "boxes in Max as saved (text, attributes, subpatcher contents, parameters).\n"
         "UI LAYERS: name them with a z prefix (00_bg_panel, 30_rate_dial); a call's ui ops are "
         "sent as ONE /lofi/ui sorted by prefix (none = 50).\n"
         "ATTRIBUTES: modify and ui take Max's own names, checked against the object's class "
         "(a name the class lacks is refused with its close names). Values: numbers; colours "
         "\"r g b a\" 0-1 (\"r g b\" gets alpha 1); rects \"x y width height\"; named values by "
         "name or Max's code (parameter_unitstyle: int 0, float 1, time 2, hertz 3, decibel 4, "
         "% 5, pan 6, semitones 7, midi 8, custom 9, native 10; parameter_type: float 0, int 1, "
         "enum 2, blob 3); lists in quotes (parameter_enum:\"off on\"). Parameter attributes "
         "are saved in saved_attribute_attributes.valueof and set parameter_enable:1; "
         "parameter_initial:0.5 is saved as [0.5] and sets parameter_initial_enable:1. Replies "
         "list what the saved box now says.\n"
         "PLACES: a UI layer's place is its presentation_rect (ui at: size:, move, modify "
         "presentation_rect:); any other object's is its patching_rect. describe ID shows both.\n"
         "DEVICE: `modify device openinpresentation:1 devicewidth:600` (also keys of new); "
         "`resize to:WxH` sets devicewidth W and the patcher window; `describe device` shows "
         "them.\n"
         "MAP: map NAME ID is a Live API mapping: Max's map sets the object's "
         "parameter_longname NAME and parameter_shortname (the text in [brackets], else NAME), "
         "and parameter_enable:1 where it was 0; the reply lists them.\n"
         "UNDO: undo and redo also change Max (create ↔ remove, wire ↔ unwire, map ↔ unmap, an "
         "attribute back to its value, marked \"undo\": true); a batch Max rejects part-way is "
         "rolled back in the model and in Max.\n" +
         core::selector_card(selector_catalog()) +
         "EXAMPLE:\n"
         "  lofi_session: new \"Flutter\" width:600 height:170\n"
         "  lofi: [\"add plugin~ in\", \"add *~ vol\", \"add plugout~ out\", \"wire in -> vol -> "
         "out\", \"wire in -> vol out:1 in:0\", \"ui 00_bg panel at:0,0 size:600x170\", \"ui "
         "30_amount live.dial at:20,20 size:44x48\", \"map Amount 30_amount\"]\n"
         "  lofi_session: save as:Flutter.amxd\n";
}

class LofiDomain final : public core::Domain {
 public:
  LofiDomain(boost::asio::io_context& io, const json::object& settings) : hub_(io) {
    defaults_.host = settings.contains("host") && settings.at("host").is_string()
                         ? std::string(settings.at("host").as_string())
                         : defaults_.host;
    defaults_.port = static_cast<std::uint16_t>(setting(settings, "port", defaults_.port));
    defaults_.reply_port =
        static_cast<std::uint16_t>(setting(settings, "reply_port", defaults_.reply_port));
    defaults_.timeout = std::chrono::milliseconds(setting(settings, "timeout_ms", 5000));
    connect_on_new_ =
        !settings.contains("connect_on_new") ||
        (settings.at("connect_on_new").is_bool() && settings.at("connect_on_new").as_bool());
    probe_ = std::chrono::milliseconds(setting(settings, "probe_ms", 300));
  }

  std::string_view name() const override { return "lofi"; }
  std::string_view display_name() const override { return "Max for Live devices"; }
  const core::VerbRegistry& verbs() const override { return lofi_verb_table(); }
  std::string card_sections() const override { return lofi::card_sections(); }
  std::vector<core::VerbSpec> queries() const override { return lofi_queries(); }
  std::vector<core::Synonym> query_synonyms() const override {
    return {{"objects", "list", {}},  {"boxes", "list", {}},       {"connections", "wires", {}},
            {"links", "wires", {}},   {"patchcords", "wires", {}}, {"info", "describe", {}},
            {"show", "describe", {}}, {"search", "find", {}},      {"overview", "map", {}},
            {"summary", "map", {}}};
  }
  std::vector<core::KeySpec> new_document_keys() const override {
    return {
        core::integer_key("width", "N", "the patcher window (rect)").between(10, 4000),
        core::integer_key("height", "N", "the patcher window (rect)").between(10, 4000),
        core::integer_key("openinpresentation", "0|1", "1: opens in presentation").between(0, 1),
        core::number_key("devicewidth", "N", "the width Live gives the device; 0: auto")
            .between(0, 4000)};
  }
  std::vector<core::VerbSpec> session_extensions() const override {
    return {core::VerbSpec{"connect", "", "", "link to the Max daemon (ping first)"}
                .with(core::key("host", "H"))
                .with(core::integer_key("port").between(1, 65535).by_default("7400"))
                .with(core::integer_key("reply").between(0, 65535).by_default("7401"))
                .with(core::key("timeout", "5000|5s"))
                .example("connect port:7400 reply:7401"),
            {"disconnect", "", "", "edit offline"},
            {"sync", "", "", "push the whole device to Max"}};
  }
  std::vector<std::string> file_extensions() const override { return {"maxpat", "amxd"}; }
  std::vector<core::Prompt> prompts() const override { return lofi_prompts(); }

  core::Result<std::unique_ptr<core::Document>> create(
      const core::SessionCommand& command) const override {
    Device device;
    if (const std::string* title = command.arg("title")) device.info().name = *title;
    if (auto width = command.integer("width")) device.info().width = static_cast<double>(*width);
    if (auto height = command.integer("height"))
      device.info().height = static_cast<double>(*height);
    if (auto presentation = command.integer("openinpresentation"))
      device.info().openinpresentation = static_cast<int>(*presentation);
    if (auto width = command.number("devicewidth")) device.info().devicewidth = *width;
    auto document = std::make_unique<LofiDocument>(std::move(device));
    attach_if_answering(*document);
    return std::unique_ptr<core::Document>(std::move(document));
  }

  core::Result<std::unique_ptr<core::Document>> load(
      const std::filesystem::path& path, std::string_view bytes,
      const core::ProgressFn& progress) const override {
    (void)progress;
    auto device = read_device(bytes, path.stem().string());
    if (!device) return device.error();
    auto document = std::make_unique<LofiDocument>(std::move(*device));
    attach_if_answering(*document);
    return std::unique_ptr<core::Document>(std::move(document));
  }

  core::Result<std::vector<std::string>> run_session_extension(
      const core::SessionCommand& command, core::Document* document,
      core::CallContext& ctx) const override {
    auto* doc = static_cast<LofiDocument*>(document);
    if (doc == nullptr) return core::make_error("no device open", {"lofi_session new \"Device\""});
    if (command.command == "disconnect") {
      doc->link().set_bridge(nullptr);
      return std::vector<std::string>{
          core::connection_changed("disconnected from Max (editing offline)")};
    }
    if (command.command == "connect") {
      bridge::BridgeOptions options = defaults_;
      if (const std::string* host = command.param("host")) options.host = *host;
      if (auto port = command.integer("port")) options.port = static_cast<std::uint16_t>(*port);
      if (auto reply = command.integer("reply"))
        options.reply_port = static_cast<std::uint16_t>(*reply);
      if (const std::string* text = command.param("timeout")) {
        std::string digits = *text;
        if (digits.ends_with("ms")) digits.resize(digits.size() - 2);
        long factor = 1;
        if (!digits.empty() && digits.back() == 's') {
          digits.pop_back();
          factor = 1000;
        }
        auto value = core::to_integer(digits);
        if (!value || *value * factor < 50 || *value * factor > 60000)
          return core::make_error("invalid timeout:" + *text + " — 50ms..60s");
        options.timeout = std::chrono::milliseconds(*value * factor);
      }
      auto link = hub_.get(options);
      if (!link) return link.error();
      auto rtt = probe(*link);
      if (!rtt) return rtt.error();
      doc->link().set_bridge(*link);
      return std::vector<std::string>{core::connection_changed(
          "connected to Max at " + options.host + ":" + std::to_string(options.port) +
          " (replies on " + std::to_string((*link)->reply_port()) + ", " +
          std::to_string(static_cast<int>(*rtt)) + " ms round trip); sync pushes the device")};
    }
    if (command.command == "sync") {
      if (!doc->link().online())
        return core::make_error("offline: connect to Max first", {"lofi_session connect"});
      auto messages = build_messages(doc->device());
      const std::size_t count = merge_ui_layers(messages).size();  // as MaxLink will send them
      for (auto& message : messages)
        ctx.effects.emit(std::move(message));
      doc->link().mark_synced();
      return std::vector<std::string>{
          core::bulk("sync: " + core::plural(count, "message") + " to Max")};
    }
    return core::make_error("unknown session command \"" + command.command + "\"");
  }

  core::EffectExecutor* effect_executor(core::Document& document) const override {
    return &static_cast<LofiDocument&>(document).link();
  }

 private:
  // Links a new or opened device to Max when a daemon answers quickly; otherwise offline.
  void attach_if_answering(LofiDocument& document) const {
    if (!connect_on_new_) return;
    bridge::BridgeOptions options = defaults_;
    auto quick = options;
    quick.timeout = probe_;
    auto link = hub_.get(quick);
    if (!link) return;
    if (probe(*link)) {
      auto full = hub_.get(options);  // restore the configured timeout
      if (full) document.link().set_bridge(*full);
    }
  }

  mutable bridge::BridgeHub hub_;
  bridge::BridgeOptions defaults_;
  bool connect_on_new_ = true;
  std::chrono::milliseconds probe_{300};
};

}  // namespace

std::unique_ptr<core::Domain> make_lofi_domain(boost::asio::io_context& io,
                                               const json::object& settings) {
  return std::make_unique<LofiDomain>(io, settings);
}

}  // namespace fcp::lofi
