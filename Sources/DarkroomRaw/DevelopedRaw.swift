internal import CLibRaw
import DarkroomVips
import Foundation

/// A developed RAW: upright RGB pixels (8 or 16 bits a sample, packed rows, no padding) in a known
/// colour space.
// Sendable: the pixel buffer is written once by LibRaw and only read afterwards.
public struct DevelopedRaw: Sendable {
    let pixels: ProcessedImage
    /// The colour space of the pixels (`profileName` names the ICC profile to attach).
    public let colourSpace: RawColourSpace
    /// Whether the sensor was developed at half size.
    public let halfSize: Bool

    init(pixels: ProcessedImage, colourSpace: RawColourSpace, halfSize: Bool) {
        self.pixels = pixels
        self.colourSpace = colourSpace
        self.halfSize = halfSize
    }

    /// Width in pixels, upright.
    public var width: Int { pixels.width }
    /// Height in pixels, upright.
    public var height: Int { pixels.height }
    /// Samples a pixel: 3 (RGB), or 1 for a monochrome sensor.
    public var bands: Int { pixels.bands }
    /// 8 or 16 (16-bit samples are in the machine's byte order).
    public var bitsPerSample: Int { pixels.bits }
    /// The size of the pixels in bytes.
    public var byteCount: Int { pixels.byteCount }

    /// Calls `body` with the packed pixels, without copying them.
    public func withPixels<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try pixels.withBytes(body)
    }

    /// The pixels as a libvips image tagged with the colour space's ICC profile (copied into libvips,
    /// so this value can be released right after).
    public func image() throws -> Image {
        try pixels.withBytes { bytes in
            try Image.pixels(copying: bytes, width: width, height: height, bands: bands, bitsPerSample: bitsPerSample,
                             profile: colourSpace.profileName)
        }
    }
}

/// One `libraw_processed_image_t` (a developed image or an extracted preview), freed in `deinit`.
// Sendable: LibRaw fills the buffer before this object exists; afterwards it is only read.
final class ProcessedImage: @unchecked Sendable {
    private let image: UnsafeMutablePointer<libraw_processed_image_t>

    init(taking image: UnsafeMutablePointer<libraw_processed_image_t>) { self.image = image }

    deinit { libraw_dcraw_clear_mem(image) }

    var isJPEG: Bool { image.pointee.type == LIBRAW_IMAGE_JPEG }
    var width: Int { Int(image.pointee.width) }
    var height: Int { Int(image.pointee.height) }
    var bands: Int { Int(image.pointee.colors) }
    var bits: Int { Int(image.pointee.bits) }
    var byteCount: Int { Int(image.pointee.data_size) }

    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: darkroom_libraw_image_bytes(image), count: byteCount))
    }
}
