internal import CVips

extension Image {
    /// The file an image was decoded from and how it was loaded: enough to load it again, alone, when
    /// an operation on it fails (see `Vips.failure(of:source:)`), and to keep only the error lines
    /// about this file.
    struct Source: Sendable {
        /// How the file was loaded, with the options that change what the decoder reports.
        enum Load: Sendable {
            case open(sequential: Bool, failOn: FailOn)
            case thumbnail(width: Int, height: Int, crop: Crop, failOn: FailOn, autoRotate: Bool, exportProfile: String?)
            case jpeg(shrink: Int, sequential: Bool, failOn: FailOn)
        }

        var path: String
        var load: Load

        /// Loads the file again as it was loaded, calling libvips directly (the caller holds the error
        /// buffer's gate alone, so this must not take it): the image, or nil with the reason in libvips'
        /// error buffer.
        func reload() -> UnsafeMutablePointer<CVips.VipsImage>? {
            switch load {
            case .open(let sequential, let failOn):
                return darkroom_vips_open(path, sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, failOn.c)
            case .thumbnail(let width, let height, let crop, let failOn, let autoRotate, let exportProfile):
                var out: UnsafeMutablePointer<CVips.VipsImage>?
                let result = darkroom_vips_thumbnail(path, &out, Int32(width), Int32(height), crop.c, failOn.c,
                                                     autoRotate ? 0 : 1, exportProfile)
                return result == 0 ? out : nil
            case .jpeg(let shrink, let sequential, let failOn):
                var out: UnsafeMutablePointer<CVips.VipsImage>?
                let result = darkroom_vips_jpegload_shrink(path, &out, Int32(shrink),
                                                           sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM, failOn.c)
                return result == 0 ? out : nil
            }
        }
    }
}
