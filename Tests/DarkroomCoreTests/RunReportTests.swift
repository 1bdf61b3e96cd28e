@testable import DarkroomCore
import Foundation
import XCTest

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
