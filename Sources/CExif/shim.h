#ifndef DARKROOM_CEXIF_SHIM_H
#define DARKROOM_CEXIF_SHIM_H
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>

/// The IFD array of ExifData imports as a tuple; index it here instead.
static inline ExifContent *darkroom_exif_ifd(ExifData *data, ExifIfd ifd) {
    return (data && ifd < EXIF_IFD_COUNT) ? data->ifd[ifd] : NULL;
}
#endif
