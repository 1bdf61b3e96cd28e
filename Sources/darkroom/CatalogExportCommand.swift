#if Studio
import ArgumentParser
import DarkroomExport
import Foundation

extension CatalogCommand {
    /// `darkroom catalog export`: the whole catalog as JSON or CSV, for other applications.
    struct Manifest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print every photo and video of the catalog as JSON (or CSV): id, original path, library files, capture date with "
                + "its offset and source, camera, GPS, rating, keywords, title, and pairs (Live Photo, RAW). Reads only.")

        @OptionGroup var library: LibraryArguments

        @OptionGroup var catalog: CatalogArguments

        @Flag(help: "JSON: an array of objects (the default).")
        var json = false

        @Flag(help: "CSV instead: a header line, one line a photo; lists joined with '; '.")
        var csv = false

        @OptionGroup var jobs: JobsArguments

        func validate() throws {
            if json && csv { throw ValidationError("give --json or --csv, not both") }
        }

        func run() throws {
            let url = library.url
            try CommandErrors.reported {
                let stores = try CorrectableStores(library: url, postgres: catalog.url)
                defer { stores.close() }
                try Exporter.prepare(jobs: jobs.jobs)
                let manifest = try CatalogManifest.make(catalog: try stores.readOnly(), library: url, jobs: jobs.jobs)
                if csv {
                    FileHandle.standardOutput.write(Data(manifest.csv().utf8))
                } else {
                    print(try manifest.json())
                }
            }
        }
    }
}
#endif
