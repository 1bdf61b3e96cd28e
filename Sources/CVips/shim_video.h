#ifndef DARKROOM_CVIPS_SHIM_VIDEO_H
#define DARKROOM_CVIPS_SHIM_VIDEO_H
/*
 * Wrappers for the time-lapse's decoding (included at the end of shim.h).
 */
#include <vips/vips.h>

/* Loads a JPEG at 1/shrink scale (1, 2, 4 or 8) with libjpeg's DCT scaling: the cheap part of shrink-on-load,
 * without vips_thumbnail's rule of leaving a factor of two for its resampler (by which a 12 MP photo for a
 * 1080p frame decodes at full size). access: VIPS_ACCESS_*; random access is needed to auto-rotate. */
static inline int darkroom_vips_jpegload_shrink(const char *path, VipsImage **out, int shrink, VipsAccess access,
                                                VipsFailOn fail_on) {
    return vips_jpegload(path, out, "shrink", shrink, "access", access, "fail_on", fail_on, NULL);
}
#endif
