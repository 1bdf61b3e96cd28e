import ArgumentParser
import DarkroomCatalog
import DarkroomCore
import DarkroomImaging
import DarkroomStages
import ExifDateStage
import Foundation

/// `darkroom explain`: why a photo has the date it has (or would have), from the very decision
/// `exif-date` makes: every candidate with its outcome, the zone, the folder and the outputs.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain a photo's capture date: every date candidate (EXIF, XMP, GPS, QuickTime, sidecars, file name, file time) with why it was "
            + "taken or set aside, the time zone, the local time and folder, and where its outputs are (or would go). Works before import too.")

    @Argument(help: "A photo or video file, or (with --library) a library file or a photo's id.")
    var target: String

    @Option(name: [.short, .long], help: "The library: the photo is looked up in its catalog (its original, the recorded date, its outputs).")
    var library: String?

    @Option(help: "The pipeline whose exif-date options and output templates apply. Default: pipelines/import-camera-roll.yaml when it exists.")
    var pipeline: String?

    @Flag(help: "Print the explanation as JSON.")
    var json = false

    @OptionGroup var photoSettings: PhotoSettingsArguments

    /// The default pipeline, when it exists in the working directory.
    static let defaultPipeline = "pipelines/import-camera-roll.yaml"

    func run() throws {
        let pipeline = try loadPipeline()
        let settings = RunSettings(library: URL(fileURLWithPath: library ?? ".", isDirectory: true),
                                   pixelLimit: photoSettings.pixelLimit, timeZone: photoSettings.timeZone)
        try ImagingSetup.configure(for: settings)
        try CommandErrors.reported {
            var report: ExplainReport
            if let library {
                report = try recorded(in: URL(fileURLWithPath: library, isDirectory: true))
            } else {
                let url = URL(fileURLWithPath: target)
                guard FileInfo(path: url.path, followLinks: true)?.isRegularFile == true else {
                    throw RunError("\(target) is not a file; give --library to look up a library file or a photo's id")
                }
                report = ExplainReport(file: url.standardizedFileURL.path)
            }
            try report.decide(pipeline: pipeline, settings: settings)
            print(json ? try Run.json(report) : report.text)
            if report.explanation?.chosen == nil { throw ExitStatus.failuresListed }
        }
    }

    /// The pipeline named, or the default one, or none (exif-date's defaults, no outputs).
    private func loadPipeline() throws -> Pipeline? {
        guard let path = pipeline ?? (FileManager.default.fileExists(atPath: Self.defaultPipeline) ? Self.defaultPipeline : nil) else {
            return nil
        }
        return try PipelineArguments.load(path: path)
    }

    /// What the catalog of `library` recorded for the target: a library file, an original's path
    /// or an id.
    private func recorded(in library: URL) throws -> ExplainReport {
        guard let catalog = try Catalog.openReadOnly(library: library) else {
            throw RunError("\(library.path) has no catalog (.darkroom/catalog.sqlite)")
        }
        let assets = try catalog.assets()
        let url = URL(fileURLWithPath: target).standardizedFileURL
        var hash: String?
        if FileInfo(path: url.path, followLinks: true)?.isRegularFile == true {
            let root = library.standardizedFileURL.resolvingSymlinksInPath().path + "/"
            let resolved = url.resolvingSymlinksInPath().path
            if resolved.hasPrefix(root), let output = try catalog.output(at: String(resolved.dropFirst(root.count))) {
                hash = output.subject
            } else {
                hash = try ContentHash.ofFile(url)
            }
        } else {
            hash = assets.first { $0.id.lowercased() == target.lowercased() || $0.originalPath == target }?.contentHash
        }
        guard let hash, let asset = assets.first(where: { $0.contentHash == hash }) else {
            throw RunError("\(target) is not a photo of the library at \(library.path) (no asset with that id, path or content)")
        }
        var report = ExplainReport(file: asset.originalPath)
        let state = try catalog.state(of: hash)
        report.recorded = .init(id: asset.id, captureDate: try catalog.rememberedFacts(contentHash: hash)?.captureDate,
                                outputs: state.outputs.map { output in
                                    .init(path: output.path, step: output.step,
                                          present: FileInfo(path: library.appendingPathComponent(output.path).path)?.isRegularFile == true)
                                }.sorted { $0.path < $1.path })
        return report
    }
}

/// What `darkroom explain` prints: the decision `exif-date` makes for the file now, and what the
/// library recorded when it was imported.
struct ExplainReport: Encodable {
    /// A library output and whether it is on disk.
    struct Output: Encodable {
        var path: String
        var step: String
        var present: Bool
    }

    /// What the catalog holds for the photo.
    struct Recorded: Encodable {
        var id: String
        var captureDate: CaptureDate?
        var outputs: [Output]
    }

    /// The original file.
    var file: String
    /// The photo's id (from its content), when the file could be read.
    var id: String?
    /// The decision for the file as it is now; nil when the original is gone.
    var explanation: DateExplanation?
    /// Why there is no decision (the original is gone or unreadable).
    var unreadable: String?
    /// The wall-clock time of the chosen date and the folder it files the photo in.
    var localTime: String?
    var folder: String?
    /// Where the pipeline's steps would publish it.
    var plannedOutputs: [String] = []
    /// What the library recorded, with `--library`.
    var recorded: Recorded?

    /// Makes `exif-date`'s decision for the file, with the pipeline's options and output templates.
    mutating func decide(pipeline: Pipeline?, settings: RunSettings) throws {
        let url = URL(fileURLWithPath: file)
        guard let info = FileInfo(path: url.path, followLinks: true), info.isRegularFile else {
            unreadable = "the original \(file) is gone"
            return
        }
        let hash = try ContentHash.ofFile(url)
        id = ContentHash.uuid(fromHex: hash).uuidString.lowercased()
        let item = Item(source: url, relativePath: url.lastPathComponent, contentHash: hash, fileSize: info.size,
                        modificationDate: info.modificationDate)
        let steps = pipeline?.itemSteps.filter { $0.configured.media.contains(item.mediaKind) } ?? []
        let configured = steps.lazy.compactMap { $0.configured.stage as? ExifDate }.first
        let stage = try configured ?? ExifDate(options: ExifDateOptions())
        item.sidecars = Discovery(spec: pipeline?.inputs ?? InputSpec(), sidecars: ExifDate.sidecars).sidecars(ofFile: url)
        let explanation: DateExplanation
        do {
            explanation = try stage.explain(item, settings: settings)
        } catch {
            unreadable = "\(error)"
            return
        }
        self.explanation = explanation
        guard let date = explanation.chosen else { return }
        item.captureDate = date
        localTime = date.local.description
        plannedOutputs = steps.flatMap { $0.configured.plannedOutputs(for: item, settings: settings) }
        folder = plannedOutputs.first.map { ($0 as NSString).deletingLastPathComponent }
    }

    /// The report for a terminal.
    var text: String {
        var lines = [file]
        if let id { lines.append("  id:         \(id)") }
        if let unreadable { lines.append("  cannot decide: \(unreadable)") }
        if let explanation { lines += explanation.lines }
        if let localTime {
            lines.append("  local time: \(localTime)" + (folder.map { ", folder \($0)" } ?? ""))
        }
        if !plannedOutputs.isEmpty {
            lines.append("  outputs:    " + plannedOutputs.joined(separator: "\n              ") + (recorded == nil ? "  (would go here)" : ""))
        }
        if let recorded {
            lines.append("  recorded:   id \(recorded.id), " + (recorded.captureDate.map { "\($0)" } ?? "no capture date"))
            if let then = recorded.captureDate, then.source == .user {
                lines.append("  user date:  set with darkroom catalog set-date: the import keeps it over every candidate above")
            } else if let now = explanation?.chosen, let then = recorded.captureDate, now.local != then.local || now.source != then.source {
                lines.append("  changed:    exif-date now decides \(now); run the import again to refile it")
            }
            for output in recorded.outputs {
                lines.append("  in library: \(output.path) [\(output.step)]" + (output.present ? "" : " (missing)"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
