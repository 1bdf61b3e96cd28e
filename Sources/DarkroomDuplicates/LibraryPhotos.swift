import DarkroomLibrary
import DarkroomModel
import DarkroomSimilarity
import Foundation

/// Reads a library's photos from its catalog, in a few lookups whatever their number: every asset,
/// the similarity facts, the originals' remembered modification times and the library's outputs.
public enum LibraryPhotos {
    /// The catalog step (its stage name, after the pipeline's name and a slash) whose output is a
    /// photo's thumbnail.
    public static let thumbnailStage = "thumbnail"

    /// Every catalogued photo, ordered by original path. Videos are left out, and so are the parts
    /// of a photo (a Live Photo's video, a RAW kept with its JPEG: `motionOf` names their photo),
    /// whose files go with their photo's.
    public static func read(from catalog: any RowCatalog) throws -> [CataloguedPhoto] {
        let rows = try catalog.rows.read { try $0.assets(.all) }
        let photos = rows.filter { $0.motionOf == nil && MediaKind(rawValue: $0.mediaKind) == .photo }
            .map(\.facts).sorted { $0.originalPath < $1.originalPath }
        var partsOf: [String: [String]] = [:]
        for row in rows { if let still = row.motionOf { partsOf[still, default: []].append(row.contentHash) } }

        let facts = Dictionary(try catalog.similarity(contentHashes: nil).map { ($0.contentHash, $0.facts) }, uniquingKeysWith: { a, _ in a })
        let modified = Dictionary(try catalog.fingerprints(paths: photos.map(\.originalPath)).map { ($0.path, $0.mtimeNanoseconds) },
                                  uniquingKeysWith: { a, _ in a })
        let subjects = photos.map(\.contentHash) + photos.flatMap { partsOf[$0.contentHash] ?? [] }
        var outputsOf: [String: [CatalogOutput]] = [:]
        for output in try catalog.outputs(ofSubjects: subjects) { outputsOf[output.subject, default: []].append(output) }

        return photos.map { asset in
            let own = outputsOf[asset.contentHash] ?? []
            let parts = (partsOf[asset.contentHash] ?? []).flatMap { outputsOf[$0] ?? [] }
            let stored = facts[asset.contentHash]
            let similar = CataloguedPhoto.similarPhoto(asset, facts: stored, modifiedNanoseconds: modified[asset.originalPath] ?? 0)
            return CataloguedPhoto(asset: asset, similar: similar, isHashed: isReadable(stored?.fingerprint),
                                   thumbnail: own.filter { isThumbnail($0.step) }.min { $0.path < $1.path },
                                   files: (own + parts).sorted { $0.path < $1.path })
        }
    }

    /// Whether a step id (`import-camera-roll/thumbnail`) is the thumbnail stage's first step.
    static func isThumbnail(_ step: String) -> Bool {
        step.split(separator: "/").last.map(String.init) == thumbnailStage
    }

    /// Whether stored fingerprint bytes say something: empty (nothing to compare) or a fingerprint
    /// the engine reads. Absent or unreadable bytes are computed again.
    static func isReadable(_ bytes: [UInt8]?) -> Bool {
        guard let bytes else { return false }
        return bytes.isEmpty || (try? SimilarityFingerprint(storedBytes: bytes)) != nil
    }
}
