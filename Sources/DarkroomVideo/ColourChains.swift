import Foundation

/// The libavfilter chains that turn a stream's decoded frames into upright, scaled SDR pictures:
/// written once here for the poster frame and the transcoder.
///
/// - SDR: swscale with the stream's own matrix (BT.709 or BT.601) and range, as tagged, or as
///   players guess when untagged (BT.709 from 720 lines up, limited range unless `yuvj`).
/// - HDR (HLG, PQ): zimg to linear light, BT.2020 to BT.709 primaries, Hable's tone curve, then
///   BT.709's transfer: without it an HLG frame shown as BT.709 looks grey and washed out, and
///   libswscale alone cannot tone-map.
/// - Rotation: the display matrix's quarter turns applied to the pixels, after scaling (cheaper).
enum ColourChains {
    /// The pictures produced.
    enum Output {
        /// Packed 8-bit sRGB-like R'G'B' (BT.709 transfer), full range: for libvips.
        case rgb24
        /// 8-bit 4:2:0 Y'CbCr, BT.709 matrix, limited range: for the H.264 and HEVC encoders.
        case yuv420p
    }

    /// The chain from `stream`'s frames to `output` at `width` x `height` (as stored, before the
    /// turn), then turned upright when `upright`.
    static func chain(for stream: VideoStreamInfo, width: Int, height: Int, output: Output, upright: Bool) -> String {
        var filters = stream.hdr == nil ? sdr(stream, width: width, height: height, output: output)
                                        : toneMapped(stream, width: width, height: height, output: output)
        if upright { filters += rotation(stream.rotation) }
        return filters.joined(separator: ",")
    }

    /// FFmpeg's filters for a clockwise quarter-turn count.
    static func rotation(_ clockwise: Int) -> [String] {
        switch clockwise {
        case 90: return ["transpose=clock"]
        case 180: return ["hflip", "vflip"]
        case 270: return ["transpose=cclock"]
        default: return []
        }
    }

    private static func sdr(_ stream: VideoStreamInfo, width: Int, height: Int, output: Output) -> [String] {
        let matrix = swscaleMatrix(stream)
        let range = inputRange(stream) == "full" ? "pc" : "tv"
        switch output {
        case .rgb24:
            return ["scale=w=\(width):h=\(height):flags=bicubic:in_color_matrix=\(matrix):in_range=\(range):out_range=pc",
                    "format=rgb24", "setsar=1"]
        case .yuv420p:
            return ["scale=w=\(width):h=\(height):flags=bicubic:in_color_matrix=\(matrix):in_range=\(range)"
                        + ":out_color_matrix=bt709:out_range=tv",
                    "format=yuv420p", "setsar=1"]
        }
    }

    private static func toneMapped(_ stream: VideoStreamInfo, width: Int, height: Int, output: Output) -> [String] {
        // What the frames are, as tagged (zimg reads the frames' own tags when these are absent).
        var input = ""
        if let transfer = stream.colourTransfer { input += ":tin=\(transfer)" }
        if let primaries = stream.colourPrimaries { input += ":pin=\(primaries)" }
        if let matrix = stream.colourMatrix { input += ":min=\(matrix)" }
        input += ":rin=\(inputRange(stream) == "full" ? "full" : "limited")"
        let last: [String]
        switch output {
        case .rgb24: last = ["zscale=t=bt709:p=bt709", "format=gbrp", "format=rgb24"]
        case .yuv420p: last = ["zscale=t=bt709:p=bt709:m=bt709:r=tv", "format=yuv420p"]
        }
        return ["zscale=w=\(width):h=\(height)\(input):t=linear:npl=100", "format=gbrpf32le", "zscale=p=bt709",
                "tonemap=hable:desat=0"] + last + ["setsar=1"]
    }

    /// The YCbCr matrix for swscale: as tagged, else what players assume for the frame height.
    static func swscaleMatrix(_ stream: VideoStreamInfo) -> String {
        switch stream.colourMatrix {
        case "bt709": return "bt709"
        case "smpte170m", "bt470bg": return "bt601"
        case "bt2020nc", "bt2020c": return "bt2020"
        case "fcc": return "fcc"
        case "smpte240m": return "smpte240m"
        default: return stream.codedHeight >= 720 ? "bt709" : "bt601"
        }
    }

    /// `full` or `limited`: as tagged, else full only for the JPEG-range pixel formats (`yuvj420p`).
    static func inputRange(_ stream: VideoStreamInfo) -> String {
        switch stream.colourRange {
        case "pc": return "full"
        case "tv": return "limited"
        default: return stream.pixelFormat?.hasPrefix("yuvj") == true ? "full" : "limited"
        }
    }
}
