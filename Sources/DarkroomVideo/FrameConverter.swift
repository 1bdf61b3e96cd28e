internal import CFFmpeg
import Foundation

/// Converts packed 8-bit RGB pictures (sRGB) into BT.709 yuv420p `VideoFrame`s of the same size.
///
/// Owns a `SwsContext` set to BT.709 coefficients and limited range on purpose: swscale's default
/// is BT.601, which players would show with shifted colours in a stream tagged BT.709.
/// Not thread-safe: use one converter per thread.
// Sendable: handed to the one thread that converts with it (a time-lapse's prefetcher), never used by two at once.
public final class FrameConverter: @unchecked Sendable {
    private let context: OpaquePointer
    /// Width of the pictures converted.
    public let width: Int
    /// Height of the pictures converted.
    public let height: Int

    /// A converter for `width` x `height` pictures (both even).
    public init(width: Int, height: Int) throws {
        try FFmpeg.requireStarted("create converter")
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw VideoError(operation: "create converter", message: "video frames need an even width and height, got \(width)x\(height)")
        }
        let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP
        guard let context = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_RGB24,
                                           Int32(width), Int32(height), AV_PIX_FMT_YUV420P, flags, nil, nil, nil) else {
            throw VideoError(operation: "create converter", message: "swscale cannot convert rgb24 to yuv420p at \(width)x\(height)")
        }
        self.context = context
        self.width = width
        self.height = height
        try FFmpegCode.check(darkroom_sws_set_bt709(context), "set BT.709 colour conversion")
    }

    deinit { sws_freeContext(context) }

    /// Converts one picture: `rgb` holds `height` rows of `bytesPerRow` bytes, 3 bytes a pixel.
    public func convert(rgb: Data, bytesPerRow: Int) throws -> VideoFrame {
        guard bytesPerRow >= width * 3, rgb.count >= bytesPerRow * (height - 1) + width * 3 else {
            throw VideoError(operation: "convert picture",
                             message: "expected \(width)x\(height) RGB pixels (\(width * 3 * height) bytes), got \(rgb.count) bytes")
        }
        let frame = try VideoFrame(width: width, height: height)
        let rows = rgb.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            return darkroom_sws_scale_rgb24(context, base, Int32(bytesPerRow), Int32(height), frame.pointer)
        }
        guard rows == Int32(height) else {
            throw VideoError(operation: "convert picture", message: "swscale wrote \(rows) of \(height) rows")
        }
        return frame
    }
}
