/// A rectangle in canvas pixels (fractional until drawn).
struct Rect: Equatable, CustomStringConvertible {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var shortSide: Double { min(width, height) }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }

    /// Shrunk by `amount` on every side.
    func inset(by amount: Double) -> Rect {
        Rect(x: x + amount, y: y + amount, width: max(1, width - 2 * amount), height: max(1, height - 2 * amount))
    }

    /// The part of this rectangle given by relative coordinates (0...1 of its width and height).
    func relative(x rx: Double, y ry: Double, width rw: Double, height rh: Double) -> Rect {
        Rect(x: x + rx * width, y: y + ry * height, width: rw * width, height: rh * height)
    }

    /// The largest rectangle of `aspect` (width / height) that fits inside, centred.
    func fitted(aspect: Double) -> Rect {
        if width / height > aspect {
            let w = height * aspect
            return Rect(x: x + (width - w) / 2, y: y, width: w, height: height)
        }
        let h = width / aspect
        return Rect(x: x, y: y + (height - h) / 2, width: width, height: h)
    }

    /// Whole pixels: edges rounded, so neighbouring cells keep exact gutters.
    var pixels: (x: Int, y: Int, width: Int, height: Int) {
        let left = Int((x).rounded()), top = Int((y).rounded())
        let right = Int((x + width).rounded()), bottom = Int((y + height).rounded())
        return (left, top, max(1, right - left), max(1, bottom - top))
    }

    var description: String {
        let p = pixels
        return "\(p.width)x\(p.height)+\(p.x)+\(p.y)"
    }
}

/// Where one photo goes: its box on the canvas and how far it is turned.
struct CellPlacement: Equatable {
    /// The cell's box before rotation (the frame, when the template has one).
    var rect: Rect
    /// Degrees, clockwise.
    var rotation: Double
    /// Drawing order: higher layers go over lower ones.
    var layer: Int = 0
}
