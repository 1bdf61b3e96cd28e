internal import CVips
import Foundation

/// Photos made to be shared with people (`darkroom export --format jpeg`): small, upright, sRGB,
/// and carrying only the metadata the caller hands over.
extension Image {
    /// `path` decoded for sharing: shrunk on load to fit `longEdge` x `longEdge` (never enlarged),
    /// turned upright by its orientation, converted to sRGB through its embedded ICC profile
    /// (a Display P3 photo is converted, not re-tagged; an untagged one is taken as sRGB, and one
    /// tagged sRGB is left as it is), eight bits, alpha flattened onto white. Its original metadata
    /// is still attached (read `exifData` and `xmpData` to clean them); `writeSharedJPEG` drops it.
    public static func forSharing(_ path: String, longEdge: Int, failOn: FailOn = .error) throws -> Image {
        let shrunk = try thumbnail(path, width: longEdge, height: longEdge, failOn: failOn)
        let image = shrunk.needsConversionToSRGB ? try shrunk.converted(toProfile: "srgb") : shrunk
        return try image.flattened().eightBitRGB()
    }

    /// Whether the pixels must go through their embedded profile to be sRGB: they carry one that
    /// is not sRGB (Display P3, Adobe RGB, grey, CMYK). Untagged pixels are taken as sRGB.
    public var needsConversionToSRGB: Bool {
        guard let profile = iccProfile else { return false }
        return !ColourProfile(profile).isSRGB
    }

    /// Writes a baseline JPEG at `quality` whose only metadata is `exif` and `xmp` as given (already
    /// cleaned by the caller: `ExifBlob.forSharing`, `XMPPacket.removingLocation`) and the sRGB
    /// profile the pixels carry, if any. Nothing else of the original survives: libvips 8.14
    /// would otherwise write back IPTC, and EXIF tags from the `exif-ifd*` fields it parsed at load
    /// (GPS included) over the blob given. `stripMetadata` is not used: in 8.14 it drops the ICC
    /// profile as well.
    public func writeSharedJPEG(to path: String, quality: Int = 85, exif: Data?, xmp: Data?) throws {
        // The copy must outlive the save: its pointer alone does not keep it alive.
        let bare = try sharedCopy(exif: exif, xmp: xmp)
        let status = withExtendedLifetime(bare) { Vips.calling { darkroom_vips_jpegsave(bare.pointer, path, Int32(quality), 0) } }
        guard status == 0 else { throw Vips.failure(of: "jpegsave to \(path)", source: source) }
    }

    /// The same JPEG as `writeSharedJPEG`, in memory: the caller writes the bytes, so that a full
    /// disk is told by its `errno` rather than by libvips' words.
    public func sharedJPEGData(quality: Int = 85, exif: Data?, xmp: Data?) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let bare = try sharedCopy(exif: exif, xmp: xmp)
        let status = withExtendedLifetime(bare) {
            Vips.calling { darkroom_vips_jpegsave_buffer(bare.pointer, &buffer, &length, Int32(quality), 0) }
        }
        guard status == 0, let buffer else { throw Vips.failure(of: "jpegsave", source: source) }
        return Data(bytesNoCopy: buffer, count: length, deallocator: .custom { pointer, _ in darkroom_g_free(pointer) })
    }

    /// A flattened copy whose only metadata is `exif`, `xmp` and this image's ICC profile.
    private func sharedCopy(exif: Data?, xmp: Data?) throws -> Image {
        let profile = iccProfile
        let bare = try flattened().derive("copy") { darkroom_vips_copy_without_metadata($0, $1) }
        for (name, blob) in [("exif-data", exif), ("xmp-data", xmp), ("icc-profile-data", profile)] {
            guard let blob, !blob.isEmpty else { continue }
            blob.withUnsafeBytes { darkroom_vips_set_blob_copy(bare.pointer, name, $0.baseAddress, $0.count) }
        }
        return bare
    }
}
