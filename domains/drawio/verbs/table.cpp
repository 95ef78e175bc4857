// The drawio verb table: every verb once, with its positionals, keys, help, examples and handler;
// and the words agents use for them.
#include "domains/drawio/data/style_keys.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

using core::choice_key;
using core::integer_key;
using core::key;
using core::number_key;
using core::VerbSpec;

const std::vector<std::string> kDirections{
    "below", "above", "left", "right", "below-right", "below-left", "above-right", "above-left"};

core::OpenKeys drawio_keys() {
  return {"any draw.io style key (fillColor, rounded, edgeStyle, exitX, …)",
          [](std::string_view name) { return data::is_drawio_style_key(name); },
          data::drawio_style_keys()};
}

// Which members a group's theme colours (see MemberColoring).
core::KeySpec members_key() {
  return choice_key("members", {"plain", "all", "none"},
                    "with theme: on a group — plain: members without colours of their own "
                    "(default), all, none: the container only");
}

core::KeySpec color_key(std::string name, std::string description = {}) {
  return key(std::move(name), "C", std::move(description));
}

void add_shape_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"add", "[TYPE] LABEL", "shapes",
                     "create shapes (TYPE optional: inferred from the label; theme: default "
                     "blue, or the theme of the group in: names; with label:\"Display\" the "
                     "LABEL word is the shape's alias, a name to refer to it by, and the label "
                     "is the text shown)"}
                .with(key("theme", "T"))
                .with(key("near", "REF",
                          "beside this shape or group; the first free slot further in dir: "
                          "when taken"))
                .with(choice_key("dir", kDirections,
                                 "from near: or the latest shape; default: the page's flow"))
                .with(key("at", "X,Y|REGION", "exactly there, even on another shape (warned)"))
                .with(key("size", "WxH"))
                .with(key("label", "\"Display\"", "display text when LABEL is a short name"))
                .with(key("in", "GROUP",
                          "below its latest member; the group grows and moves what it would "
                          "cover out of its way"))
                .with(integer_key("count", "N", "numbered copies, each below the one before")
                          .between(1, 1000))
                .example("add svc Auth theme:blue near:Gateway dir:right"),
            verb_add);
  verbs.add(VerbSpec{"remove", "REF|@SELECTOR|GROUP…", "shapes", "delete shapes with their edges"}
                .deletes(),
            verb_remove);
  verbs.add(VerbSpec{"define", "NAME | theme NAME", "shapes",
                     "custom types (base:) and themes (fill: stroke:) for this session"}
                .with(key("base", "TYPE"))
                .with(key("theme", "T"))
                .with(key("badge", "\"text\""))
                .with(key("size", "WxH"))
                .with(color_key("fill"))
                .with(color_key("stroke"))
                .with(color_key("font-color").also({"font"}))
                .example("define cache base:db theme:red")
                .example("define theme brand fill:#fde7e9 stroke:#c0392b"),
            verb_define);
}

void add_connection_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"connect", "SRC ->|<->|-- TGT [-> TGT…]", "connections",
                     "edges; endpoints may be selectors; an edge that exists is not added again"}
                .with(key("label", "\"text\""))
                .with(key("style", "dashed,thick…"))
                .with(key("exit", "FACE[@0..1]|auto",
                          "where it leaves its source (default auto: fcp chooses and keeps "
                          "choosing as shapes move)"))
                .with(key("entry", "FACE[@0..1]|auto", "where it enters its target"))
                .with(key("source-arrow", "K"))
                .with(key("target-arrow", "K"))
                .with(color_key("stroke").also({"color"}))
                .with(number_key("width", "N", "stroke width").between(0.5, 50))
                .with(core::bool_key("new", "add the edge even when the same one exists"))
                .arrows()
                .accepting(drawio_keys())
                .example("connect Web -> Orders label:\"HTTPS\"")
                .example("connect Web -> Orders exit:bottom entry:top edgeStyle:elbowEdgeStyle"),
            verb_connect);
  verbs.add(
      VerbSpec{"disconnect", "SRC -> TGT [all]", "connections", "remove edges"}.arrows().deletes(),
      verb_disconnect);
}

void add_appearance_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(
      VerbSpec{"style", "REF|@SEL|GROUP [bold] [italic] [dashed]… | SRC|@SEL -> TGT|@SEL",
               "appearance", "colours, fonts, flags, draw.io keys; edges too"}
          .through_keys()
          .with(color_key("fill"))
          .with(color_key("stroke"))
          .with(color_key("font").also({"font-color", "fontColor"}))
          .with(number_key("fontSize").between(1, 500).also({"font-size"}))
          .with(key("font-family", "NAME").also({"fontFamily"}))
          .with(number_key("opacity").between(0, 100))
          .with(key("rounded", "0|1"))
          .with(key("dashed", "0|1"))
          .with(key("shadow", "0|1"))
          .with(choice_key("align", {"left", "center", "right"}))
          .with(choice_key("valign", {"top", "middle", "bottom"}))
          .with(key("theme", "T", "on a group: the container and the members that follow it"))
          .with(members_key())
          .with(number_key("width", "N", "stroke width").between(0.5, 50).also({"stroke-width"}))
          .with(key("source-arrow", "K"))
          .with(key("target-arrow", "K"))
          .with(key("exit", "FACE[@0..1]|auto",
                    "edges: where it leaves its source (the edge is re-routed from its new ports "
                    "round the shapes; layout keeps them); auto hands the port back to fcp"))
          .with(key("entry", "FACE[@0..1]|auto", "edges: where it enters its target"))
          .arrows()
          .accepting(drawio_keys())
          .example("style Auth fill:#dae8fc bold")
          .example("style Web -> Orders dashed stroke:red")
          .example("style Web -> Orders exit:top entry:bottom jumpStyle:arc")
          .example("style Web -> Orders exit:auto entry:auto")
          .example("style Web -> @all dashed")
          .example("style @all -> Orders dashed"),
      verb_style);
  verbs.add(VerbSpec{"label", "REF \"text\" | SRC|@SEL -> TGT|@SEL \"text\"", "appearance",
                     "rename a shape or label an edge"}
                .arrows(),
            verb_label);
  verbs.add(VerbSpec{"badge", "REF \"text\" | REF clear", "appearance", "small markers on a shape"}
                .with(choice_key("pos", {"top-right", "top-left", "bottom-right", "bottom-left",
                                         "top", "bottom", "left", "right", "center"}))
                .example("badge Auth \"v2\" pos:top-left"),
            verb_badge);
}

void add_position_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"move", "REF|@SEL…", "position",
                     "move shapes or groups (overlapped shapes downstream get pushed); their "
                     "edges are re-routed where waypoints went stale or the route would cross a "
                     "shape, and other edges whose route they now lie on are laid round them; "
                     "a re-routed run keeps 10 px from other edges (its port slides along the "
                     "side); a member's group grows to hold it, never shrinks (so do modify x:/y:, "
                     "resize, align, distribute, swap, copy), and the reply names the group"}
                .with(key("to", "X,Y|REGION"))
                .with(key("by", "DX,DY"))
                .with(key("near", "REF"))
                .with(choice_key("dir", kDirections, "with near:"))
                .with(core::bool_key("strict", "do not push overlapped shapes"))
                .example("move Cache near:Auth dir:below"),
            verb_move);
  verbs.add(VerbSpec{"resize", "REF", "position",
                     "change a shape's size (its edges are re-routed as after move); a group "
                     "to:fit fits its members"}
                .with(key("to", "WxH|fit").require()),
            verb_resize);
  verbs.add(VerbSpec{"swap", "REF REF", "position", "exchange two shapes' places"}, verb_swap);
  verbs.add(
      VerbSpec{"align", "REF… left|right|top|bottom|center|middle", "position", "line shapes up"},
      verb_align);
  verbs.add(VerbSpec{"distribute", "REF… horizontal|vertical", "position", "even spacing"}.with(
                number_key("gap").between(0, 100000)),
            verb_distribute);
  verbs.add(
      VerbSpec{
          "layout", "[@all|GROUP]", "position",
          "automatic layout (Graphviz); pinned shapes stay; the reply counts the "
          "shapes it moved and the edges whose route it changed, or says there was "
          "nothing to change; spacing: is the gap between the shapes it places, 60 px unless given "
          "(so refused with every shape pinned); pin:@all keeps every shape where it is "
          "and re-routes the edges only, keeping their routes unless the layout's read "
          "better, so a tie changes nothing (fewer by shapes, then on one line, then labels "
          "on others or by shapes, then "
          "crossing: compared in that order, so fewer routes by shapes wins over more "
          "crossings; the reply gives each set's figures on a line of its own and names "
          "the pairs on one line and the misplaced labels the routes kept leave); an edge "
          "whose new route is "
          "by a shape, on one line with another or has its label misplaced is tried on "
          "its own route among the new ones, and kept so when that reads better (the "
          "reply names those edges). Layered: "
          "top-level groups are tiers "
          "along dir: in the "
          "order their edges run (clients → edge → services → data), never on each "
          "other, starting level (LR: same top, TB: same left) unless moving up or "
          "down to sit level with their neighbours crosses fewer edges; each shape "
          "sits near the shapes it connects to; a shape still at the size add gave it "
          "grows along a side of 6 or more edge ends to 15 px an end (the reply says "
          "so); orthogonal edges leave "
          "a shared side at ports of their own at least 15 px apart (exitX/exitY, "
          "entryX/entryY; when the side is too short, the extra ones leave round its "
          "corners; on a hub's side incoming and outgoing in a block each, unless that "
          "crosses more edges), run straight between facing shapes of neighbouring "
          "ranks that overlap, cross gaps on lines of their own, run at least 10 px from "
          "other edges beside them, also those into and out of one hub (a crowded gap "
          "may leave a few closer), pass no "
          "shape, and cross the ranks between their ends "
          "through the gaps between shapes (30 px clear of the shapes they pass where "
          "nudging them apart within their group allows), not round the groups; a port on a "
          "slanted "
          "or round outline (api, queue, rhombus, ellipse, cloud) sits on the outline "
          "(exitPerimeter=0/entryPerimeter=0), so the run reaches it straight; labels "
          "sit on their own edge, off shapes and "
          "other labels, 8 px clear of other edges, group titles and frames, off corners "
          "where the route allows. With shapes pinned where you put them a route that would "
          "pass a shape is laid again round the shapes, 10 px from other edges; one with no "
          "way round stays: every final route is checked against the shapes and a ? line "
          "names the edge and the shape (through it, on its outline, within 10 px); edges "
          "drawn on one line, labels on other edges or labels, within 9 px of a shape "
          "not their edge's end or within 8 px of another edge, a group's title or frame, "
          "and runs along a group's frame get ? lines too (a top-level group's bottom or "
          "right side moves out to give a run inside it 20 px where nothing is there, and "
          "the reply says so). Ports set "
          "with exit:/entry: stay: those "
          "edges are routed from them round every shape, their own ends included, but "
          "not moved apart from other edges (ports set alike share a line)"}
          .with(choice_key("algo", {"layered", "tree", "force"}))
          .with(choice_key("dir", {"TB", "LR", "BT", "RL"}))
          .with(number_key("spacing").between(5, 2000))
          .with(choice_key("routing", {"orthogonal", "spline", "straight"}))
          .with(key("pin", "REF,@SEL"))
          .example("layout @all algo:layered dir:LR"),
      verb_layout);
  verbs.add(VerbSpec{"orient", "TB|LR|BT|RL", "position",
                     "the page's flow direction for this session (where add and move put shapes, "
                     "layout's default dir:); not written to the file, which keeps draw.io's own "
                     "fields — without it the flow is the direction most edges run"}
                .example("orient LR"),
            verb_orient);
}

void add_structure_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(
      VerbSpec{"group", "REF|@SEL…", "organization", "a container around shapes (groups nest)"}
          .with(key("as", "\"Name\"").require())
          .with(key("theme", "T", "the container and the members that follow it"))
          .with(members_key())
          .with(key("in", "GROUP"))
          .example("group Web Orders as:Backend theme:green")
          .example("group Auth Gateway as:Edge theme:purple members:none"),
      verb_group);
  verbs.add(VerbSpec{"ungroup", "\"Name\"", "organization", "dissolve a group, keep its shapes"},
            verb_ungroup);
  verbs.add(
      VerbSpec{"page", "add|switch|remove|list|duplicate|rename \"Name\"", "structure", "pages"}
          .with(key("as", "\"New\"").only_for({"rename", "duplicate"})),
      verb_page);
  verbs.add(VerbSpec{"layer",
                     "create|switch|show|hide|lock|unlock|list|rename|remove \"Name\" | move REF…",
                     "structure", "layers"}
                .with(key("to", "LAYER").only_for({"move"}))
                .with(key("as", "\"New\"").only_for({"rename"})),
            verb_layer);
  verbs.add(VerbSpec{"title", "\"Diagram Title\"", "meta",
                     "the session's title (a draw.io file keeps none: its name is the title)"},
            verb_title);
  verbs.add(VerbSpec{"load", "list|aws|azure|gcp|k8s|cisco|ibm", "meta",
                     "stencil packs: their ids become types"},
            verb_load);
  verbs.add(VerbSpec{"export", "[inline|file]", "visual",
                     "render a page (image in the reply, or a file); a `?` line names the shapes "
                     "the native renderer drew as placeholders"}
                .with(choice_key("fmt", {"png", "svg", "pdf"}))
                .with(integer_key("width"))
                .with(integer_key("height"))
                .with(integer_key("page"))
                .with(key("as", "PATH"))
                .with(choice_key("engine", {"auto", "native", "drawio"})),
            verb_export);
}

void add_universal_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"modify", "REF|@SEL | SRC|@SEL -> TGT|@SEL", "universal",
                     "set any property in place (shapes, groups, edges); x:/y: of a group move its "
                     "members with it (they sit inside it); x:/y:/width:/height: re-route the "
                     "edges as move and resize do"}
                .through_keys()
                .with(key("label", "\"text\""))
                .with(key("alias", "NAME"))
                .with(number_key("x"))
                .with(number_key("y"))
                .with(number_key("width").also({"w"}))
                .with(number_key("height").also({"h"}))
                .with(color_key("fill"))
                .with(color_key("stroke"))
                .with(color_key("font"))
                .with(key("theme", "T"))
                .with(members_key())
                .with(key("exit", "FACE[@0..1]|auto", "edges"))
                .with(key("entry", "FACE[@0..1]|auto", "edges"))
                .with(key("source-arrow", "K", "edges"))
                .with(key("target-arrow", "K", "edges"))
                .arrows()
                .accepting({"prop.NAME or any draw.io style key",
                            [](std::string_view name) {
                              return name.starts_with("prop.") || data::is_drawio_style_key(name);
                            },
                            data::drawio_style_keys()})
                .example("modify @type:db fill:#fff2cc shadow:1")
                .example("modify Web -> Orders label:\"HTTPS\" rounded:0 exitX:1 exitY:0.5")
                .example("modify @type:svc -> @all rounded:1"),
            verb_modify);
  verbs.add(VerbSpec{"copy", "REF|@SEL…", "universal", "duplicate shapes with the edges among them"}
                .with(key("to", "X,Y"))
                .with(key("by", "DX,DY"))
                .with(key("suffix", "\" copy\"")),
            verb_copy);
  verbs.add(VerbSpec{"repeat", "REF", "universal", "numbered copies at successive offsets"}
                .with(integer_key("count").between(1, 1000).require())
                .with(key("by", "DX,DY")),
            verb_repeat);
}

void add_synonyms(core::VerbRegistry& verbs) {
  for (const auto& [word, verb] : std::initializer_list<std::pair<const char*, const char*>>{
           {"rename", "label"},   {"delete", "remove"},  {"del", "remove"},
           {"rm", "remove"},      {"erase", "remove"},   {"create", "add"},
           {"new", "add"},        {"insert", "add"},     {"link", "connect"},
           {"edge", "connect"},   {"arrow", "connect"},  {"unlink", "disconnect"},
           {"set", "modify"},     {"update", "modify"},  {"edit", "modify"},
           {"color", "style"},    {"colour", "style"},   {"place", "move"},
           {"position", "move"},  {"arrange", "layout"}, {"autolayout", "layout"},
           {"duplicate", "copy"}, {"clone", "copy"},     {"container", "group"},
           {"tag", "badge"},      {"text", "label"},     {"snapshot", "checkpoint"}}) {
    verbs.add_verb_synonym(word, verb);
  }
  for (const auto& [word, replacement] :
       std::initializer_list<std::pair<const char*, const char*>>{{"below", "near:{} dir:below"},
                                                                  {"under", "near:{} dir:below"},
                                                                  {"beneath", "near:{} dir:below"},
                                                                  {"above", "near:{} dir:above"},
                                                                  {"over", "near:{} dir:above"},
                                                                  {"right-of", "near:{} dir:right"},
                                                                  {"right", "near:{} dir:right"},
                                                                  {"beside", "near:{} dir:right"},
                                                                  {"next-to", "near:{} dir:right"},
                                                                  {"after", "near:{} dir:right"},
                                                                  {"left-of", "near:{} dir:left"},
                                                                  {"left", "near:{} dir:left"},
                                                                  {"before", "near:{} dir:left"},
                                                                  {"position", "at:{}"},
                                                                  {"pos", "at:{}"},
                                                                  {"colour", "fill:{}"},
                                                                  {"color", "fill:{}"},
                                                                  {"background", "fill:{}"},
                                                                  {"bg", "fill:{}"},
                                                                  {"colour", "theme:{}"},
                                                                  {"color", "theme:{}"},
                                                                  {"fill", "theme:{}"},
                                                                  {"border", "stroke:{}"},
                                                                  {"line", "stroke:{}"},
                                                                  {"text", "label:{}"},
                                                                  {"title", "label:{}"},
                                                                  {"name", "label:{}"},
                                                                  {"caption", "label:{}"},
                                                                  {"group", "in:{}"},
                                                                  {"parent", "in:{}"},
                                                                  {"inside", "in:{}"},
                                                                  {"times", "count:{}"},
                                                                  {"direction", "dir:{}"},
                                                                  {"algorithm", "algo:{}"},
                                                                  {"format", "fmt:{}"},
                                                                  {"font-size", "fontSize:{}"},
                                                                  {"offset", "by:{}"}}) {
    verbs.add_key_synonym(word, replacement);
  }
  verbs.add_key_synonym("size", "to:{}", "resize");
  for (const char* word : {"path", "file", "filename", "output", "out", "to"})
    verbs.add_key_synonym(word, "as:{}", "export");
}

core::VerbTable<OpContext> make_table() {
  core::VerbTable<OpContext> verbs;
  add_shape_verbs(verbs);
  add_connection_verbs(verbs);
  add_appearance_verbs(verbs);
  add_position_verbs(verbs);
  add_structure_verbs(verbs);
  add_universal_verbs(verbs);
  add_synonyms(verbs);
  return verbs;
}

}  // namespace

const core::VerbTable<OpContext>& verb_table() {
  static const core::VerbTable<OpContext> table = make_table();
  return table;
}

}  // namespace fcp::drawio
