import DarkroomCore
import DarkroomExif
import DarkroomImaging
import DarkroomSidecars
import DarkroomSimilarity
import DarkroomTimeZones
import DarkroomVideo
import Foundation
import DarkroomModel

/// `exif-date`: finds when each photo or video was taken, how Darkroom knows, where, and the camera.
///
/// Reads the file's header only (no pixels): for a photo EXIF through libexif and XMP as text; for
/// a video its QuickTime tags through libavformat; then its sidecars (an XMP sidecar, Google
/// Takeout's JSON), the file name and modification time, and the time zone at its GPS position.
/// `CaptureDateResolver` holds the rules; this stage gathers the evidence and records the result
/// on the item, with the burst the camera wrote (`Item.similarity.burst`). `explain` gives the
/// whole decision, for `darkroom explain`.
public struct ExifDate: Stage {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread, and the time-zone
    /// map's read beside them.
    public static func prepare(_ settings: RunSettings) throws {
        TimeZoneMap.loadInBackground()
        try ImagingSetup.configure(for: settings)
    }

    public typealias Options = ExifDateOptions

    public static let name = "exif-date"
    public static let summary = "Finds each photo's or video's capture date (XMP sidecar, EXIF, GPS, XMP, QuickTime, file name, Google Takeout, file time), its place and camera."
    public static let writes: Set<ItemAspect> = [.captureDate]
    public static let media: Set<MediaKind> = [.photo, .video]
    /// Takeout JSON and XMP sidecars, matched once per folder.
    public static let sidecars: (any SidecarMatcher)? = ExportSidecars()

    public let options: ExifDateOptions

    public init(options: ExifDateOptions) throws {
        self.options = options
    }

    /// Whether the unit key includes the photo's sidecars: unless `sidecars: false`.
    public var readsSidecars: Bool { options.readSidecars }

    public func process(_ item: Item, context: StageContext) throws {
        // A library rendition (a HEIC in Photos/) comes with its photo's date from the catalog: kept,
        // whatever the rendition's own metadata or file time would say. A date the user set goes
        // through `record`, which keeps it and still reads the camera and place.
        if let date = item.captureDate, date.source != .user { return }
        let explanation = try explain(item, settings: context.settings)
        for problem in explanation.problems { context.warn(problem) }
        let decision = try record(explanation, on: item)
        for considered in decision.considered where considered.outcome != .chosen {
            context.logger.debug("\(item.relativePath): \(considered.summary)")
        }
        if let date = decision.date {
            context.logger.trace("\(item.relativePath): captured \(date)")
        }
    }

    /// Reads `item`'s evidence, sets `item.captureDate`, `item.camera`, `item.location` and the
    /// camera's burst mark, and returns the decision. Throws when the file cannot be opened, or
    /// when no date is found and the fallback to the file time is off.
    @discardableResult
    public func apply(to item: Item, settings: RunSettings, now: Date = Date()) throws -> CaptureDateDecision {
        try record(try explain(item, settings: settings, now: now), on: item)
    }

    /// The whole decision for `item`, without recording it: every candidate with its outcome, the
    /// sidecars, the position and its zone, and what could not be read. Throws only when the file
    /// itself cannot be opened.
    public func explain(_ item: Item, settings: RunSettings, metadata given: SourceMetadata? = nil, now: Date = Date()) throws -> DateExplanation {
        var evidence = CaptureDateEvidence(fileName: item.fileName, modificationDate: item.modificationDate)
        var explanation = DateExplanation(path: item.source.path, decision: CaptureDateDecision(date: nil, rejected: []))
        var ownLocation: GeoLocation?
        if item.mediaKind == .video {
            let metadata = try item.videoInfo(settings: settings).metadata
            evidence.video = VideoDateEvidence(metadata)
            explanation.camera = ExifTags.camera(make: metadata.make, model: metadata.model)
            ownLocation = metadata.locationISO6709.flatMap(GeoLocation.init(iso6709:))
        } else {
            let metadata = try given ?? item.sourceMetadata(settings: settings)
            if let blob = metadata.exif {
                do {
                    evidence.exif = try ExifTags(parsing: blob)
                } catch {
                    explanation.problems.append("\(item.source.path): EXIF not read: \(error)")
                }
            }
            evidence.xmp = metadata.xmp.map { String(decoding: $0, as: UTF8.self) }
            explanation.problems += metadata.problems
            explanation.camera = evidence.exif?.camera
            explanation.burst = Self.burstMark(exif: evidence.exif, xmp: metadata.xmp)
            ownLocation = evidence.exif?.gpsPosition.flatMap { GeoLocation(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) }
        }
        if options.readSidecars { readSidecars(of: item, into: &evidence, explanation: &explanation, now: now) }
        locate(ownLocation: ownLocation, evidence: &evidence, explanation: &explanation)
        explanation.decision = resolver(settings: settings, now: now).resolve(evidence)
        for candidate in explanation.candidates where candidate.source == .xmpSidecar {
            if case .rejected(let reason) = candidate.outcome {
                explanation.problems.append("\(candidate.field) '\(candidate.value)': \(reason): ignored")
            }
        }
        return explanation
    }

    private func resolver(settings: RunSettings, now: Date) -> CaptureDateResolver {
        CaptureDateResolver(sources: options.sources, fallbackToFileTime: options.fallbackToFileTime,
                            videoCreationTime: options.videoCreationTime, timeZone: settings.timeZone,
                            timeZoneIsChosen: settings.timeZoneIsChosen, now: now)
    }

    /// Sets the date, camera and position on the item, or throws with everything that was looked at.
    /// Sets `item`'s date, camera and place from `explanation`; a date the user set (`darkroom
    /// catalog set-date`; the runner puts it on the item) outranks every source and is kept.
    private func record(_ explanation: DateExplanation, on item: Item) throws -> CaptureDateDecision {
        let decision = explanation.decision
        if let camera = explanation.camera { item.camera = camera }
        if let location = explanation.location { item.location = location }
        if let burst = explanation.burst { item.similarity.burst = burst }
        if let date = item.captureDate, date.source == .user { return CaptureDateDecision(date: date, rejected: []) }
        guard let date = decision.date else {
            throw StageError(Self.noDateMessage(decision: decision, problems: explanation.problems, options: options,
                                                video: item.mediaKind == .video), kind: .noCaptureDate)
        }
        item.captureDate = date
        return decision
    }

    /// The burst the camera wrote into the metadata already read: Apple's maker-note `BurstUUID`, else
    /// Google Camera's `GCamera:BurstID` (with `BurstPrimary`) in the photo's XMP.
    static func burstMark(exif: ExifTags?, xmp: Data?) -> BurstMark? {
        if let apple = exif?.burstIdentifier?.trimmingCharacters(in: .whitespacesAndNewlines), !apple.isEmpty {
            return BurstMark(source: .apple, identifier: apple)
        }
        return xmp.flatMap { BurstMark.google(inXMP: [UInt8]($0)) }
    }

    /// "no capture date found in exif-original, ...; ignored: DateTimeOriginal '0000:00:00 00:00:00': ..."
    static func noDateMessage(decision: CaptureDateDecision, problems: [String], options: ExifDateOptions, video: Bool = false) -> String {
        let looked = video ? ["quicktime creation dates", "creation_time"] + (options.sources.contains(.filename) ? ["filename"] : [])
                           : options.sources.map(\.rawValue)
        var message = "no capture date found in " + looked.joined(separator: ", ")
        if !options.fallbackToFileTime { message += " (fallback-to-file-time is off)" }
        let notes = problems + decision.rejected.map(\.description)
        if !notes.isEmpty { message += "; ignored: " + notes.joined(separator: "; ") }
        return message
    }
}
