import ArgumentParser
import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import Foundation
import Logging
import DarkroomCorrection
import DarkroomLibrary
import DarkroomModel
#if Queue
import DarkroomQueue
#endif

extension CatalogCommand {
    /// `darkroom catalog set-date`: a capture date the user corrects, recorded with source `user`,
    /// with the photos' files moved to the folders of their new date.
    struct SetDate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-date",
            abstract: "Correct capture dates: record the date as the user's (kept by later imports) and move the photos' files "
                + "to their new folders; collections with them are remade on their next run. Originals are never touched.",
            discussion: """
                darkroom catalog set-date IMG_0001.JPG 2019-06-15T12:00 --library LIB
                darkroom catalog set-date --shift +1h --camera "Canon EOS 5D" --library LIB

                A TARGET is a photo's content id, an imported original's path, or a library file's path. Without an
                offset the date keeps the photo's own. A shift (+1h30m, -45m, +2d) moves the date the photo's files
                gave, so running the same shift twice changes nothing. Holds the library alone, like a run.
                """)

        @Argument(help: ArgumentHelp("The photos, then the date YYYY-MM-DDTHH:MM[:SS][+HH:MM] (with --shift: the photos only).",
                                     valueName: "TARGET... DATE"))
        var arguments: [String] = []

        @OptionGroup var library: LibraryArguments

        @Option(parsing: .unconditional, help: ArgumentHelp("Move the dates by this much instead: +1h, -45m, +2d, +1h30m.", valueName: "shift"),
                transform: { text in
                    do { return try DateChange.parseShift(text) } catch { throw ValidationError("--shift: \(error)") }
                })
        var shift: DateChange?

        @Option(help: ArgumentHelp("Only photos taken with this camera, as the catalog records it (\"Canon EOS 5D\").", valueName: "make model"))
        var camera: String?

        @Option(help: "Only photos whose original is under this folder.")
        var folder: String?

        @Option(name: .customLong("pipeline"),
                help: ArgumentHelp("A pipeline file whose templates say where its outputs go (repeatable); by default the file each "
                                   + "output's run recorded.", valueName: "file"))
        var pipelines: [String] = []

        @OptionGroup var catalog: CatalogArguments

        @Flag(help: "List what would change, and change nothing.")
        var dryRun = false

        func validate() throws {
            _ = try request()
        }

        /// The request the arguments make; an argument mistake is a `ValidationError` (exit 2).
        func request() throws -> DateCorrectionRequest {
            var targets = arguments
            let change: DateChange
            if let shift {
                change = shift
            } else {
                guard let date = targets.popLast() else {
                    throw ValidationError("give the photos and the date (YYYY-MM-DDTHH:MM[:SS][+HH:MM]), or --shift")
                }
                do { change = try DateChange.parseDate(date) } catch { throw ValidationError("\(error)") }
            }
            guard !targets.isEmpty || camera != nil || folder != nil else {
                throw ValidationError("name the photos to correct: content ids or paths, --camera or --folder")
            }
            return DateCorrectionRequest(targets: targets, camera: camera, folder: folder, change: change)
        }

        func run() throws {
            Verbosity.bootstrap(verbose: 0)
            let url = library.url
            try CommandErrors.reported {
                let request = try self.request()
                let load = { (path: String) throws -> Pipeline in try PipelineLoader(registry: BuiltInStages.registry).load(path: path) }
                let given = try pipelines.map(load)
                let stores = try CorrectableStores(library: url, postgres: catalog.url)
                defer { stores.close() }
                if dryRun {
                    let plan = try DateCorrector(library: url, catalog: try stores.readOnly(), pipelines: given, loadPipeline: load).plan(request)
                    print(plan.text)
                    if !plan.failures.isEmpty { throw ExitStatus.failuresListed }
                    return
                }
                _ = try stores.readOnly()  // refuses a library without a catalog before locking it
                let report = try DateCorrector.correct(request, library: url, pipelines: given, loadPipeline: load, store: stores.writable)
                print(report.text)
                if report.stopped != nil { throw ExitStatus.incomplete }
                if !report.succeeded { throw ExitStatus.failuresListed }
            }
        }
    }
}

/// The catalog `set-date` corrects and `export` reads: the library's SQLite file, or one kept in PostgreSQL.
struct CorrectableStores {
    /// The catalog opened only to read; a refusal when there is none.
    let readOnly: () throws -> CorrectableCatalog
    /// The catalog opened to write (once the library is locked).
    let writable: () throws -> CorrectableCatalog
    /// Closes the connections to PostgreSQL, if any.
    let close: () -> Void

    init(library: URL, postgres: String?) throws {
        guard let postgres else {
            readOnly = {
                guard let store = try Catalog.openReadOnly(library: library) else {
                    throw RunError("\(library.path) has no catalog (.darkroom/catalog.sqlite); "
                                   + "give --catalog postgres://... for one kept in PostgreSQL")
                }
                return store
            }
            writable = { try Catalog(library: library) }
            close = {}
            return
        }
        #if Queue
        let session = try PostgresSession(try PostgresLocation(postgres))
        readOnly = {
            guard let store = try PostgresCatalog.openReadOnly(session: session, library: library) else {
                throw RunError("the database holds no catalog yet (nothing was run or queued with it)")
            }
            return store
        }
        writable = { try PostgresCatalog(session: session, library: library) }
        close = { session.close() }
        #else
        try PostgresStores.check(url: postgres)
        throw RunError("unreachable: PostgresStores.check refuses every URL in a build without the Queue trait")
        #endif
    }
}
