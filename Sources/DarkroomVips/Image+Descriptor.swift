internal import CVips
import Foundation

extension Image {
    /// Opens the image in a file already open at `descriptor` for its header and metadata (EXIF, XMP,
    /// ICC): no pixel is decoded. libvips reads a duplicate of the descriptor, so the caller's stays
    /// open: it must be at the file's first byte, and is not read again by libvips once the image is
    /// released. `path` names the file in errors.
    public static func openHeader(descriptor: Int32, path: String, failOn: FailOn = .error) throws -> Image {
        // Loaded again, for a failure's reason, by its path.
        let source = Source(path: path, load: .open(sequential: false, failOn: failOn))
        guard let p = Vips.calling({ darkroom_vips_open_descriptor(descriptor, failOn.c) }) else {
            throw Vips.failure(of: "load", source: source)
        }
        return Image(taking: p, source: source)
    }
}
