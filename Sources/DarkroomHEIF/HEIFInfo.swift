internal import CHeif
import Foundation

/// What a HEIF file's primary image declares, read without decoding pixels.
public struct HEIFInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Bits per luma sample (8 for the files Darkroom writes).
    public var lumaBitDepth: Int
    /// Whether an EXIF block is attached.
    public var hasExif: Bool
    /// Whether an ICC profile (`prof` or `rICC`) is attached.
    public var hasICCProfile: Bool
    /// The EXIF block as stored (a 4-byte offset then TIFF data), if any.
    public var exif: Data?

    /// Reads the primary image's header of a HEIF file.
    public static func read(_ path: String) throws -> HEIFInfo {
        let context = try HEIFContext()
        try HEIFError.check(heif_context_read_from_file(context.pointer, path, nil), "read \(path)")
        var handle: OpaquePointer?
        try HEIFError.check(heif_context_get_primary_image_handle(context.pointer, &handle), "primary image")
        defer { heif_image_handle_release(handle) }
        var exifID: heif_item_id = 0
        let exifCount = heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &exifID, 1)
        var exif: Data?
        if exifCount > 0 {
            let size = heif_image_handle_get_metadata_size(handle, exifID)
            var buffer = Data(count: size)
            let error = buffer.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, exifID, $0.baseAddress) }
            if error.code == heif_error_Ok { exif = buffer }
        }
        let profile = heif_image_handle_get_color_profile_type(handle)
        return HEIFInfo(width: Int(heif_image_handle_get_width(handle)),
                        height: Int(heif_image_handle_get_height(handle)),
                        lumaBitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(handle)),
                        hasExif: exifCount > 0,
                        hasICCProfile: profile == heif_color_profile_type_prof || profile == heif_color_profile_type_rICC,
                        exif: exif)
    }
}
