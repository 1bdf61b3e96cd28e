import DarkroomCore
import DarkroomExif
import DarkroomImaging
import DarkroomVideo
import Foundation

/// `exif-date`: finds when each photo or video was taken, how Darkroom knows, and the camera.
///
/// Reads the file's header only (no pixels): for a photo EXIF through libexif and XMP as text; for
/// a video its QuickTime tags through libavformat; then the file name and modification time.
/// `CaptureDateResolver` holds the rules; this stage gathers the evidence and records the result
/// on the item.
public struct ExifDate: Stage {
    public typealias Options = ExifDateOptions

    public static let name = "exif-date"
    public static let summary = "Finds each photo's or video's capture date (EXIF, GPS, XMP, QuickTime, file name, file time) and its camera."
    public static let writes: Set<ItemAspect> = [.captureDate]
    public static let media: Set<MediaKind> = [.photo, .video]

    public let options: ExifDateOptions

    public init(options: ExifDateOptions) throws {
        self.options = options
    }

    public func process(_ item: Item, context: StageContext) throws {
        let decision = try apply(to: item, settings: context.settings)
        for rejected in decision.rejected {
            context.logger.debug("\(item.relativePath): ignored \(rejected)")
        }
        if let date = decision.date {
            context.logger.trace("\(item.relativePath): captured \(date)")
        }
    }

    /// Reads `item`'s evidence, sets `item.captureDate` and `item.camera`, and returns the decision.
    /// Throws when the file cannot be opened, or when no date is found and the fallback to the
    /// file time is off.
    @discardableResult
    public func apply(to item: Item, settings: RunSettings, now: Date = Date()) throws -> CaptureDateDecision {
        // A date the user set (`darkroom catalog set-date`; the runner puts it on the item) outranks every source.
        if let date = item.captureDate, date.source == .user { return CaptureDateDecision(date: date, rejected: []) }
        if item.mediaKind == .video { return try applyToVideo(item, settings: settings, now: now) }
        let header = try item.sourceHeader(settings: settings)
        var exif: ExifTags?
        var problems: [String] = []
        if let blob = header.exifData {
            do {
                exif = try ExifTags(parsing: blob)
            } catch {
                problems.append("\(error)")
            }
        }
        let xmp = header.xmpData.map { String(decoding: $0, as: UTF8.self) }
        let evidence = CaptureDateEvidence(exif: exif, xmp: xmp, fileName: item.fileName,
                                           modificationDate: item.modificationDate)
        let decision = resolver(settings: settings, now: now).resolve(evidence)
        if let camera = exif?.camera { item.camera = camera }
        return try record(decision, on: item, problems: problems)
    }

    /// A video: its QuickTime dates, camera and location from the header libavformat reads (which
    /// also gives the item its displayed size and video facts).
    private func applyToVideo(_ item: Item, settings: RunSettings, now: Date) throws -> CaptureDateDecision {
        let metadata = try item.videoInfo(settings: settings).metadata
        let evidence = CaptureDateEvidence(fileName: item.fileName, modificationDate: item.modificationDate,
                                           video: VideoDateEvidence(metadata))
        let decision = resolver(settings: settings, now: now).resolve(evidence)
        if let camera = ExifTags.camera(make: metadata.make, model: metadata.model) { item.camera = camera }
        if let location = metadata.locationISO6709.flatMap(GeoLocation.init(iso6709:)) { item.location = location }
        return try record(decision, on: item, problems: [])
    }

    private func resolver(settings: RunSettings, now: Date) -> CaptureDateResolver {
        CaptureDateResolver(sources: options.sources, fallbackToFileTime: options.fallbackToFileTime,
                            videoCreationTime: options.videoCreationTime, timeZone: settings.timeZone, now: now)
    }

    /// Sets the date on the item, or throws with everything that was looked at.
    private func record(_ decision: CaptureDateDecision, on item: Item, problems: [String]) throws -> CaptureDateDecision {
        guard let date = decision.date else {
            throw StageError(Self.noDateMessage(decision: decision, problems: problems, options: options, video: item.mediaKind == .video))
        }
        item.captureDate = date
        return decision
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
