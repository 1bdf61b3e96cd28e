import Foundation
import DarkroomModel

/// How a photo's or video's facts become a row of `assets` and back, and how what a run learns
/// merges into what the catalog had: the rules of dates and facts, once for every store.
extension AssetRow {
    /// The row for what a run learned of an asset, as run `run` records it.
    public init(_ facts: AssetFacts, run: Int64) throws {
        self.init(contentHash: facts.contentHash, id: facts.id.uuidString.lowercased(), originalPath: facts.originalPath,
                  fileSize: facts.fileSize, mediaKind: facts.mediaKind.rawValue)
        if let date = facts.captureDate {
            captureLocal = date.local.description
            captureUTCOffset = date.utcOffsetSeconds.map(Int64.init)
            captureSource = date.source.rawValue
            captureTimeZoneSource = date.timeZoneSource.rawValue
            captureConfidence = date.confidence.rawValue
            captureJSON = String(decoding: try JSONEncoder().encode(date), as: UTF8.self)
        }
        width = facts.width.map(Int64.init)
        height = facts.height.map(Int64.init)
        orientation = facts.orientation.map(Int64.init)
        camera = facts.camera
        firstRun = run
        lastRun = run
        latitude = facts.location?.latitude
        longitude = facts.location?.longitude
        altitude = facts.location?.altitude
        duration = facts.video?.duration
        videoCodec = facts.video?.codec
        bitDepth = (facts.video?.bitDepth).map(Int64.init)
        hdrTransfer = facts.video?.hdrTransfer?.rawValue
        audioCodec = facts.video?.audioCodec
        contentIdentifier = facts.contentIdentifier
        motionOf = facts.motionOf
    }

    /// What the catalog holds once a run that learned `new` records it over this row:
    /// - the asset keeps its id, original path, size, kind and first run;
    /// - a capture date replaces the old one whole (local time, offset, source, confidence), a run
    ///   that found none keeps the old one, and a correction (source `user`) is a date like any other;
    /// - a place replaces the old one whole; a video's codec comes with its transfer and audio;
    /// - every other fact is updated when the run knows it, and kept when it does not;
    /// - the still a video is the motion part of is always the run's (a video can stop being one);
    /// - the last run is the run's.
    public func merging(_ new: AssetRow) -> AssetRow {
        var merged = self
        if new.captureJSON != nil {
            merged.captureLocal = new.captureLocal
            merged.captureUTCOffset = new.captureUTCOffset
            merged.captureSource = new.captureSource
            merged.captureTimeZoneSource = new.captureTimeZoneSource
            merged.captureConfidence = new.captureConfidence
            merged.captureJSON = new.captureJSON
        }
        merged.width = new.width ?? width
        merged.height = new.height ?? height
        merged.orientation = new.orientation ?? orientation
        merged.camera = new.camera ?? camera
        if new.latitude != nil {
            merged.latitude = new.latitude
            merged.longitude = new.longitude
            merged.altitude = new.altitude
        }
        merged.duration = new.duration ?? duration
        merged.bitDepth = new.bitDepth ?? bitDepth
        if new.videoCodec != nil {
            merged.videoCodec = new.videoCodec
            merged.hdrTransfer = new.hdrTransfer
            merged.audioCodec = new.audioCodec
        }
        merged.contentIdentifier = new.contentIdentifier ?? contentIdentifier
        merged.motionOf = new.motionOf
        merged.lastRun = new.lastRun
        return merged
    }

    /// The capture date as recorded (a date that no longer decodes reads as none).
    var captureDate: CaptureDate? {
        captureJSON.flatMap(CaptureDate.decoding(json:))
    }

    /// The facts the row records.
    public var facts: AssetFacts { facts(captureDate: captureDate) }

    /// The facts the row records, with its capture date decoded already.
    private func facts(captureDate: CaptureDate?) -> AssetFacts {
        AssetFacts(
            contentHash: contentHash, id: UUID(uuidString: id) ?? ContentHash.uuid(fromHex: contentHash),
            originalPath: originalPath, fileSize: fileSize, captureDate: captureDate,
            width: width.map(Int.init), height: height.map(Int.init), orientation: orientation.map(Int.init), camera: camera,
            location: latitude.flatMap { latitude in longitude.flatMap { GeoLocation(latitude: latitude, longitude: $0, altitude: altitude) } },
            video: videoCodec.map {
                VideoFacts(duration: duration ?? 0, codec: $0, bitDepth: bitDepth.map(Int.init) ?? 8,
                           hdrTransfer: hdrTransfer.flatMap(VideoFacts.Transfer.init(rawValue:)), audioCodec: audioCodec)
            },
            contentIdentifier: contentIdentifier, motionOf: motionOf)
    }

    /// The row as a run reads it ahead: its facts and its recorded kind (its capture date decoded once).
    var stored: StoredAsset {
        StoredAsset(facts: facts(captureDate: captureDate), recordedKind: MediaKind(rawValue: mediaKind) ?? .photo)
    }

    /// What a run reads back of an asset whose work is all done.
    var remembered: RememberedFacts {
        RememberedFacts(captureDate: captureDate, width: width.map(Int.init), height: height.map(Int.init),
                        contentIdentifier: contentIdentifier, motionOf: motionOf, mediaKind: MediaKind(rawValue: mediaKind) ?? .photo)
    }
}
