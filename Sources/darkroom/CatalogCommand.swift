import ArgumentParser
import DarkroomCatalog
import DarkroomCore
import DarkroomShards
import DarkroomStages
import Foundation
import Logging
import DarkroomLibrary
import DarkroomModel

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "catalog", abstract: "Inspect, rebuild, merge, correct and export a library's catalog.",
                                                    subcommands: [Verify.self, Rebuild.self, Merge.self, SetDate.self, manifest])
    #if Studio
    private static let manifest: any ParsableCommand.Type = Manifest.self
    #else
    private static let manifest: any ParsableCommand.Type = CatalogExportLeftOut.self
    #endif

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every catalogued file (exists, size, SHA-256) and list files the catalog does not know. Exit 1 on drift. "
                + "Reads the catalog only (SQLite opened read-only; PostgreSQL: SELECTs only).")

        @OptionGroup var library: LibraryArguments

        @OptionGroup var catalog: CatalogArguments

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            let url = library.url
            try CommandErrors.reported {
                let drift: CatalogDrift
                if let location = catalog.url {
                    drift = try PostgresStores.verify(url: location, library: url)
                } else {
                    guard let store = try Catalog.openReadOnly(library: url) else {
                        throw RunError("\(library.library) has no catalog (.darkroom/catalog.sqlite); give --catalog postgres://... for one kept in PostgreSQL")
                    }
                    drift = try store.verify(library: url)
                }
                print(json ? try Run.json(drift) : drift.text)
                if !drift.isClean { throw ExitCode(1) }
            }
        }
    }
}

extension CatalogCommand {
    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild a lost catalog from the library: files named with a photo's id are recorded, and the next run over the originals adopts them without redoing their work. "
                + "Holds the library alone (no run, shard or worker meanwhile).")

        @OptionGroup var library: LibraryArguments

        @OptionGroup var catalog: CatalogArguments

        func run() throws {
            let url = library.url
            try CommandErrors.reported {
                let lock = try LibraryLock(library: url, shared: false)
                defer { withExtendedLifetime(lock) {} }
                let recorded: (files: Int, photos: Int)
                let drift: CatalogDrift
                if let location = catalog.url {
                    (recorded, drift) = try PostgresStores.rebuild(url: location, library: url)
                } else {
                    let store = try Catalog(library: url)
                    recorded = try store.rebuild(library: url)
                    drift = try store.verify(library: url)
                }
                print("recorded \(recorded.files) files of \(recorded.photos) photos; run the import over the originals to attach them to their photos")
                if !drift.untracked.isEmpty {
                    print("\(drift.untracked.count) files carry no photo id and stay untracked:\n" + drift.untracked.map { "  \($0)" }.joined(separator: "\n"))
                }
            }
        }
    }
}

extension CatalogCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fold the manifests of a sharded sweep (darkroom run --shard) into the catalog, once every shard has finished.")

        @OptionGroup var library: LibraryArguments

        @OptionGroup var catalog: CatalogArguments

        @Flag(help: "Merge even when a shard has not finished (its recorded work only; its stray files are kept).")
        var partial = false

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            let url = library.url
            try CommandErrors.reported {
                let lock = try LibraryLock(library: url, shared: false)
                defer { withExtendedLifetime(lock) {} }
                let report = try CatalogMerge(library: url).merge(into: try catalog.store(library: url), partial: partial)
                print(json ? try Run.json(report) : report.text)
            }
        }
    }
}
