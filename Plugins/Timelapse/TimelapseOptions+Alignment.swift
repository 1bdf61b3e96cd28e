import DarkroomAlignment
import DarkroomOptions

/// The options of aligned time-lapses (issue 23): hand-held photos mapped onto one another.
extension TimelapseOptions {
    /// How photos are mapped onto one another: none, scene or face (shared with the then-and-now collage).
    public typealias Align = AlignmentChoice

    /// What happens to a photo that cannot be aligned: keep or drop.
    public typealias Unaligned = UnalignedChoice

    /// What an aligned photo shows where it does not reach the frame: crop or blur.
    public typealias Fill = FillChoice

    static let alignOption = StageOption.choice(
        "align", default: Align.none,
        "none: each photo as it is; scene: each photo mapped onto the one before it (and checked against the first) by what stays put (a plant's pot, a room), so only the subject moves; face: the eyes land at the same place in every photo. Aligned photos fill the frame, and the whole video is cropped once to what every photo covers: no black border, no pumping.")
    static let unalignedOption = StageOption.choice(
        "unaligned", default: Unaligned.drop,
        "With align: a photo that cannot be aligned (no face found, too few matching features, a move beyond plausible limits) is dropped, or kept as it is; either way it is listed with the reason.")

    static let fillOption = StageOption.choice(
        "fill", default: Fill.crop,
        "With align: crop, the whole video is cropped once to what every aligned photo covers (and enlarged back to its size); blur, the full frame is kept and what a photo does not cover is filled from a blurred copy of it scaled to cover the frame. No black border either way.")
        .keyedOnlyWhenNotDefault()  // added after aligned time-lapses were made: at crop they keep their work

    /// The options above, in the order they are documented.
    static let alignmentOptions: [any OptionDeclaration] = [alignOption, unalignedOption, fillOption]
}
