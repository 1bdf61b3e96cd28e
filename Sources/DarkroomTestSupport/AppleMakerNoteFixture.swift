import Foundation

/// An iPhone-style Apple maker note made byte by byte (big-endian): tag 0x0001 (an integer),
/// 0x000B BurstUUID and 0x0011 MediaGroupUUID, the strings stored after the IFD, offsets from the
/// note's start. exiftool writes it into a JPEG with `-MakerNotes<=file` (with `-Make=Apple`).
public enum AppleMakerNoteFixture {
    /// The note's bytes, with `burst` as its BurstUUID and `contentIdentifier` as its MediaGroupUUID.
    public static func bytes(burst: String, contentIdentifier: String) -> Data {
        let strings = [burst, contentIdentifier].map { Array($0.utf8) + [0] }
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8)
        let big = { (value: Int, bytes: Int) in (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        note += big(3, 2)
        var dataOffset = note.count + 3 * 12 + 4
        note += big(0x0001, 2) + big(9, 2) + big(1, 4) + big(12, 4)
        for (tag, string) in zip([0x000B, 0x0011], strings) {
            note += big(tag, 2) + big(2, 2) + big(string.count, 4) + big(dataOffset, 4)
            dataOffset += string.count
        }
        note += big(0, 4)
        return Data(note + strings.flatMap { $0 })
    }
}
