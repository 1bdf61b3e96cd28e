@testable import CollageStage
import DarkroomCaptions
import DarkroomCore
import Foundation
import XCTest
import DarkroomModel

/// Layout arithmetic and photo selection, without pixels.
final class LayoutTests: XCTestCase {
    let square = Rect(x: 0, y: 0, width: 1000, height: 1000)

    func testAutoGridShapes() {
        func shape(_ n: Int, _ area: Rect) -> String {
            let s = GridShape.best(count: n, rows: .auto, columns: .auto, area: area, gutter: 10, aspect: 1)
            return "\(s.rows)x\(s.columns)"
        }
        XCTAssertEqual(shape(4, square), "2x2")
        XCTAssertEqual(shape(9, square), "3x3")
        XCTAssertEqual(shape(2, square), "1x2", "side by side on a square")
        XCTAssertEqual(shape(2, Rect(x: 0, y: 0, width: 1080, height: 1350)), "2x1", "stacked on a portrait canvas")
        XCTAssertEqual(shape(6, Rect(x: 0, y: 0, width: 1920, height: 1080)), "2x3")
        XCTAssertEqual(shape(1, square), "1x1")
    }

    func testAShortLastRowIsCentredAndGuttersAreExact() {
        let cells = GridShape.cells(count: 5, rows: 2, columns: 3, in: square, gutter: 10, aspect: nil)
        XCTAssertEqual(cells.count, 5)
        XCTAssertEqual(cells[1].x - (cells[0].x + cells[0].width), 10, accuracy: 1e-9)
        XCTAssertEqual(cells[3].midX + cells[4].midX, 1000, accuracy: 1e-9, "last row centred")
        XCTAssertEqual(cells[3].y - (cells[0].y + cells[0].height), 10, accuracy: 1e-9)
    }

    func testFixedGridShrinksForFewerPhotos() throws {
        let template = try TemplateLibrary.load("grid").template
        let full = CollageLayout(template: template, count: 9, canvas: CanvasSize(width: 900, height: 900), captionHasText: [false], gridOverride: (3, 3))
        XCTAssertEqual(Set(full.cells.map { Int($0.rect.width.rounded()) }).count, 1)
        let two = CollageLayout(template: template, count: 2, canvas: CanvasSize(width: 900, height: 900), captionHasText: [false], gridOverride: (3, 3))
        XCTAssertEqual(two.cells.count, 2)
        XCTAssertGreaterThan(two.cells[0].rect.width, full.cells[0].rect.width * 1.4, "two photos get bigger cells")
    }

    func testEverythingStaysOnTheCanvasAndInTheStorySafeZone() throws {
        for name in TemplateLibrary.builtInNames {
            let template = try TemplateLibrary.load(name).template
            for size in CanvasSize.presets.map(\.size) {
                let layout = CollageLayout(template: template, count: template.photos ?? 6, canvas: size,
                                           captionHasText: template.captions.map { _ in true })
                let safe = size.safeArea
                for rect in layout.cells.map(\.rect) + layout.captions.map(\.rect) {
                    XCTAssertGreaterThanOrEqual(rect.x, -0.5, "\(name) \(size) \(rect)")
                    XCTAssertLessThanOrEqual(rect.x + rect.width, Double(size.width) + 0.5, "\(name) \(size) \(rect)")
                    XCTAssertGreaterThanOrEqual(rect.y, Double(safe.top) - 0.5, "\(name) \(size) \(rect)")
                    XCTAssertLessThanOrEqual(rect.y + rect.height, Double(size.height - safe.bottom) + 0.5, "\(name) \(size) \(rect)")
                }
            }
        }
    }

    func testFilmStripRunsAlongTheLongSide() throws {
        let template = try TemplateLibrary.load("film-strip").template
        let wide = CollageLayout(template: template, count: 4, canvas: CanvasSize(width: 1920, height: 1080), captionHasText: [false])
        XCTAssertEqual(wide.film?.horizontal, true)
        XCTAssertEqual(Set(wide.cells.map { Int($0.rect.y) }).count, 1)
        let tall = CollageLayout(template: template, count: 4, canvas: CanvasSize(width: 1080, height: 1920), captionHasText: [false])
        XCTAssertEqual(tall.film?.horizontal, false)
        XCTAssertEqual(Set(tall.cells.map { Int($0.rect.x) }).count, 1)
        XCTAssertEqual(tall.cells[0].rect.width / tall.cells[0].rect.height, 1.5, accuracy: 0.01)
    }

    func testPairings() {
        let d = { (y: Int, m: Int, day: Int) in LocalDateTime(year: y, month: m, day: day)! }
        let photos = [d(2022, 5, 1), d(2023, 4, 2), d(2023, 8, 9), d(2024, 4, 2), d(2024, 6, 30)].enumerated().map {
            Fixtures.record(URL(fileURLWithPath: "/p\($0.offset).jpg"), date: $0.element, name: "\($0.offset)")
        }
        let ends = try? Collage.Pairing.earliestLatest.pick(from: photos).get()
        XCTAssertEqual(ends?.map(\.contentHash), ["0", "4"])
        let yearApart = try? Collage.Pairing.yearApart.pick(from: photos).get()
        XCTAssertEqual(yearApart?.map(\.contentHash), ["1", "3"])
        if case .success = Collage.Pairing.yearApart.pick(from: Array(photos.prefix(3))) { XCTFail("no same day a year apart") }
    }

    func testCaptionText() throws {
        let values = CaptionValues(date: LocalDateTime(year: 2024, month: 3, day: 5), firstDate: LocalDateTime(year: 2024, month: 3, day: 5),
                                   lastDate: LocalDateTime(year: 2024, month: 4, day: 1), number: 3, count: 7, title: "Trip",
                                   dateFormat: DateText(pattern: "d MMM yyyy"))
        XCTAssertEqual(try TextTemplate("{title}: {dates} ({count}) #{n} {date:EEEE}").render(values),
                       "Trip: 5 Mar 2024 – 1 Apr 2024 (7) #3 Tuesday")
        XCTAssertThrowsError(try TextTemplate("{count:yyyy}"))
        XCTAssertThrowsError(try TextTemplate("{title}", allowTitle: false))
    }
}
