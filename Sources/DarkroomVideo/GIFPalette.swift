internal import CFFmpeg
import Foundation

/// One 256-colour palette for every frame of a GIF, made from all its pictures by
/// `GIFPaletteBuilder`. With one palette, a part of the picture that stays the same from frame to
/// frame (a room, a pot, the sky) keeps the same palette indices, so the GIF encoder stores it once
/// as transparent pixels: a time-lapse of one scene is several times smaller than with a palette a frame.
// Sendable: the palette frame is not written after `GIFPaletteBuilder.finish()` made it.
public final class GIFPalette: @unchecked Sendable {
    let frame: FrameHandle

    init(frame: FrameHandle) { self.frame = frame }
}

/// Collects the colours of pictures streamed through it (libavfilter's `palettegen` with
/// `stats_mode=full` keeps a histogram, not the pictures) into one `GIFPalette`.
///
///     let builder = try GIFPaletteBuilder(width: 720, height: 405)
///     for picture in pictures { try builder.add(rgb: picture, bytesPerRow: 720 * 3) }
///     let palette = try builder.finish()
public final class GIFPaletteBuilder {
    private let width: Int
    private let height: Int
    private let filters: FilterGraph
    private var added = 0

    /// A builder for `width` x `height` RGB pictures.
    public init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        let prototype = try FrameHandle.rgb24Shape(width: width, height: height)
        // One entry is kept transparent: the GIF encoder marks unchanged pixels with it.
        filters = try FilterGraph(video: prototype.pointer, timeBase: AVRational(num: 1, den: 100), chain: "palettegen=stats_mode=full")
    }

    /// Adds a picture's colours: `rgb` holds `height` rows of `bytesPerRow` bytes, 3 bytes a pixel.
    public func add(rgb: Data, bytesPerRow: Int) throws {
        let picture = try FrameHandle.rgb24(rgb, width: width, height: height, bytesPerRow: bytesPerRow)
        picture.pointer.pointee.pts = Int64(added)
        try filters.push(picture.pointer)
        added += 1
    }

    /// The palette of every picture added (at least one).
    public func finish() throws -> GIFPalette {
        guard added > 0 else { throw VideoError(operation: "make GIF palette", message: "no pictures were added") }
        try filters.push(nil)
        let palette = try FrameHandle()
        guard try filters.pull(into: palette) else {
            throw VideoError(operation: "make GIF palette", message: "palettegen gave no palette for \(added) pictures")
        }
        palette.pointer.pointee.pts = 0
        return GIFPalette(frame: palette)
    }
}

extension FrameHandle {
    /// An empty frame describing `width` x `height` RGB24 pictures (no pixels), to shape a filter source.
    static func rgb24Shape(width: Int, height: Int) throws -> FrameHandle {
        let frame = try FrameHandle()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        frame.pointer.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        return frame
    }

    /// A new RGB24 frame holding a copy of `rgb` (`height` rows of `bytesPerRow` bytes, 3 bytes a pixel).
    static func rgb24(_ rgb: Data, width: Int, height: Int, bytesPerRow: Int) throws -> FrameHandle {
        let rowBytes = width * 3
        guard bytesPerRow >= rowBytes, rgb.count >= bytesPerRow * (height - 1) + rowBytes else {
            throw VideoError(operation: "copy picture",
                             message: "expected \(width)x\(height) RGB pixels (\(rowBytes * height) bytes), got \(rgb.count) bytes")
        }
        let frame = try rgb24Shape(width: width, height: height)
        try FFmpegCode.check(av_frame_get_buffer(frame.pointer, 0), "allocate \(width)x\(height) picture")
        guard let plane = frame.pointer.pointee.data.0 else { throw VideoError(operation: "allocate picture", message: "out of memory") }
        let stride = Int(frame.pointer.pointee.linesize.0)
        rgb.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            for row in 0..<height {
                (plane + row * stride).update(from: base.advanced(by: row * bytesPerRow).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
        return frame
    }
}
