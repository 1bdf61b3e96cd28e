import DarkroomCore
import Foundation
import GRDB
import DarkroomLibrary
import DarkroomReport

extension Runner {
    /// Runs the pipeline on this machine with the library's own SQLite catalog
    /// (`<library>/.darkroom/catalog.sqlite`), opened once the library is locked.
    public func run(inputs: [URL]) throws -> RunReport {
        try run(inputs: inputs) { try Catalog(library: settings.library) }
    }

    /// Works out what `run(inputs:)` would do, reading the library's SQLite catalog read-only (a
    /// library without one has nothing done yet); with `shard`, only that shard's share is listed.
    public func plan(inputs: [URL], shard: Shard? = nil) throws -> RunPlan {
        try plan(inputs: inputs, catalog: Catalog.openReadOnly(library: settings.library), shard: shard)
    }
}

/// SQLite's "database or disk is full" tells the runner to stop: every later photo would fail too.
extension DatabaseError: StorageFullReporting {
    public var meansStorageIsFull: Bool { resultCode == .SQLITE_FULL }
}
