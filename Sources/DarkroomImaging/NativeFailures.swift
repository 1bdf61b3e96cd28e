import DarkroomModel
import DarkroomVideo
import DarkroomVips
import Foundation

extension StageError {
    /// `doing: libvips' reason`, with the kind of failure libvips' words say (see `FailureKind(_:)`).
    public static func image(_ doing: String, _ error: VipsError) -> StageError {
        StageError("\(doing): \(error)", kind: FailureKind(error))
    }
}

extension FailureKind {
    /// The kind of a libvips failure. libvips says why a load failed only in words (its loaders'
    /// messages), so they are read here, once, where its error becomes a stage's; nil for a reason
    /// of no particular kind.
    public init?(_ error: VipsError) {
        let text = error.message.lowercased()
        guard let kind = Self.libvipsWords.first(where: { $0.words.contains { text.contains($0) } })?.kind else { return nil }
        self = kind
    }

    /// libvips' and its loaders' (libjpeg, libpng, libwebp, libheif, libtiff) words, first match wins.
    private static let libvipsWords: [(words: [String], kind: FailureKind)] = [
        (["security limit exceeded"], .overPixelLimit),
        (["premature end", "truncated", "unexpected end of file", "not enough data", "end of stream", "the file is empty"], .truncated),
        (["not a known file format", "not in a known format", "operation is blocked", "unsupported feature", "unsupported image format"], .notAPhotoOrVideo),
        (["corrupt", "invalid jpeg file structure", "bad image dimensions", "invalid input", "undefined bits per pixel",
          "empty jpeg image", "read error", "decode error", "crc error", "bogus"], .corrupt),
    ]

    /// The kind of a video the video layer refused, from its typed reason.
    public init(_ error: VideoReadError) {
        switch error.reason {
        case .empty, .missingMovieBox: self = .truncated
        case .notAVideo: self = .notAPhotoOrVideo
        case .noVideoStream: self = .noVideoStream
        case .tooManyPixels: self = .overPixelLimit
        case .undecodable: self = .undecodableVideo
        case .unreadable: self = .corrupt
        }
    }
}
