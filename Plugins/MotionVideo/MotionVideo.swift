import DarkroomCore
import DarkroomMotionPhoto
import Foundation

/// `motion-video`: the short video a motion photo carries (Google's XMP `MotionPhoto` and
/// `MicroVideo`, Samsung's JPEG trailer and HEIC `mpvd` box), copied out byte for byte and published
/// beside the still under the still's id, as its motion part. The still itself goes on through the
/// pipeline as usual. A file whose markers promise a video that is not there stays a still, with a
/// warning in the run's report.
public struct MotionVideo: Stage {
    public static let name = "motion-video"
    public static let summary = "Publish the video inside a motion photo (Google, Samsung) beside the still, under the still's id."

    public struct Options: StageOptions {
        /// Where the video goes in the library.
        public var output: PathTemplate

        static let outputOption = StageOption.template(
            "output", default: "Photos/{yyyy}/{MM}/{id}.mp4",
            "Path template inside the library, ending .mp4 (the embedded videos are MPEG-4).")
        public static let options: [any OptionDeclaration] = [outputOption]

        public init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            output = reader.read(Self.outputOption)
            reader.requireExtension(Self.outputOption, of: output, in: ["mp4"])
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
            try context.publish(try options.output.render(PathTemplate.values(for: item))) { url in
                do {
                    try MotionPhoto.extract(location, from: item.source.path, to: url.path)
                } catch let error as MotionPhotoError {
                    throw StageError("cannot copy out the motion photo's video: \(error.reason)")
                }
            }
        }
    }
}
