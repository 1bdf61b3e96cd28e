import DarkroomCore
import DarkroomTestSupport
import DarkroomVideo
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// `exif-date` on videos: which date wins, in which zone, and what is refused.
final class VideoDateTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    let paris = TimeZone(identifier: "Europe/Paris")!

    func item(_ url: URL) throws -> Item {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return Item(source: url, relativePath: url.lastPathComponent, contentHash: try ContentHash.ofFile(url),
                    fileSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                    modificationDate: attributes[.modificationDate] as? Date ?? Date())
    }

    func date(_ url: URL, options: ExifDateOptions = ExifDateOptions()) throws -> (Item, CaptureDateDecision) {
        let item = try item(url)
        let decision = try ExifDate(options: options).apply(to: item, settings: RunSettings(library: Clips.folder.url, timeZone: paris))
        return (item, decision)
    }

    func testAnIPhoneClipIsDatedByApplesCreationDateInItsOwnZone() throws {
        let (item, _) = try date(try Clips.appleMOV)
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertEqual(date.local.description, "2012-11-26T15:33:10", "the phone's wall clock, not the run's zone")
        XCTAssertEqual(date.utcOffsetSeconds, -8 * 3600)
        XCTAssertEqual(date.source, .quickTimeCreationDate)
        XCTAssertEqual(date.timeZoneSource, .metadata)
        XCTAssertEqual(date.confidence, .high)
        XCTAssertEqual(item.camera, "Apple iPhone 5")
        XCTAssertEqual(item.location?.latitude ?? 0, 37.7858, accuracy: 1e-6)
        XCTAssertEqual(item.location?.longitude ?? 0, -122.4064, accuracy: 1e-6)
        XCTAssertEqual([item.pixelWidth, item.pixelHeight], [320, 240])
        XCTAssertEqual(item.video?.codec, "h264")
        XCTAssertEqual(item.video?.audioCodec, "aac")
        XCTAssertEqual(item.video?.duration ?? 0, 3, accuracy: 0.1)
    }

    func testAnAndroidClipsUTCCreationTimeIsShownInTheZoneAtItsLocation() throws {
        let (item, _) = try date(try Clips.androidMP4)
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertEqual(date.local.description, "2023-07-15T00:30:00", "22:30 UTC is half past midnight in Paris in summer")
        XCTAssertEqual(date.utcOffsetSeconds, 2 * 3600)
        XCTAssertEqual(date.source, .quickTimeCreationTime)
        XCTAssertEqual(date.timeZoneSource, .gps, "the clip's location is in Paris")
        XCTAssertEqual(item.location?.latitude ?? 0, 48.8584, accuracy: 1e-6)
        XCTAssertNil(item.camera)
    }

    func testACameraThatWritesLocalTimeIsTakenAtItsWord() throws {
        let (item, _) = try date(try Clips.androidMP4, options: ExifDateOptions(videoCreationTime: .local))
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertEqual(date.local.description, "2023-07-14T22:30:00")
        XCTAssertEqual(date.utcOffsetSeconds, 2 * 3600, "the wall clock stands; its offset is the one at the clip's location")
        XCTAssertEqual(date.timeZoneSource, .gps)
    }

    func testAZeroCreationTimeIsPassedOverForTheFileName() throws {
        let (item, decision) = try date(try Clips.epochMP4)
        XCTAssertEqual(item.captureDate?.local.description, "2021-03-05T10:11:12")
        XCTAssertEqual(item.captureDate?.source, .filename)
        XCTAssertEqual(decision.rejected.map(\.reason), [.unixEpoch])
        XCTAssertEqual(decision.rejected.first?.description,
                       "format creation_time '1970-01-01T00:00:00Z': the Unix epoch (a zero timestamp, clock never set)")
    }

    func testWithoutAnyDateAVideoFailsWhenTheFileTimeIsNotWanted() throws {
        let item = try item(try Clips.shortClip)
        XCTAssertThrowsError(try ExifDate(options: ExifDateOptions(fallbackToFileTime: false))
            .apply(to: item, settings: RunSettings(library: Clips.folder.url, timeZone: paris))) { error in
            XCTAssertEqual("\(error)", "no capture date found in quicktime creation dates, creation_time, filename (fallback-to-file-time is off)")
        }
    }

    // MARK: The rules alone

    let resolver = CaptureDateResolver(timeZone: TimeZone(identifier: "America/New_York")!, now: Date(timeIntervalSince1970: 1_800_000_000))

    func resolve(_ video: VideoDateEvidence, name: String = "clip.mov") -> CaptureDateDecision {
        resolver.resolve(CaptureDateEvidence(fileName: name, modificationDate: Date(timeIntervalSince1970: 1_700_000_000), video: video))
    }

    func testPrecedenceAppleThenOtherQuickTimeDatesThenCreationTimeThenNameThenFileTime() {
        typealias Tag = VideoDateEvidence.Tag
        let apple = Tag(field: "com.apple.quicktime.creationdate", value: "2020-01-02T03:04:05+0100")
        let other = Tag(field: "date", value: "2019-05-06T07:08:09-0400")
        let utc = Tag(field: "format creation_time", value: "2018-01-01T12:00:00.000000Z")
        XCTAssertEqual(resolve(.init(appleCreationDate: apple, otherCreationDates: [other], creationTimes: [utc])).date?.local.description,
                       "2020-01-02T03:04:05")
        let fromOther = resolve(.init(otherCreationDates: [other], creationTimes: [utc])).date
        XCTAssertEqual(fromOther?.local.description, "2019-05-06T07:08:09")
        XCTAssertEqual(fromOther?.confidence, .medium)
        let fromUTC = resolve(.init(creationTimes: [utc])).date
        XCTAssertEqual(fromUTC?.local.description, "2018-01-01T07:00:00", "noon UTC is 7 am in New York")
        XCTAssertEqual(fromUTC?.timeZoneSource, .configured)
        XCTAssertEqual(resolve(.init(), name: "VID_20170203_040506.mp4").date?.source, .filename)
        let fromFile = resolve(.init()).date
        XCTAssertEqual(fromFile?.source, .fileModified)
        XCTAssertEqual(fromFile?.confidence, .low)
    }

    func testTheQuickTimeAndUnixEpochsAreNotDates() {
        typealias Tag = VideoDateEvidence.Tag
        let decision = resolve(.init(appleCreationDate: Tag(field: "com.apple.quicktime.creationdate", value: "1904-01-01T00:00:00+0000"),
                                     creationTimes: [Tag(field: "format creation_time", value: "1904-01-01T00:00:00.000000Z"),
                                                     Tag(field: "video stream creation_time", value: "1970-01-01T00:00:00.000000Z")]))
        XCTAssertEqual(decision.rejected.map(\.reason), [.quickTimeEpoch, .quickTimeEpoch, .unixEpoch])
        XCTAssertEqual(decision.date?.source, .fileModified)
        // The epoch written as local time elsewhere is the same zero instant.
        let shifted = resolve(.init(appleCreationDate: Tag(field: "com.apple.quicktime.creationdate", value: "1969-12-31T16:00:00-0800")))
        XCTAssertEqual(shifted.rejected.map(\.reason), [.unixEpoch])
    }

    func testACamcordersClipIsDatedByTheRecordingDateInItsH264Stream() throws {
        let (item, decision) = try date(try Clips.camcorderMTS)
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertEqual(date.local.description, "2024-03-15T10:42:17", "the camcorder's clock, not the file time of 2026")
        XCTAssertEqual(date.utcOffsetSeconds, 3600)
        XCTAssertEqual(date.source, .camcorderRecordingDate)
        XCTAssertEqual(date.confidence, .high)
        XCTAssertEqual(decision.considered.first?.field, "H.264 recording date (MDPM)")
    }

    func testTheRecordingDateIsFoundPastOtherUserDataAndEmulationPrevention() {
        let uuid: [UInt8] = [0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9, 0x8C, 0xD6, 0x08, 0x00, 0x20, 0x0C, 0x9A, 0x66]
        // An encoder's own user data message first, then MDPM west of UTC (-05:30) at 00:00:03 on 1 January 2010,
        // whose "00 00 03" got an emulation prevention byte in the stream.
        let x264: [UInt8] = [0x05, 20] + Array(repeating: 0xAB, count: 16) + Array("x264".utf8)
        let mdpm: [UInt8] = [0x05, 31] + uuid + Array("MDPM".utf8) + [0x02, 0x18, 0x2B, 0x20, 0x10, 0x01, 0x19, 0x01, 0x00, 0x00, 0x03]
        var sei = x264 + mdpm + [0x80]
        let at = sei.count - 2  // before the final 0x03: "00 00 03" becomes "00 00 03 03"
        sei.insert(0x03, at: at)
        let stream: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0, 0, 0, 1, 0x06] + sei + [0, 0, 1, 0x65, 0x88, 0x84]
        XCTAssertEqual(CamcorderRecordingDate.find(inAnnexB: stream), "2010-01-01T00:00:03-05:30")
        XCTAssertNil(CamcorderRecordingDate.find(inAnnexB: [0, 0, 1, 0x06, 0x05, 0xFF, 0xFF, 0x10]), "a size past the end is not read")
        XCTAssertNil(CamcorderRecordingDate.find(inAnnexB: [0, 0, 1, 0x65, 0x88]))
    }
}
