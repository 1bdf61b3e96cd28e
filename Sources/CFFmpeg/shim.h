#ifndef DARKROOM_CFFMPEG_SHIM_H
#define DARKROOM_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/error.h>

/* Macros Swift does not import. */
static inline int darkroom_averror(int e) { return AVERROR(e); }
static inline int darkroom_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t darkroom_av_nopts_value(void) { return AV_NOPTS_VALUE; }
#endif
