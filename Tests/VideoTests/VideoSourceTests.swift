import DarkroomTestSupport
import DarkroomVideo
import Foundation
import XCTest

/// One open video for every step (`VideoSource`), and a video's header read from a file someone
/// else has open (`VideoHeader`, the survey's probe).
final class VideoSourceTests: XCTestCase {
    let limit = 100_000_000
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("video-source")
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    /// The poster seeks; a remux after it still copies every packet from the first (the MOV's AAC
    /// priming packet, stamped before the start, included).
    func testARemuxAfterThePosterIsTheWholeVideo() throws {
        let alone = folder.path("alone.mp4"), afterPoster = folder.path("after-poster.mp4")
        try VideoRemux.remux(from: try Clips.appleMOV.path, to: alone.path, pixelLimit: limit)
        let video = try VideoSource(path: try Clips.appleMOV.path, pixelLimit: limit)
        let poster = try video.posterPicture(width: 160, height: 120)
        XCTAssertEqual([poster.width, poster.height], [160, 120])
        try video.remux(to: afterPoster.path)
        XCTAssertEqual(try Probe(afterPoster).streams.count, 2)
        XCTAssertEqual(try bytes(afterPoster), try bytes(alone), "the same MP4 as a remux of the freshly opened file")
    }

    func testTheCopyOfTheOriginalIsItsBytes() throws {
        let copy = folder.path("copy.MOV")
        let video = try VideoSource(path: try Clips.pcmMOV.path, pixelLimit: limit)
        guard case .keepOriginal = try video.remuxPlan() else { return XCTFail("PCM sound cannot go in MP4") }
        try video.copyOriginal(to: copy)
        XCTAssertEqual(try bytes(copy), try bytes(try Clips.pcmMOV))
        XCTAssertThrowsError(try video.copyOriginal(to: copy), "never over an existing file")
    }

    func testAHeaderIsReadThroughTheCallersDescriptorWithoutMovingIt() throws {
        let mov = try Clips.appleMOV
        let handle = try FileHandle(forReadingFrom: mov)
        defer { try? handle.close() }
        let header = try VideoHeader.read(descriptor: handle.fileDescriptor, path: mov.path)
        XCTAssertEqual(header.container, "mov")
        XCTAssertEqual(header.metadata.contentIdentifier, "5C2E8C54-0C3D-4DB4-9E2F-7F3A1C1B2A10")
        XCTAssertEqual(header.metadata.appleCreationDate, "2012-11-26T15:33:10-0800")
        XCTAssertEqual(try handle.offset(), 0, "read with positioned reads")
        XCTAssertEqual(try handle.read(upToCount: 8)?.count, 8, "and still open")
    }

    func testAHeaderThatCannotBeReadSaysWhy() throws {
        func reason(_ url: URL) throws -> VideoReadError.Reason? {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            do {
                _ = try VideoHeader.read(descriptor: handle.fileDescriptor, path: url.path)
                return nil
            } catch let error as VideoReadError {
                XCTAssertEqual(error.path, url.path)
                return error.reason
            }
        }
        XCTAssertEqual(try reason(try Clips.truncatedMOV), .missingMovieBox, "told from the boxes read through the same descriptor")
        XCTAssertEqual(try reason(try Clips.emptyMOV), .empty)
        XCTAssertEqual(try reason(try Clips.audioOnlyMP4), .noVideoStream(audioCodec: "aac"))
    }
}
