// A photo's colour pixels warped into a video frame by a similarity.
#include "calignment.h"
#include "guard.hpp"
#include <opencv2/imgproc.hpp>

extern "C" int calign_warp_rgb(const uint8_t *source, int width, int height, int stride, const calign_similarity *transform,
                               int cubic, uint8_t *output, int output_width, int output_height, calign_error *error) {
    if (!source || !transform || !output || width < 1 || height < 1 || stride < 3 * width || output_width < 1 || output_height < 1)
        return calign::fail(error, CALIGN_INVALID_ARGUMENT, "calign_warp_rgb: missing pixels or an empty image");
    return calign::guarded(error, [&]() -> int {
        cv::Mat photo(height, width, CV_8UC3, const_cast<uint8_t *>(source), stride);
        cv::Mat frame(output_height, output_width, CV_8UC3, output, size_t(output_width) * 3);
        cv::warpAffine(photo, frame, calign::matrix(*transform), frame.size(), cubic ? cv::INTER_CUBIC : cv::INTER_LINEAR,
                       cv::BORDER_REPLICATE);
        CV_Assert(frame.data == output);  // written in place, not reallocated
        return CALIGN_OK;
    });
}
