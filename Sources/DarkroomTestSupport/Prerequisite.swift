import Foundation
import XCTest

/// A test's prerequisite that is missing (the corpus, the `darkroom` binary, a tool such as ffprobe).
///
/// On a developer's machine the test is skipped with the reason. Under CI (`CI=true`) it fails
/// instead: a missing install step must not make tests vanish from a green run.
public enum Prerequisite {
    /// Whether missing prerequisites fail tests (`CI=true`) rather than skip them.
    public static var required: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    /// The error to throw from a test whose prerequisite is missing: an `XCTSkip`, or under CI a failure.
    public static func missing(_ reason: String) -> Error {
        required ? Missing(description: "\(reason) (required when CI=true)") : XCTSkip(reason)
    }

    /// Throws `missing` unless `tool` is an executable on the `PATH` (`scripts/setup.sh` installs them).
    public static func require(tool: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        if !found { throw missing("\(tool) is not installed (scripts/setup.sh --tests installs it)") }
    }

    /// A missing prerequisite under CI: the test fails with this reason.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }
}
