import DarkroomAlignment
import DarkroomModel
import DarkroomCore
import DarkroomVips
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decoded photos kept between the two passes of an aligned or animated time-lapse, so that each
/// photo is decoded once: the first pass decodes (and aligns) every photo and appends its pixels
/// here, the second reads them back to warp, caption and encode once the crop for the whole video is
/// known.
///
/// Raw 8-bit RGB in one file in the library's temp folder, unlinked as soon as it is open: nothing
/// is left behind whatever happens, and the pages sit in the kernel's page cache (written back to disk
/// under memory pressure), not in the process. A 12 MP JPEG decoded for a 1080p frame takes 9 MB.
final class PhotoStore: @unchecked Sendable {  // Sendable: appends come from one thread, reads use pread.
    /// Where one photo's pixels are.
    struct Slot: Sendable, Hashable {
        var offset: Int64
        var size: PixelSize

        var byteCount: Int { size.width * size.height * 3 }
    }

    private let descriptor: Int32
    private var end: Int64 = 0

    /// A new, empty store in `folder` (created if need be).
    init(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("timelapse-\(UUID().uuidString).frames").path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StageError("cannot make the time-lapse's temporary file \(path): \(String(cString: strerror(errno)))") }
        unlink(path)
    }

    deinit { close(descriptor) }

    /// The bytes stored so far.
    var byteCount: Int64 { end }

    /// Appends `image` (8-bit RGB, any size) and says where it went.
    func append(_ image: Image) throws -> Slot {
        let pixels = try image.pixelBytes()
        let slot = Slot(offset: end, size: PixelSize(width: image.width, height: image.height))
        guard image.bands == 3, pixels.count == slot.byteCount else {
            throw StageError("internal: a stored photo must be 8-bit RGB, got \(image.bands) bands and \(pixels.count) bytes for \(slot.size)")
        }
        try pixels.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let written = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(end) + off_t(done))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw StageError("cannot write the time-lapse's temporary file: \(String(cString: strerror(errno)))") }
                done += written
            }
        }
        end += Int64(pixels.count)
        return slot
    }

    /// The photo at `slot`, as an 8-bit sRGB image.
    func image(_ slot: Slot) throws -> Image {
        try Image.rgb(try pixels(slot), width: slot.size.width, height: slot.size.height)
    }

    /// The photo at `slot`: its packed 8-bit RGB pixels, row after row.
    func pixels(_ slot: Slot) throws -> Data {
        var pixels = Data(count: slot.byteCount)
        try pixels.withUnsafeMutableBytes { raw in
            var done = 0
            while done < raw.count {
                let read = pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(slot.offset) + off_t(done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { throw StageError("cannot read the time-lapse's temporary file: \(read == 0 ? "it ends early" : String(cString: strerror(errno)))") }
                done += read
            }
        }
        return pixels
    }
}
