@testable import CollageStage
import DarkroomCaptions
import DarkroomCore
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomOptions

/// Every built-in template renders at every size with the exact output dimensions, and looks
/// like its golden (a perceptual hash, so a layout change is noticed).
final class TemplateRenderingTests: XCTestCase {
    static let sizes = CanvasSize.presets.map(\.size) + [CanvasSize(width: 800, height: 300)]

    /// Its tests call the native wrappers directly, without a runner to start them (and the order tests run in varies with the build).
    override func setUpWithError() throws { try NativeLibraries.start() }

    func renderer(_ name: String, size: CanvasSize, title: String? = nil) throws -> CollageRenderer {
        let template = try TemplateLibrary.load(name).template
        return CollageRenderer(template: template, canvas: size, title: try title.map { try TextTemplate($0) })
    }

    func photoCount(_ name: String) throws -> Int {
        let template = try TemplateLibrary.load(name).template
        return template.photos ?? 6
    }

    func testEveryTemplateRendersAtEverySizeWithExactDimensions() throws {
        for name in TemplateLibrary.builtInNames {
            let photos = Fixtures.records(try photoCount(name))
            for size in Self.sizes {
                let image = try renderer(name, size: size, title: "Spring {first-date:yyyy}").render(photos)
                XCTAssertEqual(image.width, size.width, "\(name) at \(size)")
                XCTAssertEqual(image.height, size.height, "\(name) at \(size)")
                XCTAssertEqual(image.bands, 3, "\(name) at \(size): RGB without alpha")
                XCTAssertTrue(image.isEightBit)
            }
        }
    }

    func testGoldens() throws {
        let cases: [(template: String, size: String, photos: Int, grid: (Int, Int)?)] = [
            ("polaroid", "square", 4, nil),
            ("grid", "square", 4, (2, 2)),
            ("grid", "portrait", 9, (3, 3)),
            ("grid", "landscape", 5, nil),
            ("film-strip", "landscape", 4, nil),
            ("film-strip", "story", 4, nil),
            ("then-and-now", "square", 2, nil),
            ("then-and-now", "story", 2, nil),
        ]
        for c in cases {
            var r = try renderer(c.template, size: CanvasSize(parsing: c.size)!, title: "March {first-date:yyyy}")
            r.grid = c.grid
            let image = try r.render(Fixtures.records(c.photos))
            let name = "\(c.template)-\(c.size)" + (c.grid.map { "-\($0.0)x\($0.1)" } ?? "-\(c.photos)")
            if let folder = ProcessInfo.processInfo.environment["DARKROOM_COLLAGE_RENDERS"] {
                try image.write(to: "\(folder)/\(name).png", as: .png)
            }
            try Golden.assertMatches(image, name: name)
        }
    }

    func testTheHashNoticesADifferentLayout() throws {
        let photos = Fixtures.records(4)
        let grid = try renderer("grid", size: CanvasSize(width: 400, height: 400)).render(photos)
        let polaroid = try renderer("polaroid", size: CanvasSize(width: 400, height: 400)).render(photos)
        XCTAssertGreaterThan(try PerceptualHash(grid).distance(to: PerceptualHash(polaroid)), 24)
        let gridAgain = try renderer("grid", size: CanvasSize(width: 400, height: 400)).render(photos)
        XCTAssertEqual(try PerceptualHash(grid).distance(to: PerceptualHash(gridAgain)), 0, "rendering is deterministic")
    }

    func testStoryKeepsTextOutOfTheTopAndBottomZones() throws {
        // A bright canvas with dark text and no photos in the zones: the zones stay background.
        var r = try renderer("then-and-now", size: CanvasSize(parsing: "story")!, title: "Then and now")
        r.background = .white
        let image = try r.render(Fixtures.records(2))
        let top = try image.cropped(left: 0, top: 0, width: 1080, height: 250).average()
        let bottom = try image.cropped(left: 0, top: 1920 - 340, width: 1080, height: 340).average()
        XCTAssertEqual(top, 255, accuracy: 0.01)
        XCTAssertEqual(bottom, 255, accuracy: 0.01)
        XCTAssertLessThan(try image.cropped(left: 0, top: 250, width: 1080, height: 1330).average(), 250)
    }

    func testAPhotoFillsItsCellUpright() throws {
        // IMG_0002 is stored 1600x1200 with orientation 6 and a red band on its stored right edge,
        // which is the bottom once upright; a single-cell grid shows it covering the canvas.
        let template = try YAMLDocument.decode(CollageTemplate.self, yaml: "name: one\nmargin: 0\ngrid: { rows: 1, columns: 1, gutter: 0 }",
                                               file: "one.yaml")
        let photo = Fixtures.record(Fixtures.root.appendingPathComponent(Fixtures.samplePaths[1]), date: nil)
        let image = try CollageRenderer(template: template, canvas: CanvasSize(width: 300, height: 400)).render([photo])
        let bottom = try image.pixel(x: 150, y: 396)
        XCTAssertGreaterThan(bottom[0], 180, "red band at the bottom: \(bottom)")
        XCTAssertLessThan(bottom[1], 90)
        let top = try image.pixel(x: 150, y: 3)
        XCTAssertLessThan(top[0] - top[1], 60, "no red at the top: \(top)")
    }
}
