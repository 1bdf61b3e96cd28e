import ArgumentParser
import DarkroomCore
import DarkroomImaging
import DarkroomStages
import Foundation
import Logging

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "catalog", abstract: "Inspect a library's catalog.",
                                                    subcommands: [Verify.self, Rebuild.self, Merge.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every catalogued file (exists, size, SHA-256) and list files the catalog does not know. Exit 1 on drift.")

        @Option(name: [.short, .long], help: "The library folder.")
        var library: String

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            let url = URL(fileURLWithPath: library, isDirectory: true)
            guard let catalog = try Catalog.openIfPresent(library: url) else {
                FileHandle.standardError.write(Data("error: \(library) has no catalog (.darkroom/catalog.sqlite)\n".utf8))
                throw ExitCode(2)
            }
            let drift = try catalog.verify(library: url)
            print(json ? try Run.json(drift) : drift.text)
            if !drift.isClean { throw ExitCode(1) }
        }
    }
}

extension CatalogCommand {
    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild a lost catalog from the library: files named with a photo's id are recorded, and the next run over the originals adopts them without redoing their work.")

        @Option(name: [.short, .long], help: "The library folder.")
        var library: String

        func run() throws {
            let url = URL(fileURLWithPath: library, isDirectory: true)
            let catalog = try Catalog(library: url)
            let (files, photos) = try catalog.rebuild(library: url)
            print("recorded \(files) files of \(photos) photos; run the import over the originals to attach them to their photos")
            let drift = try catalog.verify(library: url)
            if !drift.untracked.isEmpty { print("\(drift.untracked.count) files carry no photo id and stay untracked:\n" + drift.untracked.map { "  \($0)" }.joined(separator: "\n")) }
        }
    }
}

extension CatalogCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fold the manifests of a sharded sweep (darkroom run --shard) into the catalog, once every shard has finished.")

        @Option(name: [.short, .long], help: "The library folder the shards wrote to.")
        var library: String

        @OptionGroup var catalog: CatalogArguments

        @Flag(help: "Merge even when a shard has not finished (its recorded work only; its stray files are kept).")
        var partial = false

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            let url = URL(fileURLWithPath: library, isDirectory: true)
            try CommandErrors.reported {
                let lock = try LibraryLock(library: url, shared: false)
                defer { withExtendedLifetime(lock) {} }
                let report = try CatalogMerge(library: url).merge(into: try catalog.store(library: url), partial: partial)
                print(json ? try Run.json(report) : report.text)
            }
        }
    }
}
