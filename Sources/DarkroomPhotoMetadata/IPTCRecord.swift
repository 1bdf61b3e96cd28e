import Foundation

/// What an IPTC-IIM block says about a photo (the metadata Photoshop, Picasa and newsroom tools
/// wrote before XMP): keywords, caption, by-line and object name. libvips hands the block over as
/// `iptc-data`: a JPEG's whole Photoshop APP13 segment (`Photoshop 3.0`, then `8BIM` resources, the
/// IIM in resource 0x0404), or a TIFF's bare IIM (tag 33723). Every length is checked; a damaged
/// block yields the datasets read before the damage.
public struct IPTCRecord: Equatable, Sendable {
    /// 2:25 Keywords, in order.
    public var keywords: [String] = []
    /// 2:120 Caption-Abstract.
    public var caption: String?
    /// 2:80 By-line (the creators), in order.
    public var byLine: [String] = []
    /// 2:05 Object Name (the title).
    public var objectName: String?

    /// More datasets than this is not a photo's.
    static let maximumDatasets = 10_000
    static let photoshopSignature = Array("Photoshop 3.0\0".utf8)

    /// Reads `block` (a Photoshop APP13 segment or bare IIM); nil when it holds no IIM at all.
    public init?(_ block: Data) {
        let bytes = [UInt8](block)
        guard let iim = bytes.starts(with: Self.photoshopSignature) ? Self.iimResource(in: bytes) : bytes,
              iim.first == 0x1C else { return nil }
        var texts: [(record: UInt8, dataset: UInt8, value: [UInt8])] = []
        var position = 0
        while texts.count < Self.maximumDatasets, position + 5 <= iim.count, iim[position] == 0x1C {
            var length = Int(iim[position + 3]) << 8 | Int(iim[position + 4])
            var start = position + 5
            if length & 0x8000 != 0 {  // extended dataset: the length's length, then the length
                let width = length & 0x7FFF
                guard width <= 4, start + width <= iim.count else { break }
                length = iim[start..<start + width].reduce(0) { $0 << 8 | Int($1) }
                start += width
            }
            guard length <= iim.count - start else { break }
            texts.append((iim[position + 1], iim[position + 2], Array(iim[start..<start + length])))
            position = start + length
        }
        // 1:90 Coded Character Set: ESC % G is UTF-8; without it, text that is not UTF-8 is Windows-1252.
        let utf8 = texts.contains { $0.record == 1 && $0.dataset == 90 && $0.value == [0x1B, 0x25, 0x47] }
        func text(_ raw: [UInt8]) -> String? {
            let decoded = (utf8 ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self))
                ?? String(data: Data(raw), encoding: .windowsCP1252) ?? String(decoding: raw, as: UTF8.self)
            let trimmed = decoded.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
            return trimmed.isEmpty ? nil : trimmed
        }
        for dataset in texts where dataset.record == 2 {
            switch dataset.dataset {
            case 25: text(dataset.value).map { keywords.append($0) }
            case 80: text(dataset.value).map { byLine.append($0) }
            case 120: caption = caption ?? text(dataset.value)
            case 5: objectName = objectName ?? text(dataset.value)
            default: break
            }
        }
    }

    /// The IIM of resource 0x0404 of a Photoshop image resource block, if any.
    static func iimResource(in bytes: [UInt8]) -> [UInt8]? {
        var position = photoshopSignature.count
        for _ in 0..<4096 {
            guard position + 12 <= bytes.count, bytes[position..<position + 4].elementsEqual(Array("8BIM".utf8)) else { return nil }
            let id = Int(bytes[position + 4]) << 8 | Int(bytes[position + 5])
            let nameLength = Int(bytes[position + 6])
            let nameField = (1 + nameLength + 1) & ~1  // a Pascal string padded to an even length
            let sizeAt = position + 6 + nameField
            guard sizeAt + 4 <= bytes.count else { return nil }
            let size = bytes[sizeAt..<sizeAt + 4].reduce(0) { $0 << 8 | Int($1) }
            let dataAt = sizeAt + 4
            guard size <= bytes.count - dataAt else { return nil }
            if id == 0x0404 { return Array(bytes[dataAt..<dataAt + size]) }
            position = dataAt + size + size % 2
        }
        return nil
    }
}
