import Foundation
import DarkroomModel

extension Runner {
    /// Marks every RAW of the survey that is the RAW of a RAW+JPEG pair as a part of the camera's
    /// JPEG or HEIC of the same shot (`.motionPart`, as a Live Photo's video is): same folder, same
    /// name stem ignoring case (Pixel's `.RAW-01.MP.COVER` / `.RAW-02.ORIGINAL` taken off), and the
    /// same camera (EXIF Make and Model) with capture times at most `RawPairs.maximumSeconds` apart,
    /// as the prober read them (`ProbedSource.shot`). Files the survey did not open (their hashes
    /// remembered) are probed now, only when a name matches. Returns the RAWs a same-name still was
    /// not paired with, and why.
    func pairRawParts(_ entries: inout [SurveyEntry], prober: any SourceProber) -> [RunReportNote] {
        // Asked of every survey (a re-run of 100,000 photos too): names are looked at only when there is a RAW.
        let rawFiles = entries.indices.filter { MediaKind.isRawPhoto(entries[$0].found.relativePath) && entries[$0].isOriginal(of: .photo) }
        guard !rawFiles.isEmpty else { return [] }
        func key(_ index: Int) -> String {
            let url = entries[index].found.url
            return url.deletingLastPathComponent().path + "/" + RawPairs.shotStem(of: url.lastPathComponent)
        }
        let raws = Dictionary(grouping: rawFiles, by: key)
        var stills: [String: [Int]] = [:]
        for index in entries.indices where entries[index].isOriginal(of: .photo) && RawPairs.isCameraStill(entries[index].found.path) {
            let key = key(index)
            if raws[key] != nil { stills[key, default: []].append(index) }
        }
        let candidates = raws.filter { stills[$0.key] != nil }
        guard !candidates.isEmpty else { return [] }
        // Files whose hash was remembered were not opened by the survey: their headers are read now.
        let unprobed = candidates.flatMap { $0.value + stills[$0.key]! }.filter { entries[$0].probe == nil }
        let probes = DarkroomThreads.map(count: unprobed.count, jobs: settings.jobs) { [entries] position in
            prober.probe(entries[unprobed[position]].found.url, kind: .photo)
        }
        for (index, probe) in zip(unprobed, probes) { entries[index].probe = probe ?? ProbedSource() }

        var notes: [RunReportNote] = []
        for (key, rawIndices) in candidates.sorted(by: { $0.key < $1.key }) {
            for raw in rawIndices {
                guard case .unique(let rawHash, _) = entries[raw].state else { continue }
                let named = stills[key]!.map { (name: entries[$0].found.name, shot: entries[$0].probe?.shot) }
                let match = RawPairs.match(raw: entries[raw].probe?.shot, stills: named)
                switch match {
                case .success(let position):
                    let still = entries[stills[key]![position]]
                    guard case .unique(let stillHash, _) = still.state else { continue }
                    entries[raw].state = .motionPart(of: stillHash, hash: rawHash, stillPath: still.found.path)
                case .failure(let why):
                    notes.append(RunReportNote(path: entries[raw].found.path, reason: why.reason))
                }
            }
        }
        return notes
    }
}

/// A file and something a person may want to know about it (shown with `--verbose`).
struct RunReportNote {
    var path: String
    var reason: String
}

/// What makes a RAW and a JPEG or HEIC one shot: their names, their camera and their capture times.
enum RawPairs {
    /// How far apart (in seconds, by the camera's clock) a RAW's and a still's capture times may be.
    static let maximumSeconds = 2.0

    /// Extensions of the stills a camera writes beside its RAWs (JPEG, HEIC, HEIF), lower case.
    static let cameraStillExtensions: Set<String> = ["jpg", "jpeg", "jpe", "heic", "heif", "hif"]
    /// Whether a file named `name` (a name or a path) is a JPEG or HEIC a camera may write beside a RAW.
    static func isCameraStill(_ name: String) -> Bool { cameraStillExtensions.contains(MediaKind.fileExtension(of: name)) }

    /// The name a RAW and its still share: the file name without its extension, lower case, without
    /// Pixel's `.RAW-01.MP.COVER` / `.RAW-02.ORIGINAL` (`PXL_20240501_101010123.RAW-02.ORIGINAL.dng`
    /// is `pxl_20240501_101010123`).
    static func shotStem(of name: String) -> String {
        let stem = (name as NSString).deletingPathExtension.lowercased()
        guard let marker = stem.range(of: ".raw-", options: .backwards) else { return stem }
        let rest = stem[marker.upperBound...]
        let number = rest.prefix { $0.isNumber }
        guard !number.isEmpty, rest.dropFirst(number.count).first.map({ $0 == "." }) ?? true else { return stem }
        return String(stem[..<marker.lowerBound])
    }

    /// Why a RAW and a still of the same name are not one shot.
    struct NotPaired: Error {
        var reason: String
    }

    /// Which of `stills` (name, shot) is the RAW's shot: the first by the same camera within
    /// `maximumSeconds`; otherwise why none is.
    static func match(raw: CameraShot?, stills: [(name: String, shot: CameraShot?)]) -> Result<Int, NotPaired> {
        guard let raw else {
            return .failure(NotPaired(reason: "it does not name its camera and capture time (EXIF Make, Model, DateTimeOriginal), "
                                      + "so it cannot be told to be the same shot as \(stills.map(\.name).joined(separator: ", "))"))
        }
        if let position = stills.firstIndex(where: { $0.shot?.camera == raw.camera && abs($0.shot!.seconds - raw.seconds) <= maximumSeconds }) {
            return .success(position)
        }
        let reasons = stills.map { still -> String in
            guard let shot = still.shot else { return "\(still.name) does not name its camera and capture time" }
            if shot.camera != raw.camera { return "\(still.name) is from another camera (\(shot.camera), the RAW's is \(raw.camera))" }
            return "\(still.name) was taken \(String(format: "%.1f", abs(shot.seconds - raw.seconds))) s apart (at most "
                + "\(Int(maximumSeconds)) s for one shot)"
        }
        return .failure(NotPaired(reason: reasons.joined(separator: "; ") + ": imported as a photo of its own"))
    }
}
