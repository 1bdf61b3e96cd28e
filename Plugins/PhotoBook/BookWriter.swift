import DarkroomCairo
import DarkroomCaptions
import DarkroomCore
import Foundation
import DarkroomModel

/// Writes one book as a PDF, streaming: the cover, then page after page, each page's photos
/// decoded, drawn, written out and released before the next page's are decoded.
///
///     cover: title, dates ─▶ page 1: photos 1...n placed (a photo that fails is reported, the next takes its cell) ─▶ page 2 ...
struct BookWriter {
    let options: PhotoBookOptions
    let preparer: PhotoPreparer

    /// Caption text size in points.
    static let captionSize = 9.0
    static let captionColour = PDFColour(red8: 85, green8: 85, blue8: 85)

    /// What went into a written book.
    struct Written {
        var pages: Int
        var photos: Int
    }

    /// The book's cover title.
    func title(of book: Book) -> String {
        options.title.filled(first: book.firstDate, last: book.lastDate, count: book.photos.count, dateFormat: options.captionFormat)
    }

    /// Writes `book` to `path`; `skipped` hears of each photo left out, with the reason. Throws
    /// when no photo could be placed (a book of only a cover is no book) or the PDF cannot be written.
    func write(_ book: Book, to path: String, skipped: (ItemRecord, String) -> Void) throws -> Written {
        let size = options.page.points
        let document = try PDFDocument(path: path, pageSize: size, title: title(of: book))
        try document.addPage { page in try drawCover(of: book, on: page) }

        let margin = options.margin * PDFSize.pointsPerMillimetre
        let content = PDFRect(x: 0, y: 0, width: size.width, height: size.height).insetBy(margin)
        let cells = options.layout.rects(in: content, gutter: options.gutter * PDFSize.pointsPerMillimetre)
        var waiting = book.photos[...]
        var placed = 0
        while !waiting.isEmpty {
            var photos: [PlacedPhoto] = []
            for cell in cells {
                while let item = waiting.popFirst() {
                    do {
                        photos.append(try preparer.place(item, in: photoBox(in: cell), cell: cell))
                        break
                    } catch {
                        skipped(item, "left out of the photo book: \(error)")
                    }
                }
            }
            guard !photos.isEmpty else { break }
            if case .grid = options.layout {
                photos = RowPacking.packed(photos, in: content, gutter: options.gutter * PDFSize.pointsPerMillimetre,
                                           captionBand: captionBand)
            }
            try document.addPage { page in
                for photo in photos { try draw(photo, on: page) }
            }
            placed += photos.count
        }
        guard placed > 0 else {
            throw StageError("none of the \(book.photos.count) photos of the book could be decoded (each is listed in the report)")
        }
        try document.finish()
        return Written(pages: document.pageCount, photos: placed)
    }

    /// The height kept under each photo for its caption.
    var captionBand: Double { options.captions ? Self.captionSize * 2 : 0 }

    /// The part of a cell the photo may fill: all of it, less a band for the caption.
    func photoBox(in cell: PDFRect) -> PDFRect {
        PDFRect(x: cell.x, y: cell.y, width: cell.width, height: max(1, cell.height - captionBand))
    }

    /// The photo, and its capture date just below it, centred across its cell.
    private func draw(_ photo: PlacedPhoto, on page: PDFPage) throws {
        page.draw(photo.image, in: photo.rect)
        guard options.captions, let date = photo.item.captureDate?.local else { return }
        let text = try TextTemplate("{date}").filled(date: date, first: date, last: date, count: 1, dateFormat: options.captionFormat)
        let style = PDFTextStyle(font: options.font, size: Self.captionSize, colour: Self.captionColour, alignment: .centre)
        try page.draw(text, style: style, in: PDFRect(x: photo.cell.x, y: photo.rect.maxY + Self.captionSize * 0.5,
                                                       width: photo.cell.width, height: Self.captionSize * 1.5))
    }

    /// The cover: the title large, the dates it spans under it, a little above the middle.
    private func drawCover(of book: Book, on page: PDFPage) throws {
        let side = min(page.size.width, page.size.height)
        let margin = options.margin * PDFSize.pointsPerMillimetre
        let width = page.size.width - 2 * margin
        let titleStyle = PDFTextStyle(font: options.font + " Bold", size: (side * 0.07).rounded(), alignment: .centre)
        let datesStyle = PDFTextStyle(font: options.font, size: (side * 0.028).rounded(), colour: Self.captionColour, alignment: .centre)
        let title = title(of: book)
        let dates = try TextTemplate("{dates}").filled(first: book.firstDate, last: book.lastDate, count: book.photos.count,
                                                      dateFormat: options.captionFormat)
        let titleHeight = try page.measure(title, style: titleStyle, width: width).height
        let top = page.size.height * 0.4 - titleHeight / 2
        try page.draw(title, style: titleStyle, in: PDFRect(x: margin, y: top, width: width, height: titleHeight))
        let ruleY = top + titleHeight + datesStyle.size
        page.fill(PDFRect(x: page.size.width / 2 - side * 0.06, y: ruleY, width: side * 0.12, height: 0.75), colour: Self.captionColour)
        try page.draw(dates, style: datesStyle, in: PDFRect(x: margin, y: ruleY + datesStyle.size, width: width, height: datesStyle.size * 2))
    }
}
