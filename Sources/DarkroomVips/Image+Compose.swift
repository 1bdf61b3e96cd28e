internal import CVips
import Foundation

/// An 8-bit colour: RGB, with optional alpha (0...255 each).
public struct Colour: Sendable, Equatable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = Colour(red: 255, green: 255, blue: 255)
    public static let black = Colour(red: 0, green: 0, blue: 0)

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a few names (white, black, grey, red...).
    public init?(parsing text: String) {
        let names: [String: String] = ["white": "#ffffff", "black": "#000000", "grey": "#808080", "gray": "#808080",
                                       "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff", "yellow": "#ffff00",
                                       "transparent": "#00000000"]
        var hex = names[text.lowercased()] ?? text
        guard hex.hasPrefix("#") else { return nil }
        hex.removeFirst()
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let value = UInt64(hex, radix: 16) else { return nil }
        let v = hex.count == 6 ? value << 8 | 0xFF : value
        self.init(red: Double(v >> 24 & 0xFF), green: Double(v >> 16 & 0xFF), blue: Double(v >> 8 & 0xFF), alpha: Double(v & 0xFF))
    }

    /// The bands for an image with `bands` bands (3: RGB, 4: RGBA, 1: grey).
    func values(bands: Int) -> [Double] {
        switch bands {
        case 1: return [(red + green + blue) / 3]
        case 2: return [(red + green + blue) / 3, alpha]
        case 3: return [red, green, blue]
        default: return [red, green, blue, alpha]
        }
    }
}

/// How lines of text are aligned.
public enum TextAlignment: Sendable {
    case left, centre, right

    var c: VipsAlign {
        switch self {
        case .left: return VIPS_ALIGN_LOW
        case .centre: return VIPS_ALIGN_CENTRE
        case .right: return VIPS_ALIGN_HIGH
        }
    }
}

extension Image {
    /// A `width` x `height` image of one colour (RGB, or RGBA when the colour is not opaque or `alpha`).
    public static func solid(width: Int, height: Int, colour: Colour, alpha: Bool = false) throws -> Image {
        try Vips.requireStarted("solid")
        let values = colour.values(bands: alpha || colour.alpha < 255 ? 4 : 3)
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let result = values.withUnsafeBufferPointer { values in
            Vips.calling { darkroom_vips_solid(&out, Int32(width), Int32(height), values.baseAddress, Int32(values.count)) }
        }
        return try wrap(result, out, "solid")
    }

    /// Text rendered with Pango in `colour`, as an RGBA image sized to the text. `font` is a Pango
    /// description such as `"DejaVu Sans Bold 24"`; `wrapWidth` wraps lines at that many pixels.
    public static func text(_ text: String, font: String, colour: Colour, wrapWidth: Int? = nil,
                            alignment: TextAlignment = .left, dpi: Int = 72) throws -> Image {
        try Vips.requireStarted("text")
        var mask: UnsafeMutablePointer<CVips.VipsImage>?
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let result = Vips.calling { darkroom_vips_text(&mask, escaped, font, Int32(wrapWidth ?? 0), 0, alignment.c, Int32(dpi)) }
        let alphaMask = try wrap(result, mask, "text")
        let fill = try solid(width: alphaMask.width, height: alphaMask.height,
                             colour: Colour(red: colour.red, green: colour.green, blue: colour.blue))
        let scaledAlpha = colour.alpha >= 255 ? alphaMask : try alphaMask.linear(multiply: [colour.alpha / 255], add: [0])
        return try fill.derive("bandjoin") { darkroom_vips_bandjoin($0, scaledAlpha.pointer, $1) }
    }

    /// This image with `overlay` drawn over it (alpha-blended) at `x`, `y`; 8-bit result.
    public func composited(_ overlay: Image, x: Int, y: Int) throws -> Image {
        let blended = try derive("composite") { darkroom_vips_composite_over($0, overlay.pointer, $1, Int32(x), Int32(y)) }
        let eightBit = blended.isEightBit ? blended : try blended.derive("cast") { darkroom_vips_cast($0, $1, VIPS_FORMAT_UCHAR) }
        return eightBit
    }

    /// Places this image at `x`, `y` on a `width` x `height` canvas filled with `background`.
    public func embedded(x: Int, y: Int, width: Int, height: Int, background: Colour) throws -> Image {
        let values = background.values(bands: bands)
        return try derive("embed") { input, output in
            values.withUnsafeBufferPointer {
                darkroom_vips_embed(input, output, Int32(x), Int32(y), Int32(width), Int32(height), $0.baseAddress, Int32($0.count))
            }
        }
    }

    /// Rotated by any angle (degrees, clockwise), the new corners filled with `background`
    /// (use an RGBA image and a transparent background to composite the result).
    public func rotated(degrees: Double, background: Colour) throws -> Image {
        let values = background.values(bands: bands)
        return try derive("rotate") { input, output in
            values.withUnsafeBufferPointer { darkroom_vips_rotate(input, output, degrees, $0.baseAddress, Int32($0.count)) }
        }
    }

    /// This image's bands followed by `other`'s (of the same size): with a one-band `other`, this image
    /// with `other` as its alpha (a coverage mask to composite it by).
    public func joiningBands(_ other: Image) throws -> Image {
        try derive("bandjoin") { darkroom_vips_bandjoin($0, other.pointer, $1) }
    }

    /// A copy with an alpha band added (opaque), unless it has one.
    public func withAlpha() throws -> Image {
        hasAlpha ? self : try derive("addalpha") { darkroom_vips_addalpha($0, $1) }
    }

    /// A copy with filled (or outlined) rectangles drawn on it; this image is left as it was (the
    /// drawing is done on a fresh copy of the pixels, never on a buffer another image shares).
    public func drawingRectangles(_ rectangles: [(x: Int, y: Int, width: Int, height: Int)], colour: Colour,
                                  fill: Bool = true) throws -> Image {
        let canvas = try privateCopy()
        let values = colour.values(bands: canvas.bands)
        for r in rectangles {
            let result = values.withUnsafeBufferPointer { values in
                Vips.calling {
                    darkroom_vips_draw_rect(canvas.pointer, values.baseAddress, Int32(values.count), Int32(r.x), Int32(r.y),
                                            Int32(r.width), Int32(r.height), fill ? 1 : 0)
                }
            }
            guard result == 0 else { throw Vips.failure(of: "draw_rect", source: source) }
        }
        return canvas
    }

    /// `pixel * multiply + add` per band (one value applies to all bands), clipped to 8 bits.
    public func linear(multiply: [Double], add: [Double]) throws -> Image {
        let n = max(multiply.count, add.count)
        let a = multiply.count == n ? multiply : Array(repeating: multiply.first ?? 1, count: n)
        let b = add.count == n ? add : Array(repeating: add.first ?? 0, count: n)
        return try derive("linear") { input, output in
            a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
                darkroom_vips_linear(input, output, pa.baseAddress, pb.baseAddress, Int32(n))
            } }
        }
    }

    /// A Gaussian blur (for soft shadows).
    public func blurred(sigma: Double) throws -> Image {
        let out = try derive("gaussblur") { darkroom_vips_gaussblur($0, $1, sigma) }
        return out.isEightBit ? out : try out.derive("cast") { darkroom_vips_cast($0, $1, VIPS_FORMAT_UCHAR) }
    }
}
