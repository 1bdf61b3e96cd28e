import DarkroomMotionPhoto
import DarkroomTestSupport
import Foundation
import XCTest

/// Google (XMP) and Samsung (trailer) JPEG motion photos made from a corpus JPEG and an MP4.
final class JPEGMotionPhotoTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("motion-jpeg")
    }

    override func tearDown() {
        folder = nil
    }

    /// Locates, extracts, and checks the copy is exactly `video`.
    private func assertVideo(_ url: URL, is video: Data, kind: MotionPhotoKind, file: StaticString = #filePath, line: UInt = #line) throws {
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let location = try MotionPhoto.locate(path: url.path)
        XCTAssertEqual(location, .video(offset: UInt64(size - video.count), length: UInt64(video.count), kind: kind), file: file, line: line)
        let output = folder.path(url.lastPathComponent + ".mp4")
        XCTAssertEqual(try MotionPhoto.extract(location, from: url.path, to: output.path), UInt64(video.count), file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: output), video, "the extracted bytes are the appended MP4", file: file, line: line)
    }

    func testGoogleMotionPhoto() throws {
        let video = try MotionPhotoFixtures.video()
        let url = folder.path("PXL_MP.jpg")
        try MotionPhotoFixtures.googleMotionPhoto(url, declaredLength: video.count, appended: video)
        try assertVideo(url, is: video, kind: .googleXMP)
    }

    func testGoogleMicroVideo() throws {
        let video = try MotionPhotoFixtures.video()
        let url = folder.path("MVIMG.jpg")
        try MotionPhotoFixtures.microVideo(url, declaredOffset: video.count, appended: video)
        try assertVideo(url, is: video, kind: .googleMicroVideo)
    }

    func testSamsungTrailer() throws {
        let video = try MotionPhotoFixtures.video()
        let url = folder.path("samsung.jpg")
        try MotionPhotoFixtures.samsungMotionPhoto(url, video: video)
        let location = try MotionPhoto.locate(path: url.path)
        let still = try Data(contentsOf: try Corpus.file(MotionPhotoFixtures.stillPath))
        let recordHeader = 8 + "MotionPhoto_Data".utf8.count
        XCTAssertEqual(location, .video(offset: UInt64(still.count + recordHeader), length: UInt64(video.count), kind: .samsungTrailer))

        let output = folder.path("samsung.mp4")
        try MotionPhoto.extract(location, from: url.path, to: output.path)
        XCTAssertEqual(try Data(contentsOf: output), video)
        let reference = folder.path("exiftool.mp4")
        try Fixtures.run("sh", ["-c", "exiftool -b -EmbeddedVideoFile \"$1\" > \"$2\"", "sh", url.path, reference.path])
        XCTAssertEqual(try Data(contentsOf: reference), video, "exiftool finds the same video in the trailer")
    }

    func testXMPPromisingAVideoThatIsNotThere() throws {
        let video = try MotionPhotoFixtures.video()
        let url = folder.path("edited.jpg")
        // An editor kept the XMP but dropped the appended video: the last bytes are JPEG data.
        try MotionPhotoFixtures.googleMotionPhoto(url, declaredLength: 1000, appended: Data())
        guard case .promisedButMissing(let reason) = try MotionPhoto.locate(path: url.path) else { return XCTFail("no video is there") }
        XCTAssertTrue(reason.hasPrefix("XMP GCamera:MotionPhoto puts a video of 1000 bytes at offset "), reason)
        XCTAssertTrue(reason.contains("do not start with an MP4 'ftyp' box"), reason)

        // A length longer than the whole file.
        let longer = folder.path("longer.jpg")
        try MotionPhotoFixtures.googleMotionPhoto(longer, declaredLength: 50_000_000, appended: video)
        guard case .promisedButMissing(let why) = try MotionPhoto.locate(path: longer.path) else { return XCTFail("past the end") }
        XCTAssertTrue(why.contains("puts the video 50000000 bytes before the end, but the file has only"), why)
    }

    func testMicroVideoOffsetBeyondTheFile() throws {
        let url = folder.path("MVIMG_bad.jpg")
        try MotionPhotoFixtures.microVideo(url, declaredOffset: 9_999_999, appended: Data())
        guard case .promisedButMissing(let reason) = try MotionPhoto.locate(path: url.path) else { return XCTFail("past the start") }
        XCTAssertTrue(reason.contains("GCamera:MicroVideoOffset says the video starts 9999999 bytes before the end"), reason)
    }

    func testTruncatedMotionPhotos() throws {
        let video = try MotionPhotoFixtures.video()
        let google = folder.path("google.jpg")
        try MotionPhotoFixtures.googleMotionPhoto(google, declaredLength: video.count, appended: video)
        let size = try Data(contentsOf: google).count
        // Cut inside the video: the XMP's length now reaches back into the JPEG.
        let cut = folder.path("google-cut.jpg")
        try Fixtures.truncated(google, to: cut, bytes: size - video.count / 2)
        guard case .promisedButMissing = try MotionPhoto.locate(path: cut.path) else { return XCTFail("half a video is missing") }
        // Cut inside the JPEG header, before the XMP ends: nothing promises anything any more.
        let stub = folder.path("google-stub.jpg")
        try Fixtures.truncated(google, to: stub, bytes: 40)
        XCTAssertEqual(try MotionPhoto.locate(path: stub.path), MotionPhotoLocation.none)

        // A Samsung JPEG cut inside the video loses its trailer with it: an ordinary (broken) JPEG.
        let samsung = folder.path("samsung.jpg")
        try MotionPhotoFixtures.samsungMotionPhoto(samsung, video: video)
        let samsungCut = folder.path("samsung-cut.jpg")
        try Fixtures.truncated(samsung, to: samsungCut, bytes: try Data(contentsOf: samsung).count - video.count / 2)
        XCTAssertEqual(try MotionPhoto.locate(path: samsungCut.path), MotionPhotoLocation.none)
        // Empty and one-byte files.
        for length in [0, 1] {
            let tiny = folder.path("tiny-\(length).jpg")
            try Fixtures.truncated(google, to: tiny, bytes: length)
            XCTAssertEqual(try MotionPhoto.locate(path: tiny.path), MotionPhotoLocation.none)
        }
    }

    func testPlainFilesAreNotMotionPhotos() throws {
        for path in [MotionPhotoFixtures.stillPath, "exiftool-t-images/t/images/Google.jpg", "exif-samples/jpg/hdr/iphone_hdr_YES.jpg",
                     "metadata-extractor-images/heic/Issue 487.heic", "manifest.tsv"] {
            XCTAssertEqual(try MotionPhoto.locate(path: try Corpus.file(path).path), MotionPhotoLocation.none, path)
        }
    }

    func testUnreadableFileNamesThePath() {
        XCTAssertThrowsError(try MotionPhoto.locate(path: "/nonexistent/IMG_0001.jpg")) { error in
            XCTAssertEqual((error as? MotionPhotoError)?.path, "/nonexistent/IMG_0001.jpg")
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/IMG_0001.jpg: cannot open for reading: No such file or directory"), "\(error)")
        }
    }
}
