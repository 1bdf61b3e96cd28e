import Foundation
import DarkroomXMP

/// Metadata Working Group regions (`mwg-rs:Regions`: the faces digiKam, Lightroom, Picasa and
/// Apple Photos name) follow the stored pixels of the file they describe, before its EXIF
/// orientation is applied. A copy whose pixels were turned upright needs its regions turned the
/// same way, and `AppliedToDimensions` set to its own size, or faces land in the wrong place.
enum MWGRegions {
    static let name = XMPName(XMPNamespace.mwgRegions, "Regions")
    private static let rs = XMPNamespace.mwgRegions, area = XMPNamespace.mwgArea, dimensions = XMPNamespace.mwgDimensions

    /// `regions` for the copy: normalized areas turned by `orientation` (1...8) and the applied
    /// dimensions set to `width` x `height`. A value that is not a structure is left as it is.
    static func turned(_ regions: XMPValue, orientation: Int, width: Int, height: Int) -> XMPValue {
        guard case .structure(var fields) = regions else { return regions }
        for index in fields.indices {
            switch fields[index].name {
            case XMPName(rs, "AppliedToDimensions"):
                fields[index].value = .structure([XMPProperty(XMPName(dimensions, "w"), .text(String(width))),
                                                  XMPProperty(XMPName(dimensions, "h"), .text(String(height))),
                                                  XMPProperty(XMPName(dimensions, "unit"), .text("pixel"))])
            case XMPName(rs, "RegionList"):
                if case .array(let kind, let items) = fields[index].value {
                    fields[index].value = .array(kind, items.map { turnedRegion($0, orientation: orientation) })
                }
            default: break
            }
        }
        return .structure(fields)
    }

    /// One region with its normalized `mwg-rs:Area` turned.
    private static func turnedRegion(_ region: XMPValue, orientation: Int) -> XMPValue {
        guard case .structure(var fields) = region, let index = fields.firstIndex(where: { $0.name == XMPName(rs, "Area") }),
              case .structure(var areaFields) = fields[index].value else { return region }
        func number(_ local: String) -> Double? {
            areaFields.first { $0.name == XMPName(area, local) }?.value.text.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        let unit = areaFields.first { $0.name == XMPName(area, "unit") }?.value.text ?? "normalized"
        guard unit == "normalized", let x = number("x"), let y = number("y") else { return region }
        let (w, h) = (number("w"), number("h"))
        let turned = turn(x: x, y: y, w: w, h: h, orientation: orientation)
        for (local, value) in [("x", turned.x), ("y", turned.y), ("w", turned.w), ("h", turned.h)] {
            guard let value, let at = areaFields.firstIndex(where: { $0.name == XMPName(area, local) }) else { continue }
            areaFields[at].value = .text(format(value))
        }
        fields[index].value = .structure(areaFields)
        return .structure(fields)
    }

    /// A normalized centre and size in the stored image, seen after EXIF `orientation` is applied.
    static func turn(x: Double, y: Double, w: Double?, h: Double?, orientation: Int) -> (x: Double, y: Double, w: Double?, h: Double?) {
        switch orientation {
        case 2: return (1 - x, y, w, h)            // mirrored left to right
        case 3: return (1 - x, 1 - y, w, h)        // turned 180°
        case 4: return (x, 1 - y, w, h)            // mirrored top to bottom
        case 5: return (y, x, h, w)                // transposed
        case 6: return (1 - y, x, h, w)            // turned 90° clockwise
        case 7: return (1 - y, 1 - x, h, w)        // transversed
        case 8: return (y, 1 - x, h, w)            // turned 90° anticlockwise
        default: return (x, y, w, h)
        }
    }

    /// Six decimals without trailing zeros, as the writers of regions use.
    private static func format(_ value: Double) -> String {
        var text = String(format: "%.6f", min(max(value, 0), 1))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
