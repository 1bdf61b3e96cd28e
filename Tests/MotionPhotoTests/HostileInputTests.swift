import DarkroomMotionPhoto
import DarkroomTestSupport
import Foundation
import XCTest

/// Corrupted motion photos: `locate` answers (or refuses to find a video) and never crashes; it
/// throws only for files it cannot read.
final class HostileInputTests: XCTestCase {
    /// Its tests call the native wrappers directly, without a runner to start them (and the order tests run in varies with the build).
    override func setUpWithError() throws { try NativeLibraries.start() }

    /// Mutates `count` bytes of `original` inside `range` many times and locates each result.
    private func locateMutations(of original: Data, in range: Range<Int>, seed: UInt64, rounds: Int = 150,
                                 folder: TemporaryFolder) throws -> [MotionPhotoLocation] {
        var generator = SeededGenerator(seed: seed)
        let url = folder.path("mutated-\(seed)")
        return try (0..<rounds).map { _ in
            var bytes = [UInt8](original)
            for _ in 0..<4 { bytes[Int.random(in: range, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: url)
            let location = try MotionPhoto.locate(path: url.path)
            if case .video(let offset, let length, _) = location {
                XCTAssertLessThanOrEqual(offset + length, UInt64(bytes.count), "a located video lies inside the file")
                XCTAssertEqual(Array(bytes[Int(offset) + 4..<Int(offset) + 8]), Array("ftyp".utf8))
            }
            return location
        }
    }

    func testCorruptedSamsungTrailers() throws {
        let folder = try TemporaryFolder("hostile-samsung")
        let url = folder.path("samsung.jpg")
        try MotionPhotoFixtures.samsungMotionPhoto(url, video: try MotionPhotoFixtures.video())
        let data = try Data(contentsOf: url)
        // The directory and the record header: the last 44 bytes and the 24 after the still.
        let results = try locateMutations(of: data, in: data.count - 44..<data.count, seed: 1, folder: folder)
        XCTAssertTrue(results.contains(MotionPhotoLocation.none), "most corruptions break the directory")
        let still = try Data(contentsOf: try Corpus.file(MotionPhotoFixtures.stillPath)).count
        _ = try locateMutations(of: data, in: still..<still + 32, seed: 2, folder: folder)
    }

    func testCorruptedGoogleMotionPhotos() throws {
        let folder = try TemporaryFolder("hostile-google")
        let url = folder.path("google.jpg")
        let video = try MotionPhotoFixtures.video()
        try MotionPhotoFixtures.googleMotionPhoto(url, declaredLength: video.count, appended: video)
        let data = try Data(contentsOf: url)
        // The segment headers and XMP packet at the start, and the video's first box.
        _ = try locateMutations(of: data, in: 0..<min(4096, data.count - video.count), seed: 3, folder: folder)
        let results = try locateMutations(of: data, in: data.count - video.count..<data.count - video.count + 8, seed: 4, folder: folder)
        XCTAssertTrue(results.contains { if case .promisedButMissing = $0 { return true } else { return false } })
    }

    func testCorruptedHEIFBoxHeaders() throws {
        // A small HEIF file built from the real Samsung HEIC's ftyp and meta boxes (its XMP item
        // location then lies past the end, so it yields no packet) around our MP4 in an mpvd box.
        let source = try Corpus.file("immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic")
        let folder = try TemporaryFolder("hostile-heif")
        let video = try MotionPhotoFixtures.video()
        let original = try Data(contentsOf: source)
        // ftyp (24) + a small mdat + the real meta box + an mpvd box around our MP4.
        let meta = original[443_437..<446_236]
        var file = Data(original[0..<24])
        file += Data([0, 0, 0, 16] + Array("mdat".utf8) + [UInt8](repeating: 0, count: 8))
        file += meta
        let mpvdSize = 8 + video.count
        file += Data([24, 16, 8, 0].map { UInt8((mpvdSize >> $0) & 0xFF) } + Array("mpvd".utf8)) + video
        let url = folder.path("small.heic")
        try file.write(to: url)
        XCTAssertEqual(try MotionPhoto.locate(path: url.path),
                       .video(offset: UInt64(file.count - video.count), length: UInt64(video.count), kind: .samsungHEIF))
        let metaStart = 40
        _ = try locateMutations(of: file, in: 0..<metaStart + 8, seed: 5, folder: folder)
        _ = try locateMutations(of: file, in: metaStart..<metaStart + meta.count, seed: 6, folder: folder)
        _ = try locateMutations(of: file, in: file.count - video.count - 8..<file.count - video.count + 8, seed: 7, folder: folder)
    }
}
