import DarkroomVips
import Foundation
import XCTest

/// A 256-bit difference hash of an image: shrunk to 17x16 grey, one bit per horizontal neighbour
/// pair (left brighter than right). Similar layouts give hashes a few bits apart; moving or
/// recolouring a region flips many.
struct PerceptualHash: Equatable, CustomStringConvertible {
    var bits: [Bool]

    init(_ image: Image) throws {
        let small = try image.eightBitRGB().flattened()
            .resized(horizontal: 17 / Double(image.width), vertical: 16 / Double(image.height))
        let bytes = try small.pixelBytes()
        let bands = small.bands, width = small.width
        func grey(_ x: Int, _ y: Int) -> Double {
            let i = (y * width + x) * bands
            return bands >= 3 ? 0.299 * Double(bytes[i]) + 0.587 * Double(bytes[i + 1]) + 0.114 * Double(bytes[i + 2]) : Double(bytes[i])
        }
        bits = (0..<16).flatMap { y in (0..<16).map { x in grey(x, y) > grey(x + 1, y) } }
    }

    init?(hex: String) {
        let digits = Array(hex.trimmingCharacters(in: .whitespacesAndNewlines))
        guard digits.count == 64 else { return nil }
        var bits: [Bool] = []
        for digit in digits {
            guard let value = Int(String(digit), radix: 16) else { return nil }
            bits += (0..<4).map { value >> (3 - $0) & 1 == 1 }
        }
        self.bits = bits
    }

    var description: String {
        stride(from: 0, to: bits.count, by: 4).map { i in
            String((0..<4).reduce(0) { $0 << 1 | (bits[i + $1] ? 1 : 0) }, radix: 16)
        }.joined()
    }

    /// How many bits differ.
    func distance(to other: PerceptualHash) -> Int { zip(bits, other.bits).filter { $0 != $1 }.count }
}

/// Goldens under `Tests/CollageTests/Goldens/`, recorded only with `DARKROOM_RECORD_GOLDENS=1`.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static var recording: Bool { ProcessInfo.processInfo.environment["DARKROOM_RECORD_GOLDENS"] == "1" }

    /// Compares `image`'s hash with the golden `name`, allowing `tolerance` differing bits.
    static func assertMatches(_ image: Image, name: String, tolerance: Int = 24, file: StaticString = #filePath, line: UInt = #line) throws {
        let hash = try PerceptualHash(image)
        let url = folder.appendingPathComponent("\(name).dhash.txt")
        if recording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (hash.description + "\n").write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            XCTFail("no golden \(url.lastPathComponent): run with DARKROOM_RECORD_GOLDENS=1 to record it, then look at the render", file: file, line: line)
            return
        }
        guard let golden = PerceptualHash(hex: text) else {
            XCTFail("\(url.lastPathComponent) is not a 64-digit hex hash", file: file, line: line)
            return
        }
        let distance = hash.distance(to: golden)
        XCTAssertLessThanOrEqual(distance, tolerance,
                                 "\(name) looks different from its golden (\(distance) of 256 bits; now \(hash)); if the change is intended, re-record with DARKROOM_RECORD_GOLDENS=1",
                                 file: file, line: line)
    }
}
