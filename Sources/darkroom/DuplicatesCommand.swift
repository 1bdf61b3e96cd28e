import ArgumentParser
import DarkroomDuplicates
import DarkroomLibrary
import DarkroomModel
import Foundation

/// `darkroom duplicates`: a library's near-duplicate groups and bursts, the photo to keep in each
/// and why; as text, JSON or an HTML page; with `--move-to`, the copies' library files moved out, and
/// with `--move-back`, moved back in.
struct DuplicatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "List a library's near-duplicates (re-saved, resized, stripped or slightly cropped copies) and bursts, with the photo to "
            + "keep in each and why. Nothing is deleted; --move-to moves the other copies' library files out (never originals, never burst frames), "
            + "--move-back puts them back.",
        discussion: """
            darkroom duplicates --library LIB
            darkroom duplicates --library LIB --json
            darkroom duplicates --library LIB --report dupes.html --move-to ~/library-duplicates
            darkroom duplicates --library LIB --move-back ~/library-duplicates

            --move-to lists what it moved in the folder's .darkroom-moved.json; --move-back reads it, puts each file back at its library path (never over \
            another file) and records it in the catalog as it was. It prints each photo moved back and each file skipped or failed with why, and exits 1 \
            when a file failed.

            Photos imported before near-duplicate detection get their fingerprint from their library thumbnail, once (it is recorded in the catalog). Exits 0 when it ran, whether or not it found groups.
            """)

    @OptionGroup var library: LibraryArguments

    @Flag(help: "Print the groups as JSON: {\"groups\": [{\"kind\", \"keep\", \"members\": [{\"id\", \"path\", \"distance\"}]}]}.")
    var json = false

    @Option(help: ArgumentHelp("Write an HTML page showing each group side by side.", valueName: "file"))
    var report: String?

    @Option(name: .customLong("move-to"),
            help: ArgumentHelp("Move the library files (HEIC, thumbnail, parts) of every near-duplicate not kept into this folder, "
                               + "at their library paths, and drop them from the catalog. Holds the library alone, like a run.",
                               valueName: "folder"))
    var moveTo: String?

    @Option(name: .customLong("move-back"),
            help: ArgumentHelp("Move the files --move-to moved into this folder back to their library paths, and record them in the catalog "
                               + "as they were. Holds the library alone, like a run.", valueName: "folder"))
    var moveBack: String?

    func validate() throws {
        guard moveBack != nil else { return }
        if moveTo != nil { throw ValidationError("--move-back and --move-to cannot be given together") }
        if json || report != nil { throw ValidationError("--move-back lists no groups (no --json, no --report): run darkroom duplicates again after it") }
    }

    @OptionGroup var catalog: CatalogArguments

    func run() throws {
        Verbosity.bootstrap(verbose: 0)
        let url = library.url
        try CommandErrors.reported {
            let stores = try CorrectableStores(library: url, postgres: catalog.url)
            defer { stores.close() }
            // A library without a catalog is refused before anything is made in it. The catalog is opened to
            // write (and upgraded, for a library imported by an older Darkroom): the fingerprints computed
            // from thumbnails are recorded.
            if catalog.url == nil {
                guard FileManager.default.fileExists(atPath: url.appendingPathComponent(".darkroom/catalog.sqlite").path) else {
                    throw RunError("\(url.path) has no catalog (.darkroom/catalog.sqlite): import into it first (darkroom run)")
                }
            } else {
                _ = try stores.readOnly()
            }
            let opened = try stores.writable()
            if let moveBack {
                let outcome = try Duplicates.moveBack(library: url, catalog: opened, from: URL(fileURLWithPath: moveBack, isDirectory: true))
                print(outcome.lines(folder: URL(fileURLWithPath: moveBack, isDirectory: true).standardizedFileURL).joined(separator: "\n"))
                if outcome.hasFailures { throw ExitStatus.failuresListed }
                return
            }
            guard let rows = opened as? any RowCatalog else { throw RunError("the catalog of \(url.path) cannot be read row by row") }
            let result = try Duplicates.find(library: url, catalog: rows, moveTo: moveTo.map { URL(fileURLWithPath: $0, isDirectory: true) })
            for line in result.backfill.lines { printError(line) }
            if let report {
                let page = URL(fileURLWithPath: report).standardizedFileURL
                let html = result.listing.html(library: url, page: page) { result.thumbnailPath(of: $0, library: url) }
                try Data(html.utf8).write(to: page)
                printError("wrote \(page.path)")
            }
            print(json ? try Run.json(result.listing.report) : result.listing.text)
            if let moves = result.moves, let folder = result.folder {
                let lines = moves.lines(folder: folder)
                let text = (lines.isEmpty ? ["nothing to move"] : lines).joined(separator: "\n")
                if json { printError(text) } else { print("\n" + text) }
                if !moves.failures.isEmpty { throw ExitStatus.failuresListed }
            }
        }
    }
}
