import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import Foundation

extension ExplainReport {
    /// The report for a photo of `library`, named by `target`: a library file, an imported original's
    /// path, or a photo's id; with what `catalog` recorded for it (its id, date and outputs, each
    /// checked on disk). Throws when the library has no such photo.
    public static func recorded(_ target: String, in library: URL, catalog: CorrectableCatalog) throws -> ExplainReport {
        let url = URL(fileURLWithPath: target).standardizedFileURL
        var hash: String?
        if FileInfo(path: url.path, followLinks: true)?.isRegularFile == true {
            let root = library.standardizedFileURL.resolvingSymlinksInPath().path + "/"
            let resolved = url.resolvingSymlinksInPath().path
            if resolved.hasPrefix(root), let output = try catalog.output(at: String(resolved.dropFirst(root.count))) {
                hash = output.subject
            } else {
                hash = try ContentHash.ofFile(url)
            }
        } else if let id = UUID(uuidString: target) {
            // A still's parts share its id: the id names the still.
            let assets = try catalog.assets(.id(id))
            hash = (assets.first { $0.motionOf == nil } ?? assets.first)?.contentHash
        } else {
            hash = try catalog.assets(.originalPath(url.path)).first?.contentHash
        }
        guard let hash, let asset = try catalog.assets(.contentHash(hash)).first else {
            throw RunError("\(target) is not a photo of the library at \(library.path) (no asset with that id, path or content)")
        }
        var report = ExplainReport(file: asset.originalPath)
        let state = try catalog.state(of: hash)
        report.recorded = Recorded(id: asset.id.uuidString.lowercased(), captureDate: asset.captureDate,
                                   outputs: state.outputs.map { output in
                                       Output(path: output.path, step: output.step,
                                              present: LibraryFiles.holdsFile(output.path, library: library))
                                   }.sorted { $0.path < $1.path },
                                   similarity: try recordedSimilarity(of: hash, in: catalog))
        if let still = try asset.motionOf.flatMap({ try catalog.assets(.contentHash($0)).first }) {
            report.recorded?.partOf = Part(path: still.originalPath, role: "still",
                                           outputs: try catalog.state(of: still.contentHash).outputs.map(\.path).sorted())
        }
        report.recorded?.parts = try catalog.assets(.motionParts(of: hash)).sorted { $0.originalPath < $1.originalPath }.map { part in
            Part(path: part.originalPath, role: part.mediaKind == .video ? "Live Photo video" : "RAW",
                 outputs: try catalog.state(of: part.contentHash).outputs.map(\.path).sorted())
        }
        return report
    }
}
