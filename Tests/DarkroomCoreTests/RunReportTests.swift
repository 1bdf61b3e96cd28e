@testable import DarkroomCore
import Foundation
import XCTest
@testable import DarkroomModel
@testable import DarkroomReport

/// The summary a run prints: English, failures counted by kind before they are listed.
final class RunReportTests: XCTestCase {
    func report(failures: [(String, String)]) -> RunReport {
        var report = RunReport(pipeline: "import.yaml", library: "/library")
        report.found = failures.count + 2
        report.processed = 1
        report.duplicates = 1
        report.failed = failures.count
        report.published = ["Photos/a.heic"]
        report.failures = failures.enumerated().map { index, failure in
            RunReport.Failure(path: "/in/\(String(format: "%03d", index)).jpg", step: failure.0, reason: failure.1)
        }
        return report
    }

    func testTheSummarySpeaksEnglishAndCountsFailuresByKind() {
        let summary = report(failures: [
            ("resize", "cannot decode image: VipsJpeg: Premature end of input file"),
            ("resize", "cannot decode image: vipspng: libpng read error"),
            ("exif-date", "cannot read image: VipsForeignLoad: \"/in/x.jpg\" is not a known file format"),
            ("exif-date", "image is 20000x14000 (280 MP), over the limit of 100 MP; refused before decoding"),
            ("resize", "cannot decode image: VipsJpeg: Premature end of input file"),
        ]).summary
        let first = summary.split(separator: "\n")[0]
        XCTAssertEqual(first, "7 found: 1 processed, 0 already done, 1 duplicate, 5 failed "
                       + "(2 truncated, 1 corrupt, 1 not a photo or video, 1 over the pixel limit) (0.0 s); 1 file written")
        XCTAssertEqual(summary.split(separator: "\n").filter { $0.hasPrefix("  failed: ") }.count, 5)
    }

    func testAnUnknownReasonCountsAsAnErrorOfItsStep() {
        XCTAssertEqual(FailureKind.label(step: "heic-encode", reason: "x265 said no"), "heic-encode error")
        XCTAssertEqual(FailureKind.label(step: "exif-date", reason: "no capture date found in exif-original"), "no capture date")
    }

    func testManyFailuresAreListedUpToALimitWithTheWayToSeeThemAll() {
        let many = report(failures: Array(repeating: ("resize", "cannot decode image: corrupt"), count: 25))
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
}
