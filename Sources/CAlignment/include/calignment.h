#ifndef DARKROOM_CALIGNMENT_H
#define DARKROOM_CALIGNMENT_H
/*
 * Photo alignment over OpenCV 4.6, behind a C interface: no C++ type crosses it, every OpenCV object is
 * made and freed behind it, and every C++ exception is caught here and returned as a status + message.
 *
 * Coordinates are OpenCV's: pixel units with the centre of pixel (i, j) at (i, j).
 * A similarity maps (x, y) to (a x - b y + tx, b x + a y + ty).
 * Functions returning int give CALIGN_OK (0) or a calign_status, with the reason in `error->message`.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CALIGN_OK = 0,
    CALIGN_INVALID_ARGUMENT = 1,  /* a null pointer, an empty or too small image */
    CALIGN_NATIVE_FAILURE = 2,    /* OpenCV threw: the message is its own */
    CALIGN_OUT_OF_MEMORY = 3,
    CALIGN_NOT_CONVERGED = 4,     /* the sub-pixel refinement did not converge */
    CALIGN_UNREADABLE_FILE = 5    /* a cascade file is missing or not a cascade */
} calign_status;

typedef struct {
    int status;
    char message[480];
} calign_error;

typedef struct {
    double a, b, tx, ty;
} calign_similarity;

typedef struct {
    double x, y, width, height;
} calign_rect;

/* OpenCV's worker threads for its parallel loops (0 or 1: none). */
void calign_set_threads(int threads);
int calign_threads(void);

/* ---- Scene: a grey photo with its ORB features. ---- */
typedef struct calign_frame calign_frame;

/* Copies `height` rows of `width` 8-bit grey pixels (`stride` bytes apart) and finds up to `max_features`
 * ORB features spread over the image, on a copy shrunk by `feature_scale` (0 < scale <= 1; positions are
 * given in the full image's pixels). */
int calign_frame_create(const uint8_t *pixels, int width, int height, int stride, int max_features,
                        double feature_scale, calign_frame **out, calign_error *error);
void calign_frame_free(calign_frame *frame);
int calign_frame_feature_count(const calign_frame *frame);

typedef struct {
    int matches;  /* descriptor matches that pass the ratio test */
    int inliers;  /* of those, the ones the estimated transform agrees with (within the RANSAC threshold) */
} calign_match_stats;

/* The similarity that maps `photo` onto `reference` from matched features (RANSAC, then least squares on
 * the inliers). With fewer than 3 matches it returns CALIGN_OK with stats->inliers below 3 and no transform. */
int calign_estimate(const calign_frame *photo, const calign_frame *reference, double ransac_threshold,
                    calign_similarity *out, calign_match_stats *stats, calign_error *error);

/* Refines `initial` (photo -> reference) to sub-pixel accuracy by maximising the enhanced correlation
 * coefficient (ECC) over the pixels both images show alike: where they differ after the initial
 * alignment (a growing subject) is left out. `scale` (0 < scale <= 1) runs it on images shrunk by that
 * factor (after a first pass at half that scale when the images are large enough). Gives the correlation
 * reached (-1...1) and the share of pixels used (0...1). */
int calign_refine(const calign_frame *photo, const calign_frame *reference, const calign_similarity *initial,
                  double scale, calign_similarity *out, double *correlation, double *coverage,
                  calign_error *error);

/* Refines `initial` (photo -> reference) by ECC so that `region` of the reference (a face) and the photo
 * agree to sub-pixel accuracy: the pictures are given as grey pixels (`stride` bytes a row). Gives the
 * correlation reached in the region (-1...1). */
int calign_refine_region(const uint8_t *photo, int photo_width, int photo_height, int photo_stride,
                         const uint8_t *reference, int reference_width, int reference_height, int reference_stride,
                         calign_rect region, const calign_similarity *initial, calign_similarity *out,
                         double *correlation, calign_error *error);

/* ---- Frames: a colour photo warped into a video frame. ---- */

/* Warps `height` rows of `width` packed 8-bit RGB pixels (`stride` bytes apart) by `transform` (photo pixels
 * to frame pixels) into `output`, `output_height` rows of `output_width` packed RGB pixels, sampled
 * bilinearly (or bicubically when `cubic`); where the photo does not reach, its edge pixels are repeated.
 * OpenCV's fixed-point warp: several times cheaper than libvips' affine for the same size. */
int calign_warp_rgb(const uint8_t *source, int width, int height, int stride, const calign_similarity *transform,
                    int cubic, uint8_t *output, int output_width, int output_height, calign_error *error);

/* ---- Faces: a Haar or LBP cascade. ---- */
typedef struct calign_cascade calign_cascade;

int calign_cascade_load(const char *path, calign_cascade **out, calign_error *error);
void calign_cascade_free(calign_cascade *cascade);

/* Detects objects within `region` of a grey image (equalised first), at least `min_size` pixels wide
 * (and at most `max_size`, 0: no limit), trying sizes `scale_step` apart (1.1: 10 %). Writes up to
 * `capacity` boxes, largest first, and the number found to `count`. A cascade must not be used by two
 * threads at once. */
int calign_cascade_detect(calign_cascade *cascade, const uint8_t *pixels, int width, int height, int stride,
                          calign_rect region, double min_size, double max_size, double scale_step, int min_neighbours,
                          calign_rect *boxes, int capacity, int *count, calign_error *error);

#ifdef __cplusplus
}
#endif
#endif
