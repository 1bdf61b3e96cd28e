import DarkroomCore
import Foundation
import XCTest
import DarkroomModel

/// Builds small, valid TIFF/EXIF blobs in either byte order, so EXIF parsing can be tested
/// without files.
struct TIFFBuilder {
    enum Value {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case rationals([(UInt32, UInt32)])
    }

    var bigEndian: Bool
    var ifd0: [(UInt16, Value)] = []
    var exif: [(UInt16, Value)] = []
    var gps: [(UInt16, Value)] = []

    init(bigEndian: Bool, ifd0: [(UInt16, Value)] = [], exif: [(UInt16, Value)] = [], gps: [(UInt16, Value)] = []) {
        self.bigEndian = bigEndian
        self.ifd0 = ifd0
        self.exif = exif
        self.gps = gps
    }

    /// The blob: `Exif\0\0` + TIFF when `exifPrefix`, else bare TIFF.
    func build(exifPrefix: Bool = true) -> Data {
        var directories: [[(UInt16, Value)]] = [ifd0]
        if !exif.isEmpty { directories.append(exif) }
        if !gps.isEmpty { directories.append(gps) }
        let sizes = directories.map { 2 + 12 * ($0.count + 2) + 4 }  // room for two pointer entries
        var offsets: [Int] = []
        var next = 8
        for size in sizes { offsets.append(next); next += size }
        var dataArea = next
        var out = [UInt8](repeating: 0, count: next)
        out[0...3] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        put32(UInt32(offsets[0]), at: 4, in: &out)

        var zeroth = ifd0
        var index = 1
        if !exif.isEmpty { zeroth.append((0x8769, .long(UInt32(offsets[index])))); index += 1 }
        if !gps.isEmpty { zeroth.append((0x8825, .long(UInt32(offsets[index])))) }
        directories[0] = zeroth

        for (directory, offset) in zip(directories, offsets) {
            let entries = directory.sorted { $0.0 < $1.0 }
            put16(UInt16(entries.count), at: offset, in: &out)
            for (i, (tag, value)) in entries.enumerated() {
                let at = offset + 2 + 12 * i
                let (type, count, bytes) = encode(value)
                put16(tag, at: at, in: &out)
                put16(type, at: at + 2, in: &out)
                put32(count, at: at + 4, in: &out)
                if bytes.count <= 4 {
                    out.replaceSubrange(at + 8..<at + 8 + bytes.count, with: bytes)
                } else {
                    put32(UInt32(dataArea), at: at + 8, in: &out)
                    out += bytes + (bytes.count % 2 == 1 ? [0] : [])
                    dataArea = out.count
                }
            }
            put32(0, at: offset + 2 + 12 * entries.count, in: &out)
        }
        return Data((exifPrefix ? [0x45, 0x78, 0x69, 0x66, 0, 0] : []) + out)
    }

    private func encode(_ value: Value) -> (UInt16, UInt32, [UInt8]) {
        switch value {
        case .ascii(let text):
            let bytes = Array(text.utf8) + [0]
            return (2, UInt32(bytes.count), bytes)
        case .short(let v):
            var b = [UInt8](repeating: 0, count: 2); put16(v, at: 0, in: &b); return (3, 1, b)
        case .long(let v):
            var b = [UInt8](repeating: 0, count: 4); put32(v, at: 0, in: &b); return (4, 1, b)
        case .rationals(let values):
            var b = [UInt8](repeating: 0, count: 8 * values.count)
            for (i, (n, d)) in values.enumerated() { put32(n, at: 8 * i, in: &b); put32(d, at: 8 * i + 4, in: &b) }
            return (5, UInt32(values.count), b)
        }
    }

    private func put16(_ v: UInt16, at i: Int, in b: inout [UInt8]) {
        let bytes: [UInt8] = [UInt8(v >> 8), UInt8(v & 0xFF)]
        b[i..<i + 2] = ArraySlice(bigEndian ? bytes : bytes.reversed())
    }

    private func put32(_ v: UInt32, at i: Int, in b: inout [UInt8]) {
        let bytes: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        b[i..<i + 4] = ArraySlice(bigEndian ? bytes : bytes.reversed())
    }
}

/// The EXIF APP1 payload of a JPEG file (`Exif\0\0` + TIFF), found by walking its markers.
func jpegExifBlob(_ url: URL) throws -> Data {
    let bytes = [UInt8](try Data(contentsOf: url))
    var index = 2
    while index + 4 <= bytes.count, bytes[index] == 0xFF {
        let marker = bytes[index + 1]
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        let payload = index + 4
        if marker == 0xE1, payload + 6 <= bytes.count, bytes[payload..<payload + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
            return Data(bytes[payload..<min(bytes.count, index + 2 + length)])
        }
        if marker == 0xDA { break }
        index += 2 + length
    }
    throw XCTSkip("\(url.lastPathComponent) has no EXIF segment")
}

/// A UTC-based calendar date, for building `now` and modification times in tests.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!.instant(utcOffsetSeconds: 0)
}

/// `LocalDateTime` from literal fields (fails the test when they are invalid).
func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
           nanosecond: Int = 0) -> LocalDateTime {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)!
}
