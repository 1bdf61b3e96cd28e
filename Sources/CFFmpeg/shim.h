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

/* Frame planes: AVFrame's data[] and linesize[] import into Swift as tuples. */
static inline uint8_t *darkroom_frame_plane(AVFrame *frame, int plane) { return frame->data[plane]; }
static inline int darkroom_frame_linesize(const AVFrame *frame, int plane) { return frame->linesize[plane]; }

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

/* dst = a * (256 - weight) / 256 + b * weight / 256, plane by plane, for three-plane 8-bit frames of one
 * size and format (yuv420p). A blend in Y'CbCr equals the same blend in R'G'B' (the conversion is affine). */
static inline void darkroom_frame_blend(AVFrame *dst, const AVFrame *a, const AVFrame *b, int weight) {
    const int keep = 256 - weight;
    for (int plane = 0; plane < 3; plane++) {
        const int w = plane == 0 ? dst->width : (dst->width + 1) / 2;
        const int h = plane == 0 ? dst->height : (dst->height + 1) / 2;
        for (int y = 0; y < h; y++) {
            const uint8_t *pa = a->data[plane] + (ptrdiff_t) y * a->linesize[plane];
            const uint8_t *pb = b->data[plane] + (ptrdiff_t) y * b->linesize[plane];
            uint8_t *out = dst->data[plane] + (ptrdiff_t) y * dst->linesize[plane];
            for (int x = 0; x < w; x++) out[x] = (uint8_t) ((pa[x] * keep + pb[x] * weight + 128) >> 8);
        }
    }
}
#endif
