// What a calign_frame holds (shared by frame.cpp and refine.cpp).
#pragma once
#include <opencv2/core.hpp>
#include <vector>

struct calign_frame {
    cv::Mat grey;                         // the photo's grey pixels, owned
    std::vector<cv::KeyPoint> keypoints;  // ORB features, spread over the photo
    cv::Mat descriptors;                  // one row of 32 bytes per keypoint
};
