// A grey photo and its ORB features; the similarity between two photos from matched features.
#include "calignment.h"
#include "guard.hpp"
#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "frame.hpp"

namespace {

/// Keeps at most `limit` keypoints, the strongest of each cell of a grid first, so that the features are
/// spread over the whole photo instead of piling up on its busiest part (often the changing subject).
std::vector<cv::KeyPoint> spread(std::vector<cv::KeyPoint> points, cv::Size size, int limit) {
    if ((int)points.size() <= limit) return points;
    const int cells = 8;
    std::sort(points.begin(), points.end(), [](const cv::KeyPoint &l, const cv::KeyPoint &r) { return l.response > r.response; });
    std::vector<int> taken(cells * cells, 0);
    const int perCell = std::max(1, limit / (cells * cells));
    std::vector<cv::KeyPoint> kept, rest;
    kept.reserve(limit);
    for (const auto &p : points) {
        int cx = std::clamp(int(p.pt.x * cells / size.width), 0, cells - 1);
        int cy = std::clamp(int(p.pt.y * cells / size.height), 0, cells - 1);
        if (taken[cy * cells + cx] < perCell) { taken[cy * cells + cx]++; kept.push_back(p); }
        else rest.push_back(p);
    }
    for (size_t i = 0; i < rest.size() && (int)kept.size() < limit; i++) kept.push_back(rest[i]);
    return kept;
}

/// The number of differing bits of two 32-byte ORB descriptors.
inline int hamming(const uint64_t *a, const uint64_t *b) {
    return __builtin_popcountll(a[0] ^ b[0]) + __builtin_popcountll(a[1] ^ b[1]) + __builtin_popcountll(a[2] ^ b[2])
         + __builtin_popcountll(a[3] ^ b[3]);
}

/// For each descriptor of `query`, its nearest and second-nearest in `train` (brute force): the pairs that
/// pass Lowe's ratio test, as (query row, train row). Written out because Debian's BFMatcher takes 20 times
/// as long for ORB's 32-byte descriptors.
template <int (*Distance)(const uint64_t *, const uint64_t *)>
std::vector<std::pair<int, int>> ratioMatches(const cv::Mat &query, const cv::Mat &train, float ratio) {
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < query.rows; i++) {
        const auto *q = query.ptr<uint64_t>(i);
        int best = INT32_MAX, second = INT32_MAX, bestRow = -1;
        for (int j = 0; j < train.rows; j++) {
            int d = Distance(q, train.ptr<uint64_t>(j));
            if (d < best) { second = best; best = d; bestRow = j; }
            else if (d < second) second = d;
        }
        if (bestRow >= 0 && second != INT32_MAX && best < ratio * second) pairs.push_back({i, bestRow});
    }
    return pairs;
}

#if defined(__x86_64__)
__attribute__((target("popcnt"))) int hammingPopcnt(const uint64_t *a, const uint64_t *b) {
    return __builtin_popcountll(a[0] ^ b[0]) + __builtin_popcountll(a[1] ^ b[1]) + __builtin_popcountll(a[2] ^ b[2])
         + __builtin_popcountll(a[3] ^ b[3]);
}
#endif

std::vector<std::pair<int, int>> matchDescriptors(const cv::Mat &query, const cv::Mat &train) {
    CV_Assert(query.type() == CV_8U && train.type() == CV_8U && query.cols == 32 && train.cols == 32
              && query.isContinuous() && train.isContinuous());
#if defined(__x86_64__)
    if (__builtin_cpu_supports("popcnt")) return ratioMatches<hammingPopcnt>(query, train, 0.8f);
#endif
    return ratioMatches<hamming>(query, train, 0.8f);
}

}  // namespace

extern "C" int calign_frame_create(const uint8_t *pixels, int width, int height, int stride, int max_features,
                                   double feature_scale, calign_frame **out, calign_error *error) {
    if (!pixels || !out || width < 32 || height < 32 || stride < width || max_features < 8 || !(feature_scale > 0 && feature_scale <= 1))
        return calign::fail(error, CALIGN_INVALID_ARGUMENT,
                            "a grey image of at least 32x32 pixels, at least 8 features and a scale in (0, 1] are needed");
    *out = nullptr;
    return calign::guarded(error, [&]() -> int {
        auto frame = std::make_unique<calign_frame>();
        cv::Mat(height, width, CV_8UC1, const_cast<uint8_t *>(pixels), stride).copyTo(frame->grey);
        cv::Mat small = frame->grey;
        if (feature_scale < 1) cv::resize(frame->grey, small, {}, feature_scale, feature_scale, cv::INTER_AREA);
        auto orb = cv::ORB::create(max_features * 2, 1.2f, 4, 31, 0, 2, cv::ORB::HARRIS_SCORE, 31, 12);
        std::vector<cv::KeyPoint> found;
        orb->detect(small, found);
        frame->keypoints = spread(std::move(found), small.size(), max_features);
        orb->compute(small, frame->keypoints, frame->descriptors);
        // Positions in the full image (pixel centres at integers in both).
        for (auto &point : frame->keypoints) {
            point.pt.x = float((point.pt.x + 0.5) / feature_scale - 0.5);
            point.pt.y = float((point.pt.y + 0.5) / feature_scale - 0.5);
        }
        *out = frame.release();
        return CALIGN_OK;
    });
}

extern "C" void calign_frame_free(calign_frame *frame) { delete frame; }

extern "C" int calign_frame_feature_count(const calign_frame *frame) { return frame ? (int)frame->keypoints.size() : 0; }

extern "C" int calign_estimate(const calign_frame *photo, const calign_frame *reference, double ransac_threshold,
                               calign_similarity *out, calign_match_stats *stats, calign_error *error) {
    if (!photo || !reference || !out || !stats || ransac_threshold <= 0)
        return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_estimate: missing argument");
    *stats = {0, 0};
    return calign::guarded(error, [&]() -> int {
        if (photo->descriptors.rows < 2 || reference->descriptors.rows < 2) return CALIGN_OK;
        std::vector<cv::Point2f> from, to;
        for (auto [query, train] : matchDescriptors(photo->descriptors, reference->descriptors)) {
            from.push_back(photo->keypoints[query].pt);
            to.push_back(reference->keypoints[train].pt);
        }
        stats->matches = (int)from.size();
        if (from.size() < 3) return CALIGN_OK;
        std::vector<uchar> inliers;
        cv::Mat m = cv::estimateAffinePartial2D(from, to, inliers, cv::RANSAC, ransac_threshold, 4000, 0.999, 20);
        if (m.empty()) return CALIGN_OK;
        stats->inliers = (int)std::count(inliers.begin(), inliers.end(), 1);
        *out = calign::similarity(cv::Matx23d(m));
        return CALIGN_OK;
    });
}
