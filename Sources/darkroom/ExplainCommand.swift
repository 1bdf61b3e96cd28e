import ArgumentParser
import DarkroomCatalog
import DarkroomCore
import DarkroomExplain
import DarkroomLibrary
import DarkroomModel
import DarkroomStages
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

    @Option(help: ArgumentHelp("The pipeline whose exif-date options and output templates apply. Default: the shipped "
                               + "pipelines/import-camera-roll.yaml, as built into darkroom (the same from every folder)."))
    var pipeline: String?

    @Flag(help: "Print the explanation as JSON.")
    var json = false

    @OptionGroup var photoSettings: PhotoSettingsArguments

    func run() throws {
        let pipeline = try pipeline.map(PipelineArguments.load(path:)) ?? BuiltInStages.importPipeline()
        let settings = RunSettings(library: URL(fileURLWithPath: library ?? ".", isDirectory: true),
                                   pixelLimit: photoSettings.pixelLimit, timeZone: photoSettings.timeZone)
        try CommandErrors.reported {
            var report: ExplainReport
            if let library {
                let url = URL(fileURLWithPath: library, isDirectory: true)
                guard let catalog = try Catalog.openReadOnly(library: url) else {
                    throw RunError("\(url.path) has no catalog (.darkroom/catalog.sqlite)")
                }
                report = try ExplainReport.recorded(target, in: url, catalog: catalog)
            } else {
                let url = URL(fileURLWithPath: target)
                guard FileInfo(path: url.path, followLinks: true)?.isRegularFile == true else {
                    throw RunError("\(target) is not a file; give --library to look up a library file or a photo's id")
                }
                report = ExplainReport(file: url.standardizedFileURL.path)
            }
            try report.decide(pipeline: pipeline, settings: settings)
            print(json ? try Run.json(report) : report.text)
            if !report.decided { throw ExitStatus.failuresListed }
        }
    }
}
