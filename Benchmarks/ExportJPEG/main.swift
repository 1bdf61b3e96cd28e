// The JPEG-for-sharing path of `darkroom export`, for Benchmarks/export.sh (not shipped), until
// the command exists: the same calls the command will make, on files given on the command line.
//
//   export-benchmark [--size 2048] [--jobs 1] OUTDIR FILE...
//
// Each FILE becomes OUTDIR/<name>.jpg: long edge at most --size, upright, sRGB, q85, its EXIF
// without GPS, maker note and thumbnail, its XMP without location fields, nothing else. --jobs
// files are exported at once (libvips' threads are divided between them). Prints "key: value" lines.
import DarkroomExif
import DarkroomVips
import DarkroomXMP
import Foundation
import Synchronization

/// The options and files of a run.
struct Run: Sendable {
    var size = 2048
    var jobs = 1
    var folder: URL
    var sources: [String]

    /// Parses `[--size N] [--jobs N] OUTDIR FILE...`; nil when they do not say enough.
    init?(_ arguments: [String]) {
        var rest = arguments
        func option(_ name: String) -> Int? {
            guard let index = rest.firstIndex(of: name), index + 1 < rest.count, let number = Int(rest[index + 1]) else { return nil }
            rest.removeSubrange(index...index + 1)
            return number
        }
        if let size = option("--size") { self.size = size }
        if let jobs = option("--jobs") { self.jobs = max(1, jobs) }
        guard rest.count >= 2 else { return nil }
        folder = URL(fileURLWithPath: rest[0])
        sources = Array(rest.dropFirst())
    }

    /// One photo exported for sharing.
    func export(_ source: String) throws {
        let image = try Image.forSharing(source, longEdge: size)
        let exif = try image.exifData.map { try ExifBlob.forSharing($0) }
        let xmp = image.xmpData.map { XMPPacket(lenient: [UInt8]($0)).removingLocation().serialized() }
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent + ".jpg"
        try image.writeSharedJPEG(to: folder.appendingPathComponent(name).path, quality: 85, exif: exif, xmp: xmp)
    }

    /// Exports every file, `jobs` at a time; returns how many failed (each reported on stderr).
    func exportAll() -> Int {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for index in stride(from: worker, to: sources.count, by: jobs) {
                do {
                    try export(sources[index])
                } catch {
                    FileHandle.standardError.write(Data("export-benchmark: \(sources[index]): \(error)\n".utf8))
                    failures.withLock { $0 += 1 }
                }
            }
        }
        return failures.withLock { $0 }
    }
}

guard let run = Run(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data("usage: export-benchmark [--size N] [--jobs N] OUTDIR FILE...\n".utf8))
    exit(2)
}
do {
    try Vips.start()
    Vips.setConcurrency(ProcessInfo.processInfo.activeProcessorCount / run.jobs)
    try FileManager.default.createDirectory(at: run.folder, withIntermediateDirectories: true)
} catch {
    FileHandle.standardError.write(Data("export-benchmark: \(error)\n".utf8))
    exit(1)
}
let start = Date()
let failed = run.exportAll()
print("files: \(run.sources.count)")
print("failed: \(failed)")
print("seconds: \(String(format: "%.2f", Date().timeIntervalSince(start)))")
exit(failed == 0 ? 0 : 1)
