import DarkroomCore
import DarkroomSidecars
import DarkroomTestSupport
import Foundation
import XCTest

/// Discovery with the export sidecar matcher: a matched sidecar travels with its photo and is no
/// longer passed over; everything else that is JSON or XMP is passed over with what it is.
final class SidecarDiscoveryTests: XCTestCase {
    func testSidecarsAreAttachedToTheirPhotosAndTheRestPassedOverWithTheirRole() throws {
        let root = try TemporaryFolder("sidecar-discovery")
        let files = [
            "Photos from 2019/IMG_0001.JPG", "Photos from 2019/IMG_0001.JPG.supplemental-metadata.json",
            "Photos from 2019/IMG_0002.jpg", "Photos from 2019/IMG_0002.jpg.xmp", "Photos from 2019/IMG_0002.xmp",
            "Photos from 2019/IMG_0003.CR2", "Photos from 2019/IMG_0003.xmp",
            "Photos from 2019/IMG_0099.jpg.json", "Photos from 2019/notes.xmp",
            "Trip/metadata.json", "Trip/IMG_0004-edited.jpg", "Trip/IMG_0004.jpg", "Trip/IMG_0004.jpg.json",
            "Trip/.IMG_0004.jpg.json.swp",
        ]
        for file in files {
            let url = root.path(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        let (found, skipped) = Discovery(spec: InputSpec(), sidecars: ExportSidecars()).files(in: [root.url])
        let sidecars = Dictionary(uniqueKeysWithValues: found.map { ($0.relativePath, $0.sidecars.map(\.fileName)) })
        XCTAssertEqual(sidecars, [
            "Photos from 2019/IMG_0001.JPG": ["IMG_0001.JPG.supplemental-metadata.json"],
            "Photos from 2019/IMG_0002.jpg": ["IMG_0002.jpg.xmp", "IMG_0002.xmp"],
            "Trip/IMG_0004-edited.jpg": ["IMG_0004.jpg.json"],
            "Trip/IMG_0004.jpg": ["IMG_0004.jpg.json"],
        ])
        XCTAssertEqual(found.first { $0.relativePath.hasSuffix("IMG_0002.jpg") }?.sidecars.map(\.kind), [ExportSidecars.xmpKind, ExportSidecars.xmpKind])
        let passed = Dictionary(uniqueKeysWithValues: skipped.map { (($0.path as NSString).lastPathComponent, "\($0.kind): \($0.reason)") })
        XCTAssertEqual(passed, [
            "IMG_0003.CR2": ".cr2 RAW photo: RAW photo (.CR2): not in the pipeline's include globs",
            "IMG_0003.xmp": ".xmp sidecar: XMP sidecar of IMG_0003.CR2, which this pipeline does not take",
            "IMG_0099.jpg.json": "unmatched .json file: JSON that matches no photo or video in its folder (its name points at IMG_0099.jpg, which is not there)",
            "notes.xmp": "unmatched .xmp sidecar: XMP sidecar that matches no photo or video in its folder",
            "metadata.json": "Takeout album metadata file: Google Takeout album metadata (the album's title and description), not a photo's",
            ".IMG_0004.jpg.json.swp": "hidden file: hidden file",
        ])
        XCTAssertEqual(found.count + skipped.count + 4, files.count, "every file is found, attached (4 sidecars) or passed over")
    }

    func testWithoutAMatcherSidecarsArePassedOverAsBefore() throws {
        let root = try TemporaryFolder("sidecar-discovery")
        for name in ["IMG_1.jpg", "IMG_1.jpg.xmp", "IMG_1.jpg.json"] { try Data().write(to: root.path(name)) }
        let (found, skipped) = Discovery(spec: InputSpec()).files(in: [root.url])
        XCTAssertEqual(found.map(\.sidecars.count), [0])
        XCTAssertEqual(skipped.map(\.reason).sorted(), ["XMP sidecar of IMG_1.jpg", "not a photo or video: .json"])
    }

    func testAFileGivenOnItsOwnFindsItsSidecarsBesideIt() throws {
        let root = try TemporaryFolder("sidecar-discovery")
        for name in ["IMG_1.jpg", "IMG_1.jpg.supplemental-metadata.json", "IMG_1.xmp"] { try Data().write(to: root.path(name)) }
        let (found, _) = Discovery(spec: InputSpec(), sidecars: ExportSidecars()).files(in: [root.path("IMG_1.jpg")])
        XCTAssertEqual(found.first?.sidecars.map(\.fileName), ["IMG_1.jpg.supplemental-metadata.json", "IMG_1.xmp"])
    }
}
