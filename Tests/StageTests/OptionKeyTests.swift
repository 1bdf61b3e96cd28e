import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomOptions

/// A step's unit key comes from its declared options: changing any option that shapes what the
/// step makes redoes its work, and nothing else does.
final class OptionKeyTests: XCTestCase {
    /// Every declared option of every built-in stage, set to a value other than its default, changes
    /// the step's key.
    func testEveryDeclaredOptionIsInTheStepsKey() throws {
        let folder = try TemporaryFolder("option-keys")
        try OptionExamples.layoutFile.write(to: folder.path("layout.yaml"), atomically: true, encoding: .utf8)
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        func key(_ stage: String, _ options: [String]) throws -> String {
            let step = options.isEmpty ? stage : "\(stage): { \(options.joined(separator: ", ")) }"
            let earlier = stage == "exif-date" ? [] : stage == "resize" ? ["exif-date"] : ["exif-date", "resize"]
            let yaml = "steps:\n" + (earlier + [step]).map { "  - \($0)\n" }.joined()
            return try loader.load(yaml: yaml, file: folder.path("pipeline.yaml").path).steps.last!.configured.optionsDigest
        }
        var checked = 0
        for stage in BuiltInStages.all {
            for option in stage.options {
                guard let example = OptionExamples.example(option, of: stage.name) else {
                    XCTFail("\(stage.name).\(option.key): no example value; add one to OptionExamples.table")
                    continue
                }
                let context = OptionExamples.context["\(stage.name).\(option.key)"].map { [$0] } ?? []
                let before = try key(stage.name, context)
                let after = try key(stage.name, context + ["\(option.key): \(example)"])
                XCTAssertNotEqual(after, before, "\(stage.name).\(option.key): \(example) does not change the step's key")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 80)
    }

    /// The keys of the shipped pipelines' steps as libraries made with them hold them: a library
    /// imported before the keys were derived from the declarations keeps its work.
    func testShippedPipelinesKeepTheirKeys() throws {
        let pipelines = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("pipelines")
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        var found: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: pipelines.path).sorted() where file.hasSuffix(".yaml") {
            let pipeline = try loader.load(yaml: String(contentsOf: pipelines.appendingPathComponent(file), encoding: .utf8), file: file)
            for step in pipeline.steps { found["\(file) \(step.name)"] = step.configured.optionsDigest }
        }
        for (step, digest) in found.sorted(by: { $0.key < $1.key }) { print("PINNED \"\(step)\": \"\(digest)\",") }
        XCTAssertEqual(found, Self.shippedKeys)
    }

    static let shippedKeys: [String: String] = [:]
}
