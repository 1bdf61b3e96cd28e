/* FFmpeg's libraries opened when first used, not linked.
 *
 * Linked, libavformat, libavcodec, libswscale and libavutil bring 59 more shared libraries (codecs,
 * network protocols, hardware APIs) that the dynamic loader maps and relocates at every start of every
 * command, also for runs that never touch a video (`darkroom --help` took 81 ms with them linked, 57 ms
 * without them). Here each function Darkroom calls is defined once, under FFmpeg's own name and
 * prototype (the compiler checks each against FFmpeg's header), and calls the library's function
 * through a pointer resolved when that library is opened: on the first call into it, or earlier
 * through darkroom_ffmpeg_open (the Swift side's gate, which turns a missing library into an error
 * rather than an abort).
 *
 * To call a further FFmpeg function: add its line to DARKROOM_FFMPEG_FUNCTIONS (the link fails with
 * "undefined reference" until it is there). The libraries are never closed. */
#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* FUNCTION(library, return type, name, (parameters), (arguments)); PROCEDURE for those returning void. */
#define DARKROOM_FFMPEG_FUNCTIONS(FUNCTION, PROCEDURE) \
    PROCEDURE(AVUTIL, av_channel_layout_default, (AVChannelLayout *a0, int a1), (a0, a1)) \
    FUNCTION(AVUTIL, int, av_channel_layout_describe, (const AVChannelLayout *a0, char *a1, size_t a2), (a0, a1, a2)) \
    FUNCTION(AVUTIL, const char *, av_color_primaries_name, (enum AVColorPrimaries a0), (a0)) \
    FUNCTION(AVUTIL, const char *, av_color_range_name, (enum AVColorRange a0), (a0)) \
    FUNCTION(AVUTIL, const char *, av_color_space_name, (enum AVColorSpace a0), (a0)) \
    FUNCTION(AVUTIL, const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic a0), (a0)) \
    PROCEDURE(AVUTIL, av_dict_free, (AVDictionary **a0), (a0)) \
    FUNCTION(AVUTIL, AVDictionaryEntry *, av_dict_get, (const AVDictionary *a0, const char *a1, const AVDictionaryEntry *a2, int a3), (a0, a1, a2, a3)) \
    FUNCTION(AVUTIL, int, av_dict_set, (AVDictionary **a0, const char *a1, const char *a2, int a3), (a0, a1, a2, a3)) \
    FUNCTION(AVUTIL, double, av_display_rotation_get, (const int32_t *a0), (a0)) \
    FUNCTION(AVUTIL, AVFrame *, av_frame_alloc, (void), ()) \
    PROCEDURE(AVUTIL, av_frame_free, (AVFrame **a0), (a0)) \
    FUNCTION(AVUTIL, int, av_frame_get_buffer, (AVFrame *a0, int a1), (a0, a1)) \
    PROCEDURE(AVUTIL, av_frame_unref, (AVFrame *a0), (a0)) \
    PROCEDURE(AVUTIL, av_free, (void *a0), (a0)) \
    PROCEDURE(AVUTIL, av_freep, (void *a0), (a0)) \
    FUNCTION(AVUTIL, const char *, av_get_media_type_string, (enum AVMediaType a0), (a0)) \
    FUNCTION(AVUTIL, const char *, av_get_pix_fmt_name, (enum AVPixelFormat a0), (a0)) \
    FUNCTION(AVUTIL, const char *, av_get_sample_fmt_name, (enum AVSampleFormat a0), (a0)) \
    FUNCTION(AVUTIL, int, av_log_format_line2, (void *a0, int a1, const char *a2, va_list a3, char *a4, int a5, int *a6), (a0, a1, a2, a3, a4, a5, a6)) \
    FUNCTION(AVUTIL, int, av_log_get_level, (void), ()) \
    PROCEDURE(AVUTIL, av_log_set_callback, (void (*a0)(void *, int, const char *, va_list)), (a0)) \
    PROCEDURE(AVUTIL, av_log_set_level, (int a0), (a0)) \
    FUNCTION(AVUTIL, void *, av_malloc, (size_t a0), (a0)) \
    FUNCTION(AVUTIL, int, av_opt_set, (void *a0, const char *a1, const char *a2, int a3), (a0, a1, a2, a3)) \
    FUNCTION(AVUTIL, int, av_opt_set_int, (void *a0, const char *a1, int64_t a2, int a3), (a0, a1, a2, a3)) \
    FUNCTION(AVUTIL, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat a0), (a0)) \
    FUNCTION(AVUTIL, int64_t, av_rescale_q, (int64_t a0, AVRational a1, AVRational a2), (a0, a1, a2)) \
    FUNCTION(AVUTIL, char *, av_strdup, (const char *a0), (a0)) \
    FUNCTION(AVUTIL, int, av_strerror, (int a0, char *a1, size_t a2), (a0, a1, a2)) \
    PROCEDURE(SWSCALE, sws_freeContext, (struct SwsContext *a0), (a0)) \
    FUNCTION(SWSCALE, const int *, sws_getCoefficients, (int a0), (a0)) \
    FUNCTION(SWSCALE, struct SwsContext *, sws_getContext, (int a0, int a1, enum AVPixelFormat a2, int a3, int a4, enum AVPixelFormat a5, int a6, SwsFilter *a7, SwsFilter *a8, const double *a9), (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)) \
    FUNCTION(SWSCALE, int, sws_scale, (struct SwsContext *a0, const uint8_t *const *a1, const int *a2, int a3, int a4, uint8_t *const *a5, const int *a6), (a0, a1, a2, a3, a4, a5, a6)) \
    FUNCTION(SWSCALE, int, sws_setColorspaceDetails, (struct SwsContext *a0, const int *a1, int a2, const int *a3, int a4, int a5, int a6, int a7), (a0, a1, a2, a3, a4, a5, a6, a7)) \
    FUNCTION(AVCODEC, AVPacket *, av_packet_alloc, (void), ()) \
    PROCEDURE(AVCODEC, av_packet_free, (AVPacket **a0), (a0)) \
    PROCEDURE(AVCODEC, av_packet_rescale_ts, (AVPacket *a0, AVRational a1, AVRational a2), (a0, a1, a2)) \
    PROCEDURE(AVCODEC, av_packet_unref, (AVPacket *a0), (a0)) \
    FUNCTION(AVCODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *a0), (a0)) \
    FUNCTION(AVCODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID a0), (a0)) \
    FUNCTION(AVCODEC, const AVCodec *, avcodec_find_encoder, (enum AVCodecID a0), (a0)) \
    FUNCTION(AVCODEC, const AVCodec *, avcodec_find_encoder_by_name, (const char *a0), (a0)) \
    PROCEDURE(AVCODEC, avcodec_flush_buffers, (AVCodecContext *a0), (a0)) \
    PROCEDURE(AVCODEC, avcodec_free_context, (AVCodecContext **a0), (a0)) \
    FUNCTION(AVCODEC, const char *, avcodec_get_name, (enum AVCodecID a0), (a0)) \
    FUNCTION(AVCODEC, int, avcodec_open2, (AVCodecContext *a0, const AVCodec *a1, AVDictionary **a2), (a0, a1, a2)) \
    FUNCTION(AVCODEC, int, avcodec_parameters_copy, (AVCodecParameters *a0, const AVCodecParameters *a1), (a0, a1)) \
    FUNCTION(AVCODEC, int, avcodec_parameters_from_context, (AVCodecParameters *a0, const AVCodecContext *a1), (a0, a1)) \
    FUNCTION(AVCODEC, int, avcodec_parameters_to_context, (AVCodecContext *a0, const AVCodecParameters *a1), (a0, a1)) \
    FUNCTION(AVCODEC, int, avcodec_receive_frame, (AVCodecContext *a0, AVFrame *a1), (a0, a1)) \
    FUNCTION(AVCODEC, int, avcodec_receive_packet, (AVCodecContext *a0, AVPacket *a1), (a0, a1)) \
    FUNCTION(AVCODEC, int, avcodec_send_frame, (AVCodecContext *a0, const AVFrame *a1), (a0, a1)) \
    FUNCTION(AVCODEC, int, avcodec_send_packet, (AVCodecContext *a0, const AVPacket *a1), (a0, a1)) \
    FUNCTION(AVFORMAT, enum AVCodecID, av_codec_get_id, (const struct AVCodecTag *const *a0, unsigned int a1), (a0, a1)) \
    FUNCTION(AVFORMAT, int, av_codec_get_tag2, (const struct AVCodecTag *const *a0, enum AVCodecID a1, unsigned int *a2), (a0, a1, a2)) \
    FUNCTION(AVFORMAT, const AVOutputFormat *, av_guess_format, (const char *a0, const char *a1, const char *a2), (a0, a1, a2)) \
    FUNCTION(AVFORMAT, int, av_interleaved_write_frame, (AVFormatContext *a0, AVPacket *a1), (a0, a1)) \
    FUNCTION(AVFORMAT, int, av_read_frame, (AVFormatContext *a0, AVPacket *a1), (a0, a1)) \
    FUNCTION(AVFORMAT, int, av_seek_frame, (AVFormatContext *a0, int a1, int64_t a2, int a3), (a0, a1, a2, a3)) \
    FUNCTION(AVFORMAT, uint8_t *, av_stream_get_side_data, (const AVStream *a0, enum AVPacketSideDataType a1, size_t *a2), (a0, a1, a2)) \
    FUNCTION(AVFORMAT, uint8_t *, av_stream_new_side_data, (AVStream *a0, enum AVPacketSideDataType a1, size_t a2), (a0, a1, a2)) \
    FUNCTION(AVFORMAT, int, av_write_trailer, (AVFormatContext *a0), (a0)) \
    FUNCTION(AVFORMAT, AVFormatContext *, avformat_alloc_context, (void), ()) \
    FUNCTION(AVFORMAT, int, avformat_alloc_output_context2, (AVFormatContext **a0, const AVOutputFormat *a1, const char *a2, const char *a3), (a0, a1, a2, a3)) \
    PROCEDURE(AVFORMAT, avformat_close_input, (AVFormatContext **a0), (a0)) \
    FUNCTION(AVFORMAT, int, avformat_find_stream_info, (AVFormatContext *a0, AVDictionary **a1), (a0, a1)) \
    PROCEDURE(AVFORMAT, avformat_free_context, (AVFormatContext *a0), (a0)) \
    FUNCTION(AVFORMAT, AVStream *, avformat_new_stream, (AVFormatContext *a0, const AVCodec *a1), (a0, a1)) \
    FUNCTION(AVFORMAT, int, avformat_open_input, (AVFormatContext **a0, const char *a1, const AVInputFormat *a2, AVDictionary **a3), (a0, a1, a2, a3)) \
    FUNCTION(AVFORMAT, int, avformat_query_codec, (const AVOutputFormat *a0, enum AVCodecID a1, int a2), (a0, a1, a2)) \
    FUNCTION(AVFORMAT, int, avformat_write_header, (AVFormatContext *a0, AVDictionary **a1), (a0, a1)) \
    FUNCTION(AVFORMAT, AVIOContext *, avio_alloc_context, (unsigned char *a0, int a1, int a2, void *a3, int (*a4)(void *, uint8_t *, int), int (*a5)(void *, uint8_t *, int), int64_t (*a6)(void *, int64_t, int)), (a0, a1, a2, a3, a4, a5, a6)) \
    FUNCTION(AVFORMAT, int, avio_closep, (AVIOContext **a0), (a0)) \
    PROCEDURE(AVFORMAT, avio_context_free, (AVIOContext **a0), (a0)) \
    FUNCTION(AVFORMAT, int, avio_open, (AVIOContext **a0, const char *a1, int a2), (a0, a1, a2)) \
    FUNCTION(AVFILTER, int, av_buffersink_get_frame, (AVFilterContext *a0, AVFrame *a1), (a0, a1)) \
    FUNCTION(AVFILTER, AVRational, av_buffersink_get_time_base, (const AVFilterContext *a0), (a0)) \
    PROCEDURE(AVFILTER, av_buffersink_set_frame_size, (AVFilterContext *a0, unsigned int a1), (a0, a1)) \
    FUNCTION(AVFILTER, int, av_buffersrc_add_frame_flags, (AVFilterContext *a0, AVFrame *a1, int a2), (a0, a1, a2)) \
    FUNCTION(AVFILTER, const AVFilter *, avfilter_get_by_name, (const char *a0), (a0)) \
    FUNCTION(AVFILTER, AVFilterGraph *, avfilter_graph_alloc, (void), ()) \
    FUNCTION(AVFILTER, int, avfilter_graph_config, (AVFilterGraph *a0, void *a1), (a0, a1)) \
    FUNCTION(AVFILTER, int, avfilter_graph_create_filter, (AVFilterContext **a0, const AVFilter *a1, const char *a2, const char *a3, void *a4, AVFilterGraph *a5), (a0, a1, a2, a3, a4, a5)) \
    PROCEDURE(AVFILTER, avfilter_graph_free, (AVFilterGraph **a0), (a0)) \
    FUNCTION(AVFILTER, int, avfilter_graph_parse_ptr, (AVFilterGraph *a0, const char *a1, AVFilterInOut **a2, AVFilterInOut **a3, void *a4), (a0, a1, a2, a3, a4)) \
    FUNCTION(AVFILTER, AVFilterInOut *, avfilter_inout_alloc, (void), ()) \
    PROCEDURE(AVFILTER, avfilter_inout_free, (AVFilterInOut **a0), (a0))

#define DARKROOM_STRING(x) #x
#define DARKROOM_VERSION(x) DARKROOM_STRING(x)

/* Each library's file and the Debian package that ships it, by darkroom_ffmpeg_library. */
static const char *const sonames[] = {
    "libavutil.so." DARKROOM_VERSION(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." DARKROOM_VERSION(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." DARKROOM_VERSION(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." DARKROOM_VERSION(LIBAVFORMAT_VERSION_MAJOR),
    "libavfilter.so." DARKROOM_VERSION(LIBAVFILTER_VERSION_MAJOR),
};
static const char *const packages[] = {
    "libavutil" DARKROOM_VERSION(LIBAVUTIL_VERSION_MAJOR),
    "libswscale" DARKROOM_VERSION(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec" DARKROOM_VERSION(LIBAVCODEC_VERSION_MAJOR),
    "libavformat" DARKROOM_VERSION(LIBAVFORMAT_VERSION_MAJOR),
    "libavfilter" DARKROOM_VERSION(LIBAVFILTER_VERSION_MAJOR),
};
#define DARKROOM_FFMPEG_LIBRARY_COUNT ((int) (sizeof sonames / sizeof sonames[0]))

/* The library's functions, filled by its opening. */
#define DARKROOM_DECLARE_FUNCTION(library, type, name, parameters, arguments) static __typeof__(&name) real_##name;
#define DARKROOM_DECLARE_PROCEDURE(library, name, parameters, arguments) static __typeof__(&name) real_##name;
DARKROOM_FFMPEG_FUNCTIONS(DARKROOM_DECLARE_FUNCTION, DARKROOM_DECLARE_PROCEDURE)

/* Whether each library opened, and why not; written once, inside its pthread_once. */
static int opened[DARKROOM_FFMPEG_LIBRARY_COUNT];
static char failures[DARKROOM_FFMPEG_LIBRARY_COUNT][512];

/* The log sink and level, and whether libavutil is open to take them; under log_lock. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static darkroom_av_log_sink log_sink;
static int log_level = AV_LOG_QUIET;
static int log_installed, log_library_open;

/* FFmpeg's log callback: drops lines above av_log_get_level() unformatted, formats the rest with their
 * "[mjpeg @ 0x...]" prefix, and hands them to the sink. Prints nothing itself. */
static void log_callback(void *object, int level, const char *format, va_list arguments) {
    if (level > real_av_log_get_level()) return;
    darkroom_av_log_sink sink = __atomic_load_n(&log_sink, __ATOMIC_ACQUIRE);
    if (!sink) return;
    char line[1024];
    int print_prefix = 1;
    if (real_av_log_format_line2(object, level, format, arguments, line, (int) sizeof line, &print_prefix) < 0) return;
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
    if (length > 0) sink(level, line);
}

/* Gives libavutil the installed sink and level; with log_lock held, once both are there. */
static void apply_log_configuration(void) {
    if (!log_installed || !log_library_open) return;
    real_av_log_set_level(log_level);
    real_av_log_set_callback(log_callback);
}

void darkroom_av_log_install(darkroom_av_log_sink sink, int level) {
    pthread_mutex_lock(&log_lock);
    __atomic_store_n(&log_sink, sink, __ATOMIC_RELEASE);
    log_level = level;
    log_installed = 1;
    apply_log_configuration();
    pthread_mutex_unlock(&log_lock);
}

/* Points *slot at `name` in `handle`; 0 and the reason in the library's failure when it is missing. */
static int resolve(darkroom_ffmpeg_library library, void *handle, void **slot, const char *name) {
    *slot = dlsym(handle, name);
    if (!*slot) snprintf(failures[library], sizeof failures[library], "%s has no %s", sonames[library], name);
    return *slot != NULL;
}

static void open_library(darkroom_ffmpeg_library library) {
    /* libavutil first, so that its log sink is in place before any other library can log. */
    if (library != DARKROOM_FFMPEG_AVUTIL
        && darkroom_ffmpeg_open(DARKROOM_FFMPEG_AVUTIL, failures[library], sizeof failures[library]) != 0) return;
    void *handle = dlopen(sonames[library], RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(failures[library], sizeof failures[library], "cannot open %s: %s (Debian's %s package)",
                 sonames[library], why ? why : "not found", packages[library]);
        return;
    }
#define DARKROOM_RESOLVE_FUNCTION(owner, type, name, parameters, arguments) \
    if (library == DARKROOM_FFMPEG_##owner && !resolve(library, handle, (void **) &real_##name, #name)) return;
#define DARKROOM_RESOLVE_PROCEDURE(owner, name, parameters, arguments) DARKROOM_RESOLVE_FUNCTION(owner, void, name, parameters, arguments)
    DARKROOM_FFMPEG_FUNCTIONS(DARKROOM_RESOLVE_FUNCTION, DARKROOM_RESOLVE_PROCEDURE)
    if (library == DARKROOM_FFMPEG_AVUTIL) {
        pthread_mutex_lock(&log_lock);
        log_library_open = 1;
        apply_log_configuration();
        pthread_mutex_unlock(&log_lock);
    }
    opened[library] = 1;
}

/* pthread_once takes a function without arguments: one per library. */
static void open_avutil(void) { open_library(DARKROOM_FFMPEG_AVUTIL); }
static void open_swscale(void) { open_library(DARKROOM_FFMPEG_SWSCALE); }
static void open_avcodec(void) { open_library(DARKROOM_FFMPEG_AVCODEC); }
static void open_avformat(void) { open_library(DARKROOM_FFMPEG_AVFORMAT); }
static void open_avfilter(void) { open_library(DARKROOM_FFMPEG_AVFILTER); }
static void (*const openers[])(void) = {open_avutil, open_swscale, open_avcodec, open_avformat, open_avfilter};
static pthread_once_t once[DARKROOM_FFMPEG_LIBRARY_COUNT] = {
    PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
};

int darkroom_ffmpeg_open(darkroom_ffmpeg_library library, char *reason, size_t size) {
    if ((int) library < 0 || (int) library >= DARKROOM_FFMPEG_LIBRARY_COUNT) {
        snprintf(reason, size, "no FFmpeg library number %d", (int) library);
        return -1;
    }
    pthread_once(&once[library], openers[library]);
    if (opened[library]) return 0;
    snprintf(reason, size, "%s", failures[library]);
    return -1;
}

/* Opens `library` for a call of `name`, or ends the process saying why: the Swift side opens every
 * library through darkroom_ffmpeg_open before its first call, so this is only a backstop. */
static void require(darkroom_ffmpeg_library library, const char *name) {
    char reason[512];
    if (darkroom_ffmpeg_open(library, reason, sizeof reason) == 0) return;
    fprintf(stderr, "darkroom: cannot call FFmpeg's %s: %s\n", name, reason);
    abort();
}

#define DARKROOM_DEFINE_FUNCTION(library, type, name, parameters, arguments) \
    type name parameters { require(DARKROOM_FFMPEG_##library, #name); return real_##name arguments; }
#define DARKROOM_DEFINE_PROCEDURE(library, name, parameters, arguments) \
    void name parameters { require(DARKROOM_FFMPEG_##library, #name); real_##name arguments; }
DARKROOM_FFMPEG_FUNCTIONS(DARKROOM_DEFINE_FUNCTION, DARKROOM_DEFINE_PROCEDURE)
