// Measures DarkroomZip for Benchmarks/zip64.sh (not shipped):
//
//   zip-benchmark OUTPUT.zip FILE...   archives each FILE (stored, read in 1 MiB chunks) with a small
//                                      deflated XMP entry beside it, then prints what it did
//
// Figures are printed as "key: value" lines that the script reads: entries, bytes, seconds, MB/s,
// and the peak resident memory (VmHWM) while writing.
import DarkroomZip
import Foundation

/// A line of /proc/self/status in kilobytes (VmRSS, VmHWM).
func kilobytes(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: zip-benchmark OUTPUT.zip FILE...\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[0])
let sources = arguments.dropFirst().map { URL(fileURLWithPath: $0) }
let residentBefore = kilobytes("VmRSS")
let start = Date()
do {
    var options = ZipWriter.Options()
    options.replaceExisting = true
    let zip = try ZipWriter(creating: output, options: options)
    for (index, source) in sources.enumerated() {
        let name = String(format: "export/%05d-%@", index, source.lastPathComponent)
        try zip.addFile(source, as: name)
        let sidecar = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><!-- \(name) --><xmp:Rating>5</xmp:Rating></x:xmpmeta>\n"
        try zip.addData(Data(String(repeating: sidecar, count: 20).utf8), as: name + ".xmp", modified: Date())
    }
    try zip.finish()
} catch {
    FileHandle.standardError.write(Data("zip-benchmark: \(error)\n".utf8))
    exit(1)
}
let seconds = Date().timeIntervalSince(start)
let bytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? UInt64) ?? 0
print("entries: \(sources.count * 2)")
print("bytes: \(bytes)")
print("seconds: \(String(format: "%.2f", seconds))")
print("mb_per_s: \(String(format: "%.0f", Double(bytes) / 1e6 / max(seconds, 1e-9)))")
print("rss_before_kb: \(residentBefore)")
print("peak_rss_kb: \(kilobytes("VmHWM"))")
