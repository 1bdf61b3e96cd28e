internal import CVips

/// Which libvips loaders may decode a file, and why every other one is blocked: the one place the
/// project names them. `Vips.start` applies it (every loader blocked, then the allowed ones
/// unblocked), so a hostile file named `.jpg` reaches only the decoders listed here, whatever libvips
/// finds in it.
///
/// libvips sniffs a file's content, not its name, to choose a loader; blocking is what keeps an SVG
/// or a TIFF-based format renamed `.jpg` away from librsvg or libtiff's rarer codecs, and not loading
/// libvips' ImageMagick, poppler and OpenSlide modules at all keeps those libraries out of the process.
public struct LoaderPolicy: Sendable {
    /// One family of libvips loaders (its file, buffer and source variants).
    public struct Loader: Sendable, Equatable {
        /// The format, for people (`TIFF`, `SVG`).
        public var format: String
        /// The libvips base class of the family (`VipsForeignLoadTiff`); blocking or unblocking it
        /// applies to every class below it.
        public var className: String
        /// libvips' name for the file loader (`tiffload`), as its error messages say.
        public var nickname: String
        /// Why it is allowed or blocked.
        public var reason: String

        public init(format: String, className: String, nickname: String, reason: String) {
            self.format = format
            self.className = className
            self.nickname = nickname
            self.reason = reason
        }
    }

    /// The loaders that may run.
    public var allowed: [Loader]
    /// The loaders blocked, each with its reason. Every loader libvips has is in one of the two lists
    /// (a test checks that against the libvips in use, so a new loader cannot slip through unnamed).
    public var blocked: [Loader]

    /// The libvips modules to load (`heif` for `vips-modules-8.14/vips-heif.so`): those holding a
    /// loader the policy allows, or one whose refusal should say why. A module left out is never
    /// loaded: its loaders do not exist for this process, and a file only they would read is "not a
    /// known format".
    public var modules: [String]

    public init(allowed: [Loader], blocked: [Loader], modules: [String]) {
        self.allowed = allowed
        self.blocked = blocked
        self.modules = modules
    }

    /// The loader named by a libvips nickname (`tiffload`, `svgload_buffer`, `jxlload_source`), if the
    /// policy names its family.
    public func loader(nickname: String) -> Loader? {
        (allowed + blocked).first { nickname == $0.nickname || nickname.hasPrefix($0.nickname + "_") }
    }

    /// What a photo library may hold: camera and phone formats, PNG and WebP from screenshots and the
    /// web, and TIFF from scanners; nothing else.
    public static let photoLibrary = LoaderPolicy(
        allowed: [
            Loader(format: "JPEG", className: "VipsForeignLoadJpeg", nickname: "jpegload",
                   reason: "what cameras and phones write (libjpeg-turbo)"),
            Loader(format: "HEIF/HEIC/AVIF", className: "VipsForeignLoadHeif", nickname: "heifload",
                   reason: "what phones write (libheif with libde265, dav1d and libaom)"),
            Loader(format: "PNG", className: "VipsForeignLoadPng", nickname: "pngload",
                   reason: "screenshots and edited photos (libspng)"),
            Loader(format: "WebP", className: "VipsForeignLoadWebp", nickname: "webpload",
                   reason: "photos saved from the web and messengers (libwebp)"),
            Loader(format: "TIFF", className: "VipsForeignLoadTiff", nickname: "tiffload",
                   reason: "scans of prints and albums, 8 or 16 bit, any compression; the first page of a multi-page file (libtiff)"),
        ],
        blocked: [
            Loader(format: "JPEG XL", className: "VipsForeignLoadJxl", nickname: "jxlload",
                   reason: "libvips 8.14 marks its JPEG XL loader (libjxl 0.7) untrusted; .jxl files are passed over"),
            Loader(format: "GIF", className: "VipsForeignLoadNsgif", nickname: "gifload",
                   reason: "animations and graphics, not photos"),
            Loader(format: "ImageMagick formats", className: "VipsForeignLoadMagick", nickname: "magickload",
                   reason: "hundreds of formats through ImageMagick: an attack surface a photo library does not need"),
            Loader(format: "PDF", className: "VipsForeignLoadPdf", nickname: "pdfload",
                   reason: "a document, not a photo (poppler; untrusted in libvips)"),
            Loader(format: "SVG", className: "VipsForeignLoadSvg", nickname: "svgload",
                   reason: "a drawing, not a photo (librsvg; untrusted in libvips)"),
            Loader(format: "JPEG 2000", className: "VipsForeignLoadJp2k", nickname: "jp2kload",
                   reason: "not written by cameras or phones (OpenJPEG; untrusted in libvips)"),
            Loader(format: "Matlab", className: "VipsForeignLoadMat", nickname: "matload",
                   reason: "scientific data, not photos (untrusted in libvips)"),
            Loader(format: "FITS", className: "VipsForeignLoadFits", nickname: "fitsload",
                   reason: "astronomy data, not photos (untrusted in libvips)"),
            Loader(format: "OpenEXR", className: "VipsForeignLoadOpenexr", nickname: "openexrload",
                   reason: "HDR renders, not photos (untrusted in libvips)"),
            Loader(format: "OpenSlide", className: "VipsForeignLoadOpenslide", nickname: "openslideload",
                   reason: "microscope slides (untrusted in libvips); it also claims tiled TIFFs, which tiffload reads instead"),
            Loader(format: "Analyze", className: "VipsForeignLoadAnalyze", nickname: "analyzeload",
                   reason: "medical imaging, not photos (untrusted in libvips)"),
            Loader(format: "Radiance", className: "VipsForeignLoadRad", nickname: "radload",
                   reason: "HDR renders, not photos (untrusted in libvips)"),
            Loader(format: "PPM/PGM/PFM", className: "VipsForeignLoadPpm", nickname: "ppmload",
                   reason: "uncompressed interchange files, not photos (untrusted in libvips)"),
            Loader(format: "VIPS", className: "VipsForeignLoadVips", nickname: "vipsload",
                   reason: "libvips' own format (untrusted in libvips)"),
            Loader(format: "CSV", className: "VipsForeignLoadCsv", nickname: "csvload",
                   reason: "text, not photos (untrusted in libvips)"),
            Loader(format: "matrix", className: "VipsForeignLoadMatrix", nickname: "matrixload",
                   reason: "libvips' convolution matrices, not photos"),
            Loader(format: "raw pixel data", className: "VipsForeignLoadRaw", nickname: "rawload",
                   reason: "headerless pixels, not camera RAW (untrusted in libvips)"),
        ],
        // HEIF for phones' photos; JPEG XL so that a .jxl export is refused with its reason. Not
        // magick, poppler or openslide: their loaders are blocked, and loading them (with ImageMagick's,
        // poppler's and OpenSlide's own libraries) cost every process about 20 ms.
        modules: ["heif", "jxl"])

    /// Whether the loader named by a libvips nickname may run.
    public func allows(nickname: String) -> Bool {
        allowed.contains { nickname == $0.nickname || nickname.hasPrefix($0.nickname + "_") }
    }

    /// libvips' `NAME: operation is blocked` lines with the format and the reason added, so that a
    /// refused file says why (`svgload: operation is blocked (SVG: a drawing, not a photo...)`).
    func explained(_ message: String) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let range = line.range(of: ": operation is blocked"),
                  let loader = loader(nickname: String(line[..<range.lowerBound])) else { return String(line) }
            return "\(line) (Darkroom does not read \(loader.format): \(loader.reason))"
        }.joined(separator: "\n")
    }
}

/// A loader class of the libvips in use, as it stands now.
public struct VipsLoaderClass: Sendable, Equatable {
    /// The GType name (`VipsForeignLoadTiffFile`).
    public var className: String
    /// libvips' name for it (`tiffload`, `tiffload_buffer`).
    public var nickname: String
    /// Whether libvips marks it untrusted (not fuzzed, or a library libvips does not vouch for).
    public var isUntrusted: Bool
    /// Whether it is blocked now.
    public var isBlocked: Bool
}

extension Vips {
    /// Refuses the file at `path` unless the loader libvips would choose for it (by content, not by
    /// name) is one the policy allows. Called before a loader is built, because libvips 8.14 checks the
    /// block only after some loaders have parsed the file (pdfload hands a damaged PDF to poppler first).
    static func checkLoader(for path: String, operation: String) throws {
        guard let found = calling({ darkroom_vips_find_load(path) }) else {
            throw failure(of: operation, path: path) { darkroom_vips_find_load(path) != nil }
        }
        let nickname = String(cString: found)
        let policy = self.policy ?? .photoLibrary
        guard policy.allows(nickname: nickname) else {
            throw VipsError(operation: operation, message: policy.explained("\(nickname): operation is blocked"))
        }
    }

    /// Every concrete loader class of the libvips in use (file, buffer and source variants), with
    /// whether it is untrusted and whether it is blocked now; empty before `start`.
    public static func loaderClasses() -> [VipsLoaderClass] {
        guard isStarted else { return [] }
        final class Found { var classes: [VipsLoaderClass] = [] }
        let found = Found()
        withExtendedLifetime(found) {
            darkroom_vips_loaders({ className, nickname, flags, context in
                guard let className, let nickname, let context else { return }
                let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
                found.classes.append(VipsLoaderClass(className: String(cString: className), nickname: String(cString: nickname),
                                                     isUntrusted: flags & Int32(VIPS_OPERATION_UNTRUSTED.rawValue) != 0,
                                                     isBlocked: flags & Int32(VIPS_OPERATION_BLOCKED.rawValue) != 0))
            }, Unmanaged.passUnretained(found).toOpaque())
        }
        return found.classes.sorted { $0.className < $1.className }
    }
}
