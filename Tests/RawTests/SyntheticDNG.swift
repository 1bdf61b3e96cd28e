import Foundation

/// Writes small DNG files for tests: a Bayer (RGGB) mosaic of a picture given in linear sRGB, whose
/// colour matrix makes the camera's space linear sRGB (so developed colours are predictable), with
/// an optional EXIF orientation and an optional embedded JPEG preview.
///
/// Layout: IFD0 is the raw image (uncompressed 16-bit CFA strip); a preview, when given, is a
/// SubIFD (NewSubFileType 1, JPEG compression 7), as DNG converters write it.
struct SyntheticDNG {
    var width: Int
    var height: Int
    /// The linear RGB (0...1) of each pixel.
    var colour: (_ x: Int, _ y: Int) -> (red: Double, green: Double, blue: Double)
    var orientation: Int = 1
    var make = "Darkroom"
    var model = "Synthetic RGGB"
    var previewJPEG: Data?
    var previewSize: (width: Int, height: Int) = (0, 0)
    /// Makes the preview's offset point past the end of the file (a damaged file).
    var previewOffsetPastTheEnd = false

    static let whiteLevel = 60_000

    func data() -> Data {
        var file = TIFFWriter()
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 2)
        for y in 0..<height {
            for x in 0..<width {
                let rgb = colour(x, y)
                let value: Double
                switch (y % 2, x % 2) {
                case (0, 0): value = rgb.red
                case (1, 1): value = rgb.blue
                default: value = rgb.green
                }
                let sample = UInt16(max(0, min(1, value)) * Double(Self.whiteLevel))
                pixels += [UInt8(sample & 0xFF), UInt8(sample >> 8)]
            }
        }
        let rawAt = file.appendData(pixels)
        var previewIFD: Int?
        if let previewJPEG {
            let jpegAt = previewOffsetPastTheEnd ? 1 << 24 : file.appendData([UInt8](previewJPEG))
            previewIFD = file.appendDirectory([
                .long(254, [1]), .long(256, [previewSize.width]), .long(257, [previewSize.height]), .short(258, [8, 8, 8]),
                .short(259, [7]), .short(262, [6]), .long(273, [jpegAt]), .short(277, [3]),
                .long(278, [previewSize.height]), .long(279, [previewJPEG.count]),
            ])
        }
        // XYZ (D65) to linear sRGB: with it as ColorMatrix1, the "camera" space is linear sRGB.
        let xyzToSRGB: [Double] = [3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108, 0.0415560, 0.0556434, -0.2040259, 1.0572252]
        var ifd0: [TIFFWriter.Field] = [
            .long(254, [0]), .long(256, [width]), .long(257, [height]), .short(258, [16]), .short(259, [1]),
            .short(262, [32803]), .ascii(271, make), .ascii(272, model), .long(273, [rawAt]), .short(274, [orientation]),
            .short(277, [1]), .long(278, [height]), .long(279, [pixels.count]), .short(284, [1]),
            .short(33421, [2, 2]), .bytes(33422, [0, 1, 1, 2]),
            .bytes(50706, [1, 4, 0, 0]), .bytes(50707, [1, 1, 0, 0]), .ascii(50708, "\(make) \(model)"),
            .long(50714, [0]), .long(50717, [Self.whiteLevel]),
            .srational(50721, xyzToSRGB), .rational(50728, [1, 1, 1]), .short(50778, [21]),
        ]
        if let previewIFD { ifd0.append(.long(330, [previewIFD])) }
        file.setFirstDirectory(file.appendDirectory(ifd0))
        return file.data
    }
}

/// A little-endian TIFF assembled in memory: data blocks and directories appended in any order,
/// IFD0's offset patched in at the end.
struct TIFFWriter {
    private(set) var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0, 0, 0, 0]

    enum Field {
        case short(UInt16, [Int])
        case long(UInt16, [Int])
        case ascii(UInt16, String)
        case bytes(UInt16, [UInt8])
        case rational(UInt16, [Double])
        case srational(UInt16, [Double])

        var tag: UInt16 {
            switch self {
            case .short(let t, _), .long(let t, _), .ascii(let t, _), .bytes(let t, _), .rational(let t, _), .srational(let t, _): return t
            }
        }

        /// (type, count, value bytes)
        var encoded: (UInt16, Int, [UInt8]) {
            switch self {
            case .short(_, let values): return (3, values.count, values.flatMap { TIFFWriter.le($0, 2) })
            case .long(_, let values): return (4, values.count, values.flatMap { TIFFWriter.le($0, 4) })
            case .ascii(_, let text): let b = Array(text.utf8) + [0]; return (2, b.count, b)
            case .bytes(_, let b): return (1, b.count, b)
            case .rational(_, let values):
                return (5, values.count, values.flatMap { TIFFWriter.le(Int(($0 * 1_000_000).rounded()), 4) + TIFFWriter.le(1_000_000, 4) })
            case .srational(_, let values):
                return (10, values.count, values.flatMap { TIFFWriter.le(Int(($0 * 1_000_000).rounded()), 4) + TIFFWriter.le(1_000_000, 4) })
            }
        }
    }

    var data: Data { Data(bytes) }

    /// Appends a block (word-aligned) and returns its offset.
    mutating func appendData(_ block: [UInt8]) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let at = bytes.count
        bytes += block
        return at
    }

    /// Appends a directory (sorted by tag) with its out-of-line values, and returns its offset.
    mutating func appendDirectory(_ fields: [Field]) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let at = bytes.count
        let sorted = fields.sorted { $0.tag < $1.tag }
        var values: [UInt8] = []
        let valuesAt = at + 2 + sorted.count * 12 + 4
        var table = TIFFWriter.le(sorted.count, 2)
        for field in sorted {
            let (type, count, value) = field.encoded
            table += TIFFWriter.le(Int(field.tag), 2) + TIFFWriter.le(Int(type), 2) + TIFFWriter.le(count, 4)
            if value.count <= 4 {
                table += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                table += TIFFWriter.le(valuesAt + values.count, 4)
                values += value
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        bytes += table + TIFFWriter.le(0, 4) + values
        return at
    }

    mutating func setFirstDirectory(_ offset: Int) {
        bytes.replaceSubrange(4..<8, with: TIFFWriter.le(offset, 4))
    }

    static func le(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
