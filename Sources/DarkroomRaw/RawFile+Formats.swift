extension RawFile {
    /// The extensions of the RAW formats Darkroom decodes with LibRaw 0.20 (Debian 12's build), for
    /// import globs: lower case, without the dot. Sigma's X3F is left out: Debian's LibRaw 0.20 is
    /// built without X3F support (`libraw_open_file` says "unsupported"), although `RawMetadata`
    /// reads its dates.
    public static let fileExtensions: [String] = [
        "cr2", "cr3", "crw",            // Canon
        "nef", "nrw",                   // Nikon
        "arw", "sr2", "srf",            // Sony
        "dng",                          // Adobe DNG: Leica, Pentax, Ricoh, iPhone ProRAW, Google Pixel...
        "raf",                          // Fujifilm
        "orf",                          // Olympus / OM System
        "rw2", "rwl",                   // Panasonic, Leica
        "pef",                          // Pentax
        "srw",                          // Samsung
        "3fr", "fff",                   // Hasselblad
        "iiq",                          // Phase One
        "mrw",                          // Minolta
        "kdc", "dcr",                   // Kodak
        "erf",                          // Epson
        "mef",                          // Mamiya
        "mos",                          // Leaf
        "raw",                          // Panasonic and Leica before RW2, Kyocera (Contax N Digital)
    ]

    /// Whether `path` ends in one of `fileExtensions` (any case).
    public static func isRaw(path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), path[dot...].count > 1 else { return false }
        return fileExtensions.contains(path[path.index(after: dot)...].lowercased())
    }
}
