import DarkroomLibrary
import DarkroomModel
import DarkroomSimilarity
import Foundation

/// One photo of a library as `darkroom duplicates` sees it: what the catalog records of it, what the
/// engine compares, and its files in the library.
public struct CataloguedPhoto: Sendable {
    /// The catalog's record of the photo.
    public var asset: AssetFacts
    /// What the engine compares (its id is the asset's content id).
    public var similar: SimilarPhoto
    /// Whether the catalog holds a fingerprint for it (possibly empty: nothing to compare); false
    /// for a photo imported before fingerprints were made, whose thumbnail is hashed now.
    public var isHashed: Bool
    /// Its thumbnail in the library (the `thumbnail` step's output), if it has one.
    public var thumbnail: CatalogOutput?
    /// Every library file of the photo and of its parts (a Live Photo's video, a RAW kept beside
    /// its JPEG): what `--move-to` moves.
    public var files: [CatalogOutput]

    /// A photo's record, comparison values, thumbnail and files.
    public init(asset: AssetFacts, similar: SimilarPhoto, isHashed: Bool, thumbnail: CatalogOutput?, files: [CatalogOutput]) {
        self.asset = asset
        self.similar = similar
        self.isHashed = isHashed
        self.thumbnail = thumbnail
        self.files = files
    }

    /// The content id, as reports name the photo.
    public var id: String { similar.id }

    /// `4032 x 3024`, or nil when the catalog does not know the size.
    public var pixelSize: String? {
        guard let width = asset.width, let height = asset.height else { return nil }
        return "\(width) x \(height)"
    }

    /// Its capture date as a stamp (`2024-01-31T12:34:56+01:00`), or nil when undated.
    public var dateStamp: String? { asset.captureDate?.stamp }

    /// Whether none of its files is in the library any more (`--move-to` moved them out).
    public var isOutOfLibrary: Bool { files.isEmpty }

    /// The engine's values for a catalogued photo (see `SimilarPhoto.init(id:path:camera:captureDate:...)`).
    static func similarPhoto(_ asset: AssetFacts, facts: SimilarityFacts?, modifiedNanoseconds: Int64) -> SimilarPhoto {
        SimilarPhoto(id: asset.id.uuidString.lowercased(), path: asset.originalPath, camera: asset.camera, captureDate: asset.captureDate,
                     width: asset.width, height: asset.height, modifiedNanoseconds: modifiedNanoseconds, facts: facts)
    }
}
