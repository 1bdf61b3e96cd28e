#ifndef DARKROOM_CEXIF_SHIM_H
#define DARKROOM_CEXIF_SHIM_H
#include <stddef.h>
#include <stdlib.h>
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>

/// The IFD array of ExifData imports as a tuple; index it here instead.
static inline ExifContent *darkroom_exif_ifd(ExifData *data, ExifIfd ifd) {
    return (data && ifd < EXIF_IFD_COUNT) ? data->ifd[ifd] : NULL;
}

/// Drops the thumbnail image (IFD1's JPEG) of an ExifData made with the default allocator
/// (exif_data_new), which frees with free().
static inline void darkroom_exif_drop_thumbnail(ExifData *data) {
    if (!data) return;
    free(data->data);
    data->data = NULL;
    data->size = 0;
}
#endif
