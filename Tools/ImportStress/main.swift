// import-stress: the camera-roll import run in this process through `Runner`, as the test suite runs it
// (the crash of issue 21 was seen in an in-process import, never in the CLI), for scripts/stress.sh.
//
//   import-stress PIPELINE.yaml INPUT LIBRARY [--jobs N] [--repeat N]
//
// Each repeat imports INPUT into a new library (LIBRARY-1, LIBRARY-2...), then prints one line that
// says what happened, the same on every healthy run: counts and a digest of every failure's file and
// reason (the failures themselves, a line each, in LIBRARY-1.failures...). Exits 0 when every repeat ended with a report, 1 on an error; a crash ends it by a signal.
import DarkroomCatalog
import DarkroomCore
import DarkroomDigest
import DarkroomStages
import Foundation

/// The number after `name` in `arguments` (both then removed from them), or `value`.
func option(_ name: String, in arguments: inout [String], default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else { return value }
    arguments.removeSubrange(index...index + 1)
    return number
}
var arguments = Array(CommandLine.arguments.dropFirst())
let jobs = option("--jobs", in: &arguments, default: 2)
let repeats = option("--repeat", in: &arguments, default: 1)
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: import-stress PIPELINE.yaml INPUT LIBRARY [--jobs N] [--repeat N]\n".utf8))
    exit(2)
}
let (pipelinePath, input, library) = (arguments[0], URL(fileURLWithPath: arguments[1]), arguments[2])

/// The first 12 hex digits of the SHA-256 of `text`.
func digest(_ text: String) -> String {
    SHA256Digest.hash(Data(text.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
}

do {
    let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: pipelinePath)
    for round in 1...repeats {
        let settings = RunSettings(library: URL(fileURLWithPath: "\(library)-\(round)"), timeZone: TimeZone(identifier: "UTC")!, jobs: jobs)
        let report = try Runner(pipeline: pipeline, settings: settings).run(inputs: [input])
        let failures = report.failures.map { "\($0.path)\t\($0.step)\t\($0.reason)" }.sorted().joined(separator: "\n")
        try Data((failures + "\n").utf8).write(to: URL(fileURLWithPath: "\(library)-\(round).failures"))
        print("found \(report.found), processed \(report.processed), failed \(report.failed), duplicates \(report.duplicates), "
              + "passed over \(report.passedOver.count), published \(report.published.count), failures \(digest(failures))")
    }
} catch {
    FileHandle.standardError.write(Data("import-stress: \(error)\n".utf8))
    exit(1)
}
