#include "domains/lofi/domain.hpp"

#include <fmt/format.h>

#include <charconv>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/document.hpp"
#include "domains/lofi/lofi_prompts.hpp"
#include "domains/lofi/lofi_verbs.hpp"
#include "domains/lofi/max_link.hpp"
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

// `timeout:5000`, `timeout:5s` or `timeout:800ms` as milliseconds (50 ms..60 s).
core::Result<std::chrono::milliseconds> parse_timeout(const std::string& text) {
  std::string digits = text;
  if (digits.ends_with("ms")) digits.resize(digits.size() - 2);
  long factor = 1;
  if (!digits.empty() && digits.back() == 's') {
    digits.pop_back();
    factor = 1000;
  }
  auto value = core::to_integer(digits);
  if (!value || *value * factor < 50 || *value * factor > 60000)
    return core::make_error("invalid timeout:" + text + " — 50ms..60s",
                            {"lofi_session connect timeout:5s"});
  return std::chrono::milliseconds(*value * factor);
}

std::string where(const bridge::BridgeOptions& options) {
  return options.host + ":" + std::to_string(options.port);
}

std::string card_sections() {
  return "WIRE PROTOCOL: every op sends one OSC message /lofi/<verb> with one JSON argument to "
         "Max (127.0.0.1:7400 by default); replies come back on 7401 and carry the requestId. "
         "No Max answering = offline editing; `lofi_session sync` pushes the device later.\n"
         "MAX LINK (OFFLINE): `lofi_session connect host: port: reply: timeout:` works with no "
         "device open and is remembered for the session (later new/open link to it); status "
         "with no device open shows that link (max: lines: the address, online or offline, what "
         "Max holds). A ping "
         "nobody answers within probe_ms (connect, new, open, status) or an op Max does not "
         "answer within timeout: switches the session offline with one line; ops then change "
         "the model only (no waiting), status counts them, and `connect` then `sync` pushes "
         "them. The digest's max:online/max:offline says which. Status and connect compare "
         "Max's device name, object count and id hash with the model and say `try: "
         "lofi_session sync` when they differ (Max restarted, another session re-initialised "
         "it). One Max is shared by the sessions linked to it and driven by one of them: "
         "status says so; a second session's new/open stays offline and its sync is refused "
         "unless `sync takeover:true` (the first session then edits offline). sync sends 32 "
         "messages in flight and reports progress.\n"
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
         "sent as ONE /lofi/ui sorted by prefix (none = 50), and a layer lands among the layers "
         "of earlier calls by its prefix (a later 01_bg2 goes behind existing 30_ dials, in the "
         "file and in Max). A panel layer named as the background (a 00 prefix or the word bg or "
         "background: 00_bg, 01_bg2, bg_main) is saved with Max's background:1, drawn behind "
         "every control in presentation and patching (the reply says so; background:0 in the ui "
         "op keeps it in front; other boxes: modify ID background:1). A new layer's "
         "patching_rect is its presentation place shifted right of the audio objects. A control "
         "past an explicit devicewidth gets a ? warning (after an undo or redo too); without "
         "one, a control outside the size new asked for does (status shows both widths). A "
         "comment or live.comment whose text is wider than its box gets a ? warning with the "
         "width that fits (Max would wrap it and show its first line; estimated from Arial's "
         "character widths at its fontsize, 12 for a comment, 9 for a live.comment, plus "
         "Max's ~8.5 px padding); add comment without size: makes the box that wide.\n"
         "ATTRIBUTES: modify and ui take Max's own names, checked against the object's class "
         "(a name the class lacks is refused with its close names). Values: numbers; colours "
         "\"r g b a\" 0-1 (\"r g b\" gets alpha 1); rects \"x y width height\"; named values by "
         "name or Max's code (parameter_unitstyle: int 0, float 1, time 2, hertz 3, decibel 4, "
         "% 5, pan 6, semitones 7, midi 8, custom 9, native 10; parameter_type: float 0, int 1, "
         "enum 2, blob 3); lists in quotes (parameter_enum:\"off on\"). Parameter attributes "
         "are saved in saved_attribute_attributes.valueof and set parameter_enable:1; a new "
         "parameter (the first parameter attribute, or map) also gets parameter_type and, "
         "for dial, numbox, slider and gain~, parameter_unitstyle at their defaults, as Max "
         "writes them; "
         "parameter_initial:0.5 is saved as [0.5] and sets parameter_initial_enable:1; "
         "parameter_exponent:3 gives a frequency dial more travel at the low end. Replies "
         "list what the saved box now says (a comment's or message's text too).\n"
         "PLACES: a UI layer's place is its presentation_rect (ui at: size:, move, modify "
         "presentation_rect:); any other object's is its patching_rect. describe ID shows both.\n"
         "DEVICE: `modify device openinpresentation:1 devicewidth:600` (also keys of new; "
         "devicewidth 0 = as wide as the presentation); `resize to:WxH` sets devicewidth W and "
         "the patcher window; `describe device` shows them. A new device's window (rect) is at "
         "least the size new or resize asked for, grown to hold every box in both views (40 px "
         "right, 80 below) so it opens with its objects in sight; an opened file keeps its rect "
         "unless resized. A saved device carries Max's "
         "patcher \"parameters\" dictionary (obj-N: [longname, shortname, 0] per Live "
         "parameter, parameterbanks) and a new one openrect [0 0 0 169].\n"
         "MAP: map NAME ID is a Live API mapping: Max's map sets the object's "
         "parameter_longname NAME and parameter_shortname (the text in [brackets], else NAME), "
         "and parameter_enable:1 where it was 0; the reply lists them. modify ID "
         "parameter_longname:NEW on a mapped object renames its Live parameter (range, unit, "
         "initial and a parameter_shortname other than the old long name stay; one equal to it "
         "follows the new name; undo restores both names).\n"
         "FILES: a box keeps its obj-N id across saves (new boxes take the next free number), "
         "so saved devices diff cleanly. Boxes are listed front to back as Max lists them (the "
         "newest first, the backmost last).\n"
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
        core::integer_key("width", "N",
                          "the patcher window (rect), at least: it grows to hold the "
                          "objects")
            .between(10, 4000),
        core::integer_key("height", "N", "the patcher window (rect), at least").between(10, 4000),
        core::integer_key("openinpresentation", "0|1", "1: opens in presentation").between(0, 1),
        core::number_key("devicewidth", "N", "the width Live gives the device; 0: auto")
            .between(0, 4000)};
  }
  std::vector<core::VerbSpec> session_extensions() const override {
    return {
        core::VerbSpec{"connect", "", "",
                       "link this session to the Max daemon (a ping first; works with no "
                       "device open; remembered for the session's later devices; no answer: "
                       "offline, remembered). With a device open, pushes it as sync does when "
                       "Max lacks it or it changed offline"}
            .with(core::key("host", "H"))
            .with(core::integer_key("port").between(1, 65535).by_default("7400"))
            .with(core::integer_key("reply").between(0, 65535).by_default("7401"))
            .with(core::key("timeout", "5000|5s", "how long an op waits for Max's reply"))
            .with(core::bool_key("takeover", "drive Max's device even though another session does"))
            .example("connect port:7400 reply:7401")
            .example("connect takeover:true"),
        {"disconnect", "", "", "edit offline (the session forgets nothing but the link)"},
        core::VerbSpec{"sync", "", "",
                       "re-initialise Max with the whole device (32 messages in flight, "
                       "progress per confirmation)"}
            .with(core::bool_key("takeover",
                                 "re-initialise Max even though another session drives it"))
            .example("sync")
            .example("sync takeover:true")};
  }
  std::vector<std::string> file_extensions() const override { return {"maxpat", "amxd"}; }
  // A .maxpat is JSON; a Max for Live device (.amxd) is JSON inside a binary container.
  std::string file_mime_type(const std::filesystem::path& path,
                             std::string_view bytes) const override {
    (void)path;
    return bytes.starts_with("ampf") ? "application/octet-stream" : "application/json";
  }
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
    return std::unique_ptr<core::Document>(std::make_unique<LofiDocument>(std::move(device)));
  }

  std::size_t estimated_bytes_for_file(std::size_t file_bytes) const override {
    return file_bytes * kBytesPerFileByte;
  }

  core::Result<std::unique_ptr<core::Document>> load(
      const std::filesystem::path& path, const core::FileBytes& bytes,
      const core::ProgressFn& progress) const override {
    (void)progress;
    auto device = read_device(bytes.view(), path.stem().string());
    if (!device) return device.error();
    return std::unique_ptr<core::Document>(std::make_unique<LofiDocument>(std::move(*device)));
  }

  std::unique_ptr<core::SessionState> new_session_state() const override {
    return std::make_unique<LofiSessionState>();
  }

  std::vector<std::string> adopt(core::Document& document,
                                 core::SessionState* state) const override {
    auto& doc = static_cast<LofiDocument&>(document);
    doc.set_status_wait(probe_);
    if (state == nullptr) return {};
    auto& lofi_state = *static_cast<LofiSessionState*>(state);
    lofi_state.adopted = true;
    auto& link = lofi_state.link;
    doc.set_link(link);
    const auto remembered = link->remembered();
    if (!remembered && !connect_on_new_) return {};
    auto options = remembered.value_or(defaults_);
    auto bridge = link->bridge();
    if (!bridge) {
      auto opened = hub_.get(options);
      if (!opened) {
        if (remembered) {
          link->remember(options, opened.error().message);
        } else {
          link->unlink(opened.error().message);
        }
        return remembered ? std::vector<std::string>{core::warning_line("max: offline — " +
                                                                        opened.error().message)}
                          : std::vector<std::string>{};
      }
      bridge = *opened;
    }
    if (auto pong = bridge->ping_and_wait(probe_); !pong) {
      const std::string reason = "Max at " + where(options) + " did not answer a ping within " +
                                 std::to_string(probe_.count()) + " ms";
      // Never connected: offline is what the digest says, and nothing is remembered.
      if (!remembered) {
        link->unlink(reason);
        return {};
      }
      link->remember(options, reason);
      return {core::warning_line("max: offline — Max at " + where(options) +
                                 " did not answer a ping within " + std::to_string(probe_.count()) +
                                 " ms; this session edits the model only (lofi_session connect "
                                 "pushes the device once it answers)")};
    }
    link->link(bridge);
    // The client's next document (LofiSessionState::successor) takes Max's device over from the
    // document it worked on, and the place on the bridge of its session without a document.
    const auto predecessor = lofi_state.predecessor.lock();
    const bool inherits_drive = predecessor && bridge->drives(predecessor.get());
    if (predecessor && !lofi_state.predecessor_adopted) {
      predecessor->unlink("the link went to the device that new/open made");
    }
    if (auto driven = link->drive(doc.device().info().name, inherits_drive); !driven) {
      return {core::warning_line("max: offline for this device — " + driven.error().message +
                                 " (lofi_session sync takeover:true makes this device Max's)")};
    }
    return {};
  }

  // A device rebuilt from its journal is linked like a new one (the client's remembered Max),
  // but Max does not hold it: the reply says whether it is linked and how to push it there.
  std::vector<std::string> restored(core::Document& document,
                                    core::SessionState* state) const override {
    auto lines = adopt(document, state);
    const auto& link = static_cast<LofiDocument&>(document).link();
    if (link.online()) {
      const auto options = link.remembered().value_or(defaults_);
      lines.push_back(core::connection_changed(
          "max: linked to Max at " + where(options) +
          "; Max does not hold the recovered device until lofi_session sync pushes it"));
      lines.emplace_back("  try: lofi_session sync");
    } else if (lines.empty()) {
      lines.push_back(
          core::detail_line("max: not linked — the recovered device is edited in the model only "
                            "(lofi_session connect links it and pushes it to Max)"));
    }
    return lines;
  }

  core::Result<std::vector<std::string>> run_session_extension(
      const core::SessionCommand& command, core::Document* document,
      core::CallContext& ctx) const override {
    auto* doc = static_cast<LofiDocument*>(document);
    auto* state = static_cast<LofiSessionState*>(ctx.state);
    if (command.command == "connect") return connect(command, doc, state, ctx);
    if (command.command == "disconnect") {
      if (state != nullptr) state->link->unlink("disconnected by lofi_session disconnect");
      if (doc != nullptr && (state == nullptr || &doc->link() != state->link.get()))
        doc->link().unlink("disconnected by lofi_session disconnect");
      return std::vector<std::string>{
          core::connection_changed("disconnected from Max (editing offline)")};
    }
    if (doc == nullptr) return core::make_error("no device open", {"lofi_session new \"Device\""});
    if (command.command == "sync") return sync(command, *doc, ctx);
    return core::make_error("unknown session command \"" + command.command + "\"");
  }

  // `ping` with no device open asks the session's Max (what `connect` linked, else the Max it
  // remembers) what it holds.
  std::optional<core::Result<std::string>> query_without_document(
      std::string_view verb, std::string_view args, core::SessionState* state) const override {
    (void)args;
    if (verb != "ping" || state == nullptr) return std::nullopt;
    const auto& link = *static_cast<LofiSessionState*>(state)->link;
    auto bridge = link.bridge();
    if (!bridge) {
      const auto remembered = link.remembered();
      if (!remembered) return ping_max(nullptr, nullptr);
      auto opened = hub_.get(*remembered);
      if (!opened) return core::Result<std::string>(opened.error());
      bridge = *opened;
    }
    return ping_max(bridge, nullptr);
  }

  // `status` with no device open: the session's Max link (what `connect` made, pinged within
  // probe_ms) and what Max holds.
  std::vector<std::string> status_without_document(core::SessionState* state) const override {
    if (state == nullptr) return {};
    return static_cast<LofiSessionState*>(state)->link->status_lines(nullptr, probe_);
  }

  core::EffectExecutor* effect_executor(core::Document& document) const override {
    return &static_cast<LofiDocument&>(document).link();
  }

 private:
  core::Result<bridge::BridgeOptions> connect_options(const core::SessionCommand& command,
                                                      const MaxLink* link) const {
    bridge::BridgeOptions options = defaults_;
    if (link != nullptr) options = link->remembered().value_or(defaults_);
    if (const std::string* host = command.param("host")) options.host = *host;
    if (auto port = command.integer("port")) options.port = static_cast<std::uint16_t>(*port);
    if (auto reply = command.integer("reply"))
      options.reply_port = static_cast<std::uint16_t>(*reply);
    if (const std::string* text = command.param("timeout")) {
      auto timeout = parse_timeout(*text);
      if (!timeout) return timeout.error();
      options.timeout = *timeout;
    }
    return options;
  }

  // `connect`: probes Max (probe_ms); the options are remembered for the session either way,
  // and the open device (if any) is linked when Max answers and nobody else drives it. Max is
  // then brought up to date with the device (the push `sync` makes) unless it already holds it
  // and no change was made offline.
  core::Result<std::vector<std::string>> connect(const core::SessionCommand& command,
                                                 LofiDocument* doc, LofiSessionState* state,
                                                 core::CallContext& ctx) const {
    MaxLink* link = state != nullptr ? state->link.get() : (doc ? &doc->link() : nullptr);
    if (link == nullptr) return core::make_error("no session to connect");
    auto options = connect_options(command, link);
    if (!options) return options.error();
    auto bridge = hub_.get(*options);
    if (!bridge) return bridge.error();
    auto pong = (*bridge)->ping_and_wait(probe_);
    if (!pong) {
      link->remember(*options, "Max at " + where(*options) + " did not answer a ping within " +
                                   std::to_string(probe_.count()) + " ms");
      return std::vector<std::string>{core::warning_line(
          "max: offline — Max at " + where(*options) + " did not answer a ping within " +
          std::to_string(probe_.count()) + " ms (is the lofi daemon patch open, on udpreceive " +
          std::to_string(options->port) + " and sending to port " +
          std::to_string((*bridge)->reply_port()) +
          "?); remembered for this session: ops change the model only until lofi_session "
          "connect succeeds and pushes the device")};
    }
    link->link(*bridge);
    std::vector<std::string> lines{core::connection_changed(
        "connected to Max at " + where(*options) + " (replies on " +
        std::to_string((*bridge)->reply_port()) + ", " + round_trip_text(pong->milliseconds) +
        " round trip); remembered for this session")};
    if (const auto sessions = (*bridge)->sessions(); sessions > 1)
      lines.push_back(core::warning_line("this Max is shared by " + std::to_string(sessions) +
                                         " sessions; one at a time drives its device"));
    if (doc == nullptr) return lines;
    if (auto driven = link->drive(doc->device().info().name, says_takeover(command)); !driven) {
      lines.push_back(core::warning_line("this device stays offline — " + driven.error().message));
      lines.push_back(core::detail_line("try: lofi_session sync takeover:true"));
      return lines;
    }
    const auto max = pong_fingerprint(pong->reply.body);
    const Fingerprint model = device_fingerprint(doc->device());
    const std::size_t offline_changes = doc->link().unsynced();
    if (max && *max == model && offline_changes == 0) {
      lines.push_back(core::detail_line("max: holds this device (" +
                                        core::plural(model.objects, "object") + ", hash " +
                                        max->hash + "); nothing to sync"));
      return lines;
    }
    // Why Max lacks the device, as its ping and this session's count tell it.
    std::string why;
    if (!max) {
      why = "Max did not say what it holds";
    } else if (max->device.empty()) {
      why = "Max held no device";
    } else if (*max != model) {
      why =
          fmt::format("Max held \"{}\" with {}", max->device, core::plural(max->objects, "object"));
    } else {
      why = core::plural(offline_changes, "change") + " made offline";
    }
    const auto& device = doc->device();
    const std::size_t messages = push_device(*doc, ctx);
    lines.push_back(core::bulk(fmt::format("synced {}, {} to Max ({}; {}, up to {} in flight)",
                                           core::plural(device.objects().size(), "object"),
                                           core::plural(device.wires().size(), "wire"), why,
                                           core::plural(messages, "message"), kSyncWindow)));
    return lines;
  }

  // Sends Max the whole device (/lofi/init, then its objects, wires, mappings and scripts) with
  // a window of requests in flight: what `sync` does, and `connect` when Max lacks the device.
  // Returns how many messages MaxLink sends.
  static std::size_t push_device(LofiDocument& doc, core::CallContext& ctx) {
    auto messages = build_messages(doc.device());
    const std::size_t count = merge_ui_layers(messages).size();  // as MaxLink will send them
    for (auto& message : messages)
      ctx.effects.emit(std::move(message));
    doc.link().expect_sync();
    doc.link().mark_synced();
    return count;
  }

  core::Result<std::vector<std::string>> sync(const core::SessionCommand& command,
                                              LofiDocument& doc, core::CallContext& ctx) const {
    auto& link = doc.link();
    if (!link.bridge()) {
      const auto remembered = link.remembered();
      return core::make_error(
          "offline: connect to Max first" +
              (remembered ? " (Max at " + where(*remembered) + " did not answer)" : std::string()),
          {"lofi_session connect"});
    }
    if (auto driven = link.drive(doc.device().info().name, says_takeover(command)); !driven) {
      return core::make_error(driven.error().message + "; sync would re-initialise Max",
                              {"lofi_session sync takeover:true"});
    }
    const std::size_t count = push_device(doc, ctx);
    return std::vector<std::string>{core::bulk("sync: " + core::plural(count, "message") +
                                               " to Max, up to " + std::to_string(kSyncWindow) +
                                               " in flight")};
  }

  static bool says_takeover(const core::SessionCommand& command) {
    const std::string* value = command.param("takeover");
    if (value == nullptr) return false;
    const std::string word = core::to_lower(*value);
    return word == "true" || word == "yes" || word == "on" || word == "1";
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
