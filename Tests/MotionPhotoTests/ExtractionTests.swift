import DarkroomMotionPhoto
import DarkroomTestSupport
import Foundation
import XCTest

/// `MotionPhoto.extract`: never overwrites, never leaves a partial file behind.
final class ExtractionTests: XCTestCase {
    /// Its tests call the native wrappers directly, without a runner to start them (and the order tests run in varies with the build).
    override func setUpWithError() throws { try NativeLibraries.start() }

    func testRefusesAnExistingDestinationAndLeavesItAlone() throws {
        let folder = try TemporaryFolder("extract-existing")
        let video = try MotionPhotoFixtures.video()
        let url = folder.path("PXL_MP.jpg")
        try MotionPhotoFixtures.googleMotionPhoto(url, declaredLength: video.count, appended: video)
        let existing = folder.path("taken.mp4")
        try Data("not mine".utf8).write(to: existing)
        XCTAssertThrowsError(try MotionPhoto.extract(try MotionPhoto.locate(path: url.path), from: url.path, to: existing.path)) { error in
            XCTAssertEqual("\(error)", "\(existing.path): cannot create: File exists")
        }
        XCTAssertEqual(try Data(contentsOf: existing), Data("not mine".utf8))
    }

    func testARangeThatIsNotAnMP4LeavesNoOutput() throws {
        let folder = try TemporaryFolder("extract-bad")
        let still = folder.path("still.jpg")
        let data = try MotionPhotoFixtures.still(still)
        let output = folder.path("out.mp4")
        // A location that no longer matches the file (it was replaced since it was located).
        let stale = MotionPhotoLocation.video(offset: 0, length: UInt64(data.count), kind: .googleXMP)
        XCTAssertThrowsError(try MotionPhoto.extract(stale, from: still.path, to: output.path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(still.path): the video at offset 0: those bytes do not start with an MP4 'ftyp' box (they start ff d8 ff"),
                          "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no partial output")

        let beyond = MotionPhotoLocation.video(offset: 100, length: UInt64(data.count), kind: .samsungTrailer)
        XCTAssertThrowsError(try MotionPhoto.extract(beyond, from: still.path, to: output.path)) { error in
            XCTAssertTrue("\(error)".contains("run past the end of the file (\(data.count) bytes)"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    func testOnlyAVideoLocationCanBeExtracted() throws {
        let folder = try TemporaryFolder("extract-none")
        let still = folder.path("still.jpg")
        _ = try MotionPhotoFixtures.still(still)
        for location in [MotionPhotoLocation.none, .promisedButMissing(reason: "gone")] {
            XCTAssertThrowsError(try MotionPhoto.extract(location, from: still.path, to: folder.path("out.mp4").path)) { error in
                XCTAssertEqual((error as? MotionPhotoError)?.path, still.path)
                XCTAssertTrue("\(error)".contains("no video to extract"), "\(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("out.mp4").path))
    }

    func testLargeVideoIsCopiedInChunks() throws {
        // More than one 1 MB chunk, so the chunk boundaries are crossed; an MP4 header then noise.
        let folder = try TemporaryFolder("extract-large")
        var generator = SeededGenerator(seed: 0xC0FFEE)
        var video = try MotionPhotoFixtures.video()
        video += Data((0..<(2_500_000)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let url = folder.path("big.jpg")
        try MotionPhotoFixtures.googleMotionPhoto(url, declaredLength: video.count, appended: video)
        let output = folder.path("big.mp4")
        XCTAssertEqual(try MotionPhoto.extract(try MotionPhoto.locate(path: url.path), from: url.path, to: output.path), UInt64(video.count))
        XCTAssertEqual(try Data(contentsOf: output), video)
    }
}
