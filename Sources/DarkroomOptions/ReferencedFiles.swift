import Foundation
import Synchronization

/// The files a pipeline's options refer to (a collage's template, a photo book's page layout), while
/// the pipeline loads: texts to use instead of files (a queued pipeline's, stored with it), and the
/// texts that were read, so that whoever queues a pipeline can store them with it and workers need
/// no file.
///
///     let files = ReferencedFiles()
///     let pipeline = try files.loading { try loader.load(path: path) }
///     store(pipeline, files.read)
public final class ReferencedFiles: Sendable {
    /// The files of the pipeline loading now, if anyone is collecting them (see `loading`).
    @TaskLocal public static var current: ReferencedFiles?

    /// Texts by reference as the pipeline writes it, used instead of files.
    public let stored: [String: String]
    /// The texts read so far, by reference.
    private let texts = Mutex<[String: String]>([:])

    /// Files for loading a pipeline, with `stored` texts taking precedence over files.
    public init(stored: [String: String] = [:]) {
        self.stored = stored
    }

    /// The files read so far (from disk or `stored`), by reference, with their text.
    public var read: [String: String] { texts.withLock { $0 } }

    /// Runs `body` (typically `PipelineLoader.load`) with these files as `ReferencedFiles.current`.
    public func loading<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// Reads and decodes the YAML file `reference` names: the text `current` holds for it, else the
    /// file beside `pipelineFile`, then in the working directory; the text read is noted in `current`.
    /// Returns the decoded value and the text. Mistakes in the file are `Diagnostics` pointing into
    /// it; a file not found is a `ReferencedFileError`.
    public static func decode<T: Decodable>(_ type: T.Type, _ reference: String, pipelineFile: String?) throws -> (value: T, source: String) {
        let context = current
        if let source = context?.stored[reference] {
            context?.noteRead(reference, source: source)
            return (try YAMLDocument.decode(T.self, yaml: source, file: reference), source)
        }
        let candidates = candidatePaths(reference, pipelineFile: pipelineFile)
        for path in candidates {
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            context?.noteRead(reference, source: source)
            return (try YAMLDocument.decode(T.self, yaml: source, file: path), source)
        }
        throw ReferencedFileError("cannot read template file '\(reference)'"
                                  + (candidates.count > 1 ? " (looked for \(candidates.joined(separator: " and ")))" : ""))
    }

    /// Where a referenced file may be: next to the pipeline file first, then in the working directory.
    static func candidatePaths(_ reference: String, pipelineFile: String?) -> [String] {
        guard !reference.hasPrefix("/"), let pipelineFile else { return [reference] }
        let folder = URL(fileURLWithPath: pipelineFile).deletingLastPathComponent()
        let besidePipeline = folder.appendingPathComponent(reference).standardizedFileURL.path
        let inWorkingDirectory = URL(fileURLWithPath: reference).standardizedFileURL.path
        return besidePipeline == inWorkingDirectory ? [reference] : [besidePipeline, reference]
    }

    private func noteRead(_ reference: String, source: String) {
        texts.withLock { $0[reference] = source }
    }
}

/// A file a pipeline refers to that cannot be found or read (its contents' mistakes are `Diagnostics`).
public struct ReferencedFileError: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
