// Turns every C++ exception into a calign_status and a message, at the C boundary.
#pragma once
#include "calignment.h"
#include <opencv2/core.hpp>
#include <cstdio>
#include <new>
#include <string>

namespace calign {

/// Records a failure in `error` (when given) and returns its status.
inline int fail(calign_error *error, int status, const std::string &message) {
    if (error) {
        error->status = status;
        std::snprintf(error->message, sizeof error->message, "%s", message.c_str());
    }
    return status;
}

inline int succeed(calign_error *error) {
    if (error) { error->status = CALIGN_OK; error->message[0] = 0; }
    return CALIGN_OK;
}

/// Runs `body` (which returns a status), catching what OpenCV and the standard library throw.
template <typename Body> int guarded(calign_error *error, Body body) noexcept {
    try {
        int status = body();
        return status == CALIGN_OK ? succeed(error) : status;
    } catch (const cv::Exception &e) {
        if (e.code == cv::Error::StsNoConv) return fail(error, CALIGN_NOT_CONVERGED, "OpenCV " + e.func + ": " + e.err);
        return fail(error, CALIGN_NATIVE_FAILURE, "OpenCV " + e.func + ": " + e.err);
    } catch (const std::bad_alloc &) {
        return fail(error, CALIGN_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception &e) {
        return fail(error, CALIGN_NATIVE_FAILURE, e.what());
    } catch (...) {
        return fail(error, CALIGN_NATIVE_FAILURE, "unknown C++ exception");
    }
}

/// A similarity as OpenCV's 2x3 matrix.
inline cv::Matx23d matrix(const calign_similarity &s) { return {s.a, -s.b, s.tx, s.b, s.a, s.ty}; }
inline calign_similarity similarity(const cv::Matx23d &m) { return {m(0, 0), m(1, 0), m(0, 2), m(1, 2)}; }

}  // namespace calign
