#if Studio
import ArgumentParser
import DarkroomCore
import DarkroomExport
import DarkroomModel
import Foundation

/// `darkroom export`: photos of a library for people (JPEG), as HEIC, or as their originals with
/// what the library knows, into a folder or a ZIP archive; again and only what is new.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export photos and videos of a library: JPEGs for people (upright, sRGB, at most --size, named by date, without "
            + "location), the library's HEICs, or the originals with an XMP sidecar; into a folder or a ZIP. A second run writes only what is new.",
        discussion: """
            darkroom export --library LIB --to ~/Share/May --month 2024-05
            darkroom export --library LIB --zip trip.zip --from 2024-06-01 --until 2024-06-14 --rating 4
            darkroom export --library LIB --to ~/Leaving --format original --keep-location --names original

            The criteria combine (every one must hold): --month, --from and --until (capture days, the local time the
            photo was taken), --rating (at least, from XMP), --keyword (repeatable: all of them), --camera ("Make Model"
            as the catalog records it), and photos named one by one (ids, originals' paths, library files). Without
            criteria, every photo and video. A Live Photo's video goes with its still (--motion exports it beside it).
            Without --keep-location, JPEGs and HEICs lose their EXIF GPS, maker notes and XMP location fields (the IPTC
            block is never written), and videos their location tags. --format original exports the original bytes as
            imported, which hold the location: it needs --keep-location.
            """)

    @Argument(help: ArgumentHelp("Photos to export, by content id, original path or library file (all of them when none).",
                                 valueName: "photo"))
    var photos: [String] = []

    @OptionGroup var library: LibraryArguments

    @Option(help: ArgumentHelp("The folder to export into (made when missing).", valueName: "folder"))
    var to: String?

    @Option(help: ArgumentHelp("Export into this ZIP archive instead (inside --to when relative and --to is given): written streaming, "
                               + "ZIP64 past 4 GB.", valueName: "file.zip"))
    var zip: String?

    @Option(help: ArgumentHelp("Only photos taken in this month.", valueName: "YYYY-MM"), transform: { text in
        do { return try ExportSelection.month(text) } catch { throw ValidationError("--month: \(error)") }
    })
    var month: DayRange?

    @Option(help: ArgumentHelp("Only photos taken on this day or later.", valueName: "YYYY-MM-DD"), transform: { text in
        do { return try ExportSelection.day(text) } catch { throw ValidationError("--from: \(error)") }
    })
    var from: LocalDateTime?

    @Option(help: ArgumentHelp("Only photos taken on this day or earlier.", valueName: "YYYY-MM-DD"), transform: { text in
        do { return try ExportSelection.day(text) } catch { throw ValidationError("--until: \(error)") }
    })
    var until: LocalDateTime?

    @Option(help: ArgumentHelp("Only photos rated at least this (1 to 5 stars, XMP xmp:Rating).", valueName: "stars"))
    var rating: Int?

    @Option(help: ArgumentHelp("Only photos with this keyword (XMP dc:subject, ignoring case); repeat for several.", valueName: "word"))
    var keyword: [String] = []

    @Option(help: ArgumentHelp("Only photos taken with this camera, as the catalog records it (\"Apple iPhone 12\").", valueName: "make model"))
    var camera: String?

    @Option(help: ArgumentHelp("The longest side of a JPEG or HEIC, in pixels (never enlarged).", valueName: "pixels"))
    var size: Int = 2048

    @Option(help: ArgumentHelp("jpeg (for people), heic (the library's HEIC) or original (the original bytes and an XMP sidecar).",
                               valueName: "format"))
    var format: ExportFormat = .jpeg

    @Flag(help: "Keep where the photos were taken (GPS, maker notes, XMP and video location tags).")
    var keepLocation = false

    @Option(help: ArgumentHelp("Name files by capture time (2024-05-01 18.30.12.jpg), by the original's name, or by sequence (0001.jpg).",
                               valueName: "date|original|sequence"))
    var names: ExportNaming = .date

    @Flag(help: "Export a Live Photo's video (or a motion photo's) beside its still, under the same name.")
    var motion = false

    @OptionGroup var jobs: JobsArguments

    @OptionGroup var photoSettings: PhotoSettingsArguments

    @OptionGroup var catalog: CatalogArguments

    @Flag(help: "Print what would be exported, and write nothing.")
    var dryRun = false

    @Flag(help: "Print the plan or the report as JSON.")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line (it is drawn only on a terminal anyway).")
    var quiet = false

    func validate() throws {
        guard to != nil || zip != nil else { throw ValidationError("give the folder to export into (--to DIR) or an archive (--zip FILE.zip)") }
        guard (16...65_535).contains(size) else { throw ValidationError("--size must be from 16 to 65535 pixels, got \(size)") }
        if let rating, !(0...5).contains(rating) { throw ValidationError("--rating must be from 0 to 5 stars, got \(rating)") }
        if let zip, URL(fileURLWithPath: zip).pathExtension.lowercased() != "zip" {
            throw ValidationError("--zip \(zip): the archive's name must end in .zip")
        }
        if format == .original && !keepLocation {
            throw ValidationError("--format original exports the originals' bytes, which hold where each photo was taken: "
                                  + "add --keep-location to export them as they are (or use --format jpeg or heic, which remove it)")
        }
        if let from, let until, until < from { throw ValidationError("--until \(DayRange.text(until)) is before --from \(DayRange.text(from))") }
    }

    /// The folder or archive the options name.
    var destination: ExportDestination {
        let folder = to.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
        guard let zip else { return .folder(folder!) }
        let archive = zip.hasPrefix("/") || folder == nil ? URL(fileURLWithPath: zip) : folder!.appendingPathComponent(zip)
        return .zip(archive.standardizedFileURL)
    }

    var selection: ExportSelection {
        let days = ExportSelection.intersection(month, from != nil || until != nil ? DayRange(from: from, to: until) : nil)
        return ExportSelection(days: days, minimumRating: rating, keywords: keyword, camera: camera, targets: photos)
    }

    func run() throws {
        Verbosity.bootstrap(verbose: 0)
        let settings = ExportSettings(format: format, longEdge: size, keepLocation: keepLocation, naming: names, motion: motion,
                                      jobs: jobs.jobs, pixelLimit: photoSettings.pixelLimit)
        let url = library.url
        try CommandErrors.reported {
            let stores = try CorrectableStores(library: url, postgres: catalog.url)
            defer { stores.close() }
            let exporter = Exporter(library: url, catalog: try stores.readOnly(), settings: settings)
            // Started first: a --rating or --keyword plan reads each photo's XMP through libvips.
            try Exporter.prepare(jobs: settings.jobs)
            let plan = try exporter.plan(selection, to: destination)
            if dryRun {
                print(json ? try Run.json(plan) : plan.text)
                if !plan.unmatched.isEmpty { throw ExitStatus.failuresListed }
                return
            }
            let progress = isatty(STDERR_FILENO) != 0 && !json && !quiet ? ProgressBar() : nil
            let report = try exporter.run(plan, progress: progress)
            progress?.clear()
            print(json ? try Run.json(report) : report.text)
            if report.stopped != nil { throw ExitStatus.incomplete }
            if !report.succeeded { throw ExitStatus.failuresListed }
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
extension ExportNaming: ExpressibleByArgument {}
#endif
