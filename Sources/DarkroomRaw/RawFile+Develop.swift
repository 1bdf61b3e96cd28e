internal import CLibRaw
import Foundation

/// The colour space a RAW is developed into. Both use the sRGB transfer curve; the pixels are
/// tagged with libvips' built-in profile of the same name when they become an `Image`.
public enum RawColourSpace: String, Sendable, CaseIterable, Codable {
    /// sRGB (IEC 61966-2-1): what every screen and browser assumes.
    case sRGB = "srgb"
    /// Display P3: P3 primaries, D65 white, sRGB curve (Apple's wide gamut), for cameras' greens and reds
    /// that sRGB clips.
    case displayP3 = "p3"

    /// The profile name libvips knows (`srgb`, `p3`).
    public var profileName: String { rawValue }
}

extension RawFile {
    /// Develops the sensor data: camera white balance, LibRaw's AHD demosaic (none at half size: each
    /// 2x2 block of sensor cells becomes one pixel), the camera's colour matrix into `colourSpace`,
    /// the sRGB curve, LibRaw's automatic brightness (1% of pixels may clip), turned upright.
    ///
    /// `bitsPerSample` is 8 or 16. Memory: LibRaw holds the sensor data (2 bytes a cell) and a
    /// working image (8 bytes a pixel) while it develops; the working image is freed before this returns.
    public func develop(halfSize: Bool = false, colourSpace: RawColourSpace = .sRGB, bitsPerSample: Int = 8) throws -> DevelopedRaw {
        guard bitsPerSample == 8 || bitsPerSample == 16 else {
            throw RawError(path: path, reason: .libraryFailure("bits per sample must be 8 or 16, got \(bitsPerSample)"))
        }
        try unpack()
        configure(halfSize: halfSize, colourSpace: colourSpace, bitsPerSample: bitsPerSample)
        // The working image (8 bytes a pixel) is only needed until the output is made.
        defer { libraw_free_image(handle) }
        log.reset()
        let code = libraw_dcraw_process(handle)
        noteFatal(code)
        if let problem = log.problem(path: path) { throw problem }
        guard code == 0 else { throw RawError(path: path, code: code, function: "libraw_dcraw_process") }
        var status: Int32 = 0
        guard let made = libraw_dcraw_make_mem_image(handle, &status), status == 0 else {
            throw RawError(path: path, code: status == 0 ? 12 : status, function: "libraw_dcraw_make_mem_image")
        }
        let image = ProcessedImage(taking: made)
        guard image.bits == bitsPerSample, image.width > 0, image.height > 0, [1, 3].contains(image.bands) else {
            throw RawError(path: path, reason: .libraryFailure(
                "LibRaw made a \(image.width)x\(image.height) image of \(image.bands) bands at \(image.bits) bits, not what was asked"))
        }
        return DevelopedRaw(pixels: image, colourSpace: colourSpace, halfSize: halfSize)
    }

    private func configure(halfSize: Bool, colourSpace: RawColourSpace, bitsPerSample: Int) {
        handle.pointee.params.half_size = halfSize ? 1 : 0
        handle.pointee.params.use_camera_wb = 1
        handle.pointee.params.output_bps = Int32(bitsPerSample)
        handle.pointee.params.output_color = 1  // sRGB primaries; re-targeted below for Display P3
        handle.pointee.params.no_auto_bright = 0
        handle.pointee.params.user_flip = -1    // the file's own orientation
        // The sRGB curve (LibRaw's default is BT.709's 0.45 power with a 4.5 slope).
        libraw_set_gamma(handle, 0, Float(1 / 2.4))
        libraw_set_gamma(handle, 1, 12.92)
        // LibRaw 0.20 has no P3 output space: its sRGB output applies rgb_cam (camera to linear sRGB),
        // so multiplying that matrix by linear-sRGB-to-P3 makes the same path produce linear P3,
        // clipped only after the conversion, so colours outside sRGB survive.
        let matrix = colourSpace == .displayP3 ? ColourMatrices.multiply(ColourMatrices.linearSRGBToDisplayP3, cameraToSRGB ?? [])
                                               : cameraToSRGB ?? []
        for (row, values) in matrix.enumerated() {
            for (column, value) in values.enumerated() {
                darkroom_libraw_set_rgb_cam(handle, Int32(row), Int32(column), value)
            }
        }
    }
}

/// Colour matrices for developing into Display P3.
enum ColourMatrices {
    /// Linear sRGB to linear Display P3 (both D65), rows applied to (R, G, B) columns:
    /// XYZ-to-P3 times sRGB-to-XYZ, from the two spaces' published primaries.
    static let linearSRGBToDisplayP3: [[Float]] = [
        [0.822_462_1, 0.177_538_0, 0.000_000_0],
        [0.033_194_2, 0.966_805_8, 0.000_000_0],
        [0.017_082_7, 0.072_397_4, 0.910_519_9],
    ]

    /// `left` (3x3) times `right` (3 rows of any width).
    static func multiply(_ left: [[Float]], _ right: [[Float]]) -> [[Float]] {
        guard right.count == 3 else { return right }
        return (0..<3).map { row in
            (0..<right[0].count).map { column in (0..<3).reduce(Float(0)) { $0 + left[row][$1] * right[$1][column] } }
        }
    }
}
