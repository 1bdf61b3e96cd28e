import DarkroomStages
import Foundation
import XCTest

/// The import pipeline built into darkroom is the shipped file, byte for byte.
final class BuiltInPipelineTests: XCTestCase {
    func testTheBuiltInImportPipelineIsTheShippedFile() throws {
        let shipped = try String(contentsOf: ImportTests.root.appendingPathComponent("pipelines/import-camera-roll.yaml"), encoding: .utf8)
        XCTAssertEqual(BuiltInPipelines.importCameraRoll, shipped,
                       "pipelines/import-camera-roll.yaml changed: run scripts/update-builtin-pipelines.sh")
        XCTAssertEqual(try BuiltInStages.importPipeline().steps.map(\.name),
                       ["exif-date", "resize", "heic-encode", "motion-video", "video-encode", "thumbnail"])
    }
}
