import DarkroomISOBMFF
import Foundation

/// What one set of markers says about the video: where its bytes are, or why they cannot be.
struct VideoClaim: Equatable {
    var kind: MotionPhotoKind
    /// The markers making the claim, for messages (`XMP GCamera:MicroVideoOffset`, ...).
    var source: String
    var extent: Extent

    enum Extent: Equatable {
        /// `length` bytes at `offset` from the start of the file.
        case bytes(offset: UInt64, length: UInt64)
        /// The markers themselves do not lead to any bytes.
        case unusable(String)
    }

    /// The claim checked against the file: a location when the bytes are inside it and start with
    /// an MP4 `ftyp` box; otherwise why not.
    func verified(in file: ByteFile) throws -> Result<MotionPhotoLocation, Refusal> {
        switch extent {
        case .unusable(let why):
            return .failure(Refusal("\(source): \(why)"))
        case .bytes(let offset, let length):
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= file.size else {
                return .failure(Refusal("\(source) puts a video of \(length) bytes at offset \(offset), "
                    + "past the end of the file (\(file.size) bytes; truncated?)"))
            }
            guard let problem = try MP4Signature.problem(at: offset, length: length, in: file) else {
                return .success(.video(offset: offset, length: length, kind: kind))
            }
            return .failure(Refusal("\(source) puts a video of \(length) bytes at offset \(offset), but \(problem)"))
        }
    }

    /// Why a claim did not hold.
    struct Refusal: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

/// The first box of an MP4 (or QuickTime) file: `ftyp`.
enum MP4Signature {
    /// Nil when the `length` bytes at `offset` start with an `ftyp` box that fits inside them;
    /// otherwise what is wrong, in words.
    static func problem(at offset: UInt64, length: UInt64, in file: ByteFile) throws -> String? {
        guard length >= 8 else { return "that is too short to be an MP4" }
        return problem(inFirstBytes: try file.read(at: offset, count: 8), length: length)
    }

    /// The same check on bytes already read.
    static func problem(inFirstBytes bytes: [UInt8], length: UInt64) -> String? {
        let view = ByteView(bytes)
        guard view.matches("ftyp", at: 4), let size = view.uint32BE(0) else {
            let shown = bytes.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            return "those bytes do not start with an MP4 'ftyp' box (they start \(shown.isEmpty ? "with nothing" : shown))"
        }
        guard size >= 8, size <= length else { return "its 'ftyp' box declares \(size) bytes, which does not fit" }
        return nil
    }
}
