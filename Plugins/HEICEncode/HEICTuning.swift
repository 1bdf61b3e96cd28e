/// heic-encode's default x265 settings, chosen by `Benchmarks/heic-quality.sh` on the corpus's real
/// camera photos at 2048 px (README, "HEIC defaults, measured"): the least CPU time at bytes within 1%
/// of, and quality (SSIM, SSIMULACRA2) no lower than, the previous default, preset medium at quality
/// 50. For one intra frame `veryfast` is the same encode as `medium` (bytes +0.1%, equal SSIM and
/// SSIMULACRA2) for 2-4% less CPU, within the noise (fast makes the same files); nothing faster
/// reached those bytes and that quality together.
enum HEICTuning {
    /// The default libheif quality.
    static let quality = 50
    /// The default x265 preset.
    static let preset = "veryfast"
    /// x265 options the sweep chose on top of the default preset: none beat the preset alone.
    static let tunedOptions: [String: String] = [:]

    /// The x265 options to apply over `preset`: the measured tuning for the default preset, none for
    /// any other (a preset chosen by hand is taken as x265 defines it).
    static func x265Options(forPreset preset: String) -> [String: String] {
        preset == Self.preset ? tunedOptions : [:]
    }
}
