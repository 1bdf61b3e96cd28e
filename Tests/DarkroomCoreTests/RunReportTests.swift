@testable import DarkroomCore
import Foundation
import XCTest
@testable import DarkroomModel
@testable import DarkroomReport

/// The summary a run prints: English, failures counted by kind before they are listed.
final class RunReportTests: XCTestCase {
    func report(failures: [(String, String, FailureKind?)]) -> RunReport {
        var report = RunReport(pipeline: "import.yaml", library: "/library")
        report.found = failures.count + 2
        report.processed = 1
        report.duplicates = 1
        report.failed = failures.count
        report.published = ["Photos/a.heic"]
        report.failures = failures.enumerated().map { index, failure in
            RunReport.Failure(path: "/in/\(String(format: "%03d", index)).jpg", step: failure.0, reason: failure.1, kind: failure.2?.label)
        }
        return report
    }

    /// Failures are counted by the kind they carry from where they happened, never by their words:
    /// a reason that mentions "corrupt" but is of no known kind counts as an error of its step.
    func testTheSummarySpeaksEnglishAndCountsFailuresByKind() {
        let summary = report(failures: [
            ("resize", "cannot decode image: VipsJpeg: Premature end of input file", .truncated),
            ("resize", "cannot decode image: vipspng: libpng read error", .corrupt),
            ("exif-date", "cannot read image: VipsForeignLoad: \"/in/x.jpg\" is not a known file format", .notAPhotoOrVideo),
            ("exif-date", "image is 20000x14000 (280 MP), over the limit of 100 MP; refused before decoding", .overPixelLimit),
            ("resize", "cannot decode image: VipsJpeg: Premature end of input file", .truncated),
            ("heic-encode", "x265 said the input looked corrupt", nil),
        ]).summary
        let first = summary.split(separator: "\n")[0]
        XCTAssertEqual(first, "8 found: 1 processed, 0 already done, 1 duplicate, 6 failed "
                       + "(2 truncated, 1 corrupt, 1 heic-encode error, 1 not a photo or video, 1 over the pixel limit) (0.0 s); 1 file written")
        XCTAssertEqual(summary.split(separator: "\n").filter { $0.hasPrefix("  failed: ") }.count, 6)
    }

    /// A video is counted and named as a video, not as a photo.
    func testVideosAreCountedAsVideos() {
        var report = self.report(failures: [("video-encode", "no frame of the video could be decoded", .undecodableVideo)])
        report.duplicateFiles = [.init(path: "/in/b.mov", sameAs: "/in/a.mov")]
        report.lowConfidenceDates = [.init(path: "/in/c.mp4", why: "from their file time")]
        let lines = report.summary.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].contains("1 failed (1 undecodable video)"), lines[0])
        XCTAssertTrue(lines.contains("  duplicate: /in/b.mov is the same video as /in/a.mov"), "\(lines)")
        XCTAssertEqual(lines.last, "1 video dated from its file time (low confidence): darkroom explain /in/c.mp4 shows why")
    }

    func testManyFailuresAreListedUpToALimitWithTheWayToSeeThemAll() {
        let many = report(failures: Array(repeating: ("resize", "cannot decode image: corrupt", FailureKind.corrupt), count: 25))
        let lines = many.summary.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("  failed: ") }.count, RunReport.listedFailures)
        XCTAssertEqual(lines.last, "  ... and 5 more failures: --verbose lists them all, --report run.json keeps them")
        XCTAssertEqual(many.summary(listingPassedOver: true).split(separator: "\n").filter { $0.hasPrefix("  failed: ") }.count, 25)
    }
}

/// Sidecars read and dates of low confidence in the summary, with the next useful command.
final class SidecarSummaryTests: XCTestCase {
    func testSidecarsAreCountedAndPhotosWithoutOneListed() {
        var report = RunReport(pipeline: "import.yaml", library: "/library")
        report.found = 5
        report.processed = 3
        report.sidecars = [
            .init(path: "/in/a.jpg.json", of: "/in/a.jpg", kind: "Google Takeout JSON", reason: "named after a.jpg"),
            .init(path: "/in/a.jpg.xmp", of: "/in/a.jpg", kind: "XMP sidecar", reason: "XMP sidecar named after the whole file name"),
        ]
        report.withoutSidecar = ["Google Takeout JSON": ["/in/b.jpg"]]
        let lines = report.summary(listingPassedOver: true).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "5 found: 3 processed, 0 already done, 0 duplicates, 0 failed, 2 sidecars read (0.0 s); 0 files written")
        XCTAssertEqual(Array(lines[1...]), [
            "  1 photo without a Google Takeout JSON, dated from its own metadata:",
            "    /in/b.jpg",
            "  sidecar of a.jpg: /in/a.jpg.json (named after a.jpg)",
            "  sidecar of a.jpg: /in/a.jpg.xmp (XMP sidecar named after the whole file name)",
        ])
    }

    func testLowConfidenceDatesEndTheSummaryWithTheCommandThatExplains() {
        var report = RunReport(pipeline: "import.yaml", library: "/library")
        report.lowConfidenceDates = [
            .init(path: "/in/b c.jpg", why: "from their file time"), .init(path: "/in/d.jpg", why: "from their file time"),
            .init(path: "/in/e.jpg", why: "from their file time"), .init(path: "/in/f.jpg", why: "in this machine's time zone"),
        ]
        XCTAssertEqual(report.summary.split(separator: "\n").last,
                       "3 photos dated from their file time, 1 in this machine's time zone (low confidence): darkroom explain '/in/b c.jpg' shows why")
        report.lowConfidenceDates = [.init(path: "/in/d.jpg", why: "from their file time")]
        XCTAssertEqual(report.summary.split(separator: "\n").last,
                       "1 photo dated from its file time (low confidence): darkroom explain /in/d.jpg shows why")
    }

    /// A camera without offsets (its zone found from its GPS position) and a phone with them, on
    /// one trip: collections see them in true time order, not wall-clock order.
    func testCollectionsOrderPhotosByInstantWhenOffsetsAreKnown() {
        func record(_ name: String, _ local: LocalDateTime, offset: Int?) -> ItemRecord {
            ItemRecord(source: URL(fileURLWithPath: "/in/\(name)"), relativePath: name, contentHash: name, id: UUID(),
                       captureDate: CaptureDate(local: local, utcOffsetSeconds: offset, source: .exifOriginal,
                                                timeZoneSource: offset == nil ? .unknown : .metadata, confidence: .high))
        }
        // Leaving Paris at 22:00 (20:00Z); landing in New York at 18:00 local (22:00Z); one undated wall clock at 19:00 (read as UTC).
        let phone = record("phone.jpg", LocalDateTime(year: 2024, month: 5, day: 1, hour: 22)!, offset: 7200)
        let camera = record("camera.jpg", LocalDateTime(year: 2024, month: 5, day: 1, hour: 18)!, offset: -4 * 3600)
        let unknown = record("unknown.jpg", LocalDateTime(year: 2024, month: 5, day: 1, hour: 21)!, offset: nil)
        XCTAssertEqual(Runner.inCaptureOrder([camera, unknown, phone]).map(\.relativePath), ["phone.jpg", "unknown.jpg", "camera.jpg"])
    }

    /// What a collection is keyed by, a photo at a time, is the text earlier builds keyed it by: a
    /// library's collages and time-lapses stay current when the build changes.
    func testACollectionsPhotosAreKeyedAsBefore() {
        let dated = ItemRecord(sourcePath: "/in/a.jpg", relativePath: "a.jpg", contentHash: "a1", id: UUID(),
                               captureDate: CaptureDate(local: LocalDateTime(year: 2024, month: 5, day: 1, hour: 22)!, utcOffsetSeconds: nil,
                                                        source: .exifOriginal, timeZoneSource: .unknown, confidence: .high))
        var frame = ItemRecord(sourcePath: "/in/b.jpg", relativePath: "b.jpg", contentHash: "b2", id: UUID(), captureDate: nil)
        let pick = UUID()
        frame.burst = BurstRole(pick: pick, frames: 3)
        XCTAssertEqual(CollectionContext.inputsDigest([dated, frame]), "a1@2024-05-01T22:00:00,b2@-~\(pick)")
        XCTAssertEqual(Array(CollectionContext.inputsDigestPieces([dated, frame])), ["a1@2024-05-01T22:00:00", ",b2@-~\(pick)"])
    }
}
