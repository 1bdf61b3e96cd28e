#ifndef DARKROOM_CLIBRAW_SHIM_H
#define DARKROOM_CLIBRAW_SHIM_H
/*
 * LibRaw 0.20's C API (the thread-safe build, libraw_r), plus accessors for what Swift imports
 * awkwardly: fixed-size char arrays (imported as tuples) and the processed image's flexible data
 * member. Every helper is prefixed `darkroom_libraw_`.
 */
#include <libraw.h>

/* Camera and lens names, NUL-terminated inside their fixed-size arrays. */
static inline const char *darkroom_libraw_make(const libraw_data_t *lr) { return lr->idata.make; }
static inline const char *darkroom_libraw_model(const libraw_data_t *lr) { return lr->idata.model; }
static inline const char *darkroom_libraw_normalized_make(const libraw_data_t *lr) { return lr->idata.normalized_make; }
static inline const char *darkroom_libraw_normalized_model(const libraw_data_t *lr) { return lr->idata.normalized_model; }
static inline const char *darkroom_libraw_lens(const libraw_data_t *lr) {
    return lr->lens.Lens[0] ? lr->lens.Lens : lr->lens.makernotes.Lens;
}

/* The pixels of a developed image or a thumbnail (the struct ends in `unsigned char data[1]`). */
static inline const unsigned char *darkroom_libraw_image_bytes(const libraw_processed_image_t *image) {
    return image->data;
}

/* The camera-to-linear-sRGB matrix LibRaw keeps for development (rawdata.color is copied over the working
 * colour data when processing starts, so this is the one to change between unpack and dcraw_process). */
static inline float darkroom_libraw_rgb_cam(const libraw_data_t *lr, int row, int column) {
    return lr->rawdata.color.rgb_cam[row][column];
}
static inline void darkroom_libraw_set_rgb_cam(libraw_data_t *lr, int row, int column, float value) {
    lr->rawdata.color.rgb_cam[row][column] = value;
}

/* The unpacked sensor data, one sample a call (first channel for three- and four-channel layouts);
 * row and column count from the raw image's top-left corner. Returns -1 when there is no raw buffer. */
static inline int darkroom_libraw_raw_sample(const libraw_data_t *lr, int row, int column) {
    const libraw_rawdata_t *raw = &lr->rawdata;
    if (raw->raw_image) {
        size_t pitch = raw->sizes.raw_pitch / 2;
        return raw->raw_image[(size_t)row * pitch + column];
    }
    if (raw->color4_image) {
        size_t pitch = raw->sizes.raw_pitch / 8;
        return raw->color4_image[(size_t)row * pitch + column][1];
    }
    if (raw->color3_image) {
        size_t pitch = raw->sizes.raw_pitch / 6;
        return raw->color3_image[(size_t)row * pitch + column][1];
    }
    return -1;
}

#endif
