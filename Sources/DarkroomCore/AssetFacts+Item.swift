import DarkroomLibrary
import DarkroomModel
import Foundation

extension AssetFacts {
    /// What a run learnt about an item.
    init(_ item: Item) {
        // A motion part goes by its still's id in paths; in the catalog it is an asset of its own.
        self.init(contentHash: item.contentHash, id: ContentHash.uuid(fromHex: item.contentHash), originalPath: item.source.path, fileSize: item.fileSize,
                  captureDate: item.captureDate, width: item.pixelWidth, height: item.pixelHeight,
                  orientation: item.orientation, camera: item.camera, location: item.location, video: item.video,
                  contentIdentifier: item.contentIdentifier, motionOf: item.motionOf,
                  similarity: item.similarity.isEmpty ? nil : item.similarity)
    }
}
