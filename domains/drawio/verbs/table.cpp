// The verb name → handler table.
#include <unordered_map>

#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {

VerbHandler find_verb_handler(std::string_view verb) {
  static const std::unordered_map<std::string_view, VerbHandler> handlers{
      {"add", verb_add},
      {"remove", verb_remove},
      {"define", verb_define},
      {"connect", verb_connect},
      {"disconnect", verb_disconnect},
      {"style", verb_style},
      {"label", verb_label},
      {"badge", verb_badge},
      {"move", verb_move},
      {"resize", verb_resize},
      {"swap", verb_swap},
      {"align", verb_align},
      {"distribute", verb_distribute},
      {"layout", verb_layout},
      {"orient", verb_orient},
      {"group", verb_group},
      {"ungroup", verb_ungroup},
      {"page", verb_page},
      {"layer", verb_layer},
      {"checkpoint", verb_checkpoint},
      {"title", verb_title},
      {"load", verb_load},
      {"export", verb_export},
      {"modify", verb_modify},
      {"copy", verb_copy},
      {"repeat", verb_repeat},
  };
  auto it = handlers.find(verb);
  return it == handlers.end() ? nullptr : it->second;
}

}  // namespace fcp::drawio
