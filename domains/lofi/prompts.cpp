// The lofi domain's guided prompts (MCP prompts): build-device, max-constraints,
// object-reference, status — written for this project's four tools.
#include <string>

#include "domains/lofi/lofi_prompts.hpp"
#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi {
namespace {

std::string arg(const std::map<std::string, std::string>& arguments, const std::string& key,
                const std::string& fallback) {
  auto it = arguments.find(key);
  return it == arguments.end() || it->second.empty() ? fallback : it->second;
}

std::string build_device(const std::map<std::string, std::string>& a) {
  const std::string name = arg(a, "name", "My Device");
  const std::string idea = arg(a, "idea", "a simple audio effect with a few knobs");
  return "Build a Max for Live device called \"" + name + "\": " + idea +
         ".\n\nWork step by step with the lofi tools:\n"
         "1. lofi_session 'new \"" +
         name +
         "\" width:600 height:170 openinpresentation:1 devicewidth:600' (Live shows the "
         "presentation, 600 wide; devicewidth:0 would follow the presentation). It links to Max "
         "when the lofi daemon patch answers (or `lofi_session connect port:7400 reply:7401` "
         "first, remembered for the session); otherwise the digest says max:offline, you edit "
         "the model only, and `lofi_session connect` then `sync` pushes it later.\n"
         "2. The signal path in ONE lofi call: add the objects (`add plugin~ in`, `add *~ gain "
         "args:0.5`, `add plugout~ out`), then wire them (`wire in -> gain -> out`, and "
         "`wire in -> gain out:1 in:1` for the right channel). Ports count from 0 and are "
         "written out:N in:N.\n"
         "3. The interface in ONE lofi call: `ui 00_bg panel at:0,0 size:600x170 bgcolor:\"0.1 "
         "0.1 0.1 1\"` first (named as a background, it is saved with Max's background:1, behind "
         "every control), then controls with z prefixes (`ui 30_gain live.dial at:20,20 "
         "size:44x48`). All ui ops of a call reach Max as one z-sorted batch; a layer added in a "
         "later call still lands by its prefix (`ui 01_bg2 …` goes behind the dials). Keep "
         "controls inside the devicewidth (a ? warning says when one is not).\n"
         "4. Give each control its Live parameter with Max's attribute names (`modify 30_gain "
         "parameter_longname:Gain parameter_shortname:Gain parameter_mmin:-70 parameter_mmax:6 "
         "parameter_unitstyle:decibel parameter_initial:0`; parameter_type float/int/enum, "
         "parameter_enum:\"off on\"; unit styles by name or code; a name the class lacks is "
         "refused with close names), connect controls to the audio path (`wire 30_gain -> gain "
         "in:1`) and expose them to Live (`map Gain 30_gain`: the reply says what it sets; the "
         "saved device lists them in its parameters dictionary).\n"
         "5. Check with lofi_query 'map', 'describe ID' (the saved box) and 'describe device', "
         "and the ? warnings (unwired objects, UI outside the device), fix, then lofi_session "
         "'save as:" +
         name +
         ".amxd'.\n"
         "If a batch fails, nothing of it remains (in the model or in Max): read the ! line and "
         "its try: suggestion, then resend the corrected batch.";
}

std::string constraints(const std::map<std::string, std::string>&) {
  return "Max constraints the lofi tools respect (keep them in mind when planning a device):\n"
         "- One OSC message per request: /lofi/<verb> with ONE JSON string argument (Max splits "
         "raw text at commas). Replies come back on 7401 with the request's id.\n"
         "- Devices are subpatchers made with newdefault(…, \"p\", name).subpatcher(); never "
         "new Patcher().\n"
         "- newdefault ignores sizes: patching_rect is set afterwards; UI objects get "
         "presentation 1 and presentation_rect.\n"
         "- UI layers are created one every 20 ms by a Task kept in a global; z-order is "
         "creation order, so name layers with numeric prefixes (00_bg, 30_dial; none = 50).\n"
         "- Code is loaded by absolute file path (inject ID path:FILE.js), never sent over UDP.\n"
         "- Max truncates symbols at 32 767 characters: large UI batches are split in order.\n"
         "- Without Max answering within the timeout (5 s), the op fails, is rolled back and the "
         "session goes offline (one line; later ops edit the model only, no waiting); "
         "lofi_session connect when Max answers again (it pushes the device to Max). lofi_query "
         "ping checks the "
         "link; status compares what Max holds with the model.\n"
         "- One Max is driven by one session at a time; another session's sync needs "
         "takeover:true.";
}

std::string reference(const std::map<std::string, std::string>& a) {
  const std::string filter = arg(a, "filter", "");
  std::string out = "Max objects the lofi tools know (class: inlets/outlets — description):\n";
  for (const auto& info : maxpat::objects()) {
    const std::string cls(info.maxclass);
    if (!filter.empty() && cls.find(filter) == std::string::npos) continue;
    out += "- " + cls + ": " + std::to_string(info.inlets) + "/" + std::to_string(info.outlets) +
           (info.ui ? " (UI)" : "") + " — " + std::string(info.description) + "\n";
  }
  out += "Use them with `add CLASS ID` (or `ui NAME CLASS …` for UI classes).";
  return out;
}

std::string status(const std::map<std::string, std::string>&) {
  return "Check the link to Max and the device:\n"
         "1. lofi_query 'ping' — is the lofi daemon answering? (ports, round trip, pending).\n"
         "2. lofi_query 'status' — file, unsaved changes, offline edits not yet in Max.\n"
         "3. If Max is not answering: open max/lofi-daemon.maxpat in Max (udpreceive 7400 → v8 "
         "lofi-daemon.js → udpsend 127.0.0.1 7401), then lofi_session 'connect' and "
         "lofi_session 'sync'. Without Max, `fcpd simulate-max` answers like Max does.\n"
         "Report what you find in two lines.";
}

}  // namespace

std::vector<core::Prompt> lofi_prompts() {
  return {
      {"build-device",
       "Build a Max for Live device",
       "Guided steps to build a device with the lofi tools",
       {{"name", "the device's name", false}, {"idea", "what the device should do", false}},
       build_device},
      {"max-constraints",
       "Max constraints",
       "What Max requires and how the lofi tools respect it",
       {},
       constraints},
      {"object-reference",
       "Max object reference",
       "The Max objects the tools know, with ports",
       {{"filter", "only classes containing this text (e.g. live.)", false}},
       reference},
      {"status", "Connection status", "Check the link to Max and the device", {}, status},
  };
}

}  // namespace fcp::lofi
