#include "domains/drawio/export/drawio_svg.hpp"

#include "domains/drawio/export/svg_document.hpp"
#include "domains/drawio/export/svg_xml.hpp"
#include "domains/drawio/io/writer.hpp"

namespace fcp::drawio::render {

core::Result<std::string> write_drawio_svg(const Diagram& diagram, const SvgOptions& options) {
  if (diagram.pages().empty()) {
    return core::make_error("the diagram has no pages", {"page add"});
  }
  WriteOptions write;
  write.compress = false;
  write.indent = false;
  const std::string mxfile = write_drawio(diagram, write);
  std::string content = " content=\"";
  detail::append_escaped(content, mxfile);
  content += '"';
  return detail::render_svg_document(diagram.pages().front(), options, content, true);
}

}  // namespace fcp::drawio::render
