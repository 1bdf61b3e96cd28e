import DarkroomCairo
import Foundation

/// The paper a book is printed on.
public enum PaperSize: String, Codable, Sendable, CaseIterable {
    /// ISO A4, 210 x 297 mm.
    case a4
    /// US Letter, 8.5 x 11 in.
    case letter
    /// A square book of 21 x 21 cm.
    case square

    /// The portrait page (width at most height), in points.
    var portrait: PDFSize {
        switch self {
        case .a4: return .millimetres(width: 210, height: 297)
        case .letter: return PDFSize(width: 612, height: 792)
        case .square: return .millimetres(width: 210, height: 210)
        }
    }

    /// Whether portrait and landscape differ.
    var hasOrientation: Bool { self != .square }
}

/// Which way up an oblong page is.
public enum PageOrientation: String, Codable, Sendable, CaseIterable {
    case portrait, landscape
}

/// A page: paper and orientation.
public struct PageSize: Codable, Sendable, Hashable {
    public var paper: PaperSize
    public var orientation: PageOrientation

    /// The page size in points.
    public var points: PDFSize {
        let size = paper.portrait
        return orientation == .landscape ? PDFSize(width: size.height, height: size.width) : size
    }
}
