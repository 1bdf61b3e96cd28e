import DarkroomVideo
import Foundation

extension PhotoRenderer {
    /// A video for people: an H.264 MP4 at most 1080p, its streams copied when they already are
    /// one (remuxed: what is not video or sound is left out, and so are its location tags unless
    /// `keepLocation`), else encoded again. For `--format original`, the original's bytes.
    func video(_ candidate: ExportCandidate, name: String, scratch: URL, made: inout [URL], modified: Date) throws -> ExportedFile {
        let original = URL(fileURLWithPath: candidate.asset.originalPath)
        if settings.format == .original {
            try requireFile(original)
            return ExportedFile(name: name, content: .file(original, temporary: false), modified: modified)
        }
        let source = candidate.libraryFile.map { library.appendingPathComponent($0) } ?? original
        try requireFile(source)
        let info = try VideoInfo.read(path: source.path, pixelLimit: settings.pixelLimit)
        let temporary = TemporaryName.beside(name, in: scratch)
        made.append(temporary)
        if VideoRemux.isShareable(info, longEdge: ExportSettings.videoLongEdge) {
            try VideoRemux.remuxForSharing(from: source.path, to: temporary.path, keepLocation: settings.keepLocation,
                                           pixelLimit: settings.pixelLimit)
        } else {
            let encoding = TranscodeSettings(codec: .h264, longEdge: ExportSettings.videoLongEdge, crf: 23, preset: "medium")
            _ = try VideoTranscode.run(from: source.path, to: temporary.path, settings: encoding, pixelLimit: settings.pixelLimit,
                                       keepLocation: settings.keepLocation)
        }
        return ExportedFile(name: name, content: .file(temporary, temporary: true), modified: modified)
    }

    /// A still's motion part beside it: a Live Photo's MOV stays a MOV, a motion photo's video an
    /// MP4, their streams copied as they are; without `keepLocation` their location tags are left
    /// out. For `--format original` (or with the location kept), the file's bytes as imported.
    func motionPart(_ motion: MotionPart, name: String, scratch: URL, made: inout [URL], modified: Date) throws -> ExportedFile {
        let libraryFile = library.appendingPathComponent(motion.libraryFile)
        if settings.format == .original || settings.keepLocation {
            let source = settings.format == .original ? motion.originalPath.map { URL(fileURLWithPath: $0) } ?? libraryFile : libraryFile
            try requireFile(source)
            return ExportedFile(name: name, content: .file(source, temporary: false), modified: modified)
        }
        try requireFile(libraryFile)
        let temporary = TemporaryName.beside(name, in: scratch)
        made.append(temporary)
        let container = libraryFile.pathExtension.lowercased() == "mov" ? "mov" : "mp4"
        try VideoRemux.remuxForSharing(from: libraryFile.path, to: temporary.path, container: container, keepLocation: false,
                                       pixelLimit: settings.pixelLimit)
        return ExportedFile(name: name, content: .file(temporary, temporary: true), modified: modified)
    }
}
