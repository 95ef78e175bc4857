#include "domains/drawio/export/raster.hpp"

#include <cairo-pdf.h>
#include <cairo.h>
#include <librsvg/rsvg.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace fcp::drawio::render {
namespace {

struct HandleDeleter {
  void operator()(RsvgHandle* handle) const { g_object_unref(handle); }
};
struct ErrorDeleter {
  void operator()(GError* error) const { g_error_free(error); }
};
struct SurfaceDeleter {
  void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
};
struct ContextDeleter {
  void operator()(cairo_t* cr) const { cairo_destroy(cr); }
};
using Handle = std::unique_ptr<RsvgHandle, HandleDeleter>;
using ErrorPtr = std::unique_ptr<GError, ErrorDeleter>;
using Surface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;
using Context = std::unique_ptr<cairo_t, ContextDeleter>;

constexpr double kPointsPerPixel = 0.75;  // 72 pt per inch / 96 px per inch

struct Size {
  int width = 0;
  int height = 0;
};

std::string error_text(GError* error) {
  return error != nullptr && error->message != nullptr ? std::string(error->message)
                                                       : "unknown error";
}

core::Result<Handle> load(std::string_view svg) {
  if (svg.empty()) return core::make_error("cannot render SVG: the document is empty");
  GError* raw_error = nullptr;
  Handle handle(rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()),
                                          static_cast<gsize>(svg.size()), &raw_error));
  ErrorPtr error(raw_error);
  if (!handle) return core::make_error("cannot render SVG: " + error_text(error.get()));
  rsvg_handle_set_dpi(handle.get(), 96.0);
  return handle;
}

// The document's own size in px: its width/height, else its viewBox.
core::Result<Size> intrinsic_size(RsvgHandle* handle) {
  double width = 0, height = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height)) {
    gboolean has_width = FALSE, has_height = FALSE, has_viewbox = FALSE;
    RsvgLength w{}, h{};
    RsvgRectangle viewbox{};
    rsvg_handle_get_intrinsic_dimensions(handle, &has_width, &w, &has_height, &h, &has_viewbox,
                                         &viewbox);
    if (!has_viewbox) {
      return core::make_error("cannot render SVG: it has no size in px and no viewBox",
                              {"give the width and height in px"});
    }
    width = viewbox.width, height = viewbox.height;
  }
  if (!std::isfinite(width) || !std::isfinite(height) || width <= 0 || height <= 0) {
    return core::make_error("cannot render SVG: its size is empty");
  }
  return Size{static_cast<int>(std::min(std::ceil(width), 1.0e9)),
              static_cast<int>(std::min(std::ceil(height), 1.0e9))};
}

core::Result<Size> output_size(RsvgHandle* handle, int width, int height) {
  if (width < 0 || height < 0) return core::make_error("image size cannot be negative");
  if (width == 0 || height == 0) {
    auto natural = intrinsic_size(handle);
    if (!natural) return natural.error();
    const double aspect = static_cast<double>(natural->height) / natural->width;
    if (width == 0 && height == 0) {
      width = natural->width, height = natural->height;
    } else if (width == 0) {
      width = static_cast<int>(std::max(1.0, std::min(std::round(height / aspect), 1.0e9)));
    } else {
      height = static_cast<int>(std::max(1.0, std::min(std::round(width * aspect), 1.0e9)));
    }
  }
  if (width > kMaxRasterSide || height > kMaxRasterSide) {
    return core::make_error("image too large: " + std::to_string(width) + "x" +
                                std::to_string(height) + " px (at most " +
                                std::to_string(kMaxRasterSide) + " px per side)",
                            {"width:" + std::to_string(std::min(width, 2000))});
  }
  return Size{width, height};
}

core::Result<void> draw(RsvgHandle* handle, cairo_t* cr, Size size) {
  const RsvgRectangle viewport{0, 0, static_cast<double>(size.width),
                               static_cast<double>(size.height)};
  GError* raw_error = nullptr;
  const gboolean ok = rsvg_handle_render_document(handle, cr, &viewport, &raw_error);
  ErrorPtr error(raw_error);
  if (!ok) return core::make_error("cannot render SVG: " + error_text(error.get()));
  if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
    return core::make_error(std::string("cannot render SVG: ") +
                            cairo_status_to_string(cairo_status(cr)));
  }
  return {};
}

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

core::Result<std::string> png_in_process(std::string_view svg, int width, int height) {
  auto handle = load(svg);
  if (!handle) return handle.error();
  auto size = output_size(handle->get(), width, height);
  if (!size) return size.error();
  Surface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size->width, size->height));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    return core::make_error(std::string("cannot create the image: ") +
                            cairo_status_to_string(cairo_surface_status(surface.get())));
  }
  {
    Context cr(cairo_create(surface.get()));
    if (auto ok = draw(handle->get(), cr.get(), *size); !ok) return ok.error();
  }
  cairo_surface_flush(surface.get());
  std::string png;
  const cairo_status_t status =
      cairo_surface_write_to_png_stream(surface.get(), append_bytes, &png);
  if (status != CAIRO_STATUS_SUCCESS) {
    return core::make_error(std::string("cannot encode PNG: ") + cairo_status_to_string(status));
  }
  return png;
}

core::Result<std::string> png_within_in_process(std::string_view svg, double scale, int max_side) {
  auto handle = load(svg);
  if (!handle) return handle.error();
  auto natural = intrinsic_size(handle->get());
  if (!natural) return natural.error();
  if (!std::isfinite(scale) || scale <= 0) scale = 1;
  max_side = std::clamp(max_side, 1, kMaxRasterSide);
  const double longest = std::max(natural->width, natural->height) * scale;
  if (longest > max_side) scale *= max_side / longest;
  if (scale == 1) return png_in_process(svg, 0, 0);
  // One side given: output_size derives the other from the aspect ratio.
  const auto side = [&](int length) {
    return static_cast<int>(
        std::clamp(std::round(length * scale), 1.0, static_cast<double>(max_side)));
  };
  return natural->width >= natural->height ? png_in_process(svg, side(natural->width), 0)
                                           : png_in_process(svg, 0, side(natural->height));
}

core::Result<std::string> pdf_in_process(std::string_view svg, int width, int height) {
  auto handle = load(svg);
  if (!handle) return handle.error();
  auto size = output_size(handle->get(), width, height);
  if (!size) return size.error();
  std::string pdf;
  Surface surface(cairo_pdf_surface_create_for_stream(
      append_bytes, &pdf, size->width * kPointsPerPixel, size->height * kPointsPerPixel));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    return core::make_error(std::string("cannot create the PDF: ") +
                            cairo_status_to_string(cairo_surface_status(surface.get())));
  }
  {
    Context cr(cairo_create(surface.get()));
    cairo_scale(cr.get(), kPointsPerPixel, kPointsPerPixel);
    if (auto ok = draw(handle->get(), cr.get(), *size); !ok) return ok.error();
    cairo_show_page(cr.get());
  }
  cairo_surface_finish(surface.get());
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    return core::make_error(std::string("cannot write the PDF: ") +
                            cairo_status_to_string(cairo_surface_status(surface.get())));
  }
  return pdf;
}

}  // namespace

core::Result<std::string> svg_to_png(std::string_view svg, int width, int height) {
  return rasterize({RasterJob::Kind::png, svg, width, height});
}

core::Result<std::string> svg_to_png_within(std::string_view svg, double scale, int max_side) {
  RasterJob job{RasterJob::Kind::png_within, svg};
  job.scale = scale;
  job.max_side = max_side;
  return rasterize(job);
}

core::Result<std::string> svg_to_pdf(std::string_view svg, int width, int height) {
  return rasterize({RasterJob::Kind::pdf, svg, width, height});
}

core::Result<std::string> rasterize_in_process(const RasterJob& job) {
  switch (job.kind) {
    case RasterJob::Kind::png:
      return png_in_process(job.svg, job.width, job.height);
    case RasterJob::Kind::png_within:
      return png_within_in_process(job.svg, job.scale, job.max_side);
    case RasterJob::Kind::pdf:
      return pdf_in_process(job.svg, job.width, job.height);
  }
  return core::make_error("cannot render SVG: unknown raster job");
}

}  // namespace fcp::drawio::render
