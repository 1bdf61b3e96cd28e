import Foundation

/// What an embedded ICC profile says about the colours of the pixels it tags, read from its bytes
/// (ICC.1:2010, sections 7 and 10): enough to tell a profile that *is* sRGB, under whatever name a
/// camera, phone or editor gave it, from one whose pixels must be converted (Display P3, Adobe RGB,
/// ProPhoto, a grey or CMYK profile). Converting sRGB to sRGB through lcms costs as much as a real
/// conversion (the transform is built for every image) and changes nothing.
public struct ColourProfile: Sendable {
    /// The profile's bytes.
    public let data: Data

    public init(_ data: Data) { self.data = data }

    /// Whether the profile describes sRGB: an RGB matrix/TRC profile whose colorants are sRGB's
    /// primaries adapted to D50 and whose three tone curves follow sRGB's within 0.75 of 255, with
    /// no lookup tables (which lcms would use instead of the matrix). Anything unreadable is not sRGB.
    public var isSRGB: Bool {
        guard data.count >= 132, fourCC(at: 16) == "RGB " else { return false }
        let tags = tagTable()
        if tags.keys.contains(where: { $0.hasPrefix("A2B") || $0.hasPrefix("B2A") }) { return false }
        for (tag, expected) in Self.sRGBColorants {
            guard let offset = tags[tag], let xyz = xyzValue(at: offset) else { return false }
            guard zip(xyz, expected).allSatisfy({ abs($0 - $1) < 0.003 }) else { return false }
        }
        for tag in ["rTRC", "gTRC", "bTRC"] {
            guard let offset = tags[tag], let curve = toneCurve(at: offset) else { return false }
            let follows = (0...32).allSatisfy { step in
                let x = Double(step) / 32
                return abs(curve(x) - Self.sRGBDecoding(x)) < 0.75 / 255
            }
            guard follows else { return false }
        }
        return true
    }

    // MARK: sRGB

    /// sRGB's red, green and blue colorants adapted to D50, as an ICC profile holds them.
    static let sRGBColorants: [(String, [Double])] = [
        ("rXYZ", [0.4361, 0.2225, 0.0139]), ("gXYZ", [0.3851, 0.7169, 0.0971]), ("bXYZ", [0.1431, 0.0606, 0.7141]),
    ]

    /// sRGB's tone curve, from encoded value to linear light.
    static func sRGBDecoding(_ x: Double) -> Double {
        x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }

    // MARK: Reading the bytes

    /// Tag signature to the offset of its data, from the tag table after the 128-byte header.
    private func tagTable() -> [String: Int] {
        guard let count = uint32(at: 128), count < 1000 else { return [:] }
        var tags: [String: Int] = [:]
        for index in 0..<Int(count) {
            let entry = 132 + index * 12
            guard let signature = fourCC(at: entry), let offset = uint32(at: entry + 4) else { break }
            tags[signature] = Int(offset)
        }
        return tags
    }

    /// The three numbers of an `XYZ ` element.
    private func xyzValue(at offset: Int) -> [Double]? {
        guard fourCC(at: offset) == "XYZ " else { return nil }
        let values = (0..<3).compactMap { fixed15_16(at: offset + 8 + $0 * 4) }
        return values.count == 3 ? values : nil
    }

    /// A `curv` or `para` element as a function on 0...1.
    private func toneCurve(at offset: Int) -> ((Double) -> Double)? {
        switch fourCC(at: offset) {
        case "curv":
            guard let count = uint32(at: offset + 8).map(Int.init) else { return nil }
            if count == 0 { return { $0 } }
            if count == 1 {
                guard let raw = uint16(at: offset + 12) else { return nil }
                let gamma = Double(raw) / 256
                return { pow($0, gamma) }
            }
            let entries = (0..<count).compactMap { uint16(at: offset + 12 + $0 * 2) }.map { Double($0) / 65535 }
            guard entries.count == count else { return nil }
            return { x in
                let position = x * Double(count - 1)
                let low = min(Int(position), count - 2)
                let fraction = position - Double(low)
                return entries[low] * (1 - fraction) + entries[low + 1] * fraction
            }
        case "para":
            guard let function = uint16(at: offset + 8) else { return nil }
            let parameterCount = [1, 3, 4, 5, 7]
            guard Int(function) < parameterCount.count else { return nil }
            let p = (0..<parameterCount[Int(function)]).compactMap { fixed15_16(at: offset + 12 + $0 * 4) }
            guard p.count == parameterCount[Int(function)] else { return nil }
            switch function {
            case 0: return { pow($0, p[0]) }
            case 1: return { $0 >= -p[2] / p[1] ? pow(p[1] * $0 + p[2], p[0]) : 0 }
            case 2: return { $0 >= -p[2] / p[1] ? pow(p[1] * $0 + p[2], p[0]) + p[3] : p[3] }
            case 3: return { $0 >= p[4] ? pow(p[1] * $0 + p[2], p[0]) : p[3] * $0 }
            default: return { $0 >= p[4] ? pow(p[1] * $0 + p[2], p[0]) + p[5] : p[3] * $0 + p[6] }
            }
        default:
            return nil
        }
    }

    private func fourCC(at offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= data.count else { return nil }
        let start = data.startIndex + offset
        return String(bytes: data[start..<start + 4], encoding: .ascii)
    }

    private func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= data.count else { return nil }
        let start = data.startIndex + offset
        return data[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= data.count else { return nil }
        let start = data.startIndex + offset
        return UInt16(data[start]) << 8 | UInt16(data[start + 1])
    }

    private func fixed15_16(at offset: Int) -> Double? {
        uint32(at: offset).map { Double(Int32(bitPattern: $0)) / 65536 }
    }
}
