import DarkroomLibrary
import DarkroomModel
import Foundation

/// Everything a library knows of each photo and video, for other applications
/// (`darkroom catalog export --json` or `--csv`): its id, original, library files, capture date with
/// its offset and source, camera, position, rating, keywords, title, and what it is paired with (a
/// Live Photo's still and video, a RAW and its JPEG).
public struct CatalogManifest: Sendable {
    /// One photo or video.
    public struct Entry: Sendable, Codable, Hashable {
        public var id: String
        public var contentHash: String
        /// `photo` or `video`.
        public var kind: String
        public var originalPath: String
        /// Library-relative paths of the files made from it, sorted.
        public var libraryFiles: [String]
        /// `2024-05-01T18:30:12+02:00` (no offset when unknown).
        public var captureDate: String?
        /// Seconds east of UTC, when known.
        public var utcOffsetSeconds: Int?
        /// `exif:DateTimeOriginal`, `quicktime:CreationDate`, `filename`, `user`...
        public var dateSource: String?
        /// `metadata`, `gps`, `configured`, `machine`, `unknown`...
        public var timeZoneSource: String?
        /// `high`, `medium`, `low`.
        public var dateConfidence: String?
        public var camera: String?
        public var latitude: Double?
        public var longitude: Double?
        public var altitude: Double?
        public var width: Int?
        public var height: Int?
        public var rating: Int?
        public var keywords: [String]
        public var title: String?
        public var description: String?
        /// For a Live Photo's still: its video's id.
        public var livePhotoVideo: String?
        /// For a Live Photo's video: its still's id.
        public var livePhotoStill: String?
        /// For a still whose video is inside it (a motion photo): that video's library file.
        public var motionVideoFile: String?
        /// The RAW file's id for a JPEG or HEIC shot with it, or the other way round.
        public var rawPair: String?
    }

    /// The entries, ordered by original path.
    public var entries: [Entry]

    /// The manifest of every asset of `catalog`; XMP is read from the library files (`jobs` at a time).
    public static func make(catalog: CorrectableCatalog, library: URL, jobs: Int) throws -> CatalogManifest {
        let assets = try catalog.assets(.folder(""))
        let outputs = Dictionary(grouping: try catalog.outputs(ofSubjects: assets.map(\.contentHash)), by: \.subject)
        let byHash = Dictionary(assets.map { ($0.contentHash, $0) }, uniquingKeysWith: { a, _ in a })
        let videoOfStill = Dictionary(assets.filter { $0.mediaKind == .video }.compactMap { asset in asset.motionOf.map { ($0, asset) } },
                                      uniquingKeysWith: { a, _ in a })
        let rawPairs = Self.rawPairs(assets)
        let reader = PhotoMetadataReader()
        let entries = DarkroomThreads.map(count: assets.count, jobs: jobs) { index -> Entry in
            let asset = assets[index]
            let files = (outputs[asset.contentHash] ?? []).map(\.path).sorted()
            let rendition = ExportCandidates.rendition(in: outputs[asset.contentHash] ?? [], video: asset.mediaKind == .video)
            let described = reader.read(libraryFile: rendition.map { library.appendingPathComponent($0) },
                                        original: URL(fileURLWithPath: asset.originalPath)).description
            let date = asset.captureDate
            return Entry(
                id: asset.id.uuidString.lowercased(), contentHash: asset.contentHash, kind: asset.mediaKind.rawValue,
                originalPath: asset.originalPath, libraryFiles: files, captureDate: date.map(ExportXMP.stamp),
                utcOffsetSeconds: date?.utcOffsetSeconds, dateSource: date?.source.rawValue, timeZoneSource: date?.timeZoneSource.rawValue,
                dateConfidence: date?.confidence.rawValue, camera: asset.camera, latitude: asset.location?.latitude,
                longitude: asset.location?.longitude, altitude: asset.location?.altitude, width: asset.width, height: asset.height,
                rating: described.rating, keywords: described.keywords, title: described.title, description: described.caption,
                livePhotoVideo: videoOfStill[asset.contentHash].map { $0.id.uuidString.lowercased() },
                livePhotoStill: asset.mediaKind == .video ? asset.motionOf.flatMap { byHash[$0] }.map { $0.id.uuidString.lowercased() } : nil,
                motionVideoFile: asset.motionOf != nil && asset.mediaKind == .photo ? nil
                    : (outputs[asset.contentHash] ?? []).first { ExportCandidates.step($0) == "motion-video" }?.path,
                rawPair: rawPairs[asset.contentHash].flatMap { byHash[$0] }.map { $0.id.uuidString.lowercased() })
        }
        return CatalogManifest(entries: entries)
    }

    /// The RAW of a RAW+JPEG pair and its JPEG or HEIC (`IMG_0001.CR2`, `IMG_0001.JPG`), each to the other.
    static func rawPairs(_ assets: [AssetFacts]) -> [String: String] {
        var pairs: [String: String] = [:]
        // A RAW+JPEG pair's RAW is recorded as a part of its still (`motionOf`), as a Live Photo's video is.
        for raw in assets where raw.mediaKind == .photo {
            guard let still = raw.motionOf else { continue }
            pairs[raw.contentHash] = still
            pairs[still] = raw.contentHash
        }
        return pairs
    }

    // MARK: Text

    /// The entries as a JSON array (keys sorted, paths unescaped).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries), as: UTF8.self)
    }

    /// The CSV columns, in order.
    public static let csvColumns = [
        "id", "kind", "original_path", "library_files", "capture_date", "utc_offset_seconds", "date_source", "time_zone_source",
        "date_confidence", "camera", "latitude", "longitude", "altitude", "width", "height", "rating", "keywords", "title",
        "description", "live_photo_video", "live_photo_still", "motion_video_file", "raw_pair", "content_hash",
    ]

    /// The entries as CSV (RFC 4180: a header line, fields quoted when they hold a comma, a quote or
    /// a line break); lists (library files, keywords) joined with `; `.
    public func csv() -> String {
        var lines = [Self.csvColumns.joined(separator: ",")]
        for entry in entries {
            let fields: [String?] = [
                entry.id, entry.kind, entry.originalPath, entry.libraryFiles.joined(separator: "; "), entry.captureDate,
                entry.utcOffsetSeconds.map(String.init), entry.dateSource, entry.timeZoneSource, entry.dateConfidence, entry.camera,
                entry.latitude.map { String($0) }, entry.longitude.map { String($0) }, entry.altitude.map { String($0) },
                entry.width.map(String.init), entry.height.map(String.init), entry.rating.map(String.init),
                entry.keywords.joined(separator: "; "), entry.title, entry.description, entry.livePhotoVideo, entry.livePhotoStill,
                entry.motionVideoFile, entry.rawPair, entry.contentHash,
            ]
            lines.append(fields.map { Self.csvField($0 ?? "") }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A field quoted (quotes doubled) when it must be.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
