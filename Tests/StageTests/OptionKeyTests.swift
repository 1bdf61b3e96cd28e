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
                do {
                    let before = try key(stage.name, context)
                    let after = try key(stage.name, context + ["\(option.key): \(example)"])
                    XCTAssertNotEqual(after, before, "\(stage.name).\(option.key): \(example) does not change the step's key")
                    checked += 1
                } catch {
                    XCTFail("\(stage.name).\(option.key): \(example) with \(context): \(error)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 80)
    }

    /// The options added to a stage after libraries were made with it are in the key only when set
    /// to other than their default: written out at their default they change nothing (the library
    /// keeps its work); set otherwise, the test above sees them change the key.
    func testOptionsAddedLaterAreKeyedOnlyOffTheirDefault() throws {
        let loader = PipelineLoader(registry: BuiltInStages.registry)
        func key(_ exifDate: String, _ heic: String) throws -> [String] {
            let yaml = "steps:\n  - exif-date: { \(exifDate) }\n  - resize\n  - heic-encode: { \(heic) }\n"
            return try loader.load(yaml: yaml, file: "pipeline.yaml").steps.map(\.configured.optionsDigest)
        }
        XCTAssertEqual(try key("video-creation-time: utc, sidecars: true", "xmp: embed, thumbnail: 320"), try key("", ""))
        XCTAssertNotEqual(try key("", "thumbnail: off")[2], try key("", "")[2])
        XCTAssertNotEqual(try key("sidecars: false", "")[0], try key("", "")[0])
    }

    /// An option whose value has no JSON form cannot be read into the key without the stage saying
    /// what stands for it: loading such a stage fails, naming the option, rather than leaving it out.
    func testAnOptionWithoutAKeyFormIsRefused() throws {
        struct Pair: StageOptions {
            static let pair = StageOption<(Int, Int)?>.custom(
                "pair", as: [Int].self, default: nil, shown: "", accepts: "two integers", "Two integers.") { $0.count == 2 ? ($0[0], $0[1]) : nil }
            static let options: [any OptionDeclaration] = [pair]
            init(from decoder: Decoder) throws {
                let reader = try OptionsReader(decoder, declaring: Self.options)
                _ = reader.read(Self.pair)
                try reader.finish()
            }
        }
        XCTAssertNoThrow(try JSONDecoder().decode(Pair.self, from: Data("{}".utf8)), "an absent value has nothing to key")
        XCTAssertThrowsError(try JSONDecoder().decode(Pair.self, from: Data(#"{"pair": [1, 2]}"#.utf8))) { error in
            let messages = (error as? OptionProblems)?.errors.map { "\($0)" } ?? []
            XCTAssertTrue(messages.contains { $0.contains("'pair' has no form for the step's key") }, "\(error)")
        }
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

    /// Pinned from main at 775aee1 (the hand-written encoders), by this test's PINNED lines.
    static let shippedKeys: [String: String] = [
        "film-strip.yaml collage": "6065906b4e54155e06f914a4175a18ea2749176a05501dfd5f2c36bc0fb15d39",
        "film-strip.yaml exif-date": "e6955ba3f723634ffd547bd3eb2b623ef9875128bfbb702cc9954405627f0ac2",
        "gallery.yaml exif-date": "e6955ba3f723634ffd547bd3eb2b623ef9875128bfbb702cc9954405627f0ac2",
        "gallery.yaml gallery": "c92c79cefeb6bc597cec4f8d839c0062ef2c1a374f69af20e8d0e037e291105b",
        "gallery.yaml thumbnail": "afbf6a2bdd2825de01296f0f9e73f7a1a15c659f8f5253d97802cc257df15bbe",
        "import-camera-roll.yaml exif-date": "e6955ba3f723634ffd547bd3eb2b623ef9875128bfbb702cc9954405627f0ac2",
        "import-camera-roll.yaml heic-encode": "f17a69e0fc3ef0b92c3aa5a0fc5ad92ee3e544509e05440395d6de0033f5ef5b",
        "import-camera-roll.yaml motion-video": "7c384ede143f2f74ad2bdbfeaaf873197e68f7690ee75a2068dda7987c6f3e8e",
        "import-camera-roll.yaml resize": "c890504d640199001a85f9e4d057f19240147ad00cd992412e160db265436d58",
        "import-camera-roll.yaml thumbnail": "fd76352b67f6af8eb6f317aabbde940a561ca4dd78c33530f804bf7d703edf7f",
        "import-camera-roll.yaml video-encode": "f19c56ded23988801717f869107ca8ee82db422a69c71c533846e5ecc36384c9",
        "monthly-grid.yaml collage": "6b67170d3baf79997bc22d0b9ba728a1962c180e6f845e23d88fbee27b5d2754",
        "monthly-grid.yaml exif-date": "e6955ba3f723634ffd547bd3eb2b623ef9875128bfbb702cc9954405627f0ac2",
        "photo-book.yaml exif-date": "6e75d3f82864fa52050c7078645066b581abfa1bd73a44e2bf7eb448dde346e5",
        "photo-book.yaml photo-book": "423b6293a80faca84019c9bf06c922d99d8578fc8f98fdf6f7b5a54f397b71f1",
        "polaroid-story.yaml collage": "17bd7e8e08ecc461767bed68178cdc4fa029e434a447ac41d56932b6b6646f14",
        "polaroid-story.yaml exif-date": "e6955ba3f723634ffd547bd3eb2b623ef9875128bfbb702cc9954405627f0ac2",
        "progress-timelapse.yaml exif-date": "6e75d3f82864fa52050c7078645066b581abfa1bd73a44e2bf7eb448dde346e5",
        "progress-timelapse.yaml timelapse": "c506b21e650a595079f7f70ccceb1e920c140bbcc21f605f7d1227ea36c86bff",
        "regenerate-thumbnails.yaml thumbnail": "5c9b77304527c5ae2a3614b7a0fe3a3d09675b4c15029624045fef218665208c",
        "then-and-now.yaml collage": "9d90d39f0c1779d0c057e2d2c5fc438d8c8d35695e3b055fc0be5a9b0b4755eb",
        "then-and-now.yaml exif-date": "e6955ba3f723634ffd547bd3eb2b623ef9875128bfbb702cc9954405627f0ac2",
    ]
}
