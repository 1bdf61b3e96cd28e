// Sub-pixel refinement of a similarity by ECC, over the pixels that stayed put.
#include "calignment.h"
#include "guard.hpp"
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include "frame.hpp"

namespace {

cv::Matx33d homogeneous(const cv::Matx23d &m) { return {m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), 0, 0, 1}; }
cv::Matx23d affine(const cv::Matx33d &m) { return {m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2)}; }

/// Maps pixel positions of an image to the same positions in a copy resized by `scale` (pixel centres at integers).
cv::Matx33d resizing(double scale) {
    double shift = 0.5 * scale - 0.5;
    return {scale, 0, shift, 0, scale, shift, 0, 0, 1};
}

/// The similarity nearest to an affine map, keeping where it sends `centre`.
cv::Matx23d nearestSimilarity(const cv::Matx23d &m, cv::Point2d centre) {
    double a = (m(0, 0) + m(1, 1)) / 2, b = (m(1, 0) - m(0, 1)) / 2;
    double x = m(0, 0) * centre.x + m(0, 1) * centre.y + m(0, 2);
    double y = m(1, 0) * centre.x + m(1, 1) * centre.y + m(1, 2);
    return {a, -b, x - (a * centre.x - b * centre.y), b, a, y - (b * centre.x + a * centre.y)};
}

/// The pixels of `photo` to trust: those the reference also shows (inside its borders, away from them) and
/// that look alike once aligned by `photoToReference` and brought to the same brightness and contrast. A
/// subject that grew, moved or changed differs in a large patch and is left out.
cv::Mat stillMask(const cv::Mat &photo, const cv::Mat &reference, const cv::Matx23d &photoToReference) {
    cv::Mat referenceInPhoto, covered;
    cv::warpAffine(reference, referenceInPhoto, photoToReference, photo.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                   cv::BORDER_CONSTANT, 0);
    cv::warpAffine(cv::Mat(reference.size(), CV_8U, 255), covered, photoToReference, photo.size(),
                   cv::INTER_NEAREST | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, 0);
    int margin = std::max(3, photo.cols / 100);
    cv::erode(covered, covered, cv::getStructuringElement(cv::MORPH_RECT, {2 * margin + 1, 2 * margin + 1}));

    cv::Mat p, r;
    photo.convertTo(p, CV_32F);
    referenceInPhoto.convertTo(r, CV_32F);
    cv::Scalar pMean, pDev, rMean, rDev;
    cv::meanStdDev(p, pMean, pDev, covered);
    cv::meanStdDev(r, rMean, rDev, covered);
    p = (p - pMean[0]) / std::max(1.0, pDev[0]);
    r = (r - rMean[0]) / std::max(1.0, rDev[0]);
    cv::Mat difference = cv::abs(p - r);
    // Differences of a patch, not of single pixels: a texture edge off by a pixel is not a change.
    int patch = std::max(5, photo.cols / 40) | 1;
    cv::blur(difference, difference, {patch, patch});
    std::vector<float> values;
    values.reserve(difference.total());
    for (int y = 0; y < difference.rows; y++) {
        const float *d = difference.ptr<float>(y);
        const uchar *c = covered.ptr<uchar>(y);
        for (int x = 0; x < difference.cols; x++) if (c[x]) values.push_back(d[x]);
    }
    if (values.size() < 100) return covered;
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    double median = values[values.size() / 2];
    cv::Mat changed = difference > std::max(2.5 * median, 0.25);
    cv::dilate(changed, changed, cv::getStructuringElement(cv::MORPH_ELLIPSE, {patch, patch}));
    cv::Mat mask;
    cv::bitwise_and(covered, ~changed, mask);
    return mask;
}

}  // namespace

extern "C" int calign_refine(const calign_frame *photo, const calign_frame *reference, const calign_similarity *initial,
                             double scale, calign_similarity *out, double *correlation, double *coverage,
                             calign_error *error) {
    if (!photo || !reference || !initial || !out || !correlation || !coverage || !(scale > 0 && scale <= 1))
        return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_refine: missing argument or a scale outside (0, 1]");
    return calign::guarded(error, [&]() -> int {
        cv::Matx33d photoToReference = homogeneous(calign::matrix(*initial));
        int longEdge = std::max(photo->grey.cols, photo->grey.rows);
        // Coarse to fine: most iterations on quarter-size pixels, the last few at `scale`.
        std::vector<std::pair<double, int>> levels;
        if (scale / 2 * longEdge >= 200) levels.push_back({scale / 2, 30});
        levels.push_back({scale, levels.empty() ? 30 : 10});
        for (auto [level, iterations] : levels) {
            cv::Mat p = photo->grey, r = reference->grey;
            if (level < 1) {
                cv::resize(photo->grey, p, {}, level, level, cv::INTER_AREA);
                cv::resize(reference->grey, r, {}, level, level, cv::INTER_AREA);
            }
            cv::Matx33d toSmall = resizing(level), small = toSmall * photoToReference * toSmall.inv();
            cv::Mat mask = stillMask(p, r, affine(small));
            *coverage = double(cv::countNonZero(mask)) / double(mask.total());
            // ECC's warp maps the template (the reference) into the input (the photo).
            cv::Mat warp(affine(small.inv()));
            warp.convertTo(warp, CV_32F);
            cv::TermCriteria until(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, iterations, 1e-4);
            *correlation = cv::findTransformECC(r, p, warp, cv::MOTION_AFFINE, until, mask, 3);
            cv::Matx23d found;
            warp.convertTo(cv::Mat(2, 3, CV_64F, found.val), CV_64F);
            photoToReference = toSmall.inv() * homogeneous(found).inv() * toSmall;
        }
        cv::Point2d centre((photo->grey.cols - 1) / 2.0, (photo->grey.rows - 1) / 2.0);
        *out = calign::similarity(nearestSimilarity(affine(photoToReference), centre));
        return CALIGN_OK;
    });
}

extern "C" int calign_refine_region(const uint8_t *photo, int photo_width, int photo_height, int photo_stride,
                                    const uint8_t *reference, int reference_width, int reference_height,
                                    int reference_stride, calign_rect region, const calign_similarity *initial,
                                    calign_similarity *out, double *correlation, calign_error *error) {
    if (!photo || !reference || !initial || !out || !correlation || photo_width < 8 || photo_height < 8
        || reference_width < 8 || reference_height < 8 || photo_stride < photo_width || reference_stride < reference_width)
        return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_refine_region: missing argument");
    return calign::guarded(error, [&]() -> int {
        cv::Mat p(photo_height, photo_width, CV_8UC1, const_cast<uint8_t *>(photo), photo_stride);
        cv::Mat r(reference_height, reference_width, CV_8UC1, const_cast<uint8_t *>(reference), reference_stride);
        cv::Rect area = cv::Rect(int(region.x), int(region.y), int(region.width), int(region.height)) & cv::Rect(0, 0, r.cols, r.rows);
        if (area.width < 16 || area.height < 16)
            return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_refine_region: the region is under 16x16 pixels");
        cv::Mat crop = r(area).clone();
        // The warp maps the crop's pixels into the photo: reference = crop + origin, photo = initial^-1(reference).
        cv::Matx33d origin(1, 0, area.x, 0, 1, area.y, 0, 0, 1);
        cv::Matx33d cropToPhoto = homogeneous(calign::matrix(*initial)).inv() * origin;
        cv::Mat warp(affine(cropToPhoto));
        warp.convertTo(warp, CV_32F);
        cv::TermCriteria until(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 50, 1e-5);
        *correlation = cv::findTransformECC(crop, p, warp, cv::MOTION_AFFINE, until, cv::noArray(), 5);
        cv::Matx23d found;
        warp.convertTo(cv::Mat(2, 3, CV_64F, found.val), CV_64F);
        cv::Point2d centre((crop.cols - 1) / 2.0, (crop.rows - 1) / 2.0);
        cv::Matx33d photoToReference = origin * homogeneous(nearestSimilarity(found, centre)).inv();
        *out = calign::similarity(affine(photoToReference));
        return CALIGN_OK;
    });
}
