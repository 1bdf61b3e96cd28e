import DarkroomAlignment
import DarkroomTestSupport
import DarkroomVips
import Foundation

/// A hand-held set made from one real photo (for the alignment engine's tests and the aligned time-lapse's): each copy is the middle 70 % of it, maybe with a subject
/// that grows copy by copy, brightness scaled by 0.8-1.2, then shifted up to 6 %, turned up to 5 degrees
/// and scaled by 0.92-1.08 as a retake by hand is. The true transforms are kept to check alignments.
public struct HandheldSet {
    /// One copy: its picture and the true map from the base picture's pixels to its own.
    public struct Photo {
        public var image: Image
        public var truth: SimilarityTransform
        public var brightness: Double
    }

    public let base: Image
    public let photos: [Photo]
    /// The growing subject's largest square, in the base picture's pixels (nil without a subject).
    public let subject: Rect2D?

    /// `count` copies of `base` (upright, 8-bit sRGB); with `growingSubject`, a textured square in the
    /// middle grows from 8 % to 30 % of the copies' width.
    public init(base: Image, count: Int, growingSubject: Bool, seed: UInt64) throws {
        self.base = base
        var random = SeededGenerator(seed: seed)
        let width = Int(Double(base.width) * 0.7), height = Int(Double(base.height) * 0.7)
        let largest = 0.3 * Double(width)
        let subject = growingSubject
            ? Rect2D(x: Double(base.width) / 2 - largest / 2, y: Double(base.height) * 0.55 - largest / 2, width: largest, height: largest)
            : nil
        self.subject = subject
        // The subject's texture: another part of the photo, turned over, so it has features of its own.
        let texture = try base.rotated(degrees: 180, background: .black)
        photos = try (0..<count).map { index in
            var picture = base
            if let subject {
                let side = Int(subject.width * (0.27 + 0.73 * Double(index) / Double(max(1, count - 1))))
                let patch = try texture.cropped(left: base.width / 4, top: base.height / 4, width: base.width / 2, height: base.height / 2)
                    .resized(horizontal: Double(side) / Double(base.width / 2), vertical: Double(side) / Double(base.height / 2))
                    .cropped(left: 0, top: 0, width: side, height: side)
                picture = try picture.composited(patch, x: Int(subject.centre.x) - side / 2, y: Int(subject.centre.y) - side / 2)
            }
            let brightness = Double.random(in: 0.8...1.2, using: &random)
            picture = try picture.linear(multiply: [brightness], add: [0])
            let retake = SimilarityTransform(scale: .random(in: 0.92...1.08, using: &random),
                                             rotation: .random(in: -5...5, using: &random),
                                             dx: .random(in: -0.06...0.06, using: &random) * Double(width),
                                             dy: .random(in: -0.06...0.06, using: &random) * Double(height))
            // Base pixels: centre to the origin, retake about it, then to the copy's centre.
            let truth = SimilarityTransform(dx: -Double(base.width) / 2, dy: -Double(base.height) / 2)
                .then(retake).then(SimilarityTransform(dx: Double(width) / 2, dy: Double(height) / 2))
            let image = try picture.warped(by: truth, frame: PixelSize(width: width, height: height)).materialized()
            return Photo(image: image, truth: truth, brightness: brightness)
        }
    }

    /// The base picture of a corpus photo: upright, 8-bit sRGB, its long edge `longEdge`.
    public static func base(_ corpusPath: String, longEdge: Int) throws -> Image {
        let file = try Corpus.file(corpusPath)
        return try Image.thumbnail(file.path, width: longEdge, height: longEdge).eightBitRGB().materialized()
    }
}
