import DarkroomImaging
import DarkroomSimilarity
import DarkroomVips
import Foundation

/// A photo decoded as the import will: a 200-pixel thumbnail (upright, sRGB), then its 64 x 64 grey copy.
func decodeFingerprint(_ path: String) throws -> (fingerprint: SimilarityFingerprint?, grey: GreyImage, shortSide: Int) {
    let thumbnail = try importThumbnail(path).materialized()
    let side = SimilarityFingerprint.side
    let grey = try GreyImage(width: side, height: side, pixels: try thumbnail.greyPixels(width: side, height: side))
    return (try SimilarityFingerprint.make(from: grey), grey, min(thumbnail.width, thumbnail.height))
}

struct Original {
    var path: String
    var fingerprint: SimilarityFingerprint
    var grey: GreyImage
}

func percentile(_ sorted: [Int], _ fraction: Double) -> Int {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

/// Photo classes: pixel-identical files (mean grey difference under 4 levels) and the SAME file's groups.
func sameClasses(_ originals: [Original], sameFile: String) throws -> [Int] {
    var parent = Array(originals.indices)
    func find(_ x: Int) -> Int { var x = x; while parent[x] != x { x = parent[x] }; return x }
    func union(_ a: Int, _ b: Int) { parent[find(a)] = find(b) }
    for a in originals.indices {
        for b in (a + 1)..<originals.count {
            let difference = zip(originals[a].grey.pixels, originals[b].grey.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            if Double(difference) / Double(originals[a].grey.pixels.count) < 4 { union(a, b) }
        }
    }
    let byPath = Dictionary(originals.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
    for line in try String(contentsOfFile: sameFile, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
        let members = line.components(separatedBy: " | ").compactMap { path in byPath.first { $0.key.hasSuffix("/" + path) }?.value }
        for member in members.dropFirst() { union(members[0], member) }
    }
    return originals.indices.map(find)
}

func runDistances(originals originalsFile: String, variants: String, same: String) throws {
    try Vips.start()
    let limit = SimilarityFingerprint.maximumDistance
    var originals: [Original] = []
    var byIndex: [String: Int] = [:]
    var featureless: [String] = [], small: [String] = [], failed: [String] = []
    for line in try String(contentsOfFile: originalsFile, encoding: .utf8).split(separator: "\n") {
        let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard fields.count == 2 else { continue }
        do {
            let decoded = try decodeFingerprint(fields[1])
            // Thumbnails under 32 pixels on their short side are not hashed (see docs/duplicates.md).
            guard decoded.shortSide >= 32 else { small.append(fields[1]); continue }
            guard let fingerprint = decoded.fingerprint else { featureless.append(fields[1]); continue }
            byIndex[fields[0]] = originals.count
            originals.append(Original(path: fields[1], fingerprint: fingerprint, grey: decoded.grey))
        } catch {
            failed.append("\(fields[1]): \(error)")
        }
    }
    print("originals_hashed: \(originals.count)")
    print("originals_featureless: \(featureless.count)")
    print("originals_too_small: \(small.count)")
    print("originals_undecodable: \(failed.count)")
    for path in featureless { print("featureless: \(path)") }

    // Copies against their original: the perceptual and detail hash distances of the closest
    // framing, whether they are grouped, and the whole-frame perceptual hash alone.
    struct Copy { var distance: Int; var detail: Int; var wholeFrame: Int; var brightness: Int; var grouped: Bool; var path: String }
    var byKind: [String: [Copy]] = [:]
    let files = try FileManager.default.contentsOfDirectory(atPath: variants).sorted()
    for file in files where file.hasSuffix(".jpg") {
        let parts = file.split(separator: ".")
        guard parts.count == 3, let position = byIndex[String(parts[0])] else { continue }
        let original = originals[position]
        guard let copy = try? decodeFingerprint(variants + "/" + file), let fingerprint = copy.fingerprint else {
            byKind[String(parts[1]), default: []].append(Copy(distance: 64, detail: 64, wholeFrame: 64, brightness: 0, grouped: false, path: original.path))
            continue
        }
        let closest = fingerprint.closestFraming(to: original.fingerprint)
        byKind[String(parts[1]), default: []].append(Copy(
            distance: closest.distance, detail: closest.detailDistance, wholeFrame: fingerprint.hash.distance(to: original.fingerprint.hash),
            brightness: abs(Int(fingerprint.brightness) - Int(original.fingerprint.brightness)),
            grouped: fingerprint.nearDuplicateDistance(to: original.fingerprint) != nil, path: original.path))
    }
    func figures(_ values: [Int]) -> String {
        let sorted = values.sorted()
        return String(format: "p50=%2d p90=%2d p99=%2d max=%2d", percentile(sorted, 0.5), percentile(sorted, 0.9), percentile(sorted, 0.99), sorted.last ?? 0)
    }
    var grouped = 0, copies = 0
    for kind in byKind.keys.sorted() {
        let values = byKind[kind]!
        copies += values.count
        grouped += values.filter(\.grouped).count
        print("copies \(kind.padding(toLength: 5, withPad: " ", startingAt: 0)) n=\(values.count) grouped=\(values.filter(\.grouped).count)"
              + "  perceptual \(figures(values.map(\.distance)))  detail \(figures(values.map(\.detail)))"
              + "  whole-frame only \(figures(values.map(\.wholeFrame))) over_\(limit)=\(values.filter { $0.wholeFrame > limit }.count)"
              + "  brightness max=\(values.map(\.brightness).max() ?? 0)")
        for miss in values where !miss.grouped {
            print("  not grouped: \(kind) of \(miss.path): perceptual \(miss.distance), detail \(miss.detail), brightness \(miss.brightness)")
        }
    }
    print("copies: \(copies)")
    print("copies_grouped: \(grouped)")

    // Every pair of different photos.
    let classes = try sameClasses(originals, sameFile: same)
    var histogram = [Int](repeating: 0, count: 65), wholeHistogram = [Int](repeating: 0, count: 65)
    var near: [(distance: Int, detail: Int, brightness: Int, a: String, b: String)] = []
    var pairs = 0, wronglyGrouped: [String] = []
    for a in originals.indices {
        for b in (a + 1)..<originals.count where classes[a] != classes[b] {
            let (x, y) = (originals[a].fingerprint, originals[b].fingerprint)
            let closest = x.closestFraming(to: y)
            pairs += 1
            histogram[closest.distance] += 1
            wholeHistogram[x.hash.distance(to: y.hash)] += 1
            if closest.distance <= limit + 6 {
                near.append((closest.distance, closest.detailDistance, abs(Int(x.brightness) - Int(y.brightness)), originals[a].path, originals[b].path))
            }
            if x.nearDuplicateDistance(to: y) != nil { wronglyGrouped.append("\(originals[a].path) | \(originals[b].path)") }
        }
    }
    let shown = { (histogram: [Int]) in histogram.enumerated().filter { $0.element > 0 && $0.offset <= 20 }.map { "\($0.offset):\($0.element)" }.joined(separator: " ") }
    print("different_pairs: \(pairs)")
    print("different_histogram_perceptual (distance:pairs up to 20): \(shown(histogram))")
    print("different_histogram_whole_frame_only (distance:pairs up to 20): \(shown(wholeHistogram))")
    print("different_grouped: \(wronglyGrouped.count)")
    for pair in wronglyGrouped { print("  grouped: \(pair)") }
    near.sort { ($0.distance, $0.a, $0.b) < ($1.distance, $1.a, $1.b) }
    let brightnessLimit = SimilarityFingerprint.maximumBrightnessDifference, detailLimit = SimilarityFingerprint.maximumDetailDistance
    print("different_within_\(limit + 6) (perceptual, detail, brightness difference):")
    for pair in near {
        let apart = pair.distance > limit ? "" : pair.brightness > brightnessLimit ? "  kept apart by brightness" : pair.detail > detailLimit ? "  kept apart by detail" : "  GROUPED"
        print("  \(pair.distance) \(pair.detail) \(pair.brightness) \(pair.a) | \(pair.b)\(apart)")
    }
    let eligible = near.filter { $0.brightness <= brightnessLimit && $0.detail <= detailLimit }
    print("different_nearest_passing_detail_and_brightness: \(eligible.first.map { String($0.distance) } ?? "none within \(limit + 6)")")
}
