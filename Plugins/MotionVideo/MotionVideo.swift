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
///   is copied byte for byte and gets no thumbnail or timeline place of its own.
/// The still itself goes on through the pipeline as usual.
public struct MotionVideo: Stage {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public static let name = "motion-video"
    public static let summary = "Publish a still's motion part beside it, under the still's id: a motion photo's embedded video (Google, Samsung) or a Live Photo's MOV."
    public static let takesMotionParts = true
    public static let prober: (any SourceProber)? = LivePhotoPairing()

    public struct Options: StageOptions {
        /// Where the video goes in the library.
        public var output: PathTemplate

        static let outputOption = StageOption.template(
            "output", default: "Photos/{yyyy}/{MM}/{id}.{ext}",
            "Path template inside the library, ending .{ext}: the motion part's own container (mp4 for a motion photo's video, the MOV's extension for a Live Photo).")
        public static let options: [any OptionDeclaration] = [outputOption]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            output = reader.read(Self.outputOption)
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
            try publishLivePhotoVideo(item, context: context)
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
        try context.publish(try options.output.render(PathTemplate.values(for: item))) { url in
            do {
                try FileManager.default.copyItem(at: item.source, to: url)
            } catch {
                throw StageError("cannot copy the Live Photo's video: \(error.localizedDescription)")
            }
        }
    }
}
