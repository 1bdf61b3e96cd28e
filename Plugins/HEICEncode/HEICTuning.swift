/// heic-encode's default x265 settings, chosen by `Benchmarks/heic-quality.sh` on the corpus's real
/// camera photos at 2048 px (README, "HEIC defaults, measured"): the least CPU time at no more bytes
/// and no less quality (SSIM, SSIMULACRA2) than the previous default, preset medium at quality 50.
enum HEICTuning {
    /// The default libheif quality.
    static let quality = 50
    /// The default x265 preset.
    static let preset = "medium"
    /// x265 options the sweep chose on top of the default preset.
    static let tunedOptions: [String: String] = [:]

    /// The x265 options to apply over `preset`: the measured tuning for the default preset, none for
    /// any other (a preset chosen by hand is taken as x265 defines it).
    static func x265Options(forPreset preset: String) -> [String: String] {
        preset == Self.preset ? tunedOptions : [:]
    }
}
