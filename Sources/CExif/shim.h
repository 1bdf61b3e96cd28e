#ifndef DARKROOM_CEXIF_SHIM_H
#define DARKROOM_CEXIF_SHIM_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
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

/// Sets an ASCII entry of an IFD to `text` (NUL-terminated), replacing the entry if there is one.
/// The value is allocated with malloc, as the default allocator of exif_entry_new frees it. 0 on success.
static inline int darkroom_exif_set_ascii(ExifData *data, ExifIfd ifd, ExifTag tag, const char *text) {
    ExifContent *content = darkroom_exif_ifd(data, ifd);
    if (!content || !text) return -1;
    ExifEntry *old = exif_content_get_entry(content, tag);
    if (old) exif_content_remove_entry(content, old);
    ExifEntry *entry = exif_entry_new();
    if (!entry) return -1;
    size_t length = strlen(text) + 1;
    unsigned char *bytes = malloc(length);
    if (!bytes) { exif_entry_unref(entry); return -1; }
    memcpy(bytes, text, length);
    entry->tag = tag;
    entry->format = EXIF_FORMAT_ASCII;
    entry->components = length;
    entry->size = (unsigned int)length;
    entry->data = bytes;
    exif_content_add_entry(content, entry);
    exif_entry_unref(entry);
    return 0;
}

#endif
