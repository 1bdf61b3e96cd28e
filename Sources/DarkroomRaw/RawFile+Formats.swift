import DarkroomModel

extension RawFile {
    /// The extensions of the RAW formats Darkroom decodes with LibRaw 0.20 (Debian 12's build), lower
    /// case, without the dot: `MediaKind.rawPhotoExtensions`, where every kind of file is told apart.
    public static var fileExtensions: [String] { MediaKind.rawPhotoExtensions }
}
