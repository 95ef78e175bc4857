// libFuzzer target: the draw.io reader (drawio::read_drawio: .drawio with plain and compressed
// pages, .drawio.svg, .drawio.png, bare <mxGraphModel>). For a file it accepts, the writer's
// output must read back and be a fixed point: write(read(w)) == w.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/io/writer.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace drawio = fcp::drawio;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  drawio::ReadLimits limits;
  limits.max_inflated_bytes = std::size_t{16} << 20;  // libFuzzer's RSS limit is 2 GB
  auto diagram = drawio::read_drawio(input, limits);
  if (!diagram) return 0;
  const std::string written = drawio::write_drawio(*diagram);
  auto again = drawio::read_drawio(written);
  fcp::fuzz::check(again.has_value(), "the writer wrote a file its own reader refuses");
  fcp::fuzz::check_fixed_point(written, drawio::write_drawio(*again));
  return 0;
}
