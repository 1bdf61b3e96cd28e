internal import CFFmpeg
import Foundation

/// Animated images for messaging apps, which play them inline without a tap.
public enum AnimationFormat: String, Sendable, CaseIterable, Codable {
    /// Animated GIF: 256 colours a frame (each frame its own palette, dithered), plays everywhere.
    case gif
    /// Animated WebP (lossy VP8 frames through libwebp): full colour, much smaller than GIF.
    case webp

    /// The file name extension (without the dot).
    public var fileExtension: String { rawValue }

    /// The clock of the format's frame delays, in ticks a second: GIF stores delays in 1/100 s,
    /// WebP in milliseconds.
    public var ticksPerSecond: Int { self == .gif ? 100 : 1000 }

    /// The FFmpeg encoder.
    var encoderName: String { self == .gif ? "gif" : "libwebp_anim" }

    /// The pixel format the encoder is given: palette images for GIF; BGRA for WebP, so libwebp
    /// makes its own (BT.601) Y'CbCr, which is what WebP decoders assume.
    var encoderPixelFormat: AVPixelFormat { self == .gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_BGRA }

    /// The label of a GIF's fixed palette input in `filterChain`.
    static let paletteLabel = "palette"

    /// The filters between the RGB pictures (`[in]`) and the encoder. For GIF, with a palette a
    /// frame, each picture's own (`palettegen` with `stats_mode=single` outputs one palette per
    /// frame, so nothing waits for the end) taken anew for every frame (`paletteuse` with `new=1`);
    /// with `fixedPalette`, the one palette given at `[palette]`, each frame dithered again only
    /// where it differs from the last (`diff_mode=rectangle`), so what stays the same stays the same
    /// bytes. Dithering is Sierra-2-4A error diffusion either way.
    func filterChain(fixedPalette: Bool) -> String {
        switch self {
        case .gif where fixedPalette:
            return "[in][\(Self.paletteLabel)]paletteuse=dither=sierra2_4a:diff_mode=rectangle"
        case .gif:
            return "[in]split[pictures][statistics];[statistics]palettegen=stats_mode=single:reserve_transparent=0[palette];"
                + "[pictures][palette]paletteuse=new=1:dither=sierra2_4a"
        case .webp:
            return "format=bgra"
        }
    }
}
