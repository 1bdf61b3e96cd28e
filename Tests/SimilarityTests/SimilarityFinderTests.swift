import DarkroomModel
import DarkroomSimilarity
import Foundation
import XCTest

/// Bursts against near-duplicates, which copy is kept, and the JSON the CLI prints.
final class SimilarityFinderTests: XCTestCase {
    /// Fingerprints made from synthetic grey images: `pattern` picks one of several different
    /// scenes; `shift` moves it by whole pixels (a burst frame of the same scene).
    func fingerprint(pattern: Int, shift: Int = 0, brightness: Int = 0) throws -> SimilarityFingerprint {
        let side = SimilarityFingerprint.side
        let pixels = (0..<side * side).map { index -> UInt8 in
            let (x, y) = (index % side + shift, index / side)
            let value = 128 + 60 * sin(Double(x * (pattern + 1)) / 9 + Double(pattern)) * cos(Double(y * (pattern % 3 + 1)) / 7)
                + Double((x * 7 + y * 13 * (pattern + 1)) % 23) + Double(brightness)
            return UInt8(max(0, min(255, value.rounded())))
        }
        return try XCTUnwrap(try SimilarityFingerprint.make(from: try GreyImage(width: side, height: side, pixels: pixels)))
    }

    func photo(_ id: String, folder: String = "/card/DCIM/100APPLE", fingerprint: SimilarityFingerprint?, pixels: Int = 12_000_000,
               modified: Int64 = 0, camera: String? = nil, at seconds: Double? = nil, burst: BurstMark? = nil,
               sharpness: Double? = nil) -> SimilarPhoto {
        SimilarPhoto(id: id, path: "\(folder)/\(id).jpg", fingerprint: fingerprint, pixelCount: pixels,
                     modifiedNanoseconds: modified * 1_000_000_000, camera: camera,
                     captured: seconds.map { CaptureInstant(seconds: 1_700_000_000 + $0, hasSubseconds: true) }, burst: burst,
                     sharpness: sharpness)
    }

    func testTheSyntheticScenesAreDifferentAndTheShiftedFramesNear() throws {
        let scenes = try (0..<4).map { try fingerprint(pattern: $0) }
        for a in scenes.indices { for b in scenes.indices where a < b { XCTAssertNil(scenes[a].nearDuplicateDistance(to: scenes[b]), "\(a) \(b)") } }
        XCTAssertNotNil(try fingerprint(pattern: 1).nearDuplicateDistance(to: try fingerprint(pattern: 1, shift: 1)))
    }

    func testBurstFramesAreABurstNotNearDuplicatesButACopyOfAFrameIs() throws {
        let burst = BurstMark(source: .apple, identifier: "BURST-1")
        let frames = try (0..<3).map { index in
            photo("IMG_000\(index)", fingerprint: try fingerprint(pattern: 1, shift: 2 * index), camera: "Apple iPhone 15",
                  at: Double(index) * 0.1, burst: burst, sharpness: [10, 50, 20][index])
        }
        XCTAssertNotNil(frames[0].fingerprint!.nearDuplicateDistance(to: frames[1].fingerprint!), "the frames look alike")
        let copy = photo("IMG_0001 copy", folder: "/backup", fingerprint: try fingerprint(pattern: 1, shift: 2), pixels: 3_000_000, modified: 900)
        let other = photo("IMG_0100", fingerprint: try fingerprint(pattern: 3), camera: "Apple iPhone 15", at: 50)
        let report = SimilarityFinder.report(for: frames + [copy, other])
        XCTAssertEqual(report.groups.map(\.kind), [.burst, .nearDuplicate])
        XCTAssertEqual(report.groups[0].keep, "IMG_0001", "the sharpest frame")
        XCTAssertEqual(report.groups[0].members.map(\.id), ["IMG_0001", "IMG_0000", "IMG_0002"])
        XCTAssertEqual(report.groups[1].keep, "IMG_0001", "the larger, in the camera folder")
        XCTAssertEqual(report.groups[1].members.map(\.id), ["IMG_0001", "IMG_0001 copy"], "one frame of the burst, and its copy")
    }

    func testAChainOfSimilarPhotosIsSplitAroundThePhotoKept() throws {
        // Each frame is near the next, but the ends are not near each other: a star around the
        // largest takes what is near it, the rest forms its own group.
        let steps = [0, 2, 4, 6, 8].map { try! fingerprint(pattern: 2, shift: $0) }
        let near = { (a: Int, b: Int) in steps[a].nearDuplicateDistance(to: steps[b]) != nil }
        try XCTSkipUnless(near(0, 1) && near(1, 2) && !near(0, 4), "the synthetic steps must chain")
        let photos = steps.enumerated().map { photo("step\($0.offset)", fingerprint: $0.element, pixels: 10_000_000 - $0.offset) }
        for group in SimilarityFinder.report(for: photos).groups {
            let keep = steps[Int(group.keep.dropFirst(4))!]
            for member in group.members.dropFirst() {
                XCTAssertNotNil(keep.nearDuplicateDistance(to: steps[Int(member.id.dropFirst(4))!]), "\(member.id) is near \(group.keep)")
            }
        }
    }

    func testKeepRanking() {
        let candidate = { (path: String, pixels: Int, minutes: Int64) in
            KeepRanking.Candidate(path: path, pixelCount: pixels, modifiedNanoseconds: minutes * 60_000_000_000)
        }
        XCTAssertEqual(KeepRanking.best(among: [candidate("/a/small.jpg", 100, 0), candidate("/b/large.jpg", 200, 99)]), 1, "largest first")
        XCTAssertEqual(KeepRanking.best(among: [candidate("/a/later.jpg", 100, 10), candidate("/b/earlier.jpg", 100, 5)]), 1, "then earliest")
        XCTAssertEqual(KeepRanking.best(among: [candidate("/backup/IMG_1.jpg", 100, 0), candidate("/card/DCIM/100CANON/IMG_1.jpg", 100, 0)]), 1,
                       "then a camera folder")
        XCTAssertEqual(KeepRanking.best(among: [candidate("/x/IMG_1 (1).jpg", 100, 0), candidate("/x/IMG_1.jpg", 100, 0)]), 1, "then no copy marker")
        XCTAssertEqual(KeepRanking.best(among: [candidate("/x/IMG_1 copy.jpg", 100, 0), candidate("/x/IMG_1 - Copy.jpg", 100, 0),
                                                candidate("/x/longer name/IMG_1.jpg", 100, 0)]), 2)
        XCTAssertEqual(KeepRanking.best(among: [candidate("/x/b.jpg", 100, 0), candidate("/x/a.jpg", 100, 0)]), 1, "then path order")
    }

    func testReportJSONShape() throws {
        let report = SimilarityReport(groups: [
            .init(kind: .nearDuplicate, keep: "p1", members: [.init(id: "p1", path: "/a/IMG_1.jpg", distance: 0),
                                                              .init(id: "p2", path: "/b/IMG_1 copy.jpg", distance: 4)]),
            .init(kind: .burst, keep: "p4", members: [.init(id: "p4", path: "/a/IMG_4.jpg", distance: 0),
                                                      .init(id: "p3", path: "/a/IMG_3.jpg", distance: nil)]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(report), as: UTF8.self),
                       #"{"groups":[{"keep":"p1","kind":"near-duplicate","members":[{"distance":0,"id":"p1","path":"\/a\/IMG_1.jpg"},"#
                       + #"{"distance":4,"id":"p2","path":"\/b\/IMG_1 copy.jpg"}]},{"keep":"p4","kind":"burst","members":"#
                       + #"[{"distance":0,"id":"p4","path":"\/a\/IMG_4.jpg"},{"distance":null,"id":"p3","path":"\/a\/IMG_3.jpg"}]}]}"#)
        XCTAssertEqual(try JSONDecoder().decode(SimilarityReport.self, from: try encoder.encode(report)), report)
    }
}
