import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel

/// A camera roll and the `darkroom` command, for tests that run several processes on one library.
struct FleetFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let folder: TemporaryFolder
    let command: DarkroomCommand
    /// The sample camera roll plus `extra` generated photos, each on its own day.
    let roll: URL

    init(_ name: String, extra: Int) throws {
        folder = try TemporaryFolder(name)
        command = try DarkroomCommand(workingDirectory: Self.root)
        roll = folder.path("roll")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("samples/camera-roll"), to: roll)
        try FileManager.default.createDirectory(at: roll.appendingPathComponent("more"), withIntermediateDirectories: true)
        for i in 0..<extra {
            try Fixtures.photo(roll.appendingPathComponent("more/photo-\(i).jpg"), width: 640, height: 480, seed: 40 + i,
                               exif: ["-DateTimeOriginal=2021:\(String(format: "%02d", 1 + i % 12)):\(String(format: "%02d", 1 + i)) 09:00:00"])
        }
    }

    func pipeline(_ name: String) -> String { Self.root.appendingPathComponent("pipelines/\(name).yaml").path }

    /// Runs a command and fails the test (with its output) when its exit status is not `expecting`.
    @discardableResult
    func darkroom(_ arguments: [String], environment: [String: String] = [:], expecting: Int32 = 0,
                  file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, out: String, err: String) {
        let result = try command.run(arguments, environment: environment)
        XCTAssertEqual(result.status, expecting, "darkroom \(arguments.joined(separator: " ")):\n\(result.out)\n\(result.err)",
                       file: file, line: line)
        return result
    }

    /// Every file of a library outside `.darkroom`, with its SHA-256.
    static func files(of library: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: library, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(library.path.count + 1))
            if relative.hasPrefix(".darkroom") { enumerator?.skipDescendants(); continue }
            if (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
                files[relative] = try ContentHash.ofFile(url)
            }
        }
        return files
    }
}
