// Structure verbs: page (add, switch, remove, list, duplicate, rename) and layer (create,
// switch, show, hide, lock, unlock, list, move, rename, remove).
#include <unordered_map>

#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

std::string subcommand(const OpContext& ctx) {
  return ctx.op.positionals.empty() ? std::string() : core::to_lower(ctx.op.positionals[0]);
}

std::string argument(const OpContext& ctx) {
  return ctx.op.positionals.size() > 1 ? ctx.op.positionals[1] : std::string();
}

core::Result<std::size_t> find_page(const OpContext& ctx, std::string_view name) {
  const auto& pages = ctx.doc.diagram().pages();
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (pages[i].name() == name) return i;
  }
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (core::to_lower(pages[i].name()) == core::to_lower(name)) return i;
  }
  // A 1-based page number.
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos &&
      name.size() < 6) {
    const std::size_t number = std::stoul(std::string(name));
    if (number >= 1 && number <= pages.size()) return number - 1;
  }
  std::vector<std::string> names;
  for (const auto& page : pages)
    names.emplace_back(page.name());
  return core::unknown_reference({"page", ctx.op.raw}, name, names);
}

std::string page_stats(const DrawioDocument& doc, std::size_t page) {
  const PageIndex& idx = doc.index(page);
  return core::plural(idx.shapes(), "shape") + ", " + core::plural(idx.edges(), "edge");
}

}  // namespace

std::string layer_name(const Page& page, const Cell& layer) {
  std::string name = cell_label(layer);
  if (!name.empty()) return name;
  const auto layers = page.layers();
  if (!layers.empty() && layers.front() == &layer) return "Default";
  return "Layer-" + layer.id;
}

namespace {

core::Result<std::string> find_layer(const OpContext& ctx, std::string_view name) {
  const auto layers = ctx.page().layers();
  for (const Cell* layer : layers) {
    if (layer_name(ctx.page(), *layer) == name || layer->id == name) return layer->id;
  }
  for (const Cell* layer : layers) {
    if (core::to_lower(layer_name(ctx.page(), *layer)) == core::to_lower(name)) return layer->id;
  }
  std::vector<std::string> names;
  for (const Cell* layer : layers)
    names.push_back(layer_name(ctx.page(), *layer));
  return core::unknown_reference({"layer", ctx.op.raw}, name, names);
}

// A copy of `source` with every cell id replaced by a fresh one (references follow).
Page duplicate_page(OpContext& ctx, const Page& source, const std::string& name) {
  std::unordered_map<std::string, std::string> ids;
  for (const Cell& cell : source.cells()) {
    if (!cell.id.empty()) ids.emplace(cell.id, ctx.doc.allocate_id());
  }
  auto remap = [&](std::optional<std::string>& ref) {
    if (!ref) return;
    if (auto it = ids.find(*ref); it != ids.end()) ref = it->second;
  };
  Page copy;
  copy.diagram_attributes() = source.diagram_attributes();
  copy.diagram_attributes().set("id", ctx.doc.allocate_id());
  copy.diagram_attributes().set("name", name);
  copy.model_attributes() = source.model_attributes();
  copy.root_attributes() = source.root_attributes();
  copy.diagram_extras() = source.diagram_extras();
  copy.model_extras() = source.model_extras();
  for (const Cell& cell : source.cells()) {
    Cell clone = cell;
    if (auto it = ids.find(clone.id); it != ids.end()) clone.id = it->second;
    remap(clone.parent);
    remap(clone.source);
    remap(clone.target);
    copy.append_from_file(std::move(clone));
  }
  return copy;
}

core::Result<void> set_active_page(OpContext& ctx, std::size_t page) {
  ctx.edit.update_state([&](DocumentState& state) { state.active_page = page; });
  return {};
}

}  // namespace

core::Result<void> verb_page(OpContext& ctx) {
  const std::string sub = subcommand(ctx);
  const std::string name = argument(ctx);
  const auto& pages = ctx.doc.diagram().pages();
  if (sub == "list") {
    ctx.lines.push_back(core::meta("pages:"));
    for (std::size_t i = 0; i < pages.size(); ++i) {
      ctx.lines.push_back(core::detail_line(std::string(pages[i].name()) + " (" +
                                            (i == ctx.doc.active_page_index() ? "active, " : "") +
                                            page_stats(ctx.doc, i) + ")"));
    }
    return {};
  }
  if (sub.empty() || name.empty()) {
    return core::make_error(
        sub.empty() ? "page requires a subcommand" : "page " + sub + " requires a page name",
        {"page add \"Page-2\"", "page switch \"Page-1\"", "page list",
         "page duplicate \"Page-1\" as:Copy", "page rename \"Page-1\" as:Overview",
         "page remove \"Page-2\""});
  }
  if (sub == "add") {
    Page page = Page::make_blank(ctx.doc.allocate_id(), name);
    const std::string page_id(page.id());
    ctx.edit.update_state([&](DocumentState& state) { state.sized_pages.insert(page_id); });
    ctx.edit.insert_page(pages.size(), std::move(page));
    set_active_page(ctx, ctx.doc.diagram().pages().size() - 1);
    ctx.lines.push_back(core::created("page " + name));
    return {};
  }
  auto index = find_page(ctx, name);
  if (!index) return index.error();
  const std::string page_name(pages[*index].name());
  if (sub == "switch") {
    set_active_page(ctx, *index);
    ctx.lines.push_back(core::property_changed("switched to page " + page_name));
  } else if (sub == "remove") {
    if (pages.size() == 1)
      return core::make_error("cannot remove page \"" + page_name + "\": it is the only page");
    ctx.edit.erase_page(*index);
    ctx.lines.push_back(core::deleted("page " + page_name));
  } else if (sub == "duplicate") {
    const std::string copy_name = ctx.op.param_or("as", page_name + " (copy)");
    Page copy = duplicate_page(ctx, pages[*index], copy_name);
    ctx.edit.insert_page(*index + 1, std::move(copy));
    set_active_page(ctx, *index + 1);
    ctx.lines.push_back(core::created("page " + copy_name + " (copy of " + page_name + ")"));
  } else if (sub == "rename") {
    const std::string* to = ctx.op.param("as");
    if (to == nullptr || to->empty())
      return core::make_error("page rename requires as:NEW",
                              {"page rename " + quote_token(page_name) + " as:Overview"});
    ctx.edit.update_page_attributes(*index,
                                    [&](Attributes& attributes) { attributes.set("name", *to); });
    ctx.lines.push_back(core::property_changed("page " + page_name + " renamed " + *to));
  } else {
    return core::make_error("unknown page subcommand \"" + sub +
                            "\" — add, switch, remove, list, duplicate, rename");
  }
  return {};
}

core::Result<void> verb_layer(OpContext& ctx) {
  const std::string sub = subcommand(ctx);
  if (sub == "list") {
    ctx.lines.push_back(core::meta("layers:"));
    const std::string active = ctx.doc.active_layer();
    for (const Cell* layer : ctx.page().layers()) {
      std::vector<std::string> flags;
      if (layer->id == active) flags.emplace_back("active");
      if (!layer->is_visible()) flags.emplace_back("hidden");
      if (layer->is_locked()) flags.emplace_back("locked");
      std::string entry = layer_name(ctx.page(), *layer);
      if (!flags.empty()) {
        entry += " (";
        for (std::size_t i = 0; i < flags.size(); ++i)
          entry += (i ? ", " : "") + flags[i];
        entry += ")";
      }
      ctx.lines.push_back(core::detail_line(entry));
    }
    return {};
  }
  if (sub == "move") {
    // layer move REF… to:LAYER
    const std::string* to = ctx.op.param("to");
    auto tokens = ordered_tokens(ctx.op);
    if (!tokens.empty()) tokens.erase(tokens.begin());
    if (to == nullptr || tokens.empty())
      return core::make_error("layer move requires shapes and to:LAYER",
                              {"layer move Auth to:Background", "layer move @type:db to:Data"});
    auto layer = find_layer(ctx, *to);
    if (!layer) return layer.error();
    auto targets = resolve_targets(ctx, tokens, resolve_shape_or_group);
    if (!targets) return targets.error();
    if (nothing_to_change(ctx, *targets)) return {};
    std::size_t moved = 0;
    for (const auto& id : targets->ids) {
      if (!parent_group(ctx, id).empty()) continue;  // moves with its group
      const Rect r = bounds_of(ctx, id);
      ctx.edit.update(id, [&](Cell& cell) {
        cell.parent = *layer;
        if (cell.geometry) {
          cell.geometry->x = r.x;
          cell.geometry->y = r.y;
        }
      });
      ++moved;
    }
    ctx.lines.push_back(core::bulk("moved " + core::plural(moved, "shape") + " to layer " + *to));
    return {};
  }
  const std::string name = argument(ctx);
  if (sub.empty() || name.empty())
    return core::make_error(
        sub.empty() ? "layer requires a subcommand" : "layer " + sub + " requires a layer name",
        {"layer create Background", "layer switch Background", "layer hide Background",
         "layer list"});
  if (sub == "create") {
    for (const Cell* layer : ctx.page().layers()) {
      if (layer_name(ctx.page(), *layer) == name)
        return core::make_error("layer \"" + name + "\" already exists");
    }
    Cell layer;
    layer.id = ctx.doc.allocate_id();
    layer.value = name;
    layer.parent = std::string(ctx.page().root_id());
    ctx.edit.insert(std::move(layer));
    ctx.lines.push_back(core::created("layer " + name));
    return {};
  }
  auto layer = find_layer(ctx, name);
  if (!layer) return layer.error();
  const std::string shown = layer_name(ctx.page(), *ctx.page().find(*layer));
  if (sub == "switch") {
    const std::size_t page = ctx.edit.page_index();
    ctx.edit.update_state([&](DocumentState& state) { state.active_layers[page] = *layer; });
    ctx.lines.push_back(core::property_changed("switched to layer " + shown));
  } else if (sub == "show" || sub == "hide") {
    ctx.edit.update(*layer, [&](Cell& cell) {
      if (sub == "hide") {
        cell.attributes.set("visible", "0");
      } else {
        cell.attributes.erase("visible");
      }
    });
    ctx.lines.push_back(
        core::property_changed("layer " + shown + (sub == "hide" ? " hidden" : " visible")));
  } else if (sub == "lock" || sub == "unlock") {
    ctx.edit.update(*layer, [&](Cell& cell) {
      if (!cell.style) cell.style = Style{};
      if (sub == "lock") {
        cell.style->set("locked", "1");
      } else {
        cell.style->erase("locked");
        if (cell.style->empty()) cell.style.reset();
      }
    });
    ctx.lines.push_back(
        core::property_changed("layer " + shown + (sub == "lock" ? " locked" : " unlocked")));
  } else if (sub == "rename") {
    const std::string* to = ctx.op.param("as");
    if (to == nullptr || to->empty())
      return core::make_error("layer rename requires as:NEW",
                              {"layer rename " + quote_token(shown) + " as:Background"});
    ctx.edit.update(*layer, [&](Cell& cell) { cell.value = *to; });
    ctx.lines.push_back(core::property_changed("layer " + shown + " renamed " + *to));
  } else if (sub == "remove") {
    if (ctx.page().layers().size() == 1)
      return core::make_error("cannot remove layer \"" + shown + "\": it is the only layer");
    if (const auto& children = ctx.index().children(*layer); !children.empty())
      return core::make_error("layer \"" + shown + "\" is not empty (" +
                                  std::to_string(children.size()) + " cells); move them first",
                              {"layer move @layer:" + quote_token(shown) + " to:OTHER"});
    ctx.edit.erase(*layer);
    ctx.lines.push_back(core::deleted("layer " + shown));
  } else {
    return core::make_error("unknown layer subcommand \"" + sub +
                            "\" — create, switch, show, hide, lock, unlock, list, move, rename, "
                            "remove");
  }
  return {};
}

}  // namespace fcp::drawio
