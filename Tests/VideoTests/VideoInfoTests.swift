import DarkroomCore
import DarkroomImaging
import DarkroomTestSupport
import DarkroomVideo
import Foundation
import XCTest
import DarkroomModel

/// What `VideoInfo` reads from a video's header, and how it refuses what it cannot read.
final class VideoInfoTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    let limit = 100_000_000

    func testAnIPhoneMOVGivesItsStreamsAndApplesKeys() throws {
        let info = try VideoInfo.read(path: try Clips.appleMOV.path, pixelLimit: limit)
        XCTAssertEqual(info.container, "mov")
        XCTAssertEqual(info.video.codec, "h264")
        XCTAssertEqual(info.video.codecTag, "avc1")
        XCTAssertEqual([info.video.codedWidth, info.video.codedHeight, info.video.displayWidth, info.video.displayHeight], [320, 240, 320, 240])
        XCTAssertEqual(info.video.rotation, 0)
        XCTAssertEqual(info.video.bitDepth, 8)
        XCTAssertNil(info.video.hdr)
        XCTAssertEqual(info.video.frameRate ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(info.duration ?? 0, 3, accuracy: 0.1)
        XCTAssertEqual(info.audioCodec, "aac")
        XCTAssertEqual(info.metadata.appleCreationDate, "2012-11-26T15:33:10-0800")
        XCTAssertEqual(info.metadata.contentIdentifier, "5C2E8C54-0C3D-4DB4-9E2F-7F3A1C1B2A10")
        XCTAssertEqual(info.metadata.make, "Apple")
        XCTAssertEqual(info.metadata.model, "iPhone 5")
        XCTAssertEqual(info.metadata.locationISO6709, "+37.7858-122.4064+010.000/")
        XCTAssertEqual(info.metadata.containerCreationTime?.hasPrefix("2012-11-26T23:33:10"), true)
    }

    func testHEVCKeepsItsSampleEntryTag() throws {
        let info = try VideoInfo.read(path: try Clips.hevcMOV.path, pixelLimit: limit)
        XCTAssertEqual(info.video.codec, "hevc")
        XCTAssertEqual(info.video.codecTag, "hvc1")
        XCTAssertNil(info.audioCodec)
    }

    func testTheDisplayMatrixTurnsTheDisplayedSize() throws {
        let counterClockwise = try VideoInfo.read(path: try Clips.rotatedMOV(rotate: 90).path, pixelLimit: limit)
        XCTAssertEqual(counterClockwise.video.rotation, 270)
        XCTAssertEqual([counterClockwise.video.codedWidth, counterClockwise.video.codedHeight], [320, 240])
        XCTAssertEqual([counterClockwise.video.displayWidth, counterClockwise.video.displayHeight], [240, 320])
        let clockwise = try VideoInfo.read(path: try Clips.rotatedMOV(rotate: 270).path, pixelLimit: limit)
        XCTAssertEqual(clockwise.video.rotation, 90)
    }

    func testHLGIsTenBitHDR() throws {
        let info = try VideoInfo.read(path: try Clips.hlgMOV.path, pixelLimit: limit)
        XCTAssertEqual(info.video.bitDepth, 10)
        XCTAssertEqual(info.video.hdr, .hlg)
        XCTAssertEqual(info.video.colourTransfer, "arib-std-b67")
        XCTAssertEqual(info.video.colourPrimaries, "bt2020")
        XCTAssertEqual(info.video.colourMatrix, "bt2020nc")
    }

    func testAnAndroidMP4HasOnlyItsCreationTimeAndLocation() throws {
        let info = try VideoInfo.read(path: try Clips.androidMP4.path, pixelLimit: limit)
        XCTAssertEqual(info.container, "mp4")
        XCTAssertNil(info.metadata.appleCreationDate)
        XCTAssertEqual(info.metadata.containerCreationTime, "2023-07-14T22:30:00.000000Z")
        XCTAssertEqual(info.metadata.locationISO6709, "+48.8584+002.2945/")
    }

    func testBadFilesAreRefusedWithTheReason() throws {
        func reason(_ url: URL, limit: Int = 100_000_000) throws -> VideoReadError.Reason? {
            do {
                _ = try VideoInfo.read(path: url.path, pixelLimit: limit)
                return nil
            } catch let error as VideoReadError {
                XCTAssertEqual(error.path, url.path)
                return error.reason
            }
        }
        XCTAssertEqual(try reason(try Clips.emptyMOV), .empty)
        XCTAssertEqual(try reason(try Clips.audioOnlyMP4), .noVideoStream(audioCodec: "aac"))
        XCTAssertEqual(try reason(try Clips.truncatedMOV), .missingMovieBox)
        guard case .notAVideo = try reason(try Clips.notAVideo) else { return XCTFail("a text file is not a video") }
        XCTAssertEqual(try reason(try Clips.appleMOV, limit: 320 * 240 - 1), .tooManyPixels(width: 320, height: 240, limit: 320 * 240 - 1))
    }

    func testISO6709Positions() throws {
        let apple = try XCTUnwrap(GeoLocation(iso6709: "+37.7858-122.4064+010.000/"))
        XCTAssertEqual(apple.latitude, 37.7858, accuracy: 1e-9)
        XCTAssertEqual(apple.longitude, -122.4064, accuracy: 1e-9)
        XCTAssertEqual(apple.altitude ?? .nan, 10, accuracy: 1e-9)
        let android = try XCTUnwrap(GeoLocation(iso6709: "+48.8584+002.2945/"))
        XCTAssertEqual(android.longitude, 2.2945, accuracy: 1e-9)
        XCTAssertNil(android.altitude)
        let minutes = try XCTUnwrap(GeoLocation(iso6709: "-3352.500+15112.250/"))
        XCTAssertEqual(minutes.latitude, -(33 + 52.5 / 60), accuracy: 1e-9)
        XCTAssertEqual(minutes.longitude, 151 + 12.25 / 60, accuracy: 1e-9)
        let seconds = try XCTUnwrap(GeoLocation(iso6709: "+404253.1-0740036.2CRSWGS_84/"))
        XCTAssertEqual(seconds.latitude, 40 + 42 / 60.0 + 53.1 / 3600, accuracy: 1e-9)
        for bad in ["", "37.7858,-122.4064", "+97.0000-122.0000/", "+37.7858", "+37.78-122.40junk", "+3760.0-12200.0/"] {
            XCTAssertNil(GeoLocation(iso6709: bad), bad)
        }
    }
}
