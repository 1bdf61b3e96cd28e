import DarkroomImaging
import DarkroomSimilarity
import DarkroomTestSupport
import DarkroomVips
import Foundation
import Synchronization
import XCTest

/// Copies of a dozen varied corpus photos, made with the vips CLI as apps make them, are grouped
/// with their original, and no two different photos are.
final class CorpusCopiesTests: XCTestCase {
    /// Photos of different kinds: JPEG, PNG, WebP, HEIC; landscape, portrait, wide; EXIF
    /// orientation 6; dark; a graphic; Adobe RGB and grey ICC profiles.
    static let photos = [
        "immich-test-assets/albums/nature/prairie_falcon.jpg",
        "immich-test-assets/albums/nature/cyclamen_persicum.jpg",
        "sharp-fixtures/test/fixtures/concert.jpg",
        "metadata-extractor-images/jpg/Samsung GT-I9000 (Galaxy S).jpg",
        "immich-test-assets/metadata/faces/portrait-orientation-6.jpg",
        "libheif/examples/example.heic",
        "metadata-extractor-images/webp/Nikon D1X.webp",
        "immich-test-assets/formats/png/density_plot.png",
        "exif-samples/jpg/gps/DSCN0010.jpg",
        "metadata-extractor-images/jpg/Photoshop (3).jpg",
        "immich-test-assets/formats/webp/denali.webp",
        "libvips-test-suite/test/test-suite/images/sample.jpg",
    ]

    /// The copies: resized to 50 % and 25 %, re-saved at quality 60, 75 and 90, stripped of
    /// metadata (upright first, as sharing apps do), cropped by 1, 3 and 5 % of each side from the
    /// top-left corner (upright, saved without metadata).
    static let kinds = ["r50", "r25", "q60", "q75", "q90", "strip", "crop1", "crop3", "crop5"]

    /// The nine copies of `source`, `<name>.<kind>.jpg` in `folder`: one vips process each, plus
    /// one to turn a rotated photo upright first.
    static func makeCopies(of source: URL, in folder: URL, name: String) throws {
        let copy = { (kind: String) in folder.appendingPathComponent("\(name).\(kind).jpg").path }
        try Fixtures.run("vips", ["resize", source.path, copy("r50") + "[Q=85]", "0.5"])
        try Fixtures.run("vips", ["resize", source.path, copy("r25") + "[Q=85]", "0.25"])
        for quality in [60, 75, 90] { try Fixtures.run("vips", ["copy", source.path, copy("q\(quality)") + "[Q=\(quality)]"]) }
        let header = try Image.open(source.path)
        var upright = source.path
        var (width, height) = (header.width, header.height)
        if header.orientation != 1 {
            upright = folder.appendingPathComponent("\(name).upright.v").path
            try Fixtures.run("vips", ["autorot", source.path, upright])
            if header.orientation >= 5 { (width, height) = (height, width) }
        }
        try Fixtures.run("vips", ["copy", upright, copy("strip") + "[strip,Q=90]"])
        for percent in [1, 3, 5] {
            let (keptWidth, keptHeight) = (width * (100 - percent) / 100, height * (100 - percent) / 100)
            try Fixtures.run("vips", ["crop", upright, copy("crop\(percent)") + "[strip,Q=90]",
                                      "\(width - keptWidth)", "\(height - keptHeight)", "\(keptWidth)", "\(keptHeight)"])
        }
    }

    /// A photo as the import will see it: its fingerprint from the 200-pixel thumbnail's 64 x 64 grey copy.
    func photo(id: String, at url: URL) throws -> SimilarPhoto {
        let thumbnail = try ImageLoader.decode(url, size: DecodeSize(width: 200, height: 200), pixelLimit: 100_000_000,
                                               colour: .srgb).materialized()
        let side = SimilarityFingerprint.side
        let grey = try GreyImage(width: side, height: side, pixels: try thumbnail.greyPixels(width: side, height: side))
        let header = try Image.open(url.path)
        let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date
        return SimilarPhoto(id: id, path: url.path, fingerprint: try SimilarityFingerprint.make(from: grey),
                            pixelCount: header.width * header.height, modifiedNanoseconds: Int64(modified.timeIntervalSince1970 * 1e9))
    }

    func testCopiesAreGroupedWithTheirOriginalAndNothingElse() throws {
        try Prerequisite.require(tool: "vips")
        try Vips.start()
        let folder = try TemporaryFolder("similar-copies")
        let sources = try Self.photos.map { try Corpus.file($0) }
        // Two photos' copies at a time: the vips CLI is most of the test's time.
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            do { try Self.makeCopies(of: sources[index], in: folder.url, name: "photo\(index)") } catch {
                failures.withLock { $0.append("\(Self.photos[index]): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])

        var photos: [SimilarPhoto] = []
        for (index, source) in sources.enumerated() {
            photos.append(try photo(id: "photo\(index)", at: source))
            for kind in Self.kinds {
                photos.append(try photo(id: "photo\(index).\(kind)", at: folder.path("photo\(index).\(kind).jpg")))
            }
        }
        for photo in photos { XCTAssertNotNil(photo.fingerprint, "\(photo.id) has a fingerprint") }

        let report = SimilarityFinder.report(for: photos)
        let groups = report.groups.map { group in (kind: group.kind, keep: group.keep, members: Set(group.members.map(\.id))) }
        XCTAssertEqual(groups.count, sources.count, "one group a photo: \(groups.map { $0.members.sorted() })")
        for index in sources.indices {
            let expected = Set(["photo\(index)"] + Self.kinds.map { "photo\(index).\($0)" })
            let group = groups.first { $0.members.contains("photo\(index)") }
            XCTAssertEqual(group?.members, expected, Self.photos[index])
            XCTAssertEqual(group?.keep, "photo\(index)", "the original is kept: \(Self.photos[index])")
            XCTAssertEqual(group?.kind, .nearDuplicate)
        }
        for group in report.groups {
            XCTAssertEqual(group.members.first?.id, group.keep)
            XCTAssertEqual(group.members.first?.distance, 0)
            for member in group.members {
                XCTAssertLessThanOrEqual(member.distance ?? 99, SimilarityFingerprint.maximumDistance, member.id)
            }
        }
    }
}
