// Haar and LBP cascades (faces, eyes) from Debian's opencv-data, and OpenCV's thread count.
#include "calignment.h"
#include "guard.hpp"
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <algorithm>
#include <fstream>

struct calign_cascade {
    cv::CascadeClassifier classifier;
};

extern "C" void calign_set_threads(int threads) {
    try { cv::setNumThreads(std::max(0, threads)); } catch (...) {}
}

extern "C" int calign_threads(void) {
    try { return cv::getNumThreads(); } catch (...) { return -1; }
}

extern "C" int calign_cascade_load(const char *path, calign_cascade **out, calign_error *error) {
    if (!path || !out) return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_cascade_load: missing argument");
    *out = nullptr;
    if (!std::ifstream(path).good()) return calign::fail(error, CALIGN_UNREADABLE_FILE, std::string(path) + ": no such file");
    return calign::guarded(error, [&]() -> int {
        auto cascade = std::make_unique<calign_cascade>();
        if (!cascade->classifier.load(path) || cascade->classifier.empty())
            return calign::fail(error, CALIGN_UNREADABLE_FILE, std::string(path) + ": not an OpenCV cascade");
        *out = cascade.release();
        return CALIGN_OK;
    });
}

extern "C" void calign_cascade_free(calign_cascade *cascade) { delete cascade; }

extern "C" int calign_cascade_detect(calign_cascade *cascade, const uint8_t *pixels, int width, int height, int stride,
                                     calign_rect region, double min_size, double max_size, double scale_step,
                                     int min_neighbours,
                                     calign_rect *boxes, int capacity, int *count, calign_error *error) {
    if (!cascade || !pixels || !count || (capacity > 0 && !boxes) || width < 1 || height < 1 || stride < width || !(scale_step > 1))
        return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_cascade_detect: missing argument");
    *count = 0;
    return calign::guarded(error, [&]() -> int {
        cv::Mat image(height, width, CV_8UC1, const_cast<uint8_t *>(pixels), stride);
        cv::Rect area = cv::Rect(cv::Point(int(std::floor(region.x)), int(std::floor(region.y))),
                                 cv::Point(int(std::ceil(region.x + region.width)), int(std::ceil(region.y + region.height))))
                        & cv::Rect(0, 0, width, height);
        if (area.width < 8 || area.height < 8) return CALIGN_OK;
        // Small regions (an eye band) are enlarged first: the cascades' windows start at 20-24 pixels.
        double enlarge = std::max(1.0, 240.0 / std::max(area.width, area.height));
        cv::Mat equalised;
        cv::equalizeHist(image(area), equalised);
        if (enlarge > 1) cv::resize(equalised, equalised, {}, enlarge, enlarge, cv::INTER_CUBIC);
        std::vector<cv::Rect> found;
        const cv::Size smallest{int(min_size * enlarge), int(min_size * enlarge)};
        const cv::Size largest = max_size > 0 ? cv::Size{int(max_size * enlarge), int(max_size * enlarge)} : cv::Size{};
        cascade->classifier.detectMultiScale(equalised, found, scale_step, std::max(1, min_neighbours), 0, smallest, largest);
        std::sort(found.begin(), found.end(), [](const cv::Rect &l, const cv::Rect &r) { return l.area() > r.area(); });
        *count = (int)found.size();
        for (int i = 0; i < std::min(capacity, (int)found.size()); i++)
            boxes[i] = {found[i].x / enlarge + area.x, found[i].y / enlarge + area.y, found[i].width / enlarge, found[i].height / enlarge};
        return CALIGN_OK;
    });
}
