import Foundation

/// A size in PDF points (1/72 inch).
public struct PDFSize: Sendable, Hashable {
    public var width: Double
    public var height: Double

    /// `width` x `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Points in one millimetre.
    public static let pointsPerMillimetre = 72 / 25.4

    /// A size given in millimetres.
    public static func millimetres(width: Double, height: Double) -> PDFSize {
        PDFSize(width: width * pointsPerMillimetre, height: height * pointsPerMillimetre)
    }
}

/// A rectangle on a page in points, from the page's top-left corner, y going down.
public struct PDFRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// The rectangle at `x`, `y` (top-left) of `width` x `height` points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle moved in by `inset` points on every side (never below zero size).
    public func insetBy(_ inset: Double) -> PDFRect {
        PDFRect(x: x + inset, y: y + inset, width: max(0, width - 2 * inset), height: max(0, height - 2 * inset))
    }

    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
}

/// An opaque colour, each channel from 0 to 1.
public struct PDFColour: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    /// A colour from channels 0...1.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from 8-bit channels (0...255).
    public init(red8 red: Double, green8 green: Double, blue8 blue: Double) {
        self.init(red: red / 255, green: green / 255, blue: blue / 255)
    }

    public static let white = PDFColour(red: 1, green: 1, blue: 1)
    public static let black = PDFColour(red: 0, green: 0, blue: 0)
}
