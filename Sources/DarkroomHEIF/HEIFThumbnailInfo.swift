internal import CHeif
import Foundation

/// A thumbnail item of a HEIF file's primary image, as the file declares it (no pixels decoded).
public struct HEIFThumbnailInfo: Sendable, Equatable {
    /// Size as displayed (after any rotation box of the item).
    public var width: Int
    public var height: Int
    /// Bits per luma sample.
    public var lumaBitDepth: Int
    /// The ICC profile attached to the thumbnail item itself: what readers that show the item
    /// (Finder, Photos, file managers) convert its colours with.
    public var iccProfile: Data?

    /// The thumbnails of the primary image of the HEIF file at `path`, usually none or one.
    public static func read(_ path: String) throws -> [HEIFThumbnailInfo] {
        let context = try HEIFContext()
        try HEIFError.check(heif_context_read_from_file(context.pointer, path, nil), "read \(path)")
        var primary: OpaquePointer?
        try HEIFError.check(heif_context_get_primary_image_handle(context.pointer, &primary), "primary image")
        defer { heif_image_handle_release(primary) }
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        return try ids.prefix(listed).map { id in
            var handle: OpaquePointer?
            try HEIFError.check(heif_image_handle_get_thumbnail(primary, id, &handle), "thumbnail \(id)")
            defer { heif_image_handle_release(handle) }
            return HEIFThumbnailInfo(width: Int(heif_image_handle_get_width(handle)),
                                     height: Int(heif_image_handle_get_height(handle)),
                                     lumaBitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(handle)),
                                     iccProfile: rawColourProfile(of: handle))
        }
    }

    /// The raw ICC profile (`prof` or `rICC`) of an image handle, if any.
    private static func rawColourProfile(of handle: OpaquePointer?) -> Data? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = Data(count: size)
        let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return error.code == heif_error_Ok ? profile : nil
    }
}
