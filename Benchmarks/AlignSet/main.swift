// Aligns a folder of hand-held photos for Benchmarks/align.sh (not shipped):
//
//   align-benchmark INPUT OUTPUT [--mode scene|face] [--frame 1920x1080] [--working 1024] [--threads 1]
//                   [--features 800] [--feature-edge 512] [--refine-edge 512 (0: no refinement)]
//
// Aligns every JPEG and PNG of INPUT (sorted by name) onto the first, crops the frame to what every
// aligned photo covers (CommonCrop), and writes the frames as OUTPUT/frame-NNNN.png, plus
// OUTPUT/transforms.tsv (name, photo to frame: scale, rotation, dx, dy in frame pixels). Prints
// "key: value" lines the script reads: the per-photo cost of alignment at working size (median and
// mean milliseconds, without decoding), of making the grey working copy, and which photos failed.
import DarkroomAlignment
import DarkroomVips
import Foundation

struct Arguments {
    var input = "", output = "", mode = "scene", frame = PixelSize(width: 1920, height: 1080), working = 1024, threads = 1
    var scene = SceneAligner.Options()

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        var positional: [String] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--mode": mode = rest.popFirst() ?? mode
            case "--working": working = Int(rest.popFirst() ?? "") ?? working
            case "--threads": threads = Int(rest.popFirst() ?? "") ?? threads
            case "--features": scene.maxFeatures = Int(rest.popFirst() ?? "") ?? scene.maxFeatures
            case "--feature-edge": scene.featureLongEdge = Int(rest.popFirst() ?? "") ?? scene.featureLongEdge
            case "--refine-edge":
                let edge = Int(rest.popFirst() ?? "") ?? scene.refineLongEdge
                (scene.refine, scene.refineLongEdge) = (edge > 0, max(1, edge))
            case "--frame":
                let parts = (rest.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2 else { throw Usage(message: "--frame takes WIDTHxHEIGHT") }
                frame = PixelSize(width: parts[0], height: parts[1])
            default: positional.append(argument)
            }
        }
        guard positional.count == 2, ["scene", "face"].contains(mode) else {
            throw Usage(message: "usage: align-benchmark INPUT OUTPUT [--mode scene|face] [--frame WxH] [--working N] [--threads N]")
        }
        (input, output) = (positional[0], positional[1])
    }
}

struct Usage: Error, CustomStringConvertible { var message: String; var description: String { message } }

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// CPU time of the calling thread (OpenCV runs on it when started with one thread), in milliseconds.
func threadCPUMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
}

/// CPU time of the whole process (libvips' threads too), in milliseconds.
func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func run() throws {
    let arguments = try Arguments(CommandLine.arguments)
    try Vips.start()
    Vips.setConcurrency(arguments.threads)
    AlignmentRuntime.start(threads: arguments.threads)
    let names = try FileManager.default.contentsOfDirectory(atPath: arguments.input)
        .filter { ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
    try FileManager.default.createDirectory(atPath: arguments.output, withIntermediateDirectories: true)

    let scene = arguments.mode == "scene" ? try SceneAligner(options: arguments.scene) : nil
    var face: FaceAligner?
    if arguments.mode == "face" {
        var options = FaceAligner.Options()
        options.frameAspectRatio = arguments.frame.aspectRatio
        face = try FaceAligner(options: options)
    }
    var aligned: [(name: String, image: Image, transform: SimilarityTransform)] = []
    var alignTimes: [Double] = [], alignCPUTimes: [Double] = [], greyTimes: [Double] = [], greyCPUTimes: [Double] = []
    var referenceAspect = arguments.frame.aspectRatio
    for name in names {
        let image = try Image.open((arguments.input as NSString).appendingPathComponent(name)).autorotated().materialized()
        var grey: GreyImage!
        let greyCPU = processCPUMilliseconds()
        greyTimes.append(try milliseconds { grey = try image.greyWorkingImage(longEdge: arguments.working) })
        greyCPUTimes.append(processCPUMilliseconds() - greyCPU)
        do {
            var transform = SimilarityTransform.identity
            let cpu = threadCPUMilliseconds()
            defer { alignCPUTimes.append(threadCPUMilliseconds() - cpu) }
            alignTimes.append(try milliseconds {
                if let scene {
                    transform = try scene.align(grey).transform
                } else if let face {
                    let result = try face.align(grey)
                    transform = result.transform
                    print("face: \(name) eyes \(result.eyes.rawValue), faces \(result.facesFound)")
                }
            })
            if aligned.isEmpty, scene != nil { referenceAspect = image.pixelSize.aspectRatio }
            let toFrame = scene != nil
                ? transform.photoToFrame(photo: image.pixelSize, referenceAspectRatio: referenceAspect, frame: arguments.frame)
                : SimilarityTransform.normalising(image.pixelSize).then(transform).then(.normalising(arguments.frame).inverse)
            aligned.append((name, image, toFrame))
        } catch let error as AlignmentError {
            print("failed: \(name): \(error)")
        }
    }
    let crop = try CommonCrop(frame: arguments.frame, photos: aligned.map { .init(size: $0.image.pixelSize, transform: $0.transform) })
    var table = "name\tscale\trotation\tdx\tdy\n"
    for (index, photo) in aligned.enumerated() {
        let final = photo.transform.then(crop.zoom)
        let frame = try photo.image.warped(by: final, frame: arguments.frame, interpolator: .bicubic)
        try frame.write(to: (arguments.output as NSString).appendingPathComponent(String(format: "frame-%04d.png", index + 1)), as: .png)
        table += "\(photo.name)\t\(final.scale)\t\(final.rotation)\t\(final.dx)\t\(final.dy)\n"
    }
    try table.write(toFile: (arguments.output as NSString).appendingPathComponent("transforms.tsv"), atomically: true, encoding: .utf8)
    print("photos: \(names.count)")
    print("aligned: \(aligned.count)")
    print("crop: \(crop.rect) zoom \(String(format: "%.3f", crop.zoomFactor))")
    print(String(format: "align_ms_median: %.1f", median(alignTimes)))
    print(String(format: "align_ms_mean: %.1f", alignTimes.reduce(0, +) / Double(max(1, alignTimes.count))))
    print(String(format: "align_cpu_ms_median: %.1f", median(alignCPUTimes)))
    print(String(format: "grey_copy_ms_median: %.1f", median(greyTimes)))
    print(String(format: "grey_copy_cpu_ms_median: %.1f", median(greyCPUTimes)))
    print("opencv_threads: \(AlignmentRuntime.openCVThreads)")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("align-benchmark: \(error)\n".utf8))
    exit(1)
}
