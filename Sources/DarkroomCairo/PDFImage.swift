internal import CCairo
import Foundation

/// A photo ready to be placed on a page: cairo image surface of its pixels, carrying its JPEG
/// file as MIME data, so that the PDF embeds that JPEG stream as is (DCTDecode, no re-encoding)
/// while cairo keeps the pixels for anything it must render itself. Owns the surface.
public final class PDFImage {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// The JPEG's size in bytes.
    public let jpegByteCount: Int

    let surface: OpaquePointer

    /// The photo of `width` x `height` pixels whose JPEG file is `jpeg` and whose decoded pixels
    /// are `rgb` (3 bytes a pixel, row by row, no padding: the same pixels the JPEG encodes).
    public init(jpeg: Data, rgb: Data, width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32_767, height <= 32_767 else {
            throw CairoError(path: nil, operation: "image surface", reason: "\(width) x \(height) pixels is outside cairo's 1...32767")
        }
        guard rgb.count == width * height * 3 else {
            throw CairoError(path: nil, operation: "image surface",
                             reason: "\(rgb.count) bytes of pixels for \(width) x \(height) RGB (expected \(width * height * 3))")
        }
        guard jpeg.starts(with: [0xFF, 0xD8]) else {
            throw CairoError(path: nil, operation: "image surface", reason: "the JPEG data does not start with a JPEG marker")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else {
            throw CairoError(path: nil, operation: "image surface", reason: "cairo returned no surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            throw CairoError(path: nil, operation: "image surface", status: status)
        }
        self.surface = surface
        self.width = width
        self.height = height
        self.jpegByteCount = jpeg.count
        Self.copy(rgb: rgb, into: pixels, stride: Int(cairo_image_surface_get_stride(surface)), width: width, height: height)
        cairo_surface_mark_dirty(surface)
        try attach(jpeg: jpeg)
    }

    deinit { cairo_surface_destroy(surface) }

    /// Packs RGB bytes into cairo's RGB24 (one native-endian 32-bit word a pixel, 0x00RRGGBB).
    private static func copy(rgb: Data, into pixels: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        rgb.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            let bytes = source.bindMemory(to: UInt8.self)
            for row in 0..<height {
                let line = UnsafeMutableRawPointer(pixels + row * stride).bindMemory(to: UInt32.self, capacity: width)
                var index = row * width * 3
                for column in 0..<width {
                    line[column] = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                    index += 3
                }
            }
        }
    }

    /// Attaches the JPEG file as the surface's `image/jpeg` MIME data; cairo frees its copy with
    /// the surface.
    private func attach(jpeg: Data) throws {
        guard let copy = malloc(jpeg.count) else {
            throw CairoError(path: nil, operation: "attach JPEG", reason: "out of memory for \(jpeg.count) bytes")
        }
        jpeg.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: jpeg.count) }
        let status = cairo_surface_set_mime_data(surface, darkroom_cairo_mime_type_jpeg(), copy.assumingMemoryBound(to: UInt8.self),
                                                 UInt(jpeg.count), free, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)  // not taken: cairo calls the destroy function only once it holds the data
            throw CairoError(path: nil, operation: "attach JPEG", status: status)
        }
    }
}
