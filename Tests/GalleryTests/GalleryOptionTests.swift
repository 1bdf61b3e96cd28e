import DarkroomCore
import DarkroomStages
import XCTest
import DarkroomOptions

/// The gallery's option mistakes, reported like a compiler's before any photo is touched.
final class GalleryOptionTests: XCTestCase {
    func testOptionMistakesAreReportedAgainstThePipeline() {
        let cases: [(String, String)] = [
            ("{ folder: ../site }", "steps[1].gallery.folder: expected a folder inside the library, got '../site'"),
            ("{ folder: .darkroom/site }", "steps[1].gallery.folder: expected a folder inside the library, got '.darkroom/site'"),
            ("{ photos-per-page: 3 }", "steps[1].gallery.photos-per-page: expected an integer from 10 to 5000, got 3"),
            ("{ thumbnails: 'Thumbnails/{name}.jpg' }",
             "steps[1].gallery.thumbnails: unknown field '{name}' in 'Thumbnails/{name}.jpg'; fields: {yyyy} {MM} {dd} {id}"),
            ("{ title: '' }", "steps[1].gallery.title: expected a title of at most 200 characters, got ''"),
            ("{ colections: false }", "steps[1].gallery: unknown key 'colections' (did you mean 'collections'?)"),
        ]
        for (options, expected) in cases {
            let yaml = "steps:\n  - exif-date\n  - gallery: \(options)\n"
            XCTAssertThrowsError(try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "g.yaml"), options) { error in
                let headline = (error as? Diagnostics)?.items.first?.headline ?? "\(error)"
                XCTAssertTrue(headline.hasSuffix(expected), "\(headline)\n  expected …\(expected)")
                XCTAssertTrue(headline.hasPrefix("g.yaml:3:"), headline)
            }
        }
    }

    /// The shipped pipeline loads, and its larger renditions land where the gallery looks for them.
    func testTheShippedPipelineAgreesWithItself() throws {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry)
            .load(path: GalleryFixture.repository.appendingPathComponent("pipelines/gallery.yaml").path)
        XCTAssertEqual(pipeline.steps.map(\.name), ["exif-date", "thumbnail", "gallery"])
        XCTAssertEqual(pipeline.media, [.photo, .video], "the gallery takes videos, though the thumbnail step may not")
        let text = try String(contentsOf: GalleryFixture.repository.appendingPathComponent("pipelines/gallery.yaml"), encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "\"gallery/large/{yyyy}/{MM}/{id}.jpg\"").count, 3)
    }
}
