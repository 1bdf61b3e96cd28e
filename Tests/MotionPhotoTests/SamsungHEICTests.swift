@testable import DarkroomMotionPhoto
import DarkroomISOBMFF
import DarkroomTestSupport
import Foundation
import XCTest

/// The real Samsung One UI 6 HEIC motion photo of the corpus: the MP4 in a top-level `mpvd` box,
/// also described by Google XMP and by a Samsung `sefd` trailer.
final class SamsungHEICTests: XCTestCase {
    static let path = "immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic"

    func testLocatesTheVideoInTheMpvdBox() throws {
        let url = try Corpus.file(Self.path)
        // The mpvd box starts at 452276 (the XMP's primary Item:Length plus its Padding of 8 is
        // where the video starts); exiftool extracts a MotionPhotoVideo of 3226469 bytes.
        XCTAssertEqual(try MotionPhoto.locate(path: url.path), .video(offset: 452_284, length: 3_226_469, kind: .samsungHEIF))
    }

    func testExtractedVideoIsExiftoolsAndFFprobeReadsIt() throws {
        let url = try Corpus.file(Self.path)
        let folder = try TemporaryFolder("samsung-heic")
        let output = folder.path("video.mp4")
        let location = try MotionPhoto.locate(path: url.path)
        XCTAssertEqual(try MotionPhoto.extract(location, from: url.path, to: output.path), 3_226_469)

        let extracted = try Data(contentsOf: output)
        XCTAssertEqual(String(decoding: extracted[4..<8], as: UTF8.self), "ftyp")
        try MotionPhotoFixtures.requireTool("exiftool")
        let reference = folder.path("exiftool.mp4")
        try Fixtures.run("sh", ["-c", "exiftool -b -MotionPhotoVideo \"$1\" > \"$2\"", "sh", url.path, reference.path])
        XCTAssertEqual(extracted, try Data(contentsOf: reference), "the same bytes as exiftool's MotionPhotoVideo")

        try MotionPhotoFixtures.requireTool("ffprobe")
        let streams = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                   "stream=codec_type,codec_name", "-of", "default=noprint_wrappers=1", output.path])
        XCTAssertEqual(Set(streams.split(separator: "\n")), ["codec_name=hevc", "codec_type=video"], streams)
    }

    func testXMPItemIsReadThroughTheMetaBox() throws {
        let url = try Corpus.file(Self.path)
        let file = try ByteFile(path: url.path)
        let packet = try XCTUnwrap(try HEIFMeta.xmpPacket(of: file, boxes: try ISOBox.topLevel(of: file)))
        try MotionPhotoFixtures.requireTool("exiftool")
        let folder = try TemporaryFolder("samsung-xmp")
        let reference = folder.path("xmp.xml")
        try Fixtures.run("sh", ["-c", "exiftool -b -XMP \"$1\" > \"$2\"", "sh", url.path, reference.path])
        XCTAssertEqual(Data(packet), try Data(contentsOf: reference), "the same packet exiftool reads")

        let xmp = MotionPhotoXMP(parsing: packet)
        XCTAssertTrue(xmp.motionPhoto)
        XCTAssertEqual(xmp.items.map(\.semantic), ["Primary", "MotionPhoto"])
        XCTAssertEqual(xmp.items.map(\.length), [452_276, 3_226_668])
        XCTAssertEqual(xmp.items.map(\.padding), [8, 199])
        // Each claim on its own finds the same start; the XMP's length also covers the sefd trailer.
        XCTAssertEqual(xmp.claims(fileSize: file.size).map(\.extent), [.bytes(offset: 452_284, length: 3_226_668)])
        XCTAssertEqual(try SamsungTrailer.videoClaim(in: file)?.extent, .bytes(offset: 452_284, length: 3_226_469))
    }

    func testTruncatedCopyIsPromisedButMissing() throws {
        let url = try Corpus.file(Self.path)
        let folder = try TemporaryFolder("samsung-truncated")
        let truncated = folder.path("cut.heic")
        try Fixtures.truncated(url, to: truncated, bytes: 1_000_000)
        guard case .promisedButMissing(let reason) = try MotionPhoto.locate(path: truncated.path) else {
            return XCTFail("a cut-off mpvd box is a promise not kept")
        }
        XCTAssertTrue(reason.contains("HEIF 'mpvd' box at offset 452276"), reason)
        XCTAssertTrue(reason.contains("declares 3226477 bytes but the file ends 547724 bytes after its start (truncated?)"), reason)
        XCTAssertTrue(reason.contains("XMP GCamera:MotionPhoto"), reason)
    }

    func testIPhoneHEICIsNotAMotionPhoto() throws {
        // Apple keeps a Live Photo's video in a separate .MOV: the still itself holds none.
        let url = try Corpus.file("metadata-extractor-images/heic/IMG_2927.HEIC")
        XCTAssertEqual(try MotionPhoto.locate(path: url.path), MotionPhotoLocation.none)
    }
}
