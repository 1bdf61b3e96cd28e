#ifndef DARKROOM_CVIPS_SHIM_H
#define DARKROOM_CVIPS_SHIM_H
/*
 * Non-variadic wrappers over the libvips C API. Swift cannot call C variadic functions, so every
 * operation Darkroom uses gets one fixed-signature wrapper here, prefixed `darkroom_vips_`.
 * Each returns 0 on success and -1 on failure (the reason is in vips_error_buffer()).
 */
#include <vips/vips.h>
#include <vips/vector.h>
#include <sys/stat.h>
#include "shim_runtime.h"

static inline int darkroom_vips_init(const char *argv0) { return VIPS_INIT(argv0); }

/* Loading. access: VIPS_ACCESS_*, fail_on: VipsFailOn. */
static inline VipsImage *darkroom_vips_open(const char *path, VipsAccess access, VipsFailOn fail_on) {
    return vips_image_new_from_file(path, "access", access, "fail_on", fail_on, NULL);
}

/* Opens the image in the file open at `descriptor` lazily (header and metadata, no pixels), through
 * a VipsSource on a duplicate of the descriptor: the caller's stays open, and shares its offset. */
static inline VipsImage *darkroom_vips_open_descriptor(int descriptor, VipsFailOn fail_on) {
    /* libvips 8.14 aborts the process (an assertion in vips_source_pipe_read_to_position) when no
     * loader recognises a file read through a descriptor, as it falls back on mapping the whole file
     * into a blob: an empty file, or one in no known format, is refused here first. */
    struct stat status;
    if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) && status.st_size == 0) {
        vips_error("load", "the file is empty");
        return NULL;
    }
    VipsSource *source = vips_source_new_from_descriptor(descriptor);
    if (!source) return NULL;
    if (!vips_foreign_find_load_source(source)) {
        g_object_unref(source);
        return NULL;
    }
    VipsImage *image = vips_image_new_from_source(source, "", "fail_on", fail_on, NULL);
    g_object_unref(source);
    return image;
}

/* Removes EXIF orientation from a fresh copy of `*image` (replacing it): libvips 8.14's thumbnail
 * rotates the pixels but leaves orientation=6 attached, and savers would write it back. */
static inline int darkroom_vips_drop_orientation(VipsImage **image) {
    VipsImage *copy = NULL;
    if (vips_copy(*image, &copy, NULL)) return -1;
    vips_autorot_remove_angle(copy);
    g_object_unref(*image);
    *image = copy;
    return 0;
}

/* Shrink-on-load thumbnail from a file: fit inside width x height, never upscale, auto-rotate. */
static inline int darkroom_vips_thumbnail(const char *path, VipsImage **out, int width, int height,
                                          VipsInteresting crop, VipsFailOn fail_on, gboolean no_rotate,
                                          const char *export_profile) {
    int result = export_profile
        ? vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                         "crop", crop, "fail_on", fail_on, "no_rotate", no_rotate,
                         "export_profile", export_profile, NULL)
        : vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                         "crop", crop, "fail_on", fail_on, "no_rotate", no_rotate, NULL);
    if (result == 0 && !no_rotate) result = darkroom_vips_drop_orientation(out);
    return result;
}

/* Thumbnail of an image already in memory: never rotates (Darkroom's images are upright). */
static inline int darkroom_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height,
                                                VipsInteresting crop, VipsSize size) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", size, "crop", crop,
                                "no_rotate", TRUE, NULL);
}

static inline int darkroom_vips_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }
static inline int darkroom_vips_copy(VipsImage *in, VipsImage **out) { return vips_copy(in, out, NULL); }
static inline int darkroom_vips_copy_memory(VipsImage *in, VipsImage **out) {
    VipsImage *m = vips_image_copy_memory(in);
    *out = m;
    return m ? 0 : -1;
}
/* Computes every pixel of `in` in the calling thread, a strip of lines at a time, with no thread pool,
 * into `buffer` of `size` bytes (lines one after another). The pool's workers cost more than they
 * give when there is one per operation (the caller waits while one computes each strip, and every
 * wait leaves its core idle for a wake-up) or the image is a small working copy. Strips keep memory
 * what the pool's would be: a sequential loader is read once, top to bottom. */
static inline int darkroom_vips_read_in_thread(VipsImage *in, void *buffer, size_t size) {
    size_t line = VIPS_IMAGE_SIZEOF_LINE(in);
    if (size < line * (size_t) in->Ysize) {
        vips_error("read", "buffer too small");
        return -1;
    }
    int tile_width, tile_height, strip;
    vips_get_tile_size(in, &tile_width, &tile_height, &strip);
    VipsRegion *region = vips_region_new(in);
    int result = 0;
    for (int top = 0; result == 0 && top < in->Ysize; top += strip) {
        VipsRect rows = {0, top, in->Xsize, VIPS_MIN(strip, in->Ysize - top)};
        result = vips_region_prepare(region, &rows);
        for (int y = top; result == 0 && y < top + rows.height; y++)
            memcpy((char *) buffer + line * (size_t) y, VIPS_REGION_ADDR(region, 0, y), line);
    }
    g_object_unref(region);
    return result;
}
/* Like vips_image_write_to_memory (a new g_malloc'd buffer of all of `in`'s pixels, its size in
 * `size`), but computed in the calling thread (darkroom_vips_read_in_thread). */
static inline void *darkroom_vips_write_to_memory_in_thread(VipsImage *in, size_t *size) {
    size_t bytes = VIPS_IMAGE_SIZEOF_IMAGE(in);
    void *buffer = g_try_malloc(bytes);
    if (!buffer) {
        vips_error("write_to_memory", "out of memory for %zu bytes", bytes);
        return NULL;
    }
    if (darkroom_vips_read_in_thread(in, buffer, bytes)) {
        g_free(buffer);
        return NULL;
    }
    *size = bytes;
    return buffer;
}
/* Like vips_image_copy_memory (a memory image of `in`'s pixels, or `in` itself with one more reference
 * when it is in memory already), but computed in the calling thread (darkroom_vips_read_in_thread). */
static inline int darkroom_vips_copy_memory_in_thread(VipsImage *in, VipsImage **out) {
    switch (in->dtype) {
    case VIPS_IMAGE_SETBUF: case VIPS_IMAGE_SETBUF_FOREIGN: case VIPS_IMAGE_MMAPIN: case VIPS_IMAGE_MMAPINRW:
        *out = vips_image_copy_memory(in);
        return *out ? 0 : -1;
    default: break;
    }
    VipsImage *copy = vips_image_new_memory();
    if (vips_image_pipelinev(copy, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) || vips_image_write_prepare(copy)
        || darkroom_vips_read_in_thread(in, VIPS_IMAGE_ADDR(copy, 0, 0), VIPS_IMAGE_SIZEOF_IMAGE(copy))) {
        g_object_unref(copy);
        return -1;
    }
    *out = copy;
    return 0;
}
static inline int darkroom_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}
/* Convert to an ICC profile ("srgb", "p3", or a file), importing with the embedded profile. */
static inline int darkroom_vips_icc_transform(VipsImage *in, VipsImage **out, const char *profile) {
    return vips_icc_transform(in, out, profile, "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL);
}
static inline int darkroom_vips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
    return vips_cast(in, out, format, NULL);
}
static inline int darkroom_vips_flatten(VipsImage *in, VipsImage **out, double r, double g, double b) {
    double bg[3] = {r, g, b};
    VipsArrayDouble *a = vips_array_double_new(bg, 3);
    int result = vips_flatten(in, out, "background", a, NULL);
    vips_area_unref(VIPS_AREA(a));
    return result;
}
static inline int darkroom_vips_extract_band(VipsImage *in, VipsImage **out, int band, int n) {
    return vips_extract_band(in, out, band, "n", n, NULL);
}
static inline int darkroom_vips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}
static inline int darkroom_vips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}
static inline int darkroom_vips_avg(VipsImage *in, double *out) { return vips_avg(in, out, NULL); }
static inline int darkroom_vips_getpoint(VipsImage *in, double **vector, int *n, int x, int y) {
    return vips_getpoint(in, vector, n, x, y, NULL);
}

/* Drawing and compositing. Colours are arrays of `n` doubles (one per band). */
static inline int darkroom_vips_solid(VipsImage **out, int width, int height, const double *colour, int n) {
    VipsImage *black = NULL;
    if (vips_black(&black, width, height, "bands", n, NULL)) return -1;
    double zeros[8] = {0};
    VipsImage *filled = NULL;
    int result = vips_linear(black, &filled, zeros, (double *) colour, n, NULL);
    g_object_unref(black);
    if (result) return -1;
    result = vips_cast(filled, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(filled);
    if (result == 0) (*out)->Type = n >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    return result;
}
static inline int darkroom_vips_text(VipsImage **out, const char *text, const char *font, int width, int height,
                                     VipsAlign align, int dpi) {
    if (width > 0 && height > 0)
        return vips_text(out, text, "font", font, "width", width, "height", height, "align", align, "dpi", dpi, NULL);
    if (width > 0)
        return vips_text(out, text, "font", font, "width", width, "align", align, "dpi", dpi, NULL);
    return vips_text(out, text, "font", font, "align", align, "dpi", dpi, NULL);
}
static inline int darkroom_vips_composite_over(VipsImage *base, VipsImage *overlay, VipsImage **out, int x, int y) {
    return vips_composite2(base, overlay, out, VIPS_BLEND_MODE_OVER, "x", x, "y", y, NULL);
}
static inline int darkroom_vips_embed(VipsImage *in, VipsImage **out, int x, int y, int width, int height,
                                      const double *colour, int n) {
    VipsArrayDouble *a = vips_array_double_new(colour, n);
    int result = vips_embed(in, out, x, y, width, height, "extend", VIPS_EXTEND_BACKGROUND, "background", a, NULL);
    vips_area_unref(VIPS_AREA(a));
    return result;
}
static inline int darkroom_vips_rotate(VipsImage *in, VipsImage **out, double degrees, const double *colour, int n) {
    VipsArrayDouble *a = vips_array_double_new(colour, n);
    int result = vips_rotate(in, out, degrees, "background", a, NULL);
    vips_area_unref(VIPS_AREA(a));
    return result;
}
static inline int darkroom_vips_draw_rect(VipsImage *image, const double *colour, int n, int left, int top,
                                          int width, int height, gboolean fill) {
    return vips_draw_rect(image, (double *) colour, n, left, top, width, height, "fill", fill, NULL);
}
static inline int darkroom_vips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n) {
    return vips_linear(in, out, (double *) a, (double *) b, n, "uchar", TRUE, NULL);
}
static inline int darkroom_vips_bandjoin(VipsImage *a, VipsImage *b, VipsImage **out) {
    return vips_bandjoin2(a, b, out, NULL);
}
static inline int darkroom_vips_addalpha(VipsImage *in, VipsImage **out) { return vips_addalpha(in, out, NULL); }
static inline int darkroom_vips_gaussblur(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, NULL);
}

/* Saving. */
static inline int darkroom_vips_jpegsave(VipsImage *in, const char *path, int quality, gboolean strip) {
    return vips_jpegsave(in, path, "Q", quality, "strip", strip, "optimize_coding", TRUE, NULL);
}
static inline int darkroom_vips_webpsave(VipsImage *in, const char *path, int quality, gboolean strip) {
    return vips_webpsave(in, path, "Q", quality, "strip", strip, NULL);
}
static inline int darkroom_vips_pngsave(VipsImage *in, const char *path, gboolean strip) {
    return vips_pngsave(in, path, "strip", strip, NULL);
}
/* JPEG into memory (free the buffer with darkroom_g_free). */
static inline int darkroom_vips_jpegsave_buffer(VipsImage *in, void **buffer, size_t *length, int quality, gboolean strip) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", strip, "optimize_coding", TRUE, NULL);
}

/* Metadata. */
static inline int darkroom_vips_has_field(VipsImage *in, const char *name) {
    return vips_image_get_typeof(in, name) != 0;
}
static inline int darkroom_vips_get_blob(VipsImage *in, const char *name, const void **data, size_t *length) {
    return vips_image_get_blob(in, name, data, length);
}
static inline int darkroom_vips_get_string(VipsImage *in, const char *name, const char **out) {
    return vips_image_get_string(in, name, out);
}
static inline const char *darkroom_vips_loader(VipsImage *in) {
    const char *loader = NULL;
    if (vips_image_get_typeof(in, "vips-loader") && vips_image_get_string(in, "vips-loader", &loader) == 0)
        return loader;
    return NULL;
}
static inline void darkroom_vips_set_blob_copy(VipsImage *in, const char *name, const void *data, size_t length) {
    vips_image_set_blob_copy(in, name, data, length);
}
static inline void darkroom_vips_unref(VipsImage *in) { if (in) g_object_unref(in); }
static inline void darkroom_g_free(void *p) { g_free(p); }

#endif
#include "shim_video.h"

/* ---- RAW support (DarkroomRaw): images made from memory that LibRaw filled. ---- */
#ifndef DARKROOM_CVIPS_SHIM_RAW_H
#define DARKROOM_CVIPS_SHIM_RAW_H
/* A JPEG held in memory, decoded lazily at 1/shrink scale (1, 2, 4 or 8). The bytes are copied into a
 * VipsBlob that the image's source keeps alive, so the caller may free its own copy at once. */
static inline int darkroom_vips_jpegload_copy(const void *data, size_t length, VipsImage **out, int shrink,
                                              VipsFailOn fail_on) {
    VipsBlob *blob = vips_blob_copy(data, length);
    if (!blob) return -1;
    VipsSource *source = vips_source_new_from_blob(blob);
    vips_area_unref(VIPS_AREA(blob));
    if (!source) return -1;
    int result = vips_jpegload_source(source, out, "shrink", shrink, "fail_on", fail_on,
                                      "access", VIPS_ACCESS_RANDOM, NULL);
    g_object_unref(source);
    return result;
}
/* Packed pixels (8- or 16-bit, 1 or 3 bands) copied into a new image, interpreted as sRGB or grey. */
static inline VipsImage *darkroom_vips_from_pixels(const void *data, size_t length, int width, int height, int bands,
                                                   gboolean sixteen_bit) {
    VipsImage *image = vips_image_new_from_memory_copy(data, length, width, height, bands,
                                                       sixteen_bit ? VIPS_FORMAT_USHORT : VIPS_FORMAT_UCHAR);
    if (image) {
        image->Type = bands >= 3 ? (sixteen_bit ? VIPS_INTERPRETATION_RGB16 : VIPS_INTERPRETATION_sRGB)
                                 : (sixteen_bit ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_B_W);
    }
    return image;
}
/* Attaches one of libvips' built-in ICC profiles ("srgb", "p3") to an image nobody else holds yet. */
static inline int darkroom_vips_attach_profile(VipsImage *image, const char *name) {
    VipsBlob *profile = NULL;
    if (vips_profile_load(name, &profile, NULL) || !profile) return -1;
    size_t length = 0;
    const void *data = vips_blob_get(profile, &length);
    vips_image_set_blob_copy(image, "icc-profile-data", data, length);
    vips_area_unref(VIPS_AREA(profile));
    return 0;
}
/* A copy of `in` whose EXIF orientation metadata is `orientation` (1...8), for vips_autorot. */
static inline int darkroom_vips_with_orientation(VipsImage *in, VipsImage **out, int orientation) {
    if (vips_copy(in, out, NULL)) return -1;
    vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
    return 0;
}
#endif
/* ==== Alignment (issue 23): warping by an affine matrix, for aligned time-lapses and collages. ==== */
#ifndef DARKROOM_CVIPS_SHIM_WARP_H
#define DARKROOM_CVIPS_SHIM_WARP_H
/* x' = a (x + idx) + b (y + idy) + odx, y' = c (x + idx) + d (y + idy) + ody, with pixel centres at integers;
 * the output is the `left, top, width, height` area of that plane. `interpolator`: "nearest", "bilinear",
 * "bicubic", "lbb", "nohalo"... `extend`: VIPS_EXTEND_BACKGROUND (filled with `background` in every band)
 * or VIPS_EXTEND_COPY (edge pixels repeated). */
static inline int darkroom_vips_affine(VipsImage *in, VipsImage **out, double a, double b, double c, double d,
                                       double idx, double idy, double odx, double ody,
                                       int left, int top, int width, int height,
                                       const char *interpolator, VipsExtend extend, double background) {
    VipsInterpolate *interpolate = vips_interpolate_new(interpolator);
    if (!interpolate) {
        vips_error("affine", "unknown interpolator %s", interpolator);
        return -1;
    }
    VipsArrayInt *area = vips_array_int_newv(4, left, top, width, height);
    VipsArrayDouble *ink = vips_array_double_newv(1, background);
    int result = vips_affine(in, out, a, b, c, d, "interpolate", interpolate, "oarea", area,
                             "idx", idx, "idy", idy, "odx", odx, "ody", ody, "extend", extend, "background", ink, NULL);
    vips_area_unref(VIPS_AREA(ink));
    vips_area_unref(VIPS_AREA(area));
    g_object_unref(interpolate);
    return result;
}
/* Box-filter shrink by integer-ish factors: the antialiasing step before a warp that shrinks a lot. */
static inline int darkroom_vips_shrink(VipsImage *in, VipsImage **out, double hshrink, double vshrink) {
    return vips_shrink(in, out, hshrink, vshrink, NULL);
}
#endif
/* ==== End of alignment (issue 23). ==== */
/* ---- Sharing exports (darkroom export): a copy with no metadata at all, then only what is set back. ---- */
#ifndef DARKROOM_CVIPS_SHARING_H
#define DARKROOM_CVIPS_SHARING_H

/* A copy of `in` with every metadata field removed: EXIF blob and its parsed `exif-ifd*` fields
 * (libvips 8.14 writes those back into the EXIF at save, GPS included), XMP, IPTC, ICC, orientation,
 * loader details. Header fields (size, bands, format, interpretation, resolution) stay. */
static inline int darkroom_vips_copy_without_metadata(VipsImage *in, VipsImage **out) {
    if (vips_copy(in, out, NULL)) return -1;
    gchar **fields = vips_image_get_fields(*out);
    for (gchar **field = fields; field && *field; field++) vips_image_remove(*out, *field);
    g_strfreev(fields);
    return 0;
}
#endif
/* ---- End of sharing exports. ---- */

