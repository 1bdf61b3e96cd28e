import Foundation

/// The pipelines the repository ships (`pipelines/*.yaml`), as tests run them.
public enum ShippedPipeline {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `pipelines/<name>.yaml`.
    public static func path(_ name: String) -> String {
        repository.appendingPathComponent("pipelines/\(name).yaml").path
    }

    /// The text of `pipelines/<name>.yaml` with heic-encode's x265 preset made `ultrafast` (everything
    /// else as shipped), so that tests stay fast. Throws when the pipeline encodes HEIC without the
    /// `preset: medium` this replaces: a changed pipeline must not make the suite silently slow.
    public static func fastText(_ name: String = "import-camera-roll") throws -> String {
        let text = try String(contentsOfFile: path(name), encoding: .utf8)
        if text.contains("heic-encode"), !text.contains("preset: medium") {
            throw FastPipelineError(path: path(name))
        }
        return text.replacingOccurrences(of: "preset: medium", with: "preset: ultrafast")
    }
}

/// A shipped pipeline whose HEIC preset the tests cannot make fast.
public struct FastPipelineError: Error, CustomStringConvertible {
    /// The pipeline file.
    public var path: String
    public var description: String { "\(path): heic-encode has no 'preset: medium' for the tests to make ultrafast" }
}
