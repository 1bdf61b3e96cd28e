import DarkroomCore
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// Photos come out upright: EXIF orientation and HEIF rotation are applied exactly once, in the
/// HEIC and in the thumbnail, and the HEIC's EXIF says Orientation 1 so viewers do not turn it again.
final class OrientationTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// Stored pixels: left half red, right half blue. Where the red half must be once upright.
    let redSide: [Int: String] = [1: "left", 2: "right", 3: "right", 4: "left", 5: "top", 6: "top", 7: "bottom", 8: "bottom"]

    func testEveryEXIFOrientationIsAppliedOnce() throws {
        let harness = try Harness("orientation")
        for orientation in 1...8 {
            try Fixtures.halves(harness.inputs.appendingPathComponent("orientation-\(orientation).jpg"),
                                exif: ["-Orientation#=\(orientation)", "-DateTimeOriginal=2024:05:0\(orientation) 10:00:00"])
        }
        let report = try harness.run(steps: """
              - exif-date
              - resize: { long-edge: 320 }
              - heic-encode: { preset: ultrafast }
              - thumbnail: { size: 100 }
            """)
        XCTAssertEqual(report.failures, [])
        for orientation in 1...8 {
            let name = "orientation-\(orientation).jpg"
            for (prefix, long) in [("Photos", 320), ("Thumbnails", 100)] {
                let url = try harness.output(for: name, under: prefix)
                let image = try Image.open(url.path)
                let turned = orientation >= 5
                XCTAssertEqual([image.width, image.height], turned ? [long * 3 / 4, long] : [long, long * 3 / 4], "\(prefix) \(name)")
                XCTAssertEqual(image.orientation, 1, "\(prefix) \(name) must not ask viewers to rotate again")
                XCTAssertEqual(try redHalf(of: url), redSide[orientation], "\(prefix) \(name)")
            }
            let info = try HEIFInfoReader.read(try harness.output(for: name, under: "Photos"))
            XCTAssertEqual(info.exifOrientation, 1, "EXIF in the HEIC of \(name) must say Orientation 1")
        }
    }

    /// Which half of an image is red: left, right, top or bottom.
    func redHalf(of url: URL) throws -> String {
        let image = try Image.open(url.path)
        let (w, h) = (image.width, image.height)
        let regions = ["left": (0, 0, w / 2, h), "right": (w / 2, 0, w / 2, h), "top": (0, 0, w, h / 2), "bottom": (0, h / 2, w, h / 2)]
        let redness = try regions.mapValues { r in
            let colour = try Fixtures.meanColour(of: url, x: r.0, y: r.1, width: r.2, height: r.3)
            return colour[0] - colour[2]
        }
        return redness.max { $0.value < $1.value }!.key
    }

    /// The corpus' orientation set (an upright "F" in every file once oriented): all 8 come out
    /// like orientation 1, and the iPhone/Samsung HEICs with both `irot` and EXIF Orientation turn once.
    func testCorpusOrientationSetsAndHEICRotation() throws {
        let corpus = try Corpus.requireRoot()
        let harness = try Harness("corpus-orientation")
        var names: [String] = []
        for kind in ["Landscape", "Portrait"] {
            for n in 1...8 {
                let name = "\(kind)_\(n).jpg"
                try FileManager.default.copyItem(at: corpus.appendingPathComponent("exif-orientation-examples/\(name)"),
                                                 to: harness.inputs.appendingPathComponent(name))
                names.append(name)
            }
        }
        let heics = ["exif-samples/heic/mobile/iphone_13_pro_max.HEIC": "iphone.heic",
                     "immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic": "samsung.heic"]
        for (source, name) in heics {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(source), to: harness.inputs.appendingPathComponent(name))
        }
        let report = try harness.run(steps: "  - exif-date\n  - resize: { long-edge: 256 }\n  - heic-encode: { preset: ultrafast }\n")
        XCTAssertEqual(report.failures, [])
        for kind in ["Landscape", "Portrait"] {
            let reference = try Image.open(try harness.output(for: "\(kind)_1.jpg", under: "Photos").path)
            for n in 2...8 {
                let image = try Image.open(try harness.output(for: "\(kind)_\(n).jpg", under: "Photos").path)
                XCTAssertEqual([image.width, image.height], [reference.width, reference.height], "\(kind)_\(n)")
                XCTAssertLessThan(try meanDifference(image, reference), 12, "\(kind)_\(n) is not oriented like \(kind)_1")
            }
        }
        for name in heics.values {
            let image = try Image.open(try harness.output(for: name, under: "Photos").path)
            XCTAssertEqual([image.width, image.height], [192, 256], "\(name) is a portrait photo: irot and EXIF 6 mean one turn")
        }
    }

    func meanDifference(_ a: Image, _ b: Image) throws -> Double {
        let small = { (i: Image) in try i.thumbnail(width: 32, height: 32).eightBitRGB().pixelBytes() }
        let (x, y) = (try small(a), try small(b))
        guard x.count == y.count else { return .infinity }
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
    }
}
