// Measures DarkroomRaw for Benchmarks/raw.sh (not shipped). One step a process, so that GNU time's
// peak RSS is that step's:
//
//   raw-benchmark metadata FILE                    RawMetadata.read
//   raw-benchmark preview FILE [--shrink N]        the embedded preview, decoded by libvips (every pixel read once),
//                                                  at 1/N scale by libjpeg's shrink-on-load (1, 2, 4 or 8)
//   raw-benchmark develop FILE [--half] [--bits 16] [--p3]
//                                                  a development, copied into a libvips image in memory
//
// Figures are printed as "key: value" lines that the script reads.
import DarkroomRaw
import DarkroomVips
import Foundation

/// A line of /proc/self/status in kilobytes (VmRSS, VmHWM).
func kilobytes(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

func seconds<Result>(_ body: () throws -> Result) rethrows -> (Result, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

func report(_ key: String, _ value: Any) { print("\(key): \(value)") }

func run(_ arguments: [String]) throws {
    guard arguments.count >= 2 else {
        throw RawError(path: nil, reason: .libraryFailure("usage: raw-benchmark metadata|preview|develop FILE [--half] [--bits 16] [--p3]"))
    }
    let (step, path) = (arguments[0], arguments[1])
    try Vips.start()
    try LibRaw.start()
    report("baseline_rss_kb", kilobytes("VmRSS"))
    if step != "metadata" {
        // The photo's full-resolution 8-bit RGB size: what memory.sh calls a photo's decode.
        let info = try RawFile.open(path).info
        report("full_rgb8_bytes", info.outputWidth * info.outputHeight * 3)
    }
    switch step {
    case "metadata":
        let (metadata, time) = try seconds { try RawMetadata.read(path: path) }
        report("seconds", String(format: "%.4f", time))
        report("date", metadata.dateTimeOriginal ?? "-")
    case "preview":
        let shrink = arguments.firstIndex(of: "--shrink").flatMap { Int(arguments[$0 + 1]) } ?? 1
        let ((image, mean), time) = try seconds { () -> (Image, Double) in
            let image = try RawFile.open(path).preview().image(shrink: shrink)
            return (image, try image.average())  // decodes the whole JPEG once, as a resize would
        }
        report("seconds", String(format: "%.3f", time))
        report("mean", String(format: "%.1f", mean))
        report("size", "\(image.width)x\(image.height)")
        report("image_bytes", image.width * image.height * image.bands)
    case "develop":
        let half = arguments.contains("--half"), bits = arguments.contains("--bits") ? 16 : 8
        let space: RawColourSpace = arguments.contains("--p3") ? .displayP3 : .sRGB
        let ((developed, image), time) = try seconds { () -> (DevelopedRaw, Image) in
            let developed = try RawFile.open(path).develop(halfSize: half, colourSpace: space, bitsPerSample: bits)
            return (developed, try developed.image())
        }
        report("seconds", String(format: "%.3f", time))
        report("size", "\(developed.width)x\(developed.height)")
        report("developed_bytes", developed.byteCount)
        report("image_bytes", image.width * image.height * image.bands * bits / 8)
    default:
        throw RawError(path: nil, reason: .libraryFailure("unknown step \(step)"))
    }
    report("peak_rss_kb", kilobytes("VmHWM"))
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("raw-benchmark: \(error)\n".utf8))
    exit(1)
}
