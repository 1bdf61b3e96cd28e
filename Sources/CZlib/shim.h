#ifndef DARKROOM_CZLIB_SHIM_H
#define DARKROOM_CZLIB_SHIM_H
/*
 * zlib for ZIP archives: CRC-32 and one-shot raw deflate (no zlib or gzip wrapper, as ZIP stores
 * it). deflateInit2 is a macro Swift cannot call, hence this wrapper.
 */
#include <stddef.h>
#include <string.h>
#include <zlib.h>

/* Raw-deflates `length` bytes of `input` into `output` (`*output_length` bytes available). Returns
 * Z_OK and sets `*output_length` to the compressed size; Z_BUF_ERROR when the compressed form does
 * not fit (give it fewer bytes than the input to learn whether compressing pays); else zlib's error. */
static inline int darkroom_deflate_raw(const void *input, size_t length, void *output, size_t *output_length, int level) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int result = deflateInit2(&stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    if (result != Z_OK) return result;
    stream.next_in = (Bytef *) input;
    stream.next_out = (Bytef *) output;
    size_t remaining_in = length, remaining_out = *output_length;
    do {
        /* avail_in and avail_out are 32-bit: feed large buffers in slices. */
        uInt in_slice = remaining_in > 0x40000000u ? 0x40000000u : (uInt) remaining_in;
        uInt out_slice = remaining_out > 0x40000000u ? 0x40000000u : (uInt) remaining_out;
        stream.avail_in = in_slice;
        stream.avail_out = out_slice;
        result = deflate(&stream, remaining_in == in_slice ? Z_FINISH : Z_NO_FLUSH);
        remaining_in -= in_slice - stream.avail_in;
        remaining_out -= out_slice - stream.avail_out;
    } while (result == Z_OK && remaining_out > 0);
    *output_length = stream.total_out;
    deflateEnd(&stream);
    return result == Z_STREAM_END ? Z_OK : (result == Z_OK ? Z_BUF_ERROR : result);
}

#endif
