extension String {
    /// The text FFmpeg wrote into a C buffer: up to its first NUL (all of it when it has none),
    /// ill-formed UTF-8 repaired as `String(cString:)` repairs it.
    init(filledBuffer buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
