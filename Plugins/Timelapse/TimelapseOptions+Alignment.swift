import DarkroomOptions

/// The options of aligned time-lapses (issue 23): hand-held photos mapped onto one another.
extension TimelapseOptions {
    /// How photos are mapped onto one another.
    public enum Align: String, Codable, Sendable, CaseIterable {
        /// As they are (each fitted to the frame on its own).
        case none
        /// What stays put (a plant's pot, a room, a view) stays put: each photo onto the first.
        case scene
        /// The eyes land at the same place of the frame in every photo (a face over a year).
        case face
    }

    /// What happens to a photo that cannot be aligned.
    public enum Unaligned: String, Codable, Sendable, CaseIterable {
        /// Shown as it is, filling the frame (a warning names it and says why).
        case keep
        /// Left out (reported with the reason).
        case drop
    }

    static let alignOption = StageOption.choice(
        "align", default: Align.none,
        "none: each photo as it is; scene: each photo mapped onto the one before it (and checked against the first) by what stays put (a plant's pot, a room), so only the subject moves; face: the eyes land at the same place in every photo. Aligned photos fill the frame, and the whole video is cropped once to what every photo covers: no black border, no pumping.")
    static let unalignedOption = StageOption.choice(
        "unaligned", default: Unaligned.drop,
        "With align: a photo that cannot be aligned (no face found, too few matching features, a move beyond plausible limits) is dropped, or kept as it is; either way it is listed with the reason.")

    /// The options above, in the order they are documented.
    static let alignmentOptions: [any OptionDeclaration] = [alignOption, unalignedOption]
}
