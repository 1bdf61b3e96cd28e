import DarkroomTestSupport
import Foundation
import XCTest

/// The shape issue 21 gave the package, read from `swift package dump-package`: the `darkroom`
/// executable depends on no stage, and no stage on another (what they share lives in library
/// modules: captions, imaging, the core), so a stage can be added or left out without touching the
/// command line or its neighbours.
final class ModuleShapeTests: XCTestCase {
    func testTheExecutableDependsOnNoStageAndNoStageOnAnother() throws {
        let scratch = try TemporaryFolder("dump-package")
        // A scratch path of its own: the running `swift test` holds the package's `.build`.
        let json = try Fixtures.run("swift", ["package", "--package-path", ShippedPipeline.repository.path,
                                              "--scratch-path", scratch.path("build").path, "dump-package"])
        let package = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(package["targets"] as? [[String: Any]])
        let stages = Set(targets.filter { ($0["path"] as? String)?.hasPrefix("Plugins/") == true }.compactMap { $0["name"] as? String })
        XCTAssertTrue(stages.isSuperset(of: ["ExifDateStage", "ThumbnailStage", "TimelapseStage", "CollageStage", "GalleryStage"]),
                      "the stages under Plugins/: \(stages.sorted())")

        /// The names of the targets and products `name` depends on.
        func dependencies(of name: String) throws -> [String] {
            let target = try XCTUnwrap(targets.first { $0["name"] as? String == name }, "no target \(name)")
            let entries = target["dependencies"] as? [[String: Any]] ?? []
            return entries.compactMap { entry in
                ["byName", "target", "product"].lazy.compactMap { (entry[$0] as? [Any])?.first as? String }.first
            }
        }
        XCTAssertFalse(try dependencies(of: "darkroom").isEmpty, "the executable's dependencies are read")
        XCTAssertEqual(try dependencies(of: "darkroom").filter(stages.contains), [], "the executable imports a stage")
        for stage in stages.sorted() {
            XCTAssertEqual(try dependencies(of: stage).filter(stages.contains), [], "\(stage) depends on another stage")
        }
    }
}
