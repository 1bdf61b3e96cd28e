import DarkroomCore
import DarkroomReport
import ExifDateStage
import GalleryStage
import HEICEncodeStage
import MotionVideoStage
import ResizeStage
import ThumbnailStage
import VideoEncodeStage
#if Studio
import CollageStage
import PhotoBookStage
import TimelapseStage
#endif

/// The one list of built-in stages. A third party does not edit it: it registers its own
/// `StageDescriptor`s on top (`BuiltInStages.registry.adding([...])`).
public enum BuiltInStages {
    public static let all: [StageDescriptor] = [
        StageDescriptor(ExifDate.self),
        StageDescriptor(Resize.self),
        StageDescriptor(HEICEncode.self),
        StageDescriptor(Thumbnail.self),
        StageDescriptor(MotionVideo.self),
        StageDescriptor(VideoEncode.self),
    ] + studio + [StageDescriptor(Gallery.self)]

    #if Studio
    /// The stages of the package's `Studio` trait (on by default).
    static let studio = [StageDescriptor(Collage.self), StageDescriptor(Timelapse.self), StageDescriptor(PhotoBook.self)]
    #else
    static let studio: [StageDescriptor] = []
    #endif

    /// How to build what a build without the package's `Studio` trait (the README's first command,
    /// `--disable-default-traits`, or `--traits` naming other traits only) leaves out.
    public static let studioBuild = "it is built with the package's Studio trait, on by default: "
        + "swift build -c release --product darkroom (--traits Studio,Queue with the work queue)"

    /// A registry holding every built-in stage, and naming the ones this build leaves out.
    public static var registry: StageRegistry {
        StageRegistry(all, leftOut: Dictionary(uniqueKeysWithValues: ["collage", "timelapse", "photo-book"].map { ($0, studioBuild) }))
    }

    /// The run report as a page (`--report run.html`), in the gallery's look.
    public static let reportPage: any RunReportRenderer = RunReportPageRenderer()

    /// The shipped import pipeline (`pipelines/import-camera-roll.yaml` as built in), loaded and validated.
    public static func importPipeline() throws -> Pipeline {
        try PipelineLoader(registry: registry).load(yaml: BuiltInPipelines.importCameraRoll, file: BuiltInPipelines.importCameraRollName)
    }
}
