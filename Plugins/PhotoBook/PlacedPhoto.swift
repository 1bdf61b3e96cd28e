import DarkroomCairo
import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomModel

/// A photo made ready for its place on a page: decoded once at the size the place needs (at most
/// `dpi` pixels per inch, never more pixels than the photo has), upright, in sRGB, encoded once as
/// a JPEG that the PDF embeds as is.
struct PlacedPhoto {
    let item: ItemRecord
    let image: PDFImage
    /// Where the photo goes on the page, in points: fitted whole inside its box, centred.
    var rect: PDFRect
    /// The cell the photo was fitted to (its caption is centred across it).
    let cell: PDFRect
}

/// Prepares photos for their boxes.
struct PhotoPreparer {
    let dpi: Int
    let quality: Int
    let pixelLimit: Int

    /// The pixel box for `points`: as many pixels as `dpi` allows, at least one.
    func pixels(for points: Double) -> Int { max(1, Int((points / 72 * Double(dpi)).rounded(.down))) }

    /// `item` decoded for `box` (points, the part of `cell` a photo may fill) and placed in it.
    /// Throws `StageError` with the reason when the photo cannot be read or decoded.
    func place(_ item: ItemRecord, in box: PDFRect, cell: PDFRect) throws -> PlacedPhoto {
        let header = try ImageLoader.header(of: item.source, pixelLimit: pixelLimit)
        let size = DecodeSize(width: pixels(for: box.width), height: pixels(for: box.height))
        let image: PDFImage
        do {
            var decoded = try ImageLoader.decode(item.source, header: header, size: size,
                                                 exportProfile: ColourHandling.srgb.exportProfile(for: header))
            decoded = try decoded.eightBitRGB()
            if decoded.hasAlpha { decoded = try decoded.flattened() }
            decoded = try decoded.materialized()  // decoded once: the pixels and the JPEG read this copy
            image = try PDFImage(jpeg: try decoded.jpegData(quality: quality), rgb: try decoded.pixelBytes(),
                                 width: decoded.width, height: decoded.height)
        } catch let error as VipsError {
            throw StageError.image("cannot decode image", error)
        } catch let error as CairoError {
            throw StageError("cannot place image: \(error)")
        }
        // One scale for both sides: at most `dpi` pixels per inch, since the pixels fit the box at `dpi`.
        let scale = min(box.width / Double(image.width), box.height / Double(image.height))
        let (width, height) = (Double(image.width) * scale, Double(image.height) * scale)
        let rect = PDFRect(x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width: width, height: height)
        return PlacedPhoto(item: item, image: image, rect: rect, cell: cell)
    }
}
