import DarkroomImaging
import DarkroomSimilarity
import DarkroomVips
import Foundation

/// The import's 200-pixel thumbnail decode: shrink-on-load, upright, converted to sRGB when its profile is not.
func importThumbnail(_ path: String) throws -> Image {
    try ImageLoader.decode(URL(fileURLWithPath: path), size: DecodeSize(width: 200, height: 200), pixelLimit: 100_000_000, colour: .srgb)
}

/// What the import's `thumbnail` step does for a photo (`Plugins/Thumbnail`): a 200-pixel sRGB
/// thumbnail decoded with shrink-on-load and written as a JPEG at quality 80 without metadata; with
/// `measured`, the decode is materialized first and its similarity facts are computed as
/// `Thumbnail+Similarity.swift` does (64 x 64 grey copy and fingerprint, grey at its own size and sharpness).
func makeThumbnail(_ path: String, to output: String, measured: Bool) throws {
    let thumbnail = try importThumbnail(path)
    let decoded = measured ? try thumbnail.materialized() : thumbnail
    if measured {
        let (width, height) = (decoded.width, decoded.height)
        let grey = try GreyImage(width: width, height: height, pixels: try decoded.greyPixels())
        _ = Sharpness.laplacianVariance(of: grey)
        if min(width, height) >= 32 {
            let side = SimilarityFingerprint.side
            let squeezed = try GreyImage(width: side, height: side, pixels: try decoded.greyPixels(width: side, height: side))
            _ = try SimilarityFingerprint.make(from: squeezed)?.storedBytes
        }
    }
    try decoded.write(to: output, as: .jpeg(quality: 80), stripMetadata: true)
}

/// Thumbnails of `files` into `output`, plain then measured, `rounds` times (interleaved); prints
/// each pass's CPU and wall seconds and, per round, the added CPU per photo and its share of the plain pass.
func runThumbnailCost(files: [String], output: String, rounds: Int) throws {
    try Vips.start()
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    print("photos: \(files.count)")
    for round in 1...rounds {
        var cpu: [Bool: Double] = [:]
        for measured in [false, true] {
            let wallStart = Date()
            var failure: Error?
            cpu[measured] = cpuSeconds {
                do {
                    for (index, file) in files.enumerated() { try makeThumbnail(file, to: "\(output)/\(index).jpg", measured: measured) }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            let name = measured ? "measured" : "plain"
            print(String(format: "round_%d_%@_cpu_seconds: %.3f", round, name, cpu[measured]!))
            print(String(format: "round_%d_%@_wall_seconds: %.3f", round, name, Date().timeIntervalSince(wallStart)))
        }
        let added = cpu[true]! - cpu[false]!
        print(String(format: "round_%d_added_cpu_ms_per_photo: %.2f", round, 1000 * added / Double(files.count)))
        print(String(format: "round_%d_added_percent: %.1f", round, 100 * added / cpu[false]!))
    }
}
