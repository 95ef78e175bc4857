#include "domains/drawio/export/svg_renderer.hpp"

#include <algorithm>
#include <cmath>

#include "core/call_scope.hpp"
#include "domains/drawio/export/scene.hpp"
#include "domains/drawio/export/svg_document.hpp"
#include "domains/drawio/export/svg_edges.hpp"
#include "domains/drawio/export/svg_shapes.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"

namespace fcp::drawio::render {
namespace detail {
namespace {

constexpr double kMaxOutputSize = 1.0e6;  // px, for width/height options

core::Result<void> check_options(const SvgOptions& options) {
  const auto bad_size = [](const std::optional<double>& size) {
    return size && (!std::isfinite(*size) || *size <= 0 || *size > kMaxOutputSize);
  };
  if (!std::isfinite(options.border) || options.border < 0 || options.border > 10000) {
    return core::make_error("invalid SVG option: border must be between 0 and 10000 px");
  }
  if (bad_size(options.width) || bad_size(options.height)) {
    return core::make_error(
        "invalid SVG option: width and height must be between 1 and 1000000 px");
  }
  if (!options.background.empty()) {
    const auto color = css_color(options.background);
    if (!color || color->empty()) {
      return core::make_error("invalid SVG option: background \"" +
                                  options.background.substr(0, 40) + "\" is not a colour",
                              {"#ffffff", "white"});
    }
  }
  return {};
}

void write_item(SvgWriter& svg, const SceneItem& item, std::vector<Placeholder>* placeholders) {
  if (item.edge) {
    write_edge(svg, StyleView(*item.cell, true), item.route);
    if (item.label) write_label(svg, *item.label);
    return;
  }
  const StyleView style(*item.cell, false);
  const bool rotated = item.rotation != 0;
  if (rotated) {
    const Vec c = item.box.center();
    svg.start("g")
        .attr("transform", "rotate(" + format_number(item.rotation) + " " + format_number(c.x) +
                               " " + format_number(c.y) + ")")
        .open();
  }
  if (write_vertex_shape(svg, *item.cell, style, item.box) && placeholders != nullptr) {
    placeholders->push_back({item.cell->id, std::string(style.shape())});
  }
  if (item.label) write_label(svg, *item.label);
  if (rotated) svg.close("g");
}

}  // namespace

core::Result<std::string> render_svg_document(const Page& page, const SvgOptions& options,
                                              std::string_view root_attributes, bool allow_empty,
                                              std::vector<Placeholder>* placeholders) {
  if (auto ok = check_options(options); !ok) return ok.error();
  const Scene scene = build_scene(page);
  if (auto stop = core::stop_error("rendering the page", "no image was made")) return *stop;
  if ((scene.items.empty() || !scene.has_bounds) && !allow_empty) {
    return core::make_error("empty page");
  }
  const Box content = scene.has_bounds ? scene.bounds : Box{};
  const Box view{content.x - options.border, content.y - options.border,
                 std::max(content.w + 2 * options.border, 1.0),
                 std::max(content.h + 2 * options.border, 1.0)};
  double scale = 1;
  if (options.width && options.height) {
    scale = std::min(*options.width / view.w, *options.height / view.h);
  } else if (options.width) {
    scale = *options.width / view.w;
  } else if (options.height) {
    scale = *options.height / view.h;
  }

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  SvgWriter svg(out);
  svg.start("svg")
      .attr("xmlns", "http://www.w3.org/2000/svg")
      .attr("xmlns:xlink", "http://www.w3.org/1999/xlink")
      .attr("version", "1.1")
      .attr("width", std::max(1.0, view.w * scale))
      .attr("height", std::max(1.0, view.h * scale))
      .attr("viewBox", format_number(view.x) + " " + format_number(view.y) + " " +
                           format_number(view.w) + " " + format_number(view.h))
      .raw_attr(root_attributes)
      .open();
  if (!options.background.empty()) {
    svg.start("rect")
        .attr("x", view.x)
        .attr("y", view.y)
        .attr("width", view.w)
        .attr("height", view.h)
        .attr("fill", *css_color(options.background))
        .end();
  }
  core::StopPoll poll(256);
  for (const SceneItem& item : scene.items) {
    if (auto stop = poll.check("rendering the page", "no image was made")) return *stop;
    write_item(svg, item, placeholders);
  }
  svg.close("svg");
  return out;
}

}  // namespace detail

core::Result<std::string> render_svg(const Page& page, const SvgOptions& options) {
  return detail::render_svg_document(page, options, {}, false);
}

core::Result<RenderedSvg> render_svg_report(const Page& page, const SvgOptions& options) {
  RenderedSvg out;
  auto svg = detail::render_svg_document(page, options, {}, false, &out.placeholders);
  if (!svg) return svg.error();
  out.svg = std::move(*svg);
  return out;
}

}  // namespace fcp::drawio::render
