import Foundation

extension RunReport {
    /// What a collection step tells about one output beyond the file itself: how a time-lapse's or
    /// a then-and-now collage's photos were aligned, what was done to meet a size cap.
    public struct OutputDetails: Codable, Sendable, Hashable {
        /// The step's name as written in the pipeline (`timelapse`).
        public var step: String
        /// The output's library-relative path.
        public var output: String
        public var alignment: Alignment?
        /// What was changed to make the output, in words (`frames made 640x360 to meet max-bytes 2000000`).
        public var notes: [String]

        public init(step: String, output: String, alignment: Alignment? = nil, notes: [String] = []) {
            self.step = step; self.output = output; self.alignment = alignment; self.notes = notes
        }
    }

    /// How the photos of one output were mapped onto one another.
    public struct Alignment: Codable, Sendable, Hashable {
        /// `scene` or `face`.
        public var mode: String
        /// The output frame, `1920x1080`.
        public var frame: String
        /// The crop of the frame every aligned photo covers, in frame pixels, enlarged by `zoom` to fill
        /// it (nil when what a photo leaves empty is filled instead).
        public var crop: Crop?
        /// Every photo shown, in order, and each photo left out for not aligning.
        public var photos: [AlignedPhoto]

        public init(mode: String, frame: String, crop: Crop?, photos: [AlignedPhoto]) {
            self.mode = mode; self.frame = frame; self.crop = crop; self.photos = photos
        }
    }

    /// A crop of a frame, in its pixels.
    public struct Crop: Codable, Sendable, Hashable {
        public var x: Double, y: Double, width: Double, height: Double
        /// How much the crop is enlarged to fill the frame.
        public var zoom: Double

        public init(x: Double, y: Double, width: Double, height: Double, zoom: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height; self.zoom = zoom
        }
    }

    /// How one photo was moved to line up with the others.
    public struct AlignedPhoto: Codable, Sendable, Hashable {
        public var path: String
        /// Where the photo's centre moved, in frame pixels (before the crop), right and down.
        public var shiftX: Double
        public var shiftY: Double
        /// Degrees, clockwise on screen.
        public var rotation: Double
        /// 1: the size of the first photo (scene) or of the frame (face, relative to the photo's long edge).
        public var scale: Double
        /// How it was aligned (`matched the previous photo, 412 features`), or why it could not be.
        public var how: String
        /// `aligned`, `unaligned` (shown as it is) or `dropped` (left out).
        public var outcome: String

        public init(path: String, shiftX: Double, shiftY: Double, rotation: Double, scale: Double, how: String, outcome: String) {
            self.path = path; self.shiftX = shiftX; self.shiftY = shiftY; self.rotation = rotation; self.scale = scale
            self.how = how; self.outcome = outcome
        }
    }
}
