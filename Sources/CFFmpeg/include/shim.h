#ifndef DARKROOM_CFFMPEG_SHIM_H
#define DARKROOM_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <errno.h>
#include <unistd.h>
#include <string.h>

/* Macros Swift does not import. */
static inline int darkroom_averror(int e) { return AVERROR(e); }
static inline int darkroom_averror_eof(void) { return AVERROR_EOF; }
static inline int darkroom_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t darkroom_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int darkroom_av_time_base(void) { return AV_TIME_BASE; }

/* Frame planes: AVFrame's data[] and linesize[] import into Swift as tuples. */
static inline uint8_t *darkroom_frame_plane(AVFrame *frame, int plane) { return frame->data[plane]; }
static inline int darkroom_frame_linesize(const AVFrame *frame, int plane) { return frame->linesize[plane]; }

/* The display matrix of a stream, or NULL (its nine int32 values, 16.16 and 2.30 fixed point). */
static inline const int32_t *darkroom_stream_display_matrix(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return (data && size >= 9 * sizeof(int32_t)) ? (const int32_t *)data : NULL;
}

/* Gives `stream` a copy of the nine-value display `matrix`; 0 on success. */
static inline int darkroom_stream_set_display_matrix(AVStream *stream, const int32_t *matrix) {
    uint8_t *data = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
    if (!data) return AVERROR(ENOMEM);
    memcpy(data, matrix, 9 * sizeof(int32_t));
    return 0;
}

/* Makes `sws` convert full-range RGB to limited-range BT.709 YCbCr (swscale defaults to BT.601). */
static inline int darkroom_sws_set_bt709(struct SwsContext *sws) {
    const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
    return sws_setColorspaceDetails(sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
}

/* Converts one packed RGB24 picture (`stride` bytes a row, `height` rows) into `dst`'s planes. */
static inline int darkroom_sws_scale_rgb24(struct SwsContext *sws, const uint8_t *rgb, int stride, int height, AVFrame *dst) {
    const uint8_t *src[4] = {rgb, NULL, NULL, NULL};
    const int strides[4] = {stride, 0, 0, 0};
    return sws_scale(sws, src, strides, 0, height, dst->data, dst->linesize);
}

/* Reading a file through a descriptor Darkroom opened (FFmpeg 5.1 has no `fd:` protocol). Reads go
 * to pread at the reader's own position, so the descriptor's offset is never moved and one descriptor
 * can serve FFmpeg and Darkroom's own reads of the file's boxes. */
typedef struct {
    int descriptor;
    int64_t position;
    int64_t size;
} darkroom_descriptor_reader;

static inline int darkroom_descriptor_read(void *opaque, uint8_t *buffer, int size) {
    darkroom_descriptor_reader *reader = (darkroom_descriptor_reader *)opaque;
    ssize_t got;
    do {
        got = pread(reader->descriptor, buffer, (size_t)size, (off_t)reader->position);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return AVERROR(errno);
    if (got == 0) return AVERROR_EOF;
    reader->position += got;
    return (int)got;
}

static inline int64_t darkroom_descriptor_seek(void *opaque, int64_t offset, int whence) {
    darkroom_descriptor_reader *reader = (darkroom_descriptor_reader *)opaque;
    int64_t target;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return reader->size;
    case SEEK_SET: target = offset; break;
    case SEEK_CUR: target = reader->position + offset; break;
    case SEEK_END: target = reader->size + offset; break;
    default: return AVERROR(EINVAL);
    }
    if (target < 0) return AVERROR(EINVAL);
    reader->position = target;
    return target;
}

/* An AVIOContext reading through `reader` with a buffer of `size` bytes, or NULL when out of memory.
 * Free it with darkroom_descriptor_io_free (FFmpeg does not free an AVIOContext it was given). */
static inline AVIOContext *darkroom_descriptor_io(darkroom_descriptor_reader *reader, int size) {
    unsigned char *buffer = av_malloc((size_t)size);
    if (!buffer) return NULL;
    AVIOContext *io = avio_alloc_context(buffer, size, 0, reader, darkroom_descriptor_read, NULL, darkroom_descriptor_seek);
    if (!io) av_free(buffer);
    return io;
}

static inline void darkroom_descriptor_io_free(AVIOContext *io) {
    if (!io) return;
    av_freep(&io->buffer);
    avio_context_free(&io);
}

/* ---- FFmpeg's libraries, opened on first use (FFmpegLibraries.c) rather than linked. ---- */

/* The libraries Darkroom opens, in the order they depend on each other. */
typedef enum {
    DARKROOM_FFMPEG_AVUTIL,
    DARKROOM_FFMPEG_SWSCALE,
    DARKROOM_FFMPEG_AVCODEC,
    DARKROOM_FFMPEG_AVFORMAT,
    DARKROOM_FFMPEG_AVFILTER,
} darkroom_ffmpeg_library;

/* Opens `library` once per process (libavutil first, with the log sink applied), resolving every
 * function Darkroom calls in it; thread-safe. 0 when it is open; otherwise -1 and why, in `reason`
 * (`size` bytes of it; NULL and 0 to ask only whether it opened). */
int darkroom_ffmpeg_open(darkroom_ffmpeg_library library, char *reason, size_t size);

/* ---- Logging: every line FFmpeg logs handed to Swift, formatted in C (the callback gets a va_list). ---- */

/* Receives one finished log line (no trailing newline) and FFmpeg's level (AV_LOG_*). */
typedef void (*darkroom_av_log_sink)(int level, const char *line);

/* Sends every FFmpeg log line at or below `level` (AV_LOG_*; AV_LOG_QUIET for none) to `sink`, and
 * nothing to stderr: now if libavutil is open, else as soon as it opens. */
void darkroom_av_log_install(darkroom_av_log_sink sink, int level);

#endif
