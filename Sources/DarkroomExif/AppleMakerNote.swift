import Foundation

/// Apple's maker note (EXIF tag 0x927C of iPhone photos), read from its raw bytes.
///
/// Layout: `Apple iOS\0`, a 16-bit version, a byte-order mark (`MM` or `II`), then an IFD whose
/// value offsets count from the start of the maker note, not from the TIFF header. libexif 0.6.24
/// knows the tags but resolves those offsets against the wrong base, so its values for tags stored
/// out of line (the Live Photo identifier among them) are garbage; this reads them itself. Every
/// read is bounds-checked: hostile or truncated maker notes yield nil, never a crash.
public struct AppleMakerNote: Sendable, Equatable {
    /// The maker note's bytes, as stored.
    public let bytes: Data

    /// The signature every Apple maker note starts with.
    static let signature: [UInt8] = Array("Apple iOS\0".utf8)
    /// Where the byte-order mark and the IFD start, after the signature and the version.
    static let byteOrderOffset = 12
    static let ifdOffset = 14
    /// Tag 0x0011 (exiftool's MediaGroupUUID).
    static let contentIdentifierTag: UInt16 = 0x0011
    /// Tag 0x000B (exiftool's BurstUUID).
    static let burstIdentifierTag: UInt16 = 0x000B
    /// Longer ASCII values than this are not identifiers; they are not read.
    static let maximumStringLength = 1024

    /// Wraps `makerNote` when it starts with Apple's signature and a byte-order mark; nil otherwise.
    public init?(_ makerNote: Data) {
        let prefix = [UInt8](makerNote.prefix(Self.ifdOffset))
        guard prefix.count == Self.ifdOffset, prefix.starts(with: Self.signature) else { return nil }
        let mark = prefix[Self.byteOrderOffset..<Self.ifdOffset]
        guard mark.elementsEqual([0x4D, 0x4D]) || mark.elementsEqual([0x49, 0x49]) else { return nil }
        bytes = makerNote
    }

    /// The Live Photo identifier of the still (tag 0x0011, exiftool's `MediaGroupUUID`): a UUID
    /// string equal to the paired video's `com.apple.quicktime.content.identifier`. Nil when absent.
    public var contentIdentifier: String? { string(Self.contentIdentifierTag) }

    /// The burst identifier (tag 0x000B, exiftool's `BurstUUID`): a UUID string shared by every
    /// frame of one burst. Nil when absent (not a burst frame).
    public var burstIdentifier: String? { string(Self.burstIdentifierTag) }

    /// An ASCII (or UNDEFINED) value of the maker note's IFD, cut at its first NUL and trimmed of
    /// whitespace; nil when absent, blank, implausibly long or out of bounds.
    public func string(_ tag: UInt16) -> String? {
        let raw = [UInt8](bytes)
        let view = TIFFBytes(bytes: raw, origin: 0, bigEndian: raw[Self.byteOrderOffset] == 0x4D)
        guard let count = view.uint16(atTIFFOffset: Self.ifdOffset) else { return nil }
        for index in 0..<Int(count) {
            let entry = Self.ifdOffset + 2 + 12 * index
            guard let entryTag = view.uint16(atTIFFOffset: entry), let type = view.uint16(atTIFFOffset: entry + 2),
                  let components = view.uint32(atTIFFOffset: entry + 4) else { return nil }
            guard entryTag == tag else { continue }
            guard type == 2 || type == 7, components > 0, components <= Self.maximumStringLength else { return nil }
            let length = Int(components)
            let start: Int
            if length <= 4 {
                start = entry + 8  // stored in the value field itself
            } else {
                guard let offset = view.uint32(atTIFFOffset: entry + 8) else { return nil }
                start = Int(offset)
            }
            guard start >= 0, start <= raw.count - length else { return nil }
            let text = raw[start..<start + length].prefix(while: { $0 != 0 })
            let decoded = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return decoded.isEmpty ? nil : decoded
        }
        return nil
    }
}
