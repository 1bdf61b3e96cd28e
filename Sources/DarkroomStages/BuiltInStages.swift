import CollageStage
import DarkroomCore
import DarkroomReport
import ExifDateStage
import GalleryStage
import HEICEncodeStage
import MotionVideoStage
import PhotoBookStage
import ResizeStage
import ThumbnailStage
import TimelapseStage
import VideoEncodeStage

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
        StageDescriptor(Collage.self),
        StageDescriptor(Timelapse.self),
        StageDescriptor(PhotoBook.self),
        StageDescriptor(Gallery.self),
    ]

    /// A registry holding every built-in stage.
    public static var registry: StageRegistry { StageRegistry(all) }

    /// The run report as a page (`--report run.html`), in the gallery's look.
    public static let reportPage: any RunReportRenderer = RunReportPageRenderer()

    /// The shipped import pipeline (`pipelines/import-camera-roll.yaml` as built in), loaded and validated.
    public static func importPipeline() throws -> Pipeline {
        try PipelineLoader(registry: registry).load(yaml: BuiltInPipelines.importCameraRoll, file: BuiltInPipelines.importCameraRollName)
    }
}
