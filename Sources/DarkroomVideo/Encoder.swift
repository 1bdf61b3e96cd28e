internal import CFFmpeg
import Foundation

/// An opened `AVCodecContext` for libx264 or libx265, set up for BT.709 yuv420p with the
/// time base 1/frame rate (a frame's pts is the frame period it starts at).
///
/// For `variable` timing the frames are far apart in time (a photo every 0.3 s):
/// - no B-frames: decode order is presentation order, so the MP4 has no composition offsets and no
///   edit list, and every sample's duration is its own. With B-frames, FFmpeg 5.1's MP4 reader
///   guesses every reordered frame's duration as one period, and the ffmpeg CLI retiming such a file
///   to a constant rate (`-r 30`: editors, upload pipelines) showed the first photo a frame short
///   and the last one 8 frames long. Each held photo is also a P- or I-frame of the same standing
///   rather than every other one a coarser B-frame. Measured on 40 Darkroom frames of 12 MP photos at
///   1080p, preset medium, CRF 20: 4% more x264 time and 10% more bytes than `bf 3`;
/// - a lookahead of `heldLookahead` frames rather than the preset's (40 at medium): x264 encodes
///   nothing until its lookahead is full and drains it at the end, so with one frame a photo the
///   first and last 40 photos were decoded and encoded one after the other instead of side by side
///   (a 40-photo time-lapse used 0.51 of the two cores). 10 frames is 3 s of a time-lapse at 0.3 s a
///   photo; measured on the same 40 frames, 40 and 10 give the same bytes (+0.01%) and SSIM;
/// - x264's rate control stays VFR-aware (its default, `force-cfr` off): it reads each frame's real
///   duration from the pts it is given (the writer stamps the real frame period), and spends bits on
///   a photo for as long as it is shown;
/// - scene-cut detection stays on (a new scene is a key frame); the key-frame interval, which the
///   encoders count in frames, is kept in time by `VideoWriter` (`VideoEncoding.keyframePeriods`),
///   and the forced key frames are IDR frames (`forced-idr`) so every one is a sync sample.
final class Encoder: EncoderContext {
    /// x264's and x265's lookahead, in frames, for `variable` timing.
    static let heldLookahead = 10

    let encoding: VideoEncoding

    /// Opens the encoder. `globalHeader` is set when the container wants codec headers out of band (MP4 does).
    /// `timeBase` replaces 1/frame rate for frames stamped in another time base (a transcode keeps
    /// its source's timestamps, so variable-rate phone video stays as it was).
    init(_ encoding: VideoEncoding, globalHeader: Bool, timeBase: AVRational? = nil) throws {
        self.encoding = encoding
        try super.init(encoderNamed: encoding.codec.encoderName)

        context.pointee.width = Int32(encoding.width)
        context.pointee.height = Int32(encoding.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = timeBase ?? AVRational(num: 1, den: Int32(encoding.frameRate))
        context.pointee.framerate = AVRational(num: Int32(encoding.frameRate), den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.thread_count = Int32(encoding.threads)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }

        var options = [("preset", encoding.preset), ("crf", String(encoding.crf))]
        var x265Parameters = ["log-level=error"]
        if encoding.frameTiming == .variable {
            context.pointee.max_b_frames = 0
            options.append(("forced-idr", "1"))
            if encoding.codec == .hevc {
                x265Parameters += ["bframes=0", "rc-lookahead=\(Self.heldLookahead)"]
            } else {
                options.append(("rc-lookahead", "\(Self.heldLookahead)"))
            }
        }
        if encoding.codec == .hevc { options.append(("x265-params", x265Parameters.joined(separator: ":"))) }
        try open(options: options)
    }
}
