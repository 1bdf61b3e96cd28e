import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomOptions

/// Option and layout-file mistakes, reported like a compiler's before any photo is touched.
final class OptionTests: XCTestCase {
    func testOptionMistakesAreReportedAgainstThePipeline() {
        let cases: [(String, String)] = [
            ("{ page-size: a5 }", "steps[1].photo-book.page-size: expected one of a4, letter, square, got 'a5' (did you mean 'a4'?)"),
            ("{ photos-per-page: 3 }", "steps[1].photo-book.photos-per-page: expected one of 1, 2, 4, got 3"),
            ("{ page-size: square, orientation: landscape }",
             "steps[1].photo-book.orientation: expected no orientation for a square page (it applies to a4 and letter), got 'landscape'"),
            ("{ group-by: years }", "steps[1].photo-book.group-by: expected one of none, year, month, got 'years' (did you mean 'year'?)"),
            ("{ group-by: month, output: 'books/{yyyy}.pdf' }",
             "steps[1].photo-book.output: expected a name with {yyyy} and {MM} for group-by month (each book needs its own file), got 'books/{yyyy}.pdf'"),
            ("{ output: 'books/{yyyy}.jpg' }", "steps[1].photo-book.output: expected a file name ending in .pdf, got 'books/{yyyy}.jpg'"),
            ("{ from: 2024-03-01, to: 2024-02-01 }", "steps[1].photo-book.to: expected a day on or after from (2024-03-01), got 2024-02-01"),
            ("{ from: 1 March }", "steps[1].photo-book.from: expected a day written yyyy-MM-dd, got '1 March'"),
            ("{ margin: 1 }", "steps[1].photo-book.margin: expected millimetres from 3 to 40, got 1.0"),
            ("{ title: '{frist-date:yyyy}' }",
             "steps[1].photo-book.title: expected text with known placeholders, got unknown placeholder '{frist-date}' in '{frist-date:yyyy}' (did you mean '{first-date}'?)"),
            ("{ captoins: false }", "steps[1].photo-book: unknown key 'captoins' (did you mean 'captions'?)"),
            ("{ layout: pages.txt }", "steps[1].photo-book.layout: expected a readable page layout file (.yaml), got 'pages.txt'"),
        ]
        for (options, expected) in cases {
            let yaml = "steps:\n  - exif-date\n  - photo-book: \(options)\n"
            XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "p.yaml"), options) { error in
                let headline = (error as? Diagnostics)?.items.first?.headline ?? "\(error)"
                XCTAssertTrue(headline.hasSuffix(expected), "\(headline)\n  expected …\(expected)")
                XCTAssertTrue(headline.hasPrefix("p.yaml:3:"), headline)
            }
        }
    }

    func testALayoutFileAndPhotosPerPageTogetherAreRefused() throws {
        let folder = try TemporaryFolder("photo-book-layout")
        try "cells:\n  - { width: 1, height: 1 }\n".write(to: folder.path("one.yaml"), atomically: true, encoding: .utf8)
        let pipeline = folder.path("book.yaml").path
        try "steps:\n  - exif-date\n  - photo-book: { layout: one.yaml, photos-per-page: 2 }\n"
            .write(toFile: pipeline, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(path: pipeline)) { error in
            XCTAssertTrue("\(error)".contains("layout: expected either layout or photos-per-page, not both, got both"), "\(error)")
        }
    }

    func testLayoutFileMistakesPointIntoTheFile() throws {
        let folder = try TemporaryFolder("photo-book-layout")
        let cases: [(String, String)] = [
            ("cells:\n  - { x: 0, y: 0, widht: 1, height: 0.5 }\n", "wonky.yaml:2:5: error: cells[0]: missing required key 'width'"),
            ("cells:\n  - { width: 1, height: 0.5, rotation: 5 }\n", "wonky.yaml:2:30: error: cells[0]: unknown key 'rotation'; valid keys: height, width, x, y"),
            ("cells:\n  - { width: 1, height: 0.6 }\n  - { y: 0.5, width: 1, height: 0.5 }\n",
             "wonky.yaml:2:3: error: cells: expected cells that do not overlap, got cells[0] and cells[1] overlapping"),
            ("cells:\n  - { x: 0.5, width: 0.6, height: 1 }\n", "wonky.yaml:2:22: error: cells[0].width: expected x + width at most 1, got 0.5 + 0.6"),
            ("name: empty\ncells: []\n", "wonky.yaml:2:8: error: cells: expected from 1 to 12 cells, got 0"),
        ]
        for (text, expected) in cases {
            let path = folder.path("wonky.yaml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let yaml = "steps:\n  - exif-date\n  - photo-book: { layout: \"\(path)\" }\n"
            XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "p.yaml")) { error in
                let headlines = (error as? Diagnostics)?.items.map(\.headline) ?? ["\(error)"]
                XCTAssertEqual(headlines, [expected.replacingOccurrences(of: "wonky.yaml", with: path)])
            }
        }
    }

    /// `darkroom enqueue` stores the template files a pipeline reads; a worker loads the pipeline
    /// from the stored text, with no file. A layout file goes the same way as a collage template.
    func testALayoutFileIsStoredForQueuesAndReadBackWithoutTheFile() throws {
        let folder = try TemporaryFolder("photo-book-layout")
        let layout = "cells:\n  - { width: 1, height: 0.5 }\n  - { y: 0.5, width: 1, height: 0.5 }\n"
        try layout.write(to: folder.path("halves.yaml"), atomically: true, encoding: .utf8)
        let pipelineText = "steps:\n  - exif-date\n  - photo-book: { layout: halves.yaml }\n"
        let pipelinePath = folder.path("book.yaml").path
        try pipelineText.write(toFile: pipelinePath, atomically: true, encoding: .utf8)

        let enqueued = ReferencedFiles()
        _ = try enqueued.loading { try PipelineLoader(registry: BuiltInStages.registry).load(path: pipelinePath) }
        XCTAssertEqual(enqueued.read, ["halves.yaml": layout])

        try FileManager.default.removeItem(at: folder.path("halves.yaml"))
        let worker = ReferencedFiles(stored: enqueued.read)
        let pipeline = try worker.loading {
            try PipelineLoader(registry: BuiltInStages.registry).load(yaml: pipelineText, file: pipelinePath)
        }
        XCTAssertEqual(pipeline.steps.map(\.name), ["exif-date", "photo-book"])
        XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: pipelineText, file: pipelinePath),
                             "without the stored text, the missing file is an error")
    }

    func testAMissingLayoutFileIsNamed() {
        let yaml = "steps:\n  - exif-date\n  - photo-book: { layout: /nonexistent/pages.yaml }\n"
        XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "p.yaml")) { error in
            XCTAssertTrue("\(error)".contains("photo-book.layout: expected a readable page layout file (.yaml), got cannot read template file '/nonexistent/pages.yaml'"),
                          "\(error)")
        }
    }

    func testTheShippedPipelineLoads() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("pipelines/photo-book.yaml").path
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: path)
        XCTAssertEqual(pipeline.steps.map(\.name), ["exif-date", "photo-book"])
    }
}
