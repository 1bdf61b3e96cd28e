@testable import CollageStage
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomOptions

/// Template files are data: mistakes get compiler-style errors pointing into the file.
final class TemplateFileTests: XCTestCase {
    func diagnostics(_ yaml: String, file: String = "mine.yaml") -> [String] {
        do {
            _ = try YAMLDocument.decode(CollageTemplate.self, yaml: yaml, file: file)
            XCTFail("expected an error for:\n\(yaml)")
            return []
        } catch let error as Diagnostics {
            return error.items.map(\.headline)
        } catch {
            XCTFail("expected Diagnostics, got \(error)")
            return []
        }
    }

    func testEveryBuiltInIsAValidTemplateFile() throws {
        for (name, yaml) in TemplateLibrary.builtIn {
            let template = try YAMLDocument.decode(CollageTemplate.self, yaml: yaml, file: "\(name).yaml")
            XCTAssertEqual(template.name, name)
            XCTAssertFalse(template.summary.isEmpty)
        }
    }

    func testMisspelledKeyIsReportedWithLineColumnAndSuggestion() {
        let messages = diagnostics("""
            name: mine
            cells:
              - { x: 0, y: 0, width: 0.5, height: 0.5 }
              - { x: 0.5, y: 0, widht: 0.5, height: 0.5 }
            """)
        XCTAssertEqual(messages, ["mine.yaml:4:5: error: cells[1]: missing required key 'width'"])
    }

    func testUnknownTopLevelKeyGetsDidYouMean() {
        let messages = diagnostics("""
            name: mine
            backgrund: "#ffffff"
            grid: { rows: 2, columns: 2 }
            """)
        XCTAssertEqual(messages, ["mine.yaml:2:1: error: unknown key 'backgrund' (did you mean 'background'?)"])
    }

    func testUnknownNestedKeyGetsDidYouMean() {
        let messages = diagnostics("""
            name: mine
            grid: { rows: 2, columns: 2, guter: 0.1 }
            """)
        XCTAssertEqual(messages, ["mine.yaml:2:30: error: grid: unknown key 'guter' (did you mean 'gutter'?)"])
    }

    func testBadValuesPointAtTheValue() {
        XCTAssertEqual(diagnostics("name: mine\ngrid: { rows: two }"),
                       ["mine.yaml:2:15: error: grid.rows: expected 'auto' or an integer from 1 to 20, got 'two'"])
        XCTAssertEqual(diagnostics("name: mine\nbackground: beige\ngrid: {}"),
                       ["mine.yaml:2:13: error: background: expected a colour #rgb, #rrggbb, #rrggbbaa or a name (white, black, grey...), got 'beige'"])
        XCTAssertEqual(diagnostics("name: mine\ncells:\n  - { x: 0.8, y: 0, width: 0.5, height: 1 }"),
                       ["mine.yaml:3:28: error: cells[0].width: expected x + width at most 1, got 0.8 + 0.5"])
    }

    func testUnknownPlaceholderInACaption() {
        XCTAssertEqual(diagnostics("name: mine\ngrid: {}\nlabel: { text: '{daet}', position: over-bottom }"),
                       ["mine.yaml:3:16: error: label.text: unknown placeholder '{daet}' in '{daet}' (did you mean '{date}'?)"])
    }

    func testYAMLSyntaxErrorHasALine() {
        let messages = diagnostics("name: mine\ngrid: { rows: 2\ncells: [")
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages[0].hasPrefix("mine.yaml:"), messages[0])
        XCTAssertTrue(messages[0].contains("error: invalid YAML"), messages[0])
    }

    func testCellsOrGridIsRequired() {
        XCTAssertEqual(diagnostics("name: mine\nbackground: white"), ["mine.yaml:1:1: error: missing required key 'cells'"])
    }

    func testAPipelineNamingABadTemplateFileReportsTheTemplateFile() throws {
        let folder = try TemporaryFolder("collage-template")
        let templatePath = folder.path("wonky.yaml").path
        try "name: wonky\ngrid: { rows: 2, colums: 2 }\n".write(toFile: templatePath, atomically: true, encoding: .utf8)
        let yaml = "steps:\n  - exif-date\n  - collage: { template: \"\(templatePath)\" }\n"
        XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "p.yaml")) { error in
            XCTAssertEqual((error as? Diagnostics)?.items.map(\.headline),
                           ["\(templatePath):2:18: error: grid: unknown key 'colums' (did you mean 'columns'?)"])
        }
    }

    /// `darkroom run pipelines/mine.yaml` from anywhere: a template named in the pipeline is read beside it.
    func testATemplateFileIsFoundBesideThePipeline() throws {
        let folder = try TemporaryFolder("collage-template")
        try "name: pair\ngrid: { rows: 1, columns: 2 }\n".write(toFile: folder.path("pair.yaml").path, atomically: true, encoding: .utf8)
        let pipeline = folder.path("collage.yaml").path
        try "steps:\n  - exif-date\n  - collage: { template: pair.yaml }\n".write(toFile: pipeline, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(FileManager.default.currentDirectoryPath, folder.url.path)
        let loaded = try PipelineLoader(registry: BuiltInStages.registry).load(path: pipeline)
        XCTAssertEqual(loaded.steps.map(\.name), ["exif-date", "collage"])
    }

    func testAUserTemplateFileRenders() throws {
        let folder = try TemporaryFolder("collage-template")
        let path = folder.path("diagonal.yaml").path
        try """
            name: diagonal
            background: "#202020"
            margin: 0
            cells:
              - { x: 0, y: 0, width: 0.6, height: 0.6, rotation: -8 }
              - { x: 0.4, y: 0.4, width: 0.6, height: 0.6, rotation: 8 }
            frame: { colour: white, border: 0.04 }
            label: { text: "#{n}", position: over-top, size: 0.08, colour: white }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try TemplateLibrary.load(path)
        XCTAssertEqual(loaded.template.photos, 2)
        let image = try CollageRenderer(template: loaded.template, canvas: CanvasSize(width: 500, height: 400)).render(Fixtures.records(2))
        XCTAssertEqual([image.width, image.height], [500, 400])
    }

    func testUnknownBuiltInSuggestsTheNearest() {
        XCTAssertThrowsError(try TemplateLibrary.load("polaroyd")) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'polaroid'?"), "\(error)")
        }
    }
}
