internal import CFFmpeg
import Foundation

/// One picture ready for the encoder: 8-bit Y'CbCr 4:2:0 (yuv420p), BT.709, limited range.
///
/// Owns its `AVFrame` (whose buffers are reference-counted, so the encoder can hold on to a frame
/// that is sent again and again without copying it). Treat it as immutable once made.
// Sendable: the AVFrame is not written after it is made, so one thread can hand it to another (the encoder's).
public final class VideoFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Width in pixels.
    public var width: Int { Int(pointer.pointee.width) }
    /// Height in pixels.
    public var height: Int { Int(pointer.pointee.height) }

    /// A frame with freshly allocated (uninitialised) yuv420p planes.
    init(width: Int, height: Int) throws {
        try FFmpeg.requireStarted("allocate frame")
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw VideoError(operation: "allocate frame", message: "a yuv420p frame needs an even width and height, got \(width)x\(height)")
        }
        guard let frame = av_frame_alloc() else {
            throw VideoError(operation: "allocate frame", message: "out of memory")
        }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_BT709
        frame.pointee.colorspace = AVCOL_SPC_BT709
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        pointer = frame
        try FFmpegCode.check(av_frame_get_buffer(frame, 0), "allocate \(width)x\(height) frame")
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// A new frame: this one mixed with `other` (same size), `weight` 0 giving this frame and 1 `other`.
    /// Used for crossfades.
    public func blended(with other: VideoFrame, weight: Double) throws -> VideoFrame {
        guard other.width == width, other.height == height else {
            throw VideoError(operation: "blend frames", message: "sizes differ: \(width)x\(height) and \(other.width)x\(other.height)")
        }
        let out = try VideoFrame(width: width, height: height)
        let mix = Int((min(max(weight, 0), 1) * 256).rounded()), keep = 256 - mix
        // Plane by plane (Y', then Cb and Cr at half size): a blend in Y'CbCr equals the same blend
        // in R'G'B', since the conversion is affine.
        for plane in 0..<3 {
            let planeWidth = plane == 0 ? width : (width + 1) / 2
            let planeHeight = plane == 0 ? height : (height + 1) / 2
            let (a, aStride) = self.plane(plane), (b, bStride) = other.plane(plane), (o, oStride) = out.plane(plane)
            for y in 0..<planeHeight {
                let rowA = a + y * aStride, rowB = b + y * bStride, rowOut = o + y * oStride
                for x in 0..<planeWidth {
                    rowOut[x] = UInt8(truncatingIfNeeded: (Int(rowA[x]) * keep + Int(rowB[x]) * mix + 128) >> 8)
                }
            }
        }
        return out
    }

    /// The start and row length in bytes of plane 0 (Y'), 1 (Cb) or 2 (Cr).
    private func plane(_ index: Int) -> (UnsafeMutablePointer<UInt8>, Int) {
        let frame = pointer.pointee
        switch index {
        case 0: return (frame.data.0!, Int(frame.linesize.0))
        case 1: return (frame.data.1!, Int(frame.linesize.1))
        default: return (frame.data.2!, Int(frame.linesize.2))
        }
    }
}
