import DarkroomLibrary
import DarkroomModel
import Foundation

/// A photo or video picked for export, with the library files it is exported from.
public struct ExportCandidate: Sendable {
    /// The photo or video as the catalog stores it.
    public var asset: AssetFacts
    /// The library's rendition exported (`Photos/…/<id>.heic`, `Videos/…/<id>.mp4`), relative to
    /// the library; nil when the library has none and the original is read instead.
    public var libraryFile: String?
    /// Its motion part: a Live Photo's MOV or a motion photo's video, library-relative (with the
    /// MOV's own original, for `--format original`).
    public var motion: MotionPart?
    /// Its rating, keywords and title, when the selection or the export needed them.
    public var description: PhotoDescription?

    /// Whether it is a video (exported as an MP4) rather than a photo.
    public var isVideo: Bool { asset.mediaKind == .video }
}

/// The video that belongs to a still.
public struct MotionPart: Sendable, Hashable {
    /// Its file in the library, relative to it.
    public var libraryFile: String
    /// The original it was imported from: the Live Photo's MOV; nil for a video inside the still.
    public var originalPath: String?
}

/// Finds what a selection picks in a catalog: each still or video once (a Live Photo's video
/// stands for its still and travels with it), in capture order, undated last.
struct ExportCandidates {
    let catalog: CorrectableCatalog
    let library: URL

    /// The candidates `selection` picks, and each name given that picks nothing (with why).
    func select(_ selection: ExportSelection) throws -> (candidates: [ExportCandidate], unmatched: [ExportFailure]) {
        var unmatched: [ExportFailure] = []
        var assets: [AssetFacts]
        if selection.targets.isEmpty {
            // Every original path is absolute: the root folder holds them all.
            assets = try catalog.assets(.folder(""))
        } else {
            assets = []
            for target in selection.targets {
                switch try catalog.assets(named: target, library: library) {
                case .success(let found): assets += found
                case .failure(let unknown): unmatched.append(ExportFailure(path: target, reason: unknown.reason))
                }
            }
        }
        if let camera = selection.camera?.lowercased() {
            assets = assets.filter { $0.camera?.lowercased() == camera }
        }
        var stills: [AssetFacts] = [], seen = Set<String>()
        let named = !selection.targets.isEmpty
        for asset in assets {
            var chosen = asset
            if let still = asset.motionOf {
                // A Live Photo's video goes with its still: named on its own, it stands for the still.
                guard named, let found = try catalog.assets(.contentHash(still)).first else { continue }
                chosen = found
            }
            if selection.accepts(chosen.captureDate), seen.insert(chosen.contentHash).inserted { stills.append(chosen) }
        }
        stills.sort(by: Self.captureOrder)
        return (try withLibraryFiles(stills), unmatched)
    }

    /// Capture order (the photographer's wall-clock time), then original path; undated last.
    static func captureOrder(_ a: AssetFacts, _ b: AssetFacts) -> Bool {
        switch (a.captureDate?.local, b.captureDate?.local) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.originalPath < b.originalPath
        }
    }

    /// The candidates with their library files and motion parts, from two queries.
    private func withLibraryFiles(_ assets: [AssetFacts]) throws -> [ExportCandidate] {
        let hashes = assets.map(\.contentHash)
        // A RAW+JPEG pair's RAW is a part of its still too, but not a video to export beside it.
        let videos = try catalog.motionParts(ofStills: hashes).filter { $0.mediaKind == .video }
        let outputs = Dictionary(grouping: try catalog.outputs(ofSubjects: hashes + videos.map(\.contentHash)), by: \.subject)
        let videosByStill = Dictionary(grouping: videos, by: { $0.motionOf ?? "" })
        return assets.map { asset in
            let own = outputs[asset.contentHash] ?? []
            let isVideo = asset.mediaKind == .video
            var candidate = ExportCandidate(asset: asset, libraryFile: Self.rendition(in: own, video: isVideo))
            if let embedded = own.first(where: { Self.step($0) == "motion-video" }) {
                candidate.motion = MotionPart(libraryFile: embedded.path, originalPath: nil)
            } else if let video = videosByStill[asset.contentHash]?.first,
                      let file = (outputs[video.contentHash] ?? []).first(where: { Self.step($0) == "motion-video" }) {
                candidate.motion = MotionPart(libraryFile: file.path, originalPath: video.originalPath)
            }
            return candidate
        }
    }

    /// The library's rendition of a photo (its `heic-encode` output, else any HEIC) or of a video
    /// (its `video-encode` output).
    static func rendition(in outputs: [CatalogOutput], video: Bool) -> String? {
        if video { return outputs.first { step($0) == "video-encode" }?.path }
        return (outputs.first { step($0) == "heic-encode" }
                ?? outputs.first { ["heic", "heif"].contains(URL(fileURLWithPath: $0.path).pathExtension.lowercased()) })?.path
    }

    /// The stage of a catalog step id (`import-camera-roll/heic-encode` -> `heic-encode`).
    static func step(_ output: CatalogOutput) -> String { output.step.split(separator: "/").last.map(String.init) ?? output.step }
}

/// A photo or a name that failed, with why.
public struct ExportFailure: Sendable, Hashable, Codable {
    /// The file (a library file, an original) or the name given.
    public var path: String
    /// For a person.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
