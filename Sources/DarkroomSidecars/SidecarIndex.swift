/// The sidecars of one folder, matched to its photos and videos once, from the folder's names
/// alone: Google Takeout JSON under every naming Takeout has used (see `TakeoutNaming`), and XMP
/// sidecars named either `photo.ext.xmp` (darktable, digiKam) or `photo.xmp` (Lightroom,
/// Capture One), ignoring case.
///
/// Built once per folder: each media name is looked up under its few candidate names in a
/// dictionary of the folder's names, so a folder of tens of thousands of files is never scanned
/// per file. Then `sidecars(of:)` answers for a photo and `role(of:)` for every other file.
public struct SidecarIndex: Sendable {
    private var sidecarsByMedia: [String: [Sidecar]] = [:]
    private var ownersBySidecar: [String: [String]] = [:]

    /// Takeout's album metadata file in the languages peers have seen (lower case).
    static let albumMetadataNames: Set<String> = [
        "metadata.json", "metadaten.json", "métadonnées.json", "metadati.json", "metadatos.json", "metadades.json",
        "metadáta.json", "метаданные.json", "метаданни.json",
    ]
    /// Takeout's account-wide JSON files (lower case).
    static let accountDataNames: Set<String> = ["print-subscriptions.json", "shared_album_comments.json", "user-generated-memory-titles.json"]

    /// Indexes the file names of one folder; `isMedia` tells photos and videos from the rest.
    public init(names: [String], isMedia: (String) -> Bool = MediaFileNames.isMedia) {
        var byLowercased: [String: [String]] = [:]
        byLowercased.reserveCapacity(names.count)
        for name in names { byLowercased[name.lowercased(), default: []].append(name) }
        /// The folder's names equal to `candidate` ignoring case, the exact one first.
        func lookup(_ candidate: String) -> String? {
            guard let matches = byLowercased[candidate.lowercased()] else { return nil }
            return matches.first { $0 == candidate } ?? matches.first
        }
        // Every name looked up ends with `.json` (Takeout's) or `.xmp`: a folder with neither (a
        // camera's) has no sidecars, and its photos' candidate names are not made.
        let hasJSON = byLowercased.keys.contains { Self.name($0, endsWith: ".json") }
        let hasXMP = byLowercased.keys.contains { Self.name($0, endsWith: ".xmp") }
        guard hasJSON || hasXMP else { return }
        var ranked: [String: [(rank: Int, media: String)]] = [:]
        for media in names where isMedia(media) {
            var found: [Sidecar] = []
            for candidate in hasJSON ? TakeoutNaming.candidates(for: media) : [] {
                guard let name = lookup(candidate.name), !found.contains(where: { $0.name == name }) else { continue }
                let of = candidate.original.map { " of the original \($0), which this edited copy shares," } ?? ","
                found.append(Sidecar(kind: .takeoutJSON, name: name, reason: "Google Takeout metadata\(of) \(candidate.naming.description)"))
                ranked[name, default: []].append((candidate.original == nil ? 0 : 1, media))
            }
            let stem = NameParts(media).ext.isEmpty ? media : String(media.dropLast(NameParts(media).ext.count))
            let whole = hasXMP ? lookup(media + ".xmp") : nil, short = hasXMP ? lookup(stem + ".xmp") : nil
            if let whole {
                found.append(Sidecar(kind: .xmp, name: whole, reason: "XMP sidecar named after the whole file name"
                    + (short != nil ? "; it wins over \(short ?? ""), being more specific" : "")))
                ranked[whole, default: []].append((0, media))
            }
            if let short, short != whole {
                found.append(Sidecar(kind: .xmp, name: short, reason: "XMP sidecar named after the file name without its extension"
                    + (whole != nil ? "; \(whole ?? "") is more specific and wins" : "")))
                ranked[short, default: []].append((1, media))
            }
            if !found.isEmpty { sidecarsByMedia[media] = found }
        }
        for (sidecar, owners) in ranked {
            ownersBySidecar[sidecar] = owners.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.media)
        }
    }

    /// Whether the UTF-8 bytes of `name` end with those of `ending`.
    private static func name(_ name: String, endsWith ending: String) -> Bool {
        name.utf8.count >= ending.utf8.count && name.utf8.suffix(ending.utf8.count).elementsEqual(ending.utf8)
    }

    /// The sidecars of the media file `mediaName` of this folder, each kind's winner first: for
    /// XMP, `photo.ext.xmp` before `photo.xmp`; for Takeout, the JSON named most exactly after it.
    public func sidecars(of mediaName: String) -> [Sidecar] { sidecarsByMedia[mediaName] ?? [] }

    /// What the file `name` of this folder is among sidecars, or nil when it is no sidecar (a
    /// photo, a video, or a file that is neither JSON nor XMP).
    public func role(of name: String) -> SidecarRole? {
        let lowercased = name.lowercased()
        if let owners = ownersBySidecar[name] {
            return lowercased.hasSuffix(".xmp") ? .xmp(of: owners) : .takeout(of: owners)
        }
        if lowercased.hasSuffix(".xmp") { return .unmatchedXMP }
        guard lowercased.hasSuffix(".json") else { return nil }
        if Self.albumMetadataNames.contains(lowercased) { return .albumMetadata }
        if Self.accountDataNames.contains(lowercased) { return .takeoutAccountData }
        let pointedAt = TakeoutNaming.mediaName(forJSON: name).flatMap { MediaFileNames.isMedia($0) ? $0 : nil }
        return .unmatchedJSON(looksLikeMetadataOf: pointedAt)
    }
}
