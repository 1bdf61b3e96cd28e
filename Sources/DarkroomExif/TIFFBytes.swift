import Foundation

/// A bounds-checked view of the TIFF structure inside an EXIF blob.
///
/// EXIF blobs arrive in several wrappings: libvips gives `Exif\0\0` followed by TIFF; some
/// writers hand over bare TIFF (`II*\0` / `MM\0*`); HEIC's EXIF item starts with a 4-byte offset
/// to the TIFF header. `TIFFBytes` finds the TIFF header in any of these and reads integers in the
/// blob's byte order. Every read returns nil instead of trapping when it would leave the buffer.
struct TIFFBytes {
    /// The whole blob, re-based at index 0.
    private(set) var bytes: [UInt8]
    /// Where the TIFF header (`II` or `MM`) starts in `bytes`.
    let tiffStart: Int
    /// True for `MM` (Motorola, big-endian), false for `II` (Intel, little-endian).
    let bigEndian: Bool

    /// The `Exif\0\0` marker that precedes TIFF in JPEG APP1 segments and in libvips' `exif-data`.
    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// How far into the blob a TIFF header or `Exif\0\0` marker is looked for (HEIC's offset
    /// prefix is 4 bytes; a little slack tolerates padding).
    private static let searchWindow = 16

    /// Finds the TIFF header in `blob`; nil when there is none.
    init?(_ blob: Data) {
        let bytes = [UInt8](blob)
        let limit = min(bytes.count, Self.searchWindow)
        var found: Int?
        for start in 0..<max(limit, 0) {
            if Self.hasPrefix(Self.exifHeader, in: bytes, at: start), Self.isTIFFHeader(bytes, at: start + 6) {
                found = start + 6
                break
            }
            if Self.isTIFFHeader(bytes, at: start) {
                found = start
                break
            }
        }
        guard let tiffStart = found else { return nil }
        self.bytes = bytes
        self.tiffStart = tiffStart
        self.bigEndian = bytes[tiffStart] == 0x4D
    }

    /// A view of `bytes` whose offsets count from `origin`, in the given byte order: for structures
    /// laid out like TIFF but without its header (maker notes with offsets of their own).
    init(bytes: [UInt8], origin: Int, bigEndian: Bool) {
        self.bytes = bytes
        self.tiffStart = origin
        self.bigEndian = bigEndian
    }

    /// The TIFF part alone (from the byte-order mark to the end).
    var tiff: ArraySlice<UInt8> { bytes[tiffStart...] }

    /// A 16-bit value at `offset` from the TIFF header, or nil when out of bounds.
    func uint16(atTIFFOffset offset: Int) -> UInt16? {
        guard let at = absolute(offset, length: 2) else { return nil }
        let (a, b) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    /// A 32-bit value at `offset` from the TIFF header, or nil when out of bounds.
    func uint32(atTIFFOffset offset: Int) -> UInt32? {
        guard let at = absolute(offset, length: 4) else { return nil }
        let b = (0..<4).map { UInt32(bytes[at + $0]) }
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    /// Writes a 16-bit value at `offset` from the TIFF header; false when out of bounds.
    mutating func setUInt16(_ value: UInt16, atTIFFOffset offset: Int) -> Bool {
        guard let at = absolute(offset, length: 2) else { return false }
        let (high, low) = (UInt8(value >> 8), UInt8(value & 0xFF))
        bytes[at] = bigEndian ? high : low
        bytes[at + 1] = bigEndian ? low : high
        return true
    }

    /// Writes a 32-bit value at `offset` from the TIFF header; false when out of bounds.
    mutating func setUInt32(_ value: UInt32, atTIFFOffset offset: Int) -> Bool {
        guard let at = absolute(offset, length: 4) else { return false }
        for i in 0..<4 {
            let shift = bigEndian ? UInt32(24 - 8 * i) : UInt32(8 * i)
            bytes[at + i] = UInt8((value >> shift) & 0xFF)
        }
        return true
    }

    /// Writes a byte at `offset` from the TIFF header; false when out of bounds.
    mutating func setUInt8(_ value: UInt8, atTIFFOffset offset: Int) -> Bool {
        guard let at = absolute(offset, length: 1) else { return false }
        bytes[at] = value
        return true
    }

    /// Appends `more` at the end of the blob (and so of its TIFF part).
    mutating func appendBytes(_ more: [UInt8]) { bytes += more }

    /// How many bytes the TIFF part has.
    var tiffLength: Int { bytes.count - tiffStart }

    /// The offset of IFD0 from the TIFF header, when it lies inside the blob.
    var ifd0Offset: Int? {
        guard let offset = uint32(atTIFFOffset: 4) else { return nil }
        return Int(offset)
    }

    /// The absolute index of `length` bytes at `offset` from the TIFF header, when all are in bounds.
    private func absolute(_ offset: Int, length: Int) -> Int? {
        guard offset >= 0, length >= 0 else { return nil }
        let (start, overflow) = tiffStart.addingReportingOverflow(offset)
        guard !overflow, start <= bytes.count - length else { return nil }
        return start
    }

    private static func hasPrefix(_ prefix: [UInt8], in bytes: [UInt8], at start: Int) -> Bool {
        guard start >= 0, bytes.count - start >= prefix.count else { return false }
        return bytes[start..<start + prefix.count].elementsEqual(prefix)
    }

    private static func isTIFFHeader(_ bytes: [UInt8], at start: Int) -> Bool {
        hasPrefix([0x49, 0x49, 0x2A, 0x00], in: bytes, at: start) || hasPrefix([0x4D, 0x4D, 0x00, 0x2A], in: bytes, at: start)
    }
}
