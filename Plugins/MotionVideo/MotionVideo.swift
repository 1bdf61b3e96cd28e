import DarkroomCore
import DarkroomImaging
import DarkroomMotionPhoto
import Foundation
import DarkroomModel
import DarkroomOptions

/// `motion-video`: a still's motion part, published beside it under the still's id:
/// - the short video a motion photo carries (Google's XMP `MotionPhoto` and `MicroVideo`, Samsung's
///   JPEG trailer and HEIC `mpvd` box), copied out byte for byte; a file whose markers promise a
///   video that is not there stays a still, with a warning in the run's report;
/// - a Live Photo's MOV: the runner pairs it with the still that carries its identifier
///   (`LivePhotoPairing`) and hands it to this step alone, with the still's id and capture date; it
///   is copied byte for byte and gets no thumbnail or timeline place of its own;
/// - the RAW of a RAW+JPEG pair: the runner pairs a RAW with the camera's JPEG or HEIC of the same
///   shot (same folder and name, same camera, within 2 s) and hands it to this step alone; it is
///   copied byte for byte as `<id>.<raw extension>` (`raw-originals: keep`), or not kept (`skip`).
/// The still itself goes on through the pipeline as usual.
public struct MotionVideo: Stage {
    /// Whether the RAW of a RAW+JPEG pair is kept in the library beside its JPEG.
    public enum RawOriginals: String, Codable, Sendable, CaseIterable {
        /// Copied byte for byte under the JPEG's id.
        case keep
        /// Not kept: the RAW is still known as the pair's (not imported as a photo of its own).
        case skip
    }

    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public static let name = "motion-video"
    public static let summary = "Publish a still's parts beside it, under the still's id: a motion photo's embedded video (Google, Samsung), a Live Photo's MOV, the RAW of a RAW+JPEG pair."
    public static let takesMotionParts = true
    public static let prober: (any SourceProber)? = LivePhotoPairing()

    public struct Options: StageOptions {
        /// Where the video goes in the library.
        public var output: PathTemplate
        /// Whether RAWs of RAW+JPEG pairs are kept.
        public var rawOriginals: RawOriginals

        static let outputOption = StageOption.template(
            "output", default: "Photos/{yyyy}/{MM}/{id}.{ext}",
            "Path template inside the library, ending .{ext}: the motion part's own container (mp4 for a motion photo's video, the MOV's extension for a Live Photo).")
        static let rawOriginalsOption = StageOption.choice(
            "raw-originals", default: RawOriginals.keep,
            "The RAW of a RAW+JPEG pair: keep: copied byte for byte beside the JPEG's HEIC, as <id>.<raw extension>; skip: not kept (nor imported as a photo of its own)."
        ).keyedOnlyWhenNotDefault()
        public static let options: [any OptionDeclaration] = [outputOption, rawOriginalsOption]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            output = reader.read(Self.outputOption)
            rawOriginals = reader.read(Self.rawOriginalsOption)
            if !output.template.hasSuffix(".{ext}") {
                reader.reject(Self.outputOption, expected: "a template ending in .{ext} (the motion part keeps its own container)",
                              got: "'\(output.template)'")
            }
            try reader.finish()
        }
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// Date fields in the output need `exif-date` first.
    public var needs: Set<ItemAspect> { options.output.usesDateFields ? [.captureDate] : [] }

    public func process(_ item: Item, context: StageContext) throws {
        if item.motionOf != nil {
            if item.mediaKind == .video {
                try publishLivePhotoVideo(item, context: context)
            } else if options.rawOriginals == .keep {
                try publishRawOriginal(item, context: context)
            }
            return
        }
        // The survey read the identifier while it hashed the file, unless the catalog knew the answer.
        if item.contentIdentifier == nil, item.probe == nil { item.contentIdentifier = LivePhotoPairing.stillIdentifier(of: item.source) }
        let location: MotionPhotoLocation
        do {
            location = try MotionPhoto.locate(path: item.source.path)
        } catch let error as MotionPhotoError {
            throw StageError("cannot read the file for a motion photo's video: \(error.reason)")
        }
        switch location {
        case .none:
            return
        case .promisedButMissing(let reason):
            context.warn("a motion photo without its video (\(reason)); imported as a still")
        case .video:
            var values = PathTemplate.values(for: item)
            values["ext"] = "mp4"
            try context.publish(try options.output.render(values)) { url in
                do {
                    try MotionPhoto.extract(location, from: item.source.path, to: url.path)
                } catch let error as MotionPhotoError {
                    throw StageError("cannot copy out the motion photo's video: \(error.reason)")
                }
            }
        }
    }

    /// A Live Photo's MOV, copied byte for byte (streaming) under its still's id and date.
    private func publishLivePhotoVideo(_ item: Item, context: StageContext) throws {
        try copy(item, what: "the Live Photo's video", context: context)
    }

    /// The RAW of a RAW+JPEG pair, copied byte for byte under its JPEG's id and date, its extension lower case.
    private func publishRawOriginal(_ item: Item, context: StageContext) throws {
        try copy(item, what: "the RAW of the RAW+JPEG pair", context: context)
    }

    /// The item's file copied (streaming) to the output template, named with its own extension.
    private func copy(_ item: Item, what: String, context: StageContext) throws {
        try context.publish(try options.output.render(PathTemplate.values(for: item))) { url in
            do {
                try FileManager.default.copyItem(at: item.source, to: url)
            } catch {
                throw StageError("cannot copy \(what): \(error.localizedDescription)")
            }
        }
    }
}
