import DarkroomTestSupport
import DarkroomVips
import Foundation
import Synchronization
import XCTest

/// libvips keeps one error buffer for the whole process, and libjpeg's and libpng's lines name no
/// file: a failure's reason must still be its own file's when other files fail at the same moment.
final class ErrorAttributionTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// The corpus' broken photos, each failing in the decoder with lines that name no file.
    private let broken = [
        "sharp-fixtures/test/fixtures/truncated.jpg",  // VipsJpeg: Premature end of input file
        "sharp-fixtures/test/fixtures/truncated.png",  // vipspng: libpng read error
        "exif-samples/jpg/corrupted.jpg",              // VipsJpeg: Corrupt JPEG data: premature end of data segment
    ]

    /// How the import decodes a camera JPEG or a PNG: shrink-on-load, then every pixel read.
    private static func reason(decoding path: String) -> String {
        do {
            _ = try Image.thumbnail(path, width: 256, height: 256, failOn: .error).pixelBytes()
            return "decoded"
        } catch {
            return String(describing: error)
        }
    }

    func testEachBrokenFileGetsItsOwnReasonWhileOthersFailAtTheSameMoment() throws {
        let paths = try broken.map { try Corpus.file($0).path }
        let alone = paths.map { Self.reason(decoding: $0) }
        let words = ["Premature end of input file", "libpng read error", "Corrupt JPEG data"]
        for (index, text) in alone.enumerated() {
            XCTAssertEqual(words.filter { text.contains($0) }, [words[index]], "\(paths[index]) alone: \(text)")
        }

        // Four threads, each failing on the files in turn, in different orders.
        let rounds = 40
        let found = Mutex<[(file: Int, reason: String)]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<rounds {
                let file = (round + thread) % paths.count
                let text = Self.reason(decoding: paths[file])
                found.withLock { $0.append((file, text)) }
            }
        }
        let results = found.withLock { $0 }
        XCTAssertEqual(results.count, 4 * rounds)
        let wrong = results.filter { $0.reason != alone[$0.file] }
        XCTAssertEqual(wrong.count, 0, "reasons that were not the file's own, e.g. "
                       + (wrong.first.map { "\(paths[$0.file]): \($0.reason), alone: \(alone[$0.file])" } ?? ""))
    }
}
