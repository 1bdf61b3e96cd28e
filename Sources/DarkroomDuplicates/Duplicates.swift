import DarkroomLibrary
import DarkroomModel
import Foundation
import Logging

/// `darkroom duplicates`: reads a library's photos from its catalog, hashes the thumbnails of those
/// imported before fingerprints were made, finds the near-duplicate groups and bursts, and (when
/// asked) moves the copies not kept out of the library, or back into it.
public enum Duplicates {
    /// What a search found and did.
    public struct Result: Sendable {
        /// The groups, with their photos.
        public var listing: DuplicateListing
        /// The thumbnails hashed now, and the photos that could not be compared.
        public var backfill: ThumbnailBackfill.Outcome
        /// What `--move-to` moved (nil without it).
        public var moves: DuplicateMover.Outcome?
        /// Where `--move-to` moved the files to.
        public var folder: URL?

        /// Where a photo's thumbnail is now (absolute): in the library, or under the folder when moved.
        public func thumbnailPath(of photo: CataloguedPhoto, library: URL) -> String? {
            guard let thumbnail = photo.thumbnail else { return nil }
            if let folder, let moves, moves.moved.contains(where: { $0.paths.contains(thumbnail.path) }) {
                return folder.appendingPathComponent(thumbnail.path).path
            }
            return library.appendingPathComponent(thumbnail.path).path
        }
    }

    /// Finds the groups in `library`'s `catalog`; with `moveTo`, takes the library alone (as a run
    /// does), recovers what a killed run or move left, then moves the copies not kept into it.
    public static func find(library: URL, catalog: any RowCatalog, moveTo: URL?, logger: Logger = Logger(label: "darkroom")) throws -> Result {
        let library = library.standardizedFileURL
        var lock: LibraryLock?
        var mover: DuplicateMover?
        if let moveTo {
            mover = try DuplicateMover(library: library, folder: moveTo, catalog: catalog)
            lock = try LibraryLock(library: library, shared: false)
            try LibraryRecovery.recover(catalog, library: library, logger: logger)
        }
        defer { withExtendedLifetime(lock) {} }
        var photos = try LibraryPhotos.read(from: catalog)
        let backfill = try ThumbnailBackfill.run(&photos, library: library, catalog: catalog)
        let listing = DuplicateListing(photos: photos)
        var result = Result(listing: listing, backfill: backfill, moves: nil, folder: mover?.folder)
        if let mover {
            result.moves = try mover.move(DuplicateMover.photosToMove(in: listing))
            // The moved files' journal notes are done with: clear them.
            try LibraryRecovery.removeOrphans(catalog, library: library, logger: logger)
        }
        return result
    }

    /// Puts back what `--move-to` moved into `folder` (`--move-back`): takes the library alone (as a
    /// run does), recovers what a killed run or move left, moves back every file the folder's manifest
    /// lists, then undoes what a failed photo published (see `DuplicateRestorer`).
    public static func moveBack(library: URL, catalog: any CatalogStore, from folder: URL,
                                logger: Logger = Logger(label: "darkroom")) throws -> DuplicateRestorer.Outcome {
        let restorer = try DuplicateRestorer(library: library.standardizedFileURL, folder: folder, catalog: catalog)
        let lock = try LibraryLock(library: restorer.library, shared: false)
        defer { withExtendedLifetime(lock) {} }
        try LibraryRecovery.recover(catalog, library: restorer.library, logger: logger)
        let outcome = try restorer.restore()
        try LibraryRecovery.removeOrphans(catalog, library: restorer.library, logger: logger)
        return outcome
    }
}
