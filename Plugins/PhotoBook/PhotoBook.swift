import DarkroomCore
import DarkroomImaging
import Foundation
import DarkroomModel
import DarkroomOptions

/// `photo-book`: the photos of a date range, or of each year or month, as a print-ready PDF book:
/// a cover with a title and the dates, then the photos in capture-date order, 1, 2 or 4 a page (or
/// a layout file's cells), each with its date under it.
///
///     date-ordered photos ─▶ from/to ─▶ books (all, per year, per month) ─▶ PDF: cover, pages ─▶ publish
///
/// Each photo is decoded once at the size its place needs (at most `dpi`, 300 by default, never
/// more pixels than it has), encoded once as JPEG and embedded as that JPEG; pages are written one
/// at a time, so memory stays that of one page however long the book. A photo that does not
/// decode is reported and the next photo takes its place.
public struct PhotoBook: CollectionStage, ShowsBursts {
    /// Starts libvips, FFmpeg and libheif for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws { try ImagingSetup.configure(for: settings) }

    public typealias Options = PhotoBookOptions

    public static let name = "photo-book"
    public static let summary = "Photos of a date range, a year or a month as a print-ready PDF book (A4, Letter or square; cover, date captions)."

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// How the pipeline file says to show bursts.
    public var bursts: BurstChoice { options.bursts }

    public func run(_ all: [ItemRecord], context: CollectionContext) throws {
        let items = context.photosShown(all, bursts: options.bursts)
        let selection = BookSelection(items, options: options)
        for item in selection.undated {
            context.reportSkipped(item, reason: "no capture date: left out of the photo book rather than placed at random", kind: .noCaptureDate)
        }
        guard !selection.books.isEmpty else {
            throw StageError("photo-book: no photos to make a book of (\(selection.emptyExplanation))")
        }
        let writer = BookWriter(options: options, preparer: PhotoPreparer(dpi: options.dpi, quality: options.quality,
                                                                          pixelLimit: context.settings.pixelLimit))
        for book in selection.books where context.makes(book.key) {
            do {
                let path = try options.output.render(PathTemplate.dateValues(book.firstDate))
                try context.publish(path) { temp in
                    let written = try writer.write(book, to: temp.path) { item, reason in context.reportSkipped(item, reason: reason) }
                    context.logger.info("\(context.step): \(path): \(written.pages) pages, \(written.photos) of \(book.photos.count) photos")
                }
            } catch {
                context.reportFailed(book.key, reason: "\(error)", kind: FailureKind.of(error))
            }
        }
    }
}
